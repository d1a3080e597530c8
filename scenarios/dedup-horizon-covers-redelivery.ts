// Seed 003, "The deduplication window must cover retry queues, dead-letter repair, restore,
// partner behavior, and authorized replay", and seed 002, "drop partitions older than the
// maximum possible redelivery window": the same partner as dedup-horizon-7d-vs-30d (1 day = 10
// ticks; it redelivers after 30 days = 300 ticks), but the inbox keeps each event_id for 40 days
// (400 ticks), longer than the partner's redelivery. The verdict teaches that the same inbox
// holds once its horizon is derived from the longest redelivery path: the late repeat finds its
// evidence and is suppressed, in every run, the fault-free one included (an `inboxKey` guard
// note at the redelivery).
import { defineScenario } from '../src/scenario.ts';
import { loyaltyCreditClaim, partnerFeed } from '../models/designs/partnerFeed.ts';

export default defineScenario({
  name: 'dedup-horizon-covers-redelivery',
  title: 'Partner redelivers after 30 days; the inbox remembers 40 days',
  source: '003 · The Retry Must Carry the Same Meaning (identity has a lifetime); 002 · Deduplication tables (the dedupe window)',
  lesson: 'Derive the deduplication horizon from the longest path that can bring a fact back; covered, the late redelivery is one more suppressed duplicate.',
  build: partnerFeed({ redeliverAfterTicks: 300, inboxTtlTicks: 400 }),
  workload: { size: 1 },
  claims: [loyaltyCreditClaim],
  expect: { verdict: 'holds' },
});

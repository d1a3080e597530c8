// Seed 003, "The deduplication window must cover retry queues, dead-letter repair, restore,
// partner behavior, and authorized replay", the repair of dedup-horizon-covers-redelivery's
// two-fault finding. One tick is a tenth of a day (2.4 h). The partner still redelivers after
// 30 days, but the inbox horizon is derived from the longest path that can bring the fact back, not from the
// partner's nominal figure: 30 days, plus the partner's resends (every 2 days until the broker
// acknowledges), plus the broker's redelivery timeout after a lost delivery (3 days), plus the
// delay each tolerated fault can add (4 days each, two of them): about 43 days, kept at 50.
// The verdict teaches that a horizon sized to the longest redelivery path keeps its promise
// under two faults as well as one.
import { defineScenario } from '../src/scenario/scenario.ts';
import { loyaltyCreditClaim, partnerFeed } from '../models/designs/partnerFeed.ts';

export default defineScenario({
  name: 'dedup-horizon-covers-longest-path',
  title: 'Partner redelivers after 30 days; the inbox horizon covers the longest redelivery path (50 days)',
  source: '003 · The Retry Must Carry the Same Meaning (identity has a lifetime); 002 · Deduplication tables (the dedupe window)',
  lesson: 'Size the deduplication horizon to the longest path a fact can take back, retries, redelivery timeouts and delays included, not to the nominal redelivery age.',
  build: partnerFeed({ redeliverAfter: '30d', inboxTtl: '50d' }),
  // One tick is a tenth of a day: the partner's 30 days are 300 ticks.
  tick: '2.4h',
  workload: { size: 1 },
  claims: [loyaltyCreditClaim],
  expect: { verdict: 'holds' },
});

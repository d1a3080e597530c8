// Seed 003, "The deduplication window must cover retry queues, dead-letter repair, restore,
// partner behavior, and authorized replay", and seed 002, "drop partitions older than the
// maximum possible redelivery window": the same partner as dedup-horizon-7d-vs-30d (it
// redelivers after 30 days; one tick is a tenth of a day), but the inbox keeps each event_id for
// 40 days, longer than the partner's redelivery. The verdict teaches that the same inbox holds
// once its horizon is derived from the longest redelivery path: the late repeat finds its
// evidence and is suppressed, in every run, the fault-free one included (an `inboxKey` guard
// note at the redelivery).
//
// Under two faults the 10-day margin is not enough (`expect.pairs`). Found by `windows --pairs`:
// the partner's redelivery at day 30.4 is delayed 4 days (`delay partner->broker:broker.publish`,
// occurrence 2) and the partner, unacknowledged, publishes it twice more meanwhile, so the log
// holds three copies; the broker's delivery of one copy is lost (`lose broker->consumer:
// broker.deliver`, occurrence 2) and it redelivers only after its 3-day redelivery timeout. The
// last copy's inbox check reaches the database at day 42.0, after the inbox row committed at
// day 1.9 expired at day 41.9, and the member is credited twice. The engine and the model are
// not at fault (the delay, the resends and the redelivery timeout are as declared); the design
// is: the horizon was sized against the partner's nominal 30 days, not against the longest path
// that can bring the fact back. dedup-horizon-covers-longest-path is the repair.
import { defineScenario } from '../src/scenario/scenario.ts';
import { loyaltyCreditClaim, partnerFeed } from '../models/designs/partnerFeed.ts';

export default defineScenario({
  name: 'dedup-horizon-covers-redelivery',
  title: 'Partner redelivers after 30 days; the inbox remembers 40 days',
  source: '003 · The Retry Must Carry the Same Meaning (identity has a lifetime); 002 · Deduplication tables (the dedupe window)',
  lesson: 'Derive the deduplication horizon from the longest path that can bring a fact back; covered, the late redelivery is one more suppressed duplicate.',
  build: partnerFeed({ redeliverAfter: '30d', inboxTtl: '40d' }),
  // One tick is a tenth of a day: the partner's 30 days are 300 ticks.
  tick: '2.4h',
  workload: { size: 1 },
  claims: [loyaltyCreditClaim],
  expect: {
    single: { verdict: 'holds' },
    pairs: { verdict: 'violated', violations: ['duplicate effect'] },
    why: 'design: a delayed redelivery, the partner resending it meanwhile and a lost delivery that waits out the broker redelivery timeout bring the fact back at day 42.0, past the 40-day inbox horizon (see the comment above)',
  },
});

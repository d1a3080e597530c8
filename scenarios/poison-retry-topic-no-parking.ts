// Seed 002, "route failed messages to a retry topic with an increasing delay", and seed 004,
// section 5 ("Ordering scope: per book_id"): the stats consumer hands a record that fails (a
// transient failure: its first four attempts, some 15 s of a downstream outage on the seed
// schedule) to a retry topic and moves on, but does not park the book's key. The verdict teaches
// that a retry topic without parking trades the stall for disorder: the book's next version
// overtakes the retrying one, and when the retry succeeds the statistics move back to the older
// version.
import { defineScenario } from '../src/scenario/scenario.ts';
import { bookOrderClaim, otherBooksTimelyClaim, poisonPipeline, POISON_TICK, recordAccountedClaim } from '../models/designs/poisonPipeline.ts';

export default defineScenario({
  name: 'poison-retry-topic-no-parking',
  title: 'Failed record moved to a retry topic; later records of its key overtake it',
  source: '002 · Poison messages, retries, and dead letter queues (retry topics); 004 · 5. Ordering, retries and dead letters (ordering scope)',
  lesson: "A retry topic keeps the partition moving only by letting a key's later records overtake its retrying one; without key parking, per-key order is lost.",
  tick: POISON_TICK,
  build: poisonPipeline({ retry: 'retryTopic', parkKeys: false, deadLetter: true, bad: 'transient' }),
  workload: { size: 2 },
  claims: [bookOrderClaim, recordAccountedClaim, otherBooksTimelyClaim('2m', POISON_TICK)],
  expect: { verdict: 'violated', violations: ['order regression'] },
});

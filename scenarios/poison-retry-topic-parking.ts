// Seed 004, section 5, "Ordering versus retry: Retrying event moves to a retry topic; later
// events for the same key wait behind it (key is parked)": the repaired counterpart of the
// no-parking scenario. The failing record (a transient failure of four attempts) goes to the
// retry topic with its key parked in the stats database; the main consumer sends every later
// record of a parked book after it, and the retry consumer applies a parked book's records in
// their original order and releases the key when the last is done. The verdict teaches that
// parking keeps per-key order and lets every other book flow at full speed.
import { defineScenario } from '../src/scenario/scenario.ts';
import { bookOrderClaim, otherBooksTimelyClaim, poisonPipeline, POISON_TICK, recordAccountedClaim } from '../models/designs/poisonPipeline.ts';

export default defineScenario({
  name: 'poison-retry-topic-parking',
  title: 'Failed record moved to a retry topic with its key parked',
  source: '004 · 5. Ordering, retries and dead letters (ordering versus retry: key is parked)',
  lesson:
    'Parking the key keeps order where it is promised (per book) and stalls only that key: the other books are applied on time while the bad one retries.',
  tick: POISON_TICK,
  build: poisonPipeline({ retry: 'retryTopic', parkKeys: true, deadLetter: true, bad: 'transient' }),
  workload: { size: 2 },
  claims: [bookOrderClaim, recordAccountedClaim, otherBooksTimelyClaim('2m', POISON_TICK)],
  expect: { verdict: 'holds' },
});

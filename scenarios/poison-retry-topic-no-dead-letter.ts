// Seed 004, section 5 ("Poison message: after the last retry, move to a dead-letter topic") and
// seed 002 ("Permanent — … Retrying a permanent failure a thousand times is a self-inflicted
// denial of service"): the parked retry topic of the repaired design, without a dead-letter
// topic, so the poison record circles through the retry topic at the last wait for ever. The
// verdict teaches that parking without an end makes the bad key's later versions wait for good
// and the system never settles, although the other books are unaffected.
import { defineScenario } from '../src/scenario/scenario.ts';
import { bookOrderClaim, otherBooksTimelyClaim, poisonPipeline, POISON_TICK, recordAccountedClaim } from '../models/designs/poisonPipeline.ts';

export default defineScenario({
  name: 'poison-retry-topic-no-dead-letter',
  title: 'Poison record through a parked retry topic with no dead-letter topic',
  source: '004 · 5. Ordering, retries and dead letters (poison message); 002 · Poison messages, retries, and dead letter queues',
  lesson:
    'Parking needs an exit: without a dead-letter topic a permanent failure parks its key for ever, and its later records are never applied.',
  tick: POISON_TICK,
  build: poisonPipeline({ retry: 'retryTopic', parkKeys: true, deadLetter: false, bad: 'poison' }),
  workload: { size: 2 },
  claims: [bookOrderClaim, recordAccountedClaim, otherBooksTimelyClaim('2m', POISON_TICK)],
  expect: { verdict: 'violated', violations: ['lost effect', 'stuck'] },
});

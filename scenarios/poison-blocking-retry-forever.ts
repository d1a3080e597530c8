// Seed 002, "Poison messages, retries, and dead letter queues" ("Retry with exponential backoff
// and jitter, but do not sleep inside the consumer. Blocking a handler stalls the entire
// partition and turns one bad message into a topic-wide outage"; "Retrying a permanent failure
// a thousand times is a self-inflicted denial of service"): the stats consumer retries a poison
// record inside its handler on seed 004's backoff schedule and, with no dead-letter topic, keeps
// retrying at the last wait. The verdict teaches that one permanent failure holds every later
// record of the partition, of every book, for ever: the run never becomes quiet, and neither the
// bad book's later versions nor the other book's are ever applied.
import { defineScenario } from '../src/scenario/scenario.ts';
import { bookOrderClaim, otherBooksTimelyClaim, poisonPipeline, POISON_TICK, recordAccountedClaim } from '../models/designs/poisonPipeline.ts';

export default defineScenario({
  name: 'poison-blocking-retry-forever',
  title: 'Poison record retried for ever inside the handler',
  source: '002 · Poison messages, retries, and dead letter queues; 004 · 5. Ordering, retries and dead letters',
  lesson:
    'A permanent failure retried in place is an outage of the partition, not of the record: without a dead-letter topic nothing behind it ever moves.',
  tick: POISON_TICK,
  build: poisonPipeline({ retry: 'blocking', deadLetter: false, bad: 'poison' }),
  workload: { size: 2 },
  claims: [bookOrderClaim, recordAccountedClaim, otherBooksTimelyClaim('2m', POISON_TICK)],
  expect: { verdict: 'violated', violations: ['lost effect', 'stuck'] },
});

// Seed 004, section 5 ("Poison message: after the last retry, move to a dead-letter topic with
// error, attempt count and original offset"; "Dead-letter handling: alert on any message; owning
// team triages") and seed 002 ("A dead letter queue is not a graveyard. It needs a named owning
// team"): a poison record goes through the retry topic with its key parked, fails every attempt
// of the seed schedule, and is dead-lettered with its error, attempt count, original offset and
// owning team; the parked key is then released. The verdict teaches that every record ends
// applied or accounted for by an owner, the bad book's later versions follow in order, and the
// other books never wait for it.
import { defineScenario } from '../src/scenario/scenario.ts';
import { bookOrderClaim, otherBooksTimelyClaim, poisonPipeline, POISON_TICK, recordAccountedClaim } from '../models/designs/poisonPipeline.ts';

export default defineScenario({
  name: 'poison-retry-topic-parking-dead-letter',
  title: 'Poison record through a parked retry topic to a dead-letter topic with an owner',
  source: '004 · 5. Ordering, retries and dead letters (poison message, dead-letter handling); 002 · Poison messages, retries, and dead letter queues',
  lesson:
    'Retry topic, key parking and an owned dead-letter topic together bound the damage of a poison record to its own key and make it visible to a named team.',
  tick: POISON_TICK,
  build: poisonPipeline({ retry: 'retryTopic', parkKeys: true, deadLetter: true, bad: 'poison' }),
  workload: { size: 2 },
  claims: [bookOrderClaim, recordAccountedClaim, otherBooksTimelyClaim('2m', POISON_TICK)],
  expect: { verdict: 'holds' },
});

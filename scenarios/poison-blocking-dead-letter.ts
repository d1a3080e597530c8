// Seed 004, section 5 ("Retry policy: exponential backoff 1, 2, 4, 8, 16, 32 s then 60 s cap;
// first attempt plus 8 retries, 183 s of waiting in total"; "Poison message: after the last
// retry, move to a dead-letter topic with error, attempt count and original offset") and seed
// 002 ("Blocking a handler stalls the entire partition"): the stats consumer retries the poison
// record inside its handler on that schedule, then dead-letters it and moves on. The verdict
// teaches that a dead-letter topic bounds the stall but does not remove it: every record of the
// other book waits the full 183 s behind the bad one, past the two-minute bound the design
// promises, though nothing is lost and no book moves backwards.
import { defineScenario } from '../src/scenario/scenario.ts';
import { bookOrderClaim, otherBooksTimelyClaim, poisonPipeline, POISON_TICK, recordAccountedClaim } from '../models/designs/poisonPipeline.ts';

export default defineScenario({
  name: 'poison-blocking-dead-letter',
  title: 'Poison record retried inside the handler on the seed schedule, then dead-lettered',
  source: '004 · 5. Ordering, retries and dead letters (retry policy, poison message); 002 · Poison messages, retries, and dead letter queues',
  lesson:
    'A dead-letter topic makes a blocking retry finite, not harmless: every other key on the partition waits out the whole backoff schedule behind one bad record.',
  tick: POISON_TICK,
  build: poisonPipeline({ retry: 'blocking', deadLetter: true, bad: 'poison' }),
  workload: { size: 2 },
  claims: [bookOrderClaim, recordAccountedClaim, otherBooksTimelyClaim('2m', POISON_TICK)],
  expect: { verdict: 'violated', violations: ['lost effect'] },
});

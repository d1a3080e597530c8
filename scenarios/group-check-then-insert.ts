// Seed 000, "Consumers assume duplicates and enforce one intended effect at their own authority
// boundary", and seed 002, "Testing for the failures you cannot reproduce" ("Duplication and
// reordering bugs rarely appear in development because they require timing"): two consumers
// share the topic, and the handler reads whether the reservation exists, then inserts it in a
// second statement; the reservation table has a surrogate id and no unique key on the
// reservation. The verdict teaches that check-then-insert survives every sequential repeat
// (a redelivery after a crash reads "present") and fails only when two members hold one record
// at once: both read "absent", both insert. Only the rebalance fault makes that happen here.
import { defineScenario } from '../src/scenario/scenario.ts';
import { groupPipeline, groupReservationClaim } from '../models/designs/groupPipeline.ts';

export default defineScenario({
  name: 'group-check-then-insert',
  title: 'Two consumers, check-then-insert handler, no unique key on the reservation',
  source: '000 · Consumers assume duplicates; 002 · Testing for the failures you cannot reproduce',
  lesson:
    'A lookup followed by an insert is not a guard against concurrent repeats: two members handling one record after a rebalance both see nothing and both insert. Only a constraint at the authority is atomic.',
  build: groupPipeline({ consumers: 2, inbox: 'none', handler: 'checkThenInsert', effectKey: 'none' }),
  workload: { size: 3 },
  claims: [groupReservationClaim],
  expect: { verdict: 'violated', violations: ['duplicate effect'] },
});

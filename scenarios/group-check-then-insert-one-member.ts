// Seed 000, "Consumers assume duplicates" and seed 002, "Duplicates are guaranteed, not
// exceptional": the check-then-insert handler of the two-member scenario, run by a group of one.
// Every repeat this consumer meets comes after its first attempt has either committed or rolled
// back (a redelivery after a crash or a timeout, a republished record), so the lookup answers
// correctly. The verdict teaches what the two-member counterpart needs to fail: concurrency,
// which only a second member (and a rebalance) brings.
import { defineScenario } from '../src/scenario/scenario.ts';
import { groupPipeline, groupReservationClaim } from '../models/designs/groupPipeline.ts';

export default defineScenario({
  name: 'group-check-then-insert-one-member',
  title: 'One consumer, check-then-insert handler, no unique key on the reservation',
  source: '000 · Consumers assume duplicates; 002 · Testing for the failures you cannot reproduce',
  lesson:
    'Check-then-insert holds while repeats are sequential; the same code breaks the day the group gets a second member, which is why it passes every single-process test.',
  build: groupPipeline({ consumers: 1, inbox: 'none', handler: 'checkThenInsert', effectKey: 'none' }),
  workload: { size: 3 },
  claims: [groupReservationClaim],
  expect: { verdict: 'holds' },
});

// Seed 002, "Deduplication tables … The unique constraint does the hard work", and seed 000,
// "enforce one intended effect at their own authority boundary": the repaired counterpart of the
// check-then-insert scenario. Two consumers share the topic, there is no inbox, and the
// reservation is one insert into a table keyed by (order_id, reservation_version). The verdict
// teaches that when a rebalance gives one record to two members, the database refuses the
// second insert: it waits for the first member's transaction and then finds the key taken. The
// key is the guard, in one statement.
import { defineScenario } from '../src/scenario/scenario.ts';
import { groupPipeline, groupReservationClaim } from '../models/designs/groupPipeline.ts';

export default defineScenario({
  name: 'group-atomic-insert-unique-key',
  title: 'Two consumers, one atomic insert under a unique reservation key',
  source: '002 · Deduplication tables; 000 · Consumers assume duplicates',
  lesson: 'An insert that the authority refuses on a unique key is atomic where check-then-insert is not: concurrent members cannot both win.',
  build: groupPipeline({ consumers: 2, inbox: 'none', handler: 'atomic', effectKey: 'semantic' }),
  workload: { size: 3 },
  claims: [groupReservationClaim],
  expect: { verdict: 'holds' },
});

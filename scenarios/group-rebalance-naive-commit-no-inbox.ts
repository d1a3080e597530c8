// Seed 002, "Ordering, partitioning, and the hot-partition tax" ("Rebalance pauses. When a
// consumer leaves, partitions move … always commit offsets after processing completes") and
// "Testing for the failures you cannot reproduce" ("Mocks do not model consumer group
// rebalancing, and rebalancing is where the bugs live"): two inventory consumers share a
// two-partition topic; the broker keeps no group generations, so a previous owner's late commit
// is accepted; there is no inbox and the reservation table has only a surrogate id. The verdict
// teaches that a partition moved while a record is in flight (the old owner still working when
// the coordinator gives its partition away) hands the record to a second member from the
// committed offset, and both reserve.
import { defineScenario } from '../src/scenario/scenario.ts';
import { groupPipeline, groupReservationClaim } from '../models/designs/groupPipeline.ts';

export default defineScenario({
  name: 'group-rebalance-naive-commit-no-inbox',
  title: 'Two consumers, a partition rebalanced mid-record, naive commits, no inbox',
  source: '002 · Ordering, partitioning, and the hot-partition tax (rebalance); Testing for the failures you cannot reproduce',
  lesson:
    'A rebalance is a redelivery to another process: the new owner starts from the committed offset while the old one is still applying the record, so without an idempotent effect the reservation is made twice.',
  build: groupPipeline({ consumers: 2, commits: 'naive', inbox: 'none', effectKey: 'none' }),
  workload: { size: 3 },
  claims: [groupReservationClaim],
  expect: { verdict: 'violated', violations: ['duplicate effect'] },
});

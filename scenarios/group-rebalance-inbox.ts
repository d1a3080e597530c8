// Seed 002, "Pattern 2: idempotent consumers" ("Record the fact that a message was processed, in
// the same transaction as the side effect. The unique constraint does the hard work") and
// "Testing for the failures you cannot reproduce" (rebalancing): the repaired counterpart of the
// rebalance scenarios. Two consumers share the topic under one inbox namespace, and each commits
// the inbox row with the reservation. The verdict teaches that when a rebalance hands a record
// to a second member while the first is still applying it, the members race on the inbox key:
// the second member's inbox insert waits for the first member's open transaction, finds the key
// once that commits, and rolls its own transaction back, so the reservation is made once.
import { defineScenario } from '../src/scenario/scenario.ts';
import { groupPipeline, groupReservationClaim } from '../models/designs/groupPipeline.ts';

export default defineScenario({
  name: 'group-rebalance-inbox',
  title: 'Two consumers, a partition rebalanced mid-record, inbox in the reservation transaction',
  source: '002 · Pattern 2: idempotent consumers (deduplication tables); Testing for the failures you cannot reproduce',
  lesson:
    'An inbox shared by the group and committed with the effect turns two members applying one record into one commit and one rollback, whatever the broker does with the offset.',
  build: groupPipeline({ consumers: 2, commits: 'fenced', inbox: 'sameTx', effectKey: 'none' }),
  workload: { size: 3 },
  claims: [groupReservationClaim],
  expect: { verdict: 'holds' },
});

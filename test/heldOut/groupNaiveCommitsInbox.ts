// A consumer group of three members over two partitions (one member idle, a spare), on a broker
// that keeps no group generations (`commits: 'naive'`: a previous owner's late offset commit is
// accepted and may move the offset backwards), the reservation written with a surrogate id, and
// the consumed event_id kept in an inbox in the reservation's transaction.
//
// Reasoned verdict, before running: holds.
// - A rebalance while a record is on its way gives it to two members; both insert its inbox row
//   in their own transactions, the second waits on the first's row lock and then inserts nothing,
//   so one reservation. No reservation key is needed behind the inbox.
// - The old owner's late commit is accepted: if it moves the offset backwards the new owner is
//   redelivered records it already did, and the inbox suppresses each. A late commit can never
//   move the offset past a record nobody processed (it carries the offset after the record the
//   old owner finished), so nothing is lost.
// - A member's crash hands its partitions to the live members (the spare among them), which
//   take them up from the committed offset: repeats again, suppressed again.
import { defineScenario } from 'faultline';
import { groupPipeline, groupReservationClaim } from 'faultline/models/designs/groupPipeline.ts';

export default defineScenario({
  name: 'heldout-group-naive-commits-inbox',
  title: 'Three members, two partitions, naive offset commits, inbox in the reservation transaction',
  source: '002 · Rebalance pauses (commit offsets after processing completes); Deduplication tables',
  lesson: 'With the inbox in the effect transaction, a broker that accepts stale commits costs redeliveries, not duplicates.',
  build: groupPipeline({ consumers: 3, partitions: 2, commits: 'naive', inbox: 'sameTx', effectKey: 'none' }),
  workload: { size: 3 },
  claims: [groupReservationClaim],
  expect: { verdict: 'holds' },
});

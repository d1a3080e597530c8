// Seed 002, "Ordering, partitioning, and the hot-partition tax" (rebalance), and seed 004,
// section 6, "Exactly-once: limits" ("Broker to consumer database, offset stored in the broker:
// No, at-least-once"): the same two-member group as the naive scenario, but the broker fences
// commits by generation, as Kafka's group coordinator does, so the old owner's late commit is
// refused and the group's offset never moves backwards. The verdict teaches that fencing the
// commit does not fence the effect: the old owner's reservation is already in the inventory
// database when its commit is refused, and the new owner reserves again.
import { defineScenario } from '../src/scenario/scenario.ts';
import { groupPipeline, groupReservationClaim } from '../models/designs/groupPipeline.ts';

export default defineScenario({
  name: 'group-rebalance-fenced-commit-no-inbox',
  title: 'Two consumers, a partition rebalanced mid-record, commits fenced by generation, no inbox',
  source: '002 · Ordering, partitioning, and the hot-partition tax (rebalance); 004 · 6. Exactly-once: limits',
  lesson:
    'A generation fence protects the offset, not the effect: the refused commit arrives after the reservation committed, so only an idempotent effect (an inbox or a unique key) makes the rebalance harmless.',
  build: groupPipeline({ consumers: 2, commits: 'fenced', inbox: 'none', effectKey: 'none' }),
  workload: { size: 3 },
  claims: [groupReservationClaim],
  expect: { verdict: 'violated', violations: ['duplicate effect'] },
});

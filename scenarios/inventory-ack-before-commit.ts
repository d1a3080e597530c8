// Seed 000, "If it acknowledges before commit, the effect can be lost" and seed 002, "always
// commit offsets after processing completes — never before": the inventory consumer moves its
// offset before the reservation commits. The verdict teaches that at-most-once transport loses
// the effect when the consumer dies between the ack and the commit.
import { defineScenario } from '../src/scenario/scenario.ts';
import { orderPipeline, reservationClaim } from '../models/designs/orderPipeline.ts';

export default defineScenario({
  name: 'inventory-ack-before-commit',
  title: 'Inventory consumer acknowledges before its effect commits',
  source: '000 · Put consumed identity and the durable effect in one transaction; 002 · Ordering, partitioning (commit offsets after processing)',
  lesson: 'Transport progress must follow the effect; acknowledging first turns a crash into a silently lost reservation.',
  build: orderPipeline({ design: 'outbox', consumer: { inbox: 'sameTx', ack: 'beforeCommit' } }),
  workload: { size: 2 },
  claims: [reservationClaim],
  expect: { verdict: 'violated', violations: ['lost effect'] },
});

// Seed 000, "If inbox and reservation live in different databases, the dual-write problem
// returns" and seed 002, "If they are separate, you have recreated the dual-write problem with
// extra steps": the inbox row commits on its own, then the reservation. The verdict teaches
// that a crash between the two leaves proof of processing without the effect, and every
// redelivery is then skipped as a duplicate.
import { defineScenario } from '../src/scenario/scenario.ts';
import { orderPipeline, reservationClaim } from '../models/designs/orderPipeline.ts';

export default defineScenario({
  name: 'inventory-inbox-separate-tx',
  title: 'Inventory consumer with inbox and effect in separate transactions',
  source: '000 · Put consumed identity and the durable effect in one transaction; 002 · Deduplication tables',
  lesson: 'The dedup record and the effect must commit together; apart, the inbox suppresses the very redelivery that would repair the loss.',
  build: orderPipeline({ design: 'outbox', consumer: { inbox: 'separateTx' } }),
  workload: { size: 2 },
  claims: [reservationClaim],
  expect: { verdict: 'violated', violations: ['lost effect'] },
});

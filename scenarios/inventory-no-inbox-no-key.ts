// Seed 000, "Consumers assume duplicates and enforce one intended effect at their own authority
// boundary" and seed 002, "Duplicates are guaranteed, not exceptional": the inventory consumer
// has no inbox and its reservations table has only a surrogate id, so nothing at the authority
// recognises a repeat. The verdict teaches that an at-least-once relay and broker turn every
// crash after the effect commit (and every republish) into a second reservation.
import { defineScenario } from '../src/scenario/scenario.ts';
import { orderPipeline, reservationClaim } from '../models/designs/orderPipeline.ts';

export default defineScenario({
  name: 'inventory-no-inbox-no-key',
  title: 'Inventory consumer without an inbox, reservation keyed by a surrogate id',
  source: '000 · Consumers assume duplicates; 002 · Pattern 2: idempotent consumers',
  lesson: 'With neither consumed identity nor a business key at the authority, at-least-once transport becomes a duplicate reservation.',
  build: orderPipeline({ design: 'outbox', consumer: { inbox: 'none' }, effectKey: 'none' }),
  workload: { size: 2 },
  claims: [reservationClaim],
  expect: { verdict: 'violated', violations: ['duplicate effect'] },
});

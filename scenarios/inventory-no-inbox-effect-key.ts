// Seed 000, "The reservation constraint enforces the semantic outcome even if two distinct
// events request the same version" and "An event ID is transport history; an effect key is
// business meaning": the inventory consumer keeps no inbox at all, but the reservations table is
// keyed by (order_id, reservation_version) and the reservation is written with `on conflict do
// nothing`. The verdict teaches that the effect key alone holds the claim for this effect: the
// relay may publish twice and the consumer may execute twice (the window table shows the repeats
// and the `effectKey` guard that absorbed them), yet one reservation commits per key.
import { defineScenario } from '../src/scenario/scenario.ts';
import { orderPipeline, reservationClaim } from '../models/designs/orderPipeline.ts';

export default defineScenario({
  name: 'inventory-no-inbox-effect-key',
  title: 'Inventory consumer without an inbox, reservation keyed by (order_id, reservation_version)',
  source: '000 · Put consumed identity and the durable effect in one transaction (the reservation constraint); 002 · Natural idempotency',
  lesson: 'The business key enforces the outcome by itself: duplicate deliveries still arrive and still execute, and the unique constraint turns each into a no-op.',
  build: orderPipeline({ design: 'outbox', consumer: { inbox: 'none' }, effectKey: 'semantic' }),
  workload: { size: 2 },
  claims: [reservationClaim],
  expect: { verdict: 'holds' },
});

// Seed 000, "The reservation constraint enforces the semantic outcome even if two distinct
// events request the same version": the same acceptance and re-acceptance of order o-1 as
// inventory-two-events-inbox-only, both requesting reservation version 1, now with the inbox and
// the reservations table keyed by (order_id, reservation_version). The verdict teaches that the
// effect key holds where the inbox alone would not: the second event passes the inbox, as it
// should, and the business key turns it into the stored reservation.
import { defineScenario } from '../src/scenario/scenario.ts';
import { acceptTwice, orderPipeline, requestedReservationClaim } from '../models/designs/orderPipeline.ts';

export default defineScenario({
  name: 'inventory-two-events-effect-key',
  title: 'Two distinct events request one reservation; inbox and effect key',
  source: '000 · Put consumed identity and the durable effect in one transaction (two distinct events, same version)',
  lesson: 'The effect key holds where the inbox alone would not: the inbox answers "have I seen this event?", the key answers "does this reservation exist?".',
  build: orderPipeline({ design: 'outbox', consumer: { inbox: 'sameTx' }, effectKey: 'semantic', commands: acceptTwice }),
  workload: { size: 1 },
  claims: [requestedReservationClaim],
  expect: { verdict: 'holds' },
});

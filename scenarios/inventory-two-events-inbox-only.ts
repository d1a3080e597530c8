// Seed 000, "The inbox constraint suppresses the same event. The reservation constraint enforces
// the semantic outcome even if two distinct events request the same version. These identities
// answer different questions": order o-1 is accepted (v1) and accepted again (v2, a
// re-acceptance), and both facts request reservation version 1. The consumer keeps an inbox in
// the reservation's transaction, but the reservations table has only a surrogate id. The two
// facts carry two distinct event_ids, so the inbox (transport history) lets both through and the
// second becomes a second reservation, without any fault at all.
import { defineScenario } from '../src/scenario/scenario.ts';
import { acceptTwice, orderPipeline, requestedReservationClaim } from '../models/designs/orderPipeline.ts';

export default defineScenario({
  name: 'inventory-two-events-inbox-only',
  title: 'Two distinct events request one reservation; inbox only, no effect key',
  source: '000 · Put consumed identity and the durable effect in one transaction (two distinct events, same version)',
  lesson: 'An event ID is transport history, not business meaning: the inbox suppresses repeats of one event and cannot see that a second event asks for the same reservation.',
  build: orderPipeline({ design: 'outbox', consumer: { inbox: 'sameTx' }, effectKey: 'none', commands: acceptTwice }),
  workload: { size: 1 },
  claims: [requestedReservationClaim],
  expect: { verdict: 'violated', violations: ['duplicate effect'] },
});

// Seed 000, "External side effects expose the edge of the transaction", and seed 003's drill,
// "Interrupt it immediately before the call": the design of shipment-row-then-carrier (a shipment
// row committed, then the carrier called under an intent-bound key with a lookup), but the service
// guards the call with the row itself, the common "insert … on conflict do nothing, and call only
// if the insert did something": a redelivery that finds the row already there skips the call.
//
// Analysis. A crash of the service between its row's commit and its call breaks the claim: at
// `shipping.afterRowCommit` (occurrence 1: o-1's row committed, the call not sent), and likewise
// at `shipping.committingRow` (the commit made, its answer not yet in), at
// `shipping.beforeExternalCall`, or a lost `shippingDb->shipping:db.ran` answer to the row's
// transaction. The broker redelivers o-1, the service's insert finds the row, and it acknowledges
// without calling (guard `rowExists`): o-1's committed shipment never gets a pickup (`lost
// effect`). A crash once the call is sent (`shipping.awaitingExternalResponse`,
// `shipping.afterExternalResponse`) lets the carrier book the pickup, but the redelivery skips the
// row, which stays REQUESTED for ever (`unresolved unknown outcome`). Crashes and lost answers on
// the carrier's side hold: the service itself is still there to ask by key. The engine and the
// model are not at fault; the design is: the row is committed before the call, so its existence
// proves only that the call was owed.
import { defineScenario } from '../src/scenario/scenario.ts';
import { shipmentBookingClaim, shipmentPipeline } from '../models/designs/shipments.ts';

export default defineScenario({
  name: 'shipment-row-then-carrier-skips-existing',
  title: 'A shipment row committed, then the carrier called; a found row taken as proof of the call',
  source: '000 · External side effects expose the edge of the transaction; 003 · Break the workflow on purpose (interrupt immediately before the call)',
  lesson: 'Guarding an external call with the row committed before it loses the call a crash interrupts: the row proves the effect was owed, not made.',
  build: shipmentPipeline(
    { sendKey: true, statusLookup: true, existingRow: 'skip' },
    { idempotency: 'intentBound', statusLookup: 'byKey', keyRetention: '24h' },
  ),
  workload: { size: 2 },
  claims: [
    shipmentBookingClaim({
      authority: "the carrier's idempotency key, bound to the pickup request and kept 24 hours,",
      unknownCompletion: 'nothing: a row found already there is taken as a call made',
    }),
  ],
  expect: { verdict: 'violated', violations: ['lost effect', 'unresolved unknown outcome'] },
});

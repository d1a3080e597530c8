// Seed 000, "External side effects expose the edge of the transaction": "The processor can
// atomically mark its local state CALL_REQUIRED; it cannot atomically commit the carrier's database
// in the same local transaction." The shipping service commits its shipment row (REQUESTED) in a
// transaction of its own, then books the pickup through the carrier's API under the key
// (order_id, pickup_version), which the carrier binds to the request and keeps for 24 hours; on a
// timeout it asks by key before calling again. A redelivery that finds the row already there and
// not SUCCEEDED resumes it: it asks the carrier first, then calls under the same key.
//
// Analysis. Every single fault holds (seed 003's four interruptions around an external call among
// them). A crash at `shipping.afterRowCommit` leaves the row committed and the call unsent; the
// redelivery finds the row REQUESTED, asks the carrier (nothing under the key), calls and books.
// A crash at `provider.afterExternalEffect`, or a lost response, leaves the carrier booked and the
// row REQUESTED; the lookup by key finds the booking and the row records it, so nothing is booked
// twice. shipment-row-then-carrier-skips-existing shows the same service trusting the row instead.
import { defineScenario } from '../src/scenario/scenario.ts';
import { shipmentBookingClaim, shipmentPipeline } from '../models/designs/shipments.ts';

export default defineScenario({
  name: 'shipment-row-then-carrier',
  title: 'A shipment row committed, then the carrier called under a key, a found row resumed',
  source: '000 · External side effects expose the edge of the transaction (the processor marks CALL_REQUIRED, then calls)',
  lesson: 'A committed row says the effect is owed, not that it happened: resuming a row found unfinished, with a key and a lookup, books each shipment once.',
  build: shipmentPipeline(
    { sendKey: true, statusLookup: true, existingRow: 'resume' },
    { idempotency: 'intentBound', statusLookup: 'byKey', keyRetention: '24h' },
  ),
  workload: { size: 2 },
  claims: [
    shipmentBookingClaim({
      authority: "the carrier's idempotency key, bound to the pickup request and kept 24 hours,",
      unknownCompletion: 'a status lookup by key before any call for a row found unfinished',
    }),
  ],
  expect: { verdict: 'holds' },
});

// Seed 000, "The strongest practical path": a stable effect key (order_id, pickup_version), the
// local intent stored first, a carrier API that binds the key to its canonical intent, the
// carrier's operation id persisted, and a status lookup by key before any retry. The verdict
// teaches that with the provider's cooperation the pickup stays unique at every window,
// including the ambiguous ones where the carrier booked and the answer was lost.
//
// Fulfilment's database and the broker's group offsets are restorable to the snapshot taken
// before the workload (seed 003: "Restore an old snapshot and replay the input"). Analysis. Every
// restore holds, alone or as a pair (`windows --pairs`, 13,367 runs). The offsets alone replay
// every request, and fulfilment finds its recorded outcome and books nothing (the `localOutcome`
// guard). The database alone forgets the outcomes, but fulfilment commits an offset only after
// the outcome it answers, so every request it forgot is past its offset and needs nothing more;
// a request still in hand is finished by the key and the lookup as before. Both at one moment
// replay every request with no records: fulfilment calls the carrier again under each key and the
// carrier returns the booked pickup (the `providerKey` guard, status `replayed`). The authority
// that keeps the pickup unique is the carrier's key, which no restore of fulfilment touches and
// which the carrier keeps for the order's lifetime; payment-capture-restored-snapshot shows what
// a consumer that hands unsettled work to a reconciler loses under the same restore.
import { defineScenario } from '../src/scenario/scenario.ts';
import { carrierPipeline, uniquePickupClaim } from '../models/designs/carrier.ts';
import { unresolvedOutcomes } from '../models/designs/providerPipeline.ts';

export default defineScenario({
  name: 'carrier-key-and-lookup',
  title: 'Carrier pickup with an intent-bound idempotency key and status lookup',
  source: '000 · External side effects expose the edge of the transaction (the strongest practical path, steps 1–6)',
  lesson:
    'A key the carrier binds to one intent plus a lookup before every retry turns an ambiguous timeout back into a known outcome: one pickup per (order_id, pickup_version) at every window.',
  build: carrierPipeline({ sendKey: true, statusLookup: true, recordIntent: true }, { idempotency: 'intentBound', statusLookup: 'byKey' }, ['callerDb', 'broker']),
  workload: { size: 2 },
  claims: [
    {
      ...uniquePickupClaim({
        authority: "the carrier's idempotency key, bound to the canonical pickup intent,",
        unknownCompletion: 'a status lookup by key before any retry',
      }),
      unresolved: unresolvedOutcomes(),
    },
  ],
  expect: { verdict: 'holds' },
});

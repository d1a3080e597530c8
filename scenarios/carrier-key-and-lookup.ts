// Seed 000, "The strongest practical path": a stable effect key (order_id, pickup_version), the
// local intent stored first, a carrier API that binds the key to its canonical intent, the
// carrier's operation id persisted, and a status lookup by key before any retry. The verdict
// teaches that with the provider's cooperation the pickup stays unique at every window,
// including the ambiguous ones where the carrier booked and the answer was lost.
import { defineScenario } from '../src/scenario.ts';
import { carrierPipeline, uniquePickupClaim } from '../models/designs/carrier.ts';
import { unresolvedOutcomes } from '../models/designs/providerPipeline.ts';

export default defineScenario({
  name: 'carrier-key-and-lookup',
  title: 'Carrier pickup with an intent-bound idempotency key and status lookup',
  source: '000 · External side effects expose the edge of the transaction (the strongest practical path, steps 1–6)',
  lesson:
    'A key the carrier binds to one intent plus a lookup before every retry turns an ambiguous timeout back into a known outcome: one pickup per (order_id, pickup_version) at every window.',
  build: carrierPipeline({ sendKey: true, statusLookup: true, recordIntent: true }, { idempotency: 'intentBound', statusLookup: 'byKey' }),
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

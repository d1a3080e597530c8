// Seed 000, "External side effects expose the edge of the transaction" (step 6: "reconcile
// pending/unknown states until terminal"), with seed 002's "Retry with exponential backoff": the
// design of carrier-retry-outlasts-outage (an intent-bound key, a lookup before each retry, retries
// with backoff for up to two days), but a crash of the carrier keeps its API down for three days,
// longer than the retry deadline, and nobody reconciles what fulfilment gives up on.
//
// Analysis. A crash of the carrier at `provider.serving` (occurrence 1, at its start) breaks both
// clauses of the claim. Fulfilment retries o-1 on its schedule, every call and lookup unanswered;
// after its fifteenth retry (1 d 20 h 31 m of waiting, t = 2 d 2 h 5 m with the timeouts) the next
// would pass the deadline, so it records o-1's outcome UNKNOWN and commits its offset. The carrier
// comes back at 3 d and nobody calls it for o-1 again: that pickup is lost (`lost effect`) and its
// outcome stays UNKNOWN (`unresolved unknown outcome`); o-2, taken up only after o-1 was given up
// on, is still retrying when the carrier returns and is booked. A crash at
// `provider.afterExternalEffect` books o-1's pickup and then keeps the carrier down as long: that
// pickup exists, but fulfilment's record of it stays UNKNOWN. The engine and the model are not
// at fault; the design is: a retry deadline shorter than the longest outage needs an owner for
// what it gives up on (a reconciler, as payment-capture-intent-key has), or a longer deadline.
import { defineScenario } from '../src/scenario/scenario.ts';
import { uniquePickupClaim } from '../models/designs/carrier.ts';
import { providerPipeline, unresolvedOutcomes } from '../models/designs/providerPipeline.ts';
import { carrierWithBackoff } from './carrier-retry-outlasts-outage.ts';

export default defineScenario({
  name: 'carrier-retry-deadline-before-outage-ends',
  title: 'Carrier pickup retried with backoff for two days through a three-day carrier outage',
  source: '000 · External side effects expose the edge of the transaction (reconcile pending/unknown states); 002 · Retry with exponential backoff',
  lesson: 'A retry deadline is a promise about the longest outage: when the carrier stays down longer, the caller gives up, and without a reconciler the pickups it gave up on are never booked.',
  tick: '1m',
  build: providerPipeline(carrierWithBackoff('3d')),
  workload: { size: 2 },
  world: { safetyPhase: '4d', livenessPhase: '4d' },
  claims: [
    {
      ...uniquePickupClaim({
        authority: "the carrier's idempotency key, bound to the canonical pickup intent,",
        unknownCompletion: 'a status lookup by key before each retry, retried with backoff for up to two days, then nobody',
      }),
      unresolved: unresolvedOutcomes(),
    },
  ],
  expect: { verdict: 'violated', violations: ['lost effect', 'unresolved unknown outcome'] },
});

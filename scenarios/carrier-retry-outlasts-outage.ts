// Seed 000, "External side effects expose the edge of the transaction" (step 5: "on timeout, query
// status by idempotency key or operation ID before retrying"), with seed 002's "Retry with
// exponential backoff": fulfilment books carrier pickups under an intent-bound key with a status
// lookup, and when the carrier does not answer it retries with backoff, 1 minute doubling to a
// 6-hour cap, for up to two days (`faultline calc retry --base 1m --factor 2 --cap 6h --until 2d`:
// 15 retries, the last after 1 d 20 h 31 m of waiting). A crash of the carrier keeps its API down
// for a day.
//
// Analysis. Every single fault holds. A crash of the carrier at `provider.serving` takes the API
// down for a day: fulfilment's calls and lookups go unanswered, it keeps to its schedule, and
// its eleventh retry (20 h 31 m of waiting, t = 24 h 25 m with the timeouts) finds the carrier
// back and books o-1's pickup; o-2 follows at once.
// A crash at `provider.afterExternalEffect` books the pickup and loses the answer; the lookup by
// key after the outage finds it, so nothing is booked twice. The deadline outlasts the outage, so
// no pickup is given up on; carrier-retry-deadline-before-outage-ends shows the outage outlasting it.
import { defineScenario } from '../src/scenario/scenario.ts';
import { PICKUP_KEY, pickupRequests, uniquePickupClaim } from '../models/designs/carrier.ts';
import { providerPipeline, unresolvedOutcomes, type ProviderPipelineOptions } from '../models/designs/providerPipeline.ts';

/** Fulfilment and the carrier, the carrier down for `outage` after a crash; its sibling scenario lengthens the outage. */
export function carrierWithBackoff(outage: string): ProviderPipelineOptions {
  return {
    records: pickupRequests,
    keyField: 'order_id',
    group: 'fulfillment',
    caller: { effectKey: [...PICKUP_KEY], sendKey: true, statusLookup: true, recordIntent: true, timeout: '10m', retry: { backoff: '1m', factor: 2, cap: '6h', until: '2d' } },
    provider: { idempotency: 'intentBound', statusLookup: 'byKey', restartAfter: outage },
  };
}

export default defineScenario({
  name: 'carrier-retry-outlasts-outage',
  title: 'Carrier pickup retried with backoff for two days through a day-long carrier outage',
  source: '000 · External side effects expose the edge of the transaction (status lookup before retrying); 002 · Retry with exponential backoff',
  lesson: 'A retry schedule whose deadline outlasts the carrier\'s longest outage, with a key and a lookup before each retry, books every pickup once.',
  tick: '1m',
  build: providerPipeline(carrierWithBackoff('1d')),
  workload: { size: 2 },
  world: { safetyPhase: '3d', livenessPhase: '3d' },
  claims: [
    {
      ...uniquePickupClaim({
        authority: "the carrier's idempotency key, bound to the canonical pickup intent,",
        unknownCompletion: 'a status lookup by key before each retry, retried with backoff for up to two days',
      }),
      unresolved: unresolvedOutcomes(),
    },
  ],
  expect: { verdict: 'holds' },
});

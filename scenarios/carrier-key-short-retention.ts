// Seed 000, "Challenge an external API … retains the result through the retry horizon": the
// carrier honours the key and answers lookups, but forgets a key after 5 ticks while fulfilment
// waits 20 before it asks again. The verdict teaches that a key is only as good as its
// retention: past it the lookup finds nothing and the retry books a second pickup.
import { defineScenario } from '../src/scenario/scenario.ts';
import { carrierPipeline, uniquePickupClaim } from '../models/designs/carrier.ts';

export default defineScenario({
  name: 'carrier-key-short-retention',
  title: 'Carrier pickup with a key the carrier forgets before the caller retries',
  source: '000 · Failure-window drills (challenge an external API: retains the result through the retry horizon); Deduplication has a scope, horizon, and storage bill',
  lesson:
    'Key retention must exceed the caller\u2019s retry horizon: a key that expires before the retry turns the ambiguous timeout into a second pickup, lookup and all.',
  build: carrierPipeline(
    { sendKey: true, statusLookup: true, recordIntent: true },
    { idempotency: 'intentBound', statusLookup: 'byKey', keyRetention: '5s' },
  ),
  workload: { size: 2 },
  claims: [
    uniquePickupClaim({
      authority: "the carrier's idempotency key, retained for 5 ticks,",
      unknownCompletion: 'a status lookup by key, which also forgets the key after 5 ticks',
    }),
  ],
  expect: { verdict: 'violated', violations: ['duplicate effect'] },
});

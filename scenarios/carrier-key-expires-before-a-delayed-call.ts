// Seed 000, "Challenge an external API. Ask whether it ... retains the result through the retry
// horizon", where the horizon includes the network. One tick is a tenth of a day (2.4 h).
// Fulfilment records its intent, calls the carrier under the pickup key, and on a timeout looks
// up before calling again; the carrier binds the key to the intent and keeps it 6 days. A call
// can be held in the network up to 10 days (parked in an outbound queue through an outage).
// A crash, a lost or overtaken call, a duplicated one: each repeat reaches the carrier within
// days and is replayed under the key. A delayed call is different: fulfilment times out, finds
// nothing, calls again and books; the original turns up 10 days later, after the key expired,
// and books a second pickup. The verdict depends on the delay fault alone.
// carrier-key-and-lookup, whose carrier keeps the key for good, is the repair.
import { defineScenario } from '../src/scenario/scenario.ts';
import { carrierPipeline, uniquePickupClaim } from '../models/designs/carrier.ts';

export default defineScenario({
  name: 'carrier-key-expires-before-a-delayed-call',
  title: 'Carrier pickup key kept 6 days; a call can spend 10 days in the network',
  source: '000 · Failure-window drills (challenge an external API: retains the result through the retry horizon?)',
  lesson: 'The retry horizon a provider must cover includes how long the network can hold a request, not only how long the caller keeps retrying.',
  build: carrierPipeline({ sendKey: true, statusLookup: true, recordIntent: true }, { idempotency: 'intentBound', statusLookup: 'byKey', keyRetention: '6d' }),
  workload: { size: 2 },
  // One tick is a tenth of a day; a delayed message is held 10 days.
  tick: '2.4h',
  world: { delayFault: '10d' },
  claims: [
    uniquePickupClaim({
      authority: "the carrier's idempotency key, bound to the pickup intent and kept 6 days,",
      unknownCompletion: 'a status lookup by key before any retry',
    }),
  ],
  expect: { verdict: 'violated', violations: ['duplicate effect'] },
});

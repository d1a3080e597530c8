// Seed 000, "External side effects expose the edge of the transaction": the carrier API accepts
// neither an idempotency key nor a status lookup, so after an ambiguous timeout fulfilment
// cannot tell a booked pickup from a failed call. The verdict teaches the honest contract: "at
// least one attempt" holds, "one pickup per order" does not, and no broker setting closes it.
import { defineScenario } from '../src/scenario/scenario.ts';
import { carrierPipeline, NO_KEY_REPLAY, pickupAttemptClaim, uniquePickupClaim } from '../models/designs/carrier.ts';

export default defineScenario({
  name: 'carrier-no-key-no-lookup',
  title: 'Carrier pickup through an API with no idempotency key and no status lookup',
  source: '000 · External side effects expose the edge of the transaction (carrier without key or status lookup)',
  lesson:
    'Without a key or a lookup an ambiguous timeout forces a blind retry: the weaker claim "at least one attempt" holds, the unique pickup is violated, and the repair is a redesign or reconciliation, not a transport setting.',
  build: carrierPipeline({ sendKey: false, statusLookup: false, recordIntent: true }, { idempotency: 'none', statusLookup: 'none' }),
  workload: { size: 2 },
  claims: [
    pickupAttemptClaim,
    uniquePickupClaim({
      authority: 'no one (the carrier API offers no key)',
      unknownCompletion: 'nothing: fulfilment cannot ask the carrier, so it retries blind',
      ...NO_KEY_REPLAY,
    }),
  ],
  expect: { verdict: 'violated', violations: ['duplicate effect'] },
});

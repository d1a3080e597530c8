// Seed 000, "on timeout, query status by idempotency key or operation ID before retrying", with
// a carrier that records the caller's reference for lookup but does not deduplicate calls on it.
// Fulfilment records its intent, calls once, and on a timeout only asks: found means booked,
// not found is recorded UNKNOWN and left to manual reconciliation, never called again. The
// contract is therefore at most one pickup, a missed one accepted and reconciled by hand. No
// crash, lost, delayed or overtaken message can make it book twice, since it never calls twice;
// a request the network itself duplicates (a proxy retrying, seed 002's "Duplication injection")
// books two pickups, and only a carrier that deduplicates on the key stops that (seed 000, step
// 3; carrier-key-and-lookup). The verdict depends on the duplicate fault alone.
import { defineScenario } from '../src/scenario/scenario.ts';
import { carrierPipeline, uniquePickupClaim } from '../models/designs/carrier.ts';

export default defineScenario({
  name: 'carrier-lookup-without-key-dedup',
  title: 'Carrier pickup called once, looked up on timeout, on a carrier that does not deduplicate',
  source: '000 · External side effects expose the edge of the transaction (steps 3 and 5); 002 · Testing for the failures you cannot reproduce (duplication injection)',
  lesson: 'A caller that never calls twice still gets two bookings when the network delivers its call twice; only deduplication on the key at the provider closes that.',
  build: carrierPipeline({ sendKey: true, statusLookup: true, recordIntent: true, maxAttempts: 1 }, { idempotency: 'none', statusLookup: 'byKey' }),
  workload: { size: 2 },
  claims: [
    {
      ...uniquePickupClaim({
        authority: 'fulfilment, which calls once and only looks up afterwards,',
        sameIntent: 'the booking the lookup finds',
        unknownCompletion: 'manual reconciliation; the pickup may be missed',
      }),
      guarantee: 'atMostOnce',
    },
  ],
  expect: { verdict: 'violated', violations: ['duplicate effect'] },
});

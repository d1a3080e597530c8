// A payment capture consumer that does everything seed 000 asks of an external call: a stable
// effect key (payment_intent_id) sent as the idempotency key, the intent recorded PENDING before
// the call, a status lookup by key before any retry, and retries with exponential backoff
// (5 s doubling to a 60 s cap, for up to 5 minutes). The provider binds keys to intents and
// answers lookups, but keeps a key for only 60 s, and an outage of its API lasts 90 s.
//
// Reasoned verdict, before running: violated, duplicate effect.
// - A crash of the provider at provider.afterExternalEffect captures the payment and loses the
//   answer; the API is then down for 90 s. The caller's calls and lookups time out and it backs
//   off; its first lookup after the API is back comes more than 60 s after the capture, when the
//   provider has forgotten the key. The lookup finds nothing, the caller calls again under the
//   same key, and the provider, which no longer knows the key, captures a second time.
// - The retry deadline (5 min) outlasts the outage, so no outcome is left UNKNOWN: only the
//   duplicate. Under any other single fault the API is up and the key is young when the lookup
//   comes, so the lookup finds the capture.
// The lesson is seed 000's "retains the result through the retry horizon": the horizon here is
// the outage plus the backoff, not the backoff alone.
import { defineScenario } from 'faultline';
import type { Payload } from 'faultline/models/broker.ts';
import { providerClaim, providerPipeline, unresolvedOutcomes } from 'faultline/models/designs/providerPipeline.ts';

const captures = (size: number): Payload[] => Array.from({ length: size }, (_, i) => ({ event_id: `evt-pi-${i + 1}`, payment_intent_id: `pi-${i + 1}`, amount: 1200 + i }));

export default defineScenario({
  name: 'heldout-capture-key-forgotten-during-outage',
  title: 'Payment capture with key, lookup and backoff; the provider forgets keys during its own outage',
  source: '000 · Failure-window drills (retains the result through the retry horizon); 004 · Retry policy (exponential backoff)',
  lesson: 'A key retention shorter than the provider outage plus the caller backoff turns the ambiguous capture into a second charge, lookup and all.',
  build: providerPipeline({
    records: captures,
    keyField: 'payment_intent_id',
    group: 'payments',
    caller: { effectKey: ['payment_intent_id'], sendKey: true, statusLookup: true, recordIntent: true, timeout: '10s', retry: { backoff: '5s', factor: 2, cap: '60s', until: '5m' } },
    provider: { idempotency: 'intentBound', statusLookup: 'byKey', keyRetention: '60s', restartAfter: '90s' },
  }),
  workload: { size: 2 },
  claims: [
    providerClaim(['payment_intent_id'], {
      effect: 'captured payment',
      authority: "the provider's idempotency key, kept 60 s",
      lifetime: 'the payment intent',
      unknownCompletion: 'a status lookup by key before each retry, with backoff up to 5 minutes',
      unresolved: unresolvedOutcomes(),
    }),
  ],
  expect: { verdict: 'violated', violations: ['duplicate effect'] },
});

// Seed 003, "Payment capture crosses into another system" and "Payment capture is a separate
// effect protected by the provider intent key and reconciliation": the payment consumer records
// its intent, captures under the payment-intent key (bound to amount and order), asks by key on
// a timeout, and hands any outcome it could not settle to a reconciler instead of retrying
// blind. The verdict teaches that unique capture holds at every window and that no outcome is
// left PENDING or UNKNOWN once the faults heal.
import { defineScenario } from '../src/scenario.ts';
import { providerClaim, providerPipeline, unresolvedOutcomes } from '../models/designs/providerPipeline.ts';

const KEY = ['payment_intent_id'];

export default defineScenario({
  name: 'payment-capture-intent-key',
  title: 'Payment capture with an intent-bound key, status lookup and a reconciler for unknown outcomes',
  source: '003 · Follow the checkout across the commit boundary (step 4: payment capture); 000 · External side effects (step 6: reconcile pending/unknown states until terminal)',
  lesson:
    'The payment-intent key makes every repeat a replay, the lookup resolves an ambiguous timeout, and the reconciler owns what the consumer gave up on: one capture per payment intent and no unknown outcome at the end.',
  // One call per delivery: a consumer that cannot settle a capture records it UNKNOWN and moves
  // on; resolving it is the reconciler's job, so the unknown path is exercised by single faults.
  build: providerPipeline({
    records: (size) => Array.from({ length: size }, (_, i) => ({ event_id: `evt-pi-${i + 1}`, payment_intent_id: `pi-${i + 1}`, order_id: `o-${i + 1}`, amount: 1_250 * (i + 1) })),
    keyField: 'order_id',
    group: 'payments',
    caller: { effectKey: KEY, sendKey: true, statusLookup: true, recordIntent: true, maxAttempts: 1 },
    provider: { idempotency: 'intentBound', statusLookup: 'byKey' },
    reconciler: {},
  }),
  workload: { size: 2 },
  claims: [
    {
      ...providerClaim(KEY, {
        effect: 'payment capture',
        authority: "the payment provider's idempotency key, bound to the capture intent (amount, order),",
        lifetime: 'the lifetime of the payment intent',
        sameIntent: 'the recorded capture',
        differentIntent: 'is refused as a conflict; nothing is captured',
        unknownCompletion: 'a status lookup by key, and a reconciler that resolves UNKNOWN outcomes',
      }),
      unresolved: unresolvedOutcomes(),
    },
  ],
  expect: { verdict: 'holds' },
});

// Seed 003, "Payment capture crosses into another system" and "Payment capture is a separate
// effect protected by the provider intent key and reconciliation": the payment consumer records
// its intent, captures under the payment-intent key (bound to amount and order), asks by key on
// a timeout, and hands any outcome it could not settle to a reconciler that sweeps PENDING and
// UNKNOWN states until they are terminal (seed 000, step 6). Payments also re-emits pi-1 with an
// amended amount; the provider refuses it as a conflict. The verdict teaches that unique capture
// holds at every window, that a reused key with another intent is refused, and that no outcome
// is left PENDING or UNKNOWN once the faults heal.
import { defineScenario } from '../src/scenario/scenario.ts';
import { paymentCapture, paymentCaptureClaim } from '../models/designs/paymentCapture.ts';

export default defineScenario({
  name: 'payment-capture-intent-key',
  title: 'Payment capture with an intent-bound key, status lookup and a reconciler for pending and unknown outcomes',
  source: '003 · Follow the checkout across the commit boundary (step 4: payment capture); 000 · External side effects (step 6: reconcile pending/unknown states until terminal)',
  lesson:
    'The payment-intent key makes every repeat a replay and refuses a changed amount, the lookup resolves an ambiguous timeout, and the reconciler owns what the consumer gave up on: one capture per payment intent and no unknown outcome at the end.',
  build: paymentCapture({ idempotency: 'intentBound' }),
  workload: { size: 2 },
  claims: [paymentCaptureClaim],
  expect: { verdict: 'holds' },
});

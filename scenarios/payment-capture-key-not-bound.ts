// Seed 000, "Challenge an external API. Ask whether it accepts a stable idempotency key, rejects
// different intent under the same key, ...": the payment provider honours the payment-intent key
// but binds it to nothing but the first operation. When Payments re-emits pi-1 with an amended
// amount, the provider answers with the original capture as if the amendment were a retry, and
// the consumer records the amended capture as succeeded. The verdict teaches that a key honoured
// without intent binding turns a different request into a silent replay.
import { defineScenario } from '../src/scenario/scenario.ts';
import { paymentCapture, paymentCaptureClaim } from '../models/designs/paymentCapture.ts';

export default defineScenario({
  name: 'payment-capture-key-not-bound',
  title: 'Payment capture with a key the provider honours but does not bind to the intent',
  source: '000 · Failure-window drills (challenge an external API: rejects different intent under the same key?); 003 · Follow the checkout across the commit boundary',
  lesson: 'An idempotency key must be bound to the canonical intent: otherwise an amended capture is answered with the old one and recorded as done.',
  build: paymentCapture({ idempotency: 'honoured' }),
  workload: { size: 2 },
  claims: [paymentCaptureClaim],
  expect: { verdict: 'violated', violations: ['conflict mishandled'] },
});

// Seed 004, flow register EV-04 (`gift.payment.captured`, Payments → Orders: "At-least-once,
// idempotent by payment ID"): the capture is redelivered, and Payments also re-emits one capture
// under a new event id. The verdict teaches that the business key, not the transport id, makes
// the dispatch once: "gift sent twice" is refused even for two distinct events of one payment.
import { defineScenario } from '../src/scenario/scenario.ts';
import { flowPipeline, giftDispatchClaim, giftPaymentCaptured } from '../models/designs/flowRegister.ts';

export default defineScenario({
  name: 'flow-gift-payment-captured',
  title: 'EV-04 gift.payment.captured: at-least-once delivery, idempotent by payment id',
  source: '004 · 1. Flow register (EV-04); 4. Idempotent consumers; 000 · An event ID is transport history; an effect key is business meaning',
  lesson:
    'Keying the dispatch by payment id suppresses every repeat of the payment, redeliveries and a re-emitted event alike: one gift per captured payment.',
  build: flowPipeline(giftPaymentCaptured),
  workload: { size: 2 },
  claims: [giftDispatchClaim],
  expect: { verdict: 'holds' },
});

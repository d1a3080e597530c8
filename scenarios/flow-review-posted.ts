// Seed 004, flow register EV-01 (`review.posted`, Reviews → Notifications: "At-least-once,
// dedup by event ID"): the producer republishes until acknowledged, the broker redelivers, and
// the notification table has only a surrogate id plus the causing event id. The verdict teaches
// that the event id, recorded in the inbox in the notification's own transaction, is what
// makes the notification once.
import { defineScenario } from '../src/scenario/scenario.ts';
import { flowPipeline, reviewNotificationClaim, reviewPosted } from '../models/designs/flowRegister.ts';

export default defineScenario({
  name: 'flow-review-posted',
  title: 'EV-01 review.posted: at-least-once delivery, dedup by event id',
  source: '004 · 1. Flow register (EV-01); 4. Idempotent consumers (dedup table)',
  lesson:
    'At-least-once transport plus dedup by event id inside the effect\u2019s transaction (the inbox row, and the notification\u2019s unique causing event) gives one notification per review, although the producer and the broker both repeat.',
  build: flowPipeline(reviewPosted),
  workload: { size: 2 },
  claims: [reviewNotificationClaim],
  expect: { verdict: 'holds' },
});

// Seed 004, flow register EV-02 (`rating.changed`, Reviews → Recommendations: "At-least-once,
// idempotent upsert"): one rating changes twice, and the recommendations service upserts one
// feature row per rating, only ever moving its version forwards. The verdict teaches that an
// idempotent, version-checked upsert needs no dedup table: a repeat or a stale redelivery
// leaves the row as it is, so the rating counts once and at its latest value.
import { defineScenario } from '../src/scenario/scenario.ts';
import { flowPipeline, ratingChanged, ratingFeatureClaim } from '../models/designs/flowRegister.ts';

export default defineScenario({
  name: 'flow-rating-changed',
  title: 'EV-02 rating.changed: at-least-once delivery, idempotent upsert',
  source: '004 · 1. Flow register (EV-02); 4. Idempotent consumers (natural idempotency, version check)',
  lesson:
    'Setting state by key instead of adding to it makes repeats harmless: the feature holds one row per rating, at its latest version, without an inbox.',
  build: flowPipeline(ratingChanged),
  workload: { size: 2 },
  claims: [ratingFeatureClaim],
  expect: { verdict: 'holds' },
});

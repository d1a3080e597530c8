// Seed 004, "7. Sagas for multi-service transactions" (step 5: "None (cannot unsend) — No, so it
// runs last"), taken the other way round: the gift code is emailed as soon as the gift order
// exists, and the second purchase's capture is then declined. The verdict teaches that a
// compensation can void, release and cancel, but it cannot unsend: the recipient holds a gift
// code for a purchase that never happened.
import { defineScenario } from '../src/scenario/scenario.ts';
import { giftSaga, giftSagaClaims } from '../models/designs/giftSaga.ts';

export default defineScenario({
  name: 'gift-saga-email-first',
  title: 'Gift purchase saga, email step first',
  source: '004 · 7. Sagas for multi-service transactions (gift purchase saga, step 5 cannot be undone); 000 · If compensation runs after a consumer has acted, “undo” is a new business operation',
  lesson:
    'An irreversible step placed before a step that can fail turns every refusal into a phantom: the declined purchase is compensated everywhere except in the recipient\u2019s inbox.',
  build: giftSaga({ emailStep: 'first' }),
  workload: { size: 2 },
  claims: giftSagaClaims,
  expect: { verdict: 'violated', violations: ['phantom effect'] },
});

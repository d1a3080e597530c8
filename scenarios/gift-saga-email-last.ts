// Seed 004, "7. Sagas for multi-service transactions" and decision ED-03 ("Gift purchase as
// orchestrated saga, email last — Email cannot be compensated"): two gift purchases, the second
// declined at capture. The verdict teaches that with the irreversible step last, a refused step
// is always followed by compensations that fully undo it: no email, capture or licence outlives
// a cancelled order, and every confirmed order gets its gift code.
import { defineScenario } from '../src/scenario/scenario.ts';
import { giftSaga, giftSagaClaims } from '../models/designs/giftSaga.ts';

export default defineScenario({
  name: 'gift-saga-email-last',
  title: 'Gift purchase saga, email step last',
  source: '004 · 7. Sagas for multi-service transactions (gift purchase saga); 9. Decisions (ED-03)',
  lesson:
    'Ordering the saga so the step that cannot be undone runs after the last step that can fail makes every compensation complete: a declined capture leaves no email, no charge and no licence behind.',
  build: giftSaga({ emailStep: 'last' }),
  workload: { size: 2 },
  claims: giftSagaClaims,
  expect: { verdict: 'holds' },
});

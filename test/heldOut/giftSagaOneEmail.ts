// Seed 004's gift purchase saga (orchestrated: create the order pending, authorise, reserve the
// licence, capture, confirm, then email the gift code last), where the team has negotiated an
// email provider that returns the recorded message for a repeated (saga, email) request, and so
// promises more than the template's "at least one email": exactly one gift-code email per
// confirmed purchase, and none for a cancelled one.
//
// Reasoned verdict, before running: holds.
// - The email is the last step, after the last step that can fail (capture), so a declined
//   capture (every second purchase) is compensated before any email: no email without a
//   confirmed purchase.
// - Every repeat of the email request is under the same (saga, email) key: the orchestrator
//   asks again after a timeout (a lost request or reply) and after a restart (its saga log says
//   the email step is not done). The provider answers a repeat with the recorded message, so
//   one email per confirmed purchase.
// - The orchestrator's saga log is durable, so a crash never forgets a started purchase: every
//   confirmed purchase gets its email once faults heal.
import { defineScenario, type Claim } from 'faultline';
import { giftEmailClaim, giftSaga } from 'faultline/models/designs/giftSaga.ts';

const oneEmail: Claim = {
  ...giftEmailClaim,
  effect: 'one gift-code email per confirmed purchase',
  authority: 'the email provider, keyed by (gift order, email step), after the orchestrator confirmed the order,',
  guarantee: 'exactlyOnceEffect',
  sameIntent: 'the recorded message',
  unknownCompletion: 'the orchestrator repeating the request under the same key',
};

export default defineScenario({
  name: 'heldout-gift-saga-one-email',
  title: 'Gift purchase saga, email last, through an email provider that honours a key',
  source: '004 · 7. Sagas for multi-service transactions; 6. Exactly-once limits (an idempotency key at the target)',
  lesson: 'Email last plus a keyed provider turns the saga\u2019s at-least-once email into exactly one.',
  build: giftSaga({ emailStep: 'last', emailIdempotent: true }),
  workload: { size: 2 },
  claims: [oneEmail],
  expect: { verdict: 'holds' },
});

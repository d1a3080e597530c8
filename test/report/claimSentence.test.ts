// The claim as the seeds' sentence: every part the claim makes, in the seeds' words and order,
// and nothing it does not make (no namespace, no replay clause it is silent about).
import { describe, expect, it } from 'vitest';
import type { Claim } from '../../src/checkers/claims.ts';
import { claimSentence } from '../../src/report/claimSentence.ts';

const base: Claim = {
  effect: 'payment capture',
  key: ['payment_intent_id'],
  authority: "the provider's idempotency key",
  lifetime: '24 hours',
  outcomes: () => [],
};

describe('claimSentence', () => {
  it('renders a full claim as the seeds\' sentence', () => {
    const c: Claim = {
      ...base,
      key: ['order_id', 'attempt'],
      namespace: 'the payments account',
      sameIntent: 'the recorded capture',
      differentIntent: 'conflicts',
      unknownCompletion: 'status lookup by key',
    };
    expect(claimSentence(c)).toBe(
      "For payment capture, identified by (order_id, attempt) in the payments account, the provider's idempotency key enforces at most one committed outcome for 24 hours. " +
        'Transport and processing may retry. ' +
        'On replay, the same intent returns the recorded capture; a different intent conflicts; unknown external completion is resolved by status lookup by key.',
    );
  });

  it('names a single key field bare and leaves out what the claim does not say', () => {
    expect(claimSentence(base)).toBe(
      "For payment capture, identified by payment_intent_id, the provider's idempotency key enforces at most one committed outcome for 24 hours. Transport and processing may retry.",
    );
  });

  it('keeps only the replay clauses the claim makes', () => {
    expect(claimSentence({ ...base, differentIntent: 'is refused' })).toMatch(/ On replay, a different intent is refused\.$/);
    expect(claimSentence({ ...base, sameIntent: 'the stored row' })).toMatch(/ On replay, the same intent returns the stored row\.$/);
    expect(claimSentence({ ...base, unknownCompletion: 'a reconciler' })).toMatch(/ On replay, unknown external completion is resolved by a reconciler\.$/);
  });

  it('ends with the finality the claim states, after the replay clauses, and says nothing of finality otherwise', () => {
    expect(claimSentence({ ...base, finality: 'a window result is never revised in place' })).toBe(
      "For payment capture, identified by payment_intent_id, the provider's idempotency key enforces at most one committed outcome for 24 hours. Transport and processing may retry. Once final, a window result is never revised in place.",
    );
    expect(claimSentence({ ...base, sameIntent: 'the stored row', finality: 'never revised' })).toMatch(/ On replay, the same intent returns the stored row\. Once final, never revised\.$/);
    expect(claimSentence(base)).not.toMatch(/final/);
  });

  it('says what each weaker guarantee gives up', () => {
    expect(claimSentence({ ...base, guarantee: 'atMostOnce' })).toBe(
      "For payment capture, identified by payment_intent_id, the provider's idempotency key enforces at most one committed outcome, and losing one is accepted, for 24 hours. Transport and processing may retry.",
    );
    expect(claimSentence({ ...base, guarantee: 'atLeastOnce' })).toBe(
      "For payment capture, identified by payment_intent_id, the provider's idempotency key ensures at least one attempt, and a unique outcome is not guaranteed, for 24 hours. Transport and processing may retry.",
    );
    expect(claimSentence({ ...base, guarantee: 'exactlyOnceEffect' })).toBe(claimSentence(base));
  });
});

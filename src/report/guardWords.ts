// What a guard is, in a reader's words. A model notes the guard that suppressed a repeat under a
// short name of its own (`inboxKey`, `localCache`), which the JSON report keeps as data; a page
// names the thing that stopped the repeat (`the inbox key`, `the in-memory inbox`). A guard of a
// user's own model that is not listed here is named as its model names it.

/** Each guard the catalogue's models note, by the name they note it under. */
const WORDS: Readonly<Record<string, string>> = {
  inboxKey: 'the inbox key',
  localCache: 'the in-memory inbox',
  effectKey: 'the effect key',
  versionCheck: 'the version check',
  effectCheck: 'the effect lookup',
  parkedDone: 'the cleared parking row',
  checkoutKey: 'the checkout key',
  checkoutIntent: 'the checkout key’s stored intent',
  producerDedup: 'the broker’s producer deduplication',
  rowOutcome: 'the row’s recorded outcome',
  rowExists: 'the existing row',
  resultKey: 'the sink’s result key',
  epochCommitted: 'the sink’s committed epoch',
  factDedup: 'the aggregator’s fact deduplication',
  providerKey: 'the provider’s idempotency key',
  providerIntent: 'the provider’s stored intent',
  participantKey: 'the participant’s operation key',
  localOutcome: 'the caller’s recorded outcome',
  sideEffectGate: 'the side-effect gate',
  transactionFence: 'the transaction fence',
};

/** One guard in words: `the inbox key`, or `the guard myGuard` for a name no catalogue model notes. */
export function guardWords(guard: string): string {
  return Object.hasOwn(WORDS, guard) ? WORDS[guard]! : `the guard ${guard}`;
}

/** Several guards in words, joined as a sentence joins them: `the inbox key and the effect key`. */
export function guardsWords(guards: readonly string[]): string {
  const words = guards.map(guardWords);
  return words.length <= 1 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}`;
}

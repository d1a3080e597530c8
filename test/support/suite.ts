// Which of the two suites a test file runs in. `npm test` runs the quick suite: unit and model
// tests, and a sample of the catalogue in the files that would otherwise sweep all of it.
// `npm run test:catalogue` runs the whole-catalogue suite (vitest.catalogue.config.ts sets
// FAULTLINE_SUITE=catalogue): the same files over every scenario, and the slow end-to-end files
// (the packed package, browser, spread sweeps) that only it includes. A file asks `full` which
// it is, so one file holds both and its sample is a subset of what the full run checks.
export const full = process.env['FAULTLINE_SUITE'] === 'catalogue';

/**
 * The catalogue scenarios the quick suite samples: between them every fault kind (crash,
 * restore, skew, rebalance and the message faults), both crashing servers, a stream (with an
 * external and a transactional sink), a saga, a provider call, and designs that hold and that are
 * violated. Each sweeps in well under a second.
 */
export const SAMPLE_SCENARIOS: readonly string[] = [
  'mercury-outbox',
  'mercury-dual-write-commit-first',
  'inventory-inbox-separate-tx',
  'carrier-key-and-lookup',
  'email-confirmation-restored-snapshot',
  'stream-clock-skew',
  'group-rebalance-naive-commit-no-inbox',
  'outbox-servers-crash',
  'checkout-fresh-key',
  'gift-saga-email-first',
  'stream-checkpoint-external-sink',
  'stream-ledger-revised-in-place',
  'poison-blocking-dead-letter',
];

/** All of `items` in the full suite; in the quick one, those `picked` keeps. */
export function sampled<T>(items: readonly T[], picked: (item: T) => boolean): T[] {
  return full ? [...items] : items.filter(picked);
}

// The quick suite, `npm test`: unit and model tests, and a sample of the catalogue in the files
// that would otherwise sweep all of it (test/support/suite.ts). The whole catalogue and the slow
// end-to-end files (the packed package, the browser, sweeps spread over threads and shards, the
// record command, the vitest entry) are the catalogue suite's, vitest.catalogue.config.ts, which
// `npm run test:catalogue` and CI run.
// `faultline` and `faultline/models/…` resolve to this package's own entry and models, so the API
// examples import them exactly as a user's suite would. `npm test` measures coverage of the engine
// and the models and fails below the thresholds, so a change that leaves behaviour untested is
// seen in review.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/** The files only the catalogue suite runs: each takes many seconds, or the whole catalogue. */
export const CATALOGUE_ONLY = [
  'test/e2e/package.test.ts',
  'test/e2e/spread.test.ts',
  'test/e2e/vitestEntry.test.ts',
  'test/e2e/recordCli.test.ts',
  'test/report/browser.test.ts',
];

/**
 * The files both suites run: the quick suite over a sample of their scenarios or sequences, the
 * catalogue suite over all of them.
 */
export const SAMPLED = [
  'test/e2e/catalogue.test.ts',
  'test/models/postgres/repairQueries.test.ts',
  'test/models/databasePostgres.test.ts',
  'test/kernel/resume.test.ts',
  'test/kernel/compiledMachine.test.ts',
  'test/check/transitionCache.test.ts',
  'test/check/sleepSets.test.ts',
  'test/check/catalogueCheck.test.ts',
  'test/check/worldAsChoices.test.ts',
  'test/run/referenceProbe.test.ts',
];

export const alias = [
  { find: /^faultline$/, replacement: fileURLToPath(new URL('./src/index.ts', import.meta.url)) },
  { find: /^faultline\/vitest$/, replacement: fileURLToPath(new URL('./src/vitest.ts', import.meta.url)) },
  { find: /^faultline\/models\/(.*)$/, replacement: `${fileURLToPath(new URL('./models/', import.meta.url))}$1` },
];

export default defineConfig({
  resolve: { alias },
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['**/node_modules/**', ...CATALOGUE_ONLY],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // A worker runs its files in one module graph, loading src/ once rather than once per file (a
    // sixth of the suite's time went to imports). Tests that stub the environment or spy restore it.
    isolate: false,
    // Every core: vitest's default leaves one idle, which on a 2-core machine runs the files one at a time.
    maxWorkers: '100%',
    coverage: {
      provider: 'v8',
      include: ['src/**/*.ts', 'models/**/*.ts'],
      // The summary, then only the files short of full coverage, with their uncovered lines.
      reporter: ['text-summary', ['text', { skipFull: true }]],
      thresholds: { lines: 90, branches: 85 },
    },
  },
});

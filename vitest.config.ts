// The test suites: unit tests mirror src/ and models/, e2e suites run scenarios and the CLI.
// `faultline` and `faultline/models/…` resolve to this package's own entry and models, so the API
// examples import them exactly as a user's suite would. `npm test` measures coverage of the engine
// and the models and fails below the thresholds, so a change that leaves behaviour untested is
// seen in review.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    alias: [
      { find: /^faultline$/, replacement: fileURLToPath(new URL('./src/index.ts', import.meta.url)) },
      { find: /^faultline\/vitest$/, replacement: fileURLToPath(new URL('./src/vitest.ts', import.meta.url)) },
      { find: /^faultline\/models\/(.*)$/, replacement: `${fileURLToPath(new URL('./models/', import.meta.url))}$1` },
    ],
  },
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
    coverage: {
      provider: 'v8',
      include: ['src/**/*.ts', 'models/**/*.ts'],
      // The summary, then only the files short of full coverage, with their uncovered lines.
      reporter: ['text-summary', ['text', { skipFull: true }]],
      thresholds: { lines: 90, branches: 85 },
    },
  },
});

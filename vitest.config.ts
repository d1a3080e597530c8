// The test suites: unit tests mirror src/ and models/, e2e suites run scenarios and the CLI.
// `faultline` resolves to this package's own entry, so the API example imports it exactly as a
// user's suite would.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { alias: { faultline: fileURLToPath(new URL('./src/index.ts', import.meta.url)) } },
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
  },
});

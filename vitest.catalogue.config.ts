// The catalogue suite, `npm run test:catalogue`: every scenario of the catalogue in the files the
// quick suite samples (FAULTLINE_SUITE=catalogue tells them, test/support/suite.ts), and the slow
// end-to-end files the quick suite leaves out. Each scenario is its own test (`-t <name>` runs one).
// CI runs it after `npm test`; it measures no coverage, which the quick suite holds.
import { defineConfig } from 'vitest/config';
import { alias, CATALOGUE_ONLY, SAMPLED } from './vitest.config.ts';
import { LongestFirst } from './test/support/longestFirst.ts';

export default defineConfig({
  resolve: { alias },
  test: {
    include: [...SAMPLED, ...CATALOGUE_ONLY],
    env: { FAULTLINE_SUITE: 'catalogue' },
    testTimeout: 600_000,
    hookTimeout: 600_000,
    pool: 'forks',
    // Every core: vitest's default leaves one idle, which on a 2-core machine runs the files one at a time.
    maxWorkers: '100%',
    // Longest file first, so the two workers end together (test/support/longestFirst.ts says why).
    sequence: { sequencer: LongestFirst },
  },
});

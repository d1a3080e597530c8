// The catalogue suite's order table knows every file the suite runs and no other, so a new slow
// file cannot start last by being missing from it, and a removed one leaves no stale entry.
import { describe, expect, it } from 'vitest';
import { CATALOGUE_ONLY, SAMPLED } from '../../vitest.config.ts';
import { SECONDS, weightOf } from './longestFirst.ts';

describe('the catalogue suite’s longest-first order', () => {
  it('has a weight for every file of the suite and for no other', () => {
    expect(Object.keys(SECONDS).sort()).toEqual([...SAMPLED, ...CATALOGUE_ONLY].sort());
  });
  it('weighs a file by its path from the repository root, and an unknown file above every known one', () => {
    const root = new URL('../../', import.meta.url).pathname;
    expect(weightOf(`${root}test/e2e/package.test.ts`)).toBe(SECONDS['test/e2e/package.test.ts']);
    expect(weightOf(`${root}test/e2e/new.test.ts`)).toBeGreaterThan(Math.max(...Object.values(SECONDS)));
  });
});

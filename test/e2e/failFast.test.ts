// --fail-fast: a sweep stops at its first violation, says so in its coverage, and is judged
// without asking for the expected violations it never got to; a design that holds runs whole.
import { describe, expect, it } from 'vitest';
import { loadScenario } from '../../src/scenario/catalogue.ts';
import { check } from '../../src/modes/check/check.ts';
import { describeCoverage } from '../../src/report/describeCoverage.ts';
import { runWindows } from '../../src/modes/windows.ts';

const load = async (name: string) => (await loadScenario(name)).scenario;

describe('--fail-fast', () => {
  it('stops a violated windows sweep at its first violating run, and says so', async () => {
    const s = await load('mercury-dual-write-commit-first');
    const full = runWindows(s);
    const fast = runWindows(s, { failFast: true });
    expect(fast.judgement.verdict).toBe('violated');
    expect(fast.judgement.asExpected).toBe(true);
    expect(fast.coverage.runs).toBeLessThan(full.coverage.runs);
    expect(fast.coverage.bound).toEqual({ kind: 'firstViolation', after: fast.coverage.runs });
    expect(fast.counterexamples).toHaveLength(1);
    expect(describeCoverage(fast.judgement.verdict, fast.coverage)).toContain('--fail-fast stopped the sweep at its first violation');
    expect(full.coverage.bound).toBeUndefined();
  });

  it('runs a design that holds to the end, with the same figures as without it', async () => {
    const s = await load('mercury-outbox');
    const fast = runWindows(s, { failFast: true });
    const full = runWindows(s);
    expect(fast.judgement.verdict).toBe('holds');
    expect(fast.coverage.runs).toBe(full.coverage.runs);
    expect(fast.coverage.bound).toBeUndefined();
  });

  it('marks a check stopped at its first violation in its coverage', async () => {
    const r = check(await load('mercury-dual-write-commit-first'), { faults: 1, kinds: ['crash'], failFast: true });
    expect(r.judgement.verdict).toBe('violated');
    expect(r.coverage.bound?.kind).toBe('firstViolation');
  }, 60_000);
});

// Sleep sets skip transitions, never states: on real designs a search with them and one without
// visit the same states and reach the same verdicts, rows, failure windows and depths, with
// counterexamples as short, while taking fewer transitions. The independence rule itself is
// tested on its own: which steps may sleep, and which pairs commute.
import { sampled } from '../support/suite.ts';
import { describe, expect, it } from 'vitest';
import { check, type CheckResult } from '../../src/modes/check/check.ts';
import type { KernelState as CheckState } from '../../src/kernel/draft.ts';
import type { Choice } from '../../src/kernel/kernel.ts';
import { decodeChoices } from '../../src/modes/check/choicePath.ts';
import { LOW_STEPS, SleepSets } from '../../src/modes/check/sleepSets.ts';
import { loadScenario } from '../../src/scenario/catalogue.ts';
import type { Scenario } from '../../src/scenario/scenario.ts';
import { twoClaimers } from './fixtures/twoClaimers.ts';

const pathLength = (replay: { kind: string; choices?: string } | undefined) => (replay?.kind === 'choices' ? decodeChoices(replay.choices!).length : replay?.kind);

/**
 * Everything a search reports but its transition count: what the reduction must not change. A
 * path may take commuting steps in another order, so a path is compared by its length; and a
 * depth-first search reaches a row's representative end along another path, so there only the
 * figures, the verdict and the windows are compared.
 */
function seen(r: CheckResult, dfs: boolean) {
  const { transitions: _t, bytes: _b, ...figures } = r.check;
  const { interleavings, ...coverage } = r.coverage;
  const same = {
    figures,
    states: interleavings.kind === 'all' ? [interleavings.states, interleavings.depth] : interleavings.kind,
    judgement: r.judgement,
    failureWindows: r.failureWindows,
    unreachedWindows: r.unreachedWindows,
    rows: r.rows.map((w) => [w.place, w.fault, w.runs, w.struck, w.outcome, w.outcomes]),
  };
  if (dfs) return same;
  return {
    ...same,
    coverage,
    rows: r.rows.map(({ replay, ...w }) => ({ ...w, path: pathLength(replay) })),
    distinctOutcomes: r.distinctOutcomes,
    counterexamples: r.counterexamples.map(({ replay, trace: _trace, traceHash: _hash, ...c }) => ({ ...c, path: pathLength(replay) })),
  };
}

function compare(scenario: Scenario, faults: number, dfs = false, sleepLowSteps?: number) {
  const full = check(scenario, { faults, failFast: false, reduction: false, dfs });
  const reduced = check(scenario, { faults, failFast: false, dfs, ...(sleepLowSteps === undefined ? {} : { sleepLowSteps }) });
  // Both searches end on their own, not at a bound, so they can be compared state for state.
  expect(full.coverage.bound).toBeUndefined();
  expect(seen(reduced, dfs)).toEqual(seen(full, dfs));
  expect(reduced.check.transitions).toBeLessThan(full.check.transitions);
  const slept = reduced.coverage.interleavings.kind === 'all' ? reduced.coverage.interleavings.slept : undefined;
  expect(slept).toBeGreaterThan(0);
  // Every transition of the search without them is taken or skipped, once: a skipped one that a
  // later arrival wakes is counted as taken.
  expect(reduced.check.transitions + slept!).toBe(full.check.transitions);
  expect(full.coverage.interleavings).not.toHaveProperty('slept');
  return { full, reduced };
}

describe('sleep sets in the exhaustive search', () => {
  // mercury-outbox is the one whose search loses states when a due timer may sleep: a relay's
  // poll timer asleep behind the client's last reply, whose state is quiet and ends its path.
  // The quick suite keeps the first and the last (test/support/suite.ts).
  it.each(
    sampled(
      [
        ['mercury-outbox', 1],
        ['mercury-dual-write-commit-first', 1],
        ['email-confirmation-restored-snapshot', 1],
        ['group-check-then-insert-one-member', 1],
        // Its search numbers 32 steps, so sleep sets use their high lane.
        ['checkout-fresh-key-database-crash', 1],
        ['flow-page-viewed', 2],
      ] as const,
      ([name]) => name === 'mercury-outbox' || name === 'flow-page-viewed',
    ),
  )('%s with at most %i fault(s): the same states, verdict, rows and shortest paths as without, in fewer transitions', async (name, faults) => {
    compare((await loadScenario(name)).scenario, faults);
  }, 120_000);

  // With a low lane of two steps, nearly every step of these searches is kept in the high lane.
  it.each(sampled([['mercury-outbox', 1], ['checkout-fresh-key-database-crash', 1]] as const, ([name]) => name === 'checkout-fresh-key-database-crash'))('%s with at most %i fault(s) and most steps in the high lane: the same as without, and as with the low lane', async (name, faults) => {
    const { scenario } = await loadScenario(name);
    const { reduced } = compare(scenario, faults, false, 2);
    const low = check(scenario, { faults, failFast: false });
    expect(reduced.coverage.interleavings).toEqual(low.coverage.interleavings);
  }, 120_000);

  it('depth-first too: the same states and verdict as depth-first without it', async () => {
    const { full, reduced } = compare((await loadScenario('mercury-dual-write-publish-first')).scenario, 1, true);
    expect(reduced.judgement.found).toEqual(full.judgement.found);
  }, 120_000);

  it('still finds the race of two check-then-insert claimers, whose order of reads and inserts at the database is the bug', () => {
    const { reduced } = compare(twoClaimers(0), 0);
    expect(reduced.judgement.found).toEqual(['duplicate effect']);
  });

  // Requests sent unordered travel on links numbered by one counter the whole world shares, so two
  // steps that both send one do not commute; a search that took them as commuting loses states.
  it.each([
    [0, 2, false],
    [1, 2, false],
    [0, 0, true],
  ] as const)('the claimers sending unordered, %i tick(s) apart, with at most %i fault(s) (depth-first: %s): the same as without', (stagger, faults, dfs) => {
    const { reduced } = compare(twoClaimers(stagger, true), faults, dfs);
    expect(reduced.judgement.found).toEqual(['duplicate effect']);
  }, 60_000);

  it('is said in the coverage: the commuting transitions it skipped', async () => {
    const r = check((await loadScenario('flow-page-viewed')).scenario, { faults: 1 });
    const i = r.coverage.interleavings;
    expect(i.kind === 'all' && i.slept).toBeGreaterThan(0);
  });
});

describe('SleepSets', () => {
  // Two components' links, as a state holds them; 0 sends to 1 and 1 to 2.
  const state = {
    links: [
      { key: 'a->b', msgs: [{ to: 1 }], held: [] },
      { key: 'b->c', msgs: [{ to: 2 }], held: [] },
      { key: 'c->b', msgs: [{ to: 1 }], held: [] },
    ],
  } as unknown as CheckState;
  const deliver = (link: string): Choice => ({ kind: 'deliver', link });

  it('lets deliveries and restarts sleep, and never a timer, the clock, a release or a fault', () => {
    const z = new SleepSets();
    expect(z.stepOf(state, deliver('a->b'))).toBeGreaterThanOrEqual(0);
    expect(z.stepOf(state, { kind: 'restart', comp: 2 })).toBeGreaterThanOrEqual(0);
    for (const c of [{ kind: 'timer', comp: 1, id: 't' }, { kind: 'advance', to: 3 }, { kind: 'release', link: 'a->b' }, { kind: 'crash', comp: 1 }, { kind: 'lose', link: 'a->b' }, { kind: 'duplicate', link: 'b->c' }] as Choice[]) {
      expect(z.stepOf(state, c)).toBe(-1);
    }
  });

  it('names a step the same each time it is offered, and apart from every other step', () => {
    const z = new SleepSets();
    const ids = [z.stepOf(state, deliver('a->b')), z.stepOf(state, deliver('b->c')), z.stepOf(state, { kind: 'restart', comp: 1 })];
    expect(new Set(ids).size).toBe(3);
    expect(z.stepOf(state, deliver('b->c'))).toBe(ids[1]);
    expect(z.stepOf(state, { kind: 'restart', comp: 1 })).toBe(ids[2]);
  });

  it('takes steps on different components as commuting, and steps on one component, or two that both sent unordered, as not', () => {
    const z = new SleepSets();
    const toB = z.stepOf(state, deliver('a->b'));
    const toC = z.stepOf(state, deliver('b->c'));
    const alsoToB = z.stepOf(state, deliver('c->b'));
    const restartB = z.stepOf(state, { kind: 'restart', comp: 1 });
    expect(z.independent(toB, toC)).toBe(true);
    expect(z.independent(toB, alsoToB)).toBe(false);
    expect(z.independent(toB, restartB)).toBe(false);
    z.sentUnordered(toB);
    expect(z.independent(toB, toC)).toBe(true);
    z.sentUnordered(toC);
    expect(z.independent(toB, toC)).toBe(false);
  });

  it('tells, for a step, which steps stay asleep after it: those on other components', () => {
    const z = new SleepSets();
    const toB = z.stepOf(state, deliver('a->b'));
    const toC = z.stepOf(state, deliver('b->c'));
    const alsoToB = z.stepOf(state, deliver('c->b'));
    const bit = (x: number) => 1 << x;
    expect(z.commutingLowOf(toC)).toBe(bit(toB) | bit(alsoToB));
    expect(z.commutingLowOf(toB)).toBe(bit(toC));
    expect(z.commutingHighOf(toB)).toBe(0);
    // A step numbered later is counted in: the masks are worked out again.
    const restartA = z.stepOf(state, { kind: 'restart', comp: 0 });
    expect(z.commutingLowOf(toB)).toBe(bit(toC) | bit(restartA));
    // So is a mark of unordered sends: two unordered steps do not commute.
    z.sentUnordered(toB);
    z.sentUnordered(toC);
    expect(z.commutingLowOf(toC)).toBe(bit(restartA));
    expect(z.has(bit(toB) | bit(restartA), 0, restartA) && !z.has(bit(toB), 0, toC)).toBe(true);
  });

  it.each([LOW_STEPS, 3, 0])('numbers its low lane\'s %i steps and 32 more; one past them never sleeps', (lowSteps) => {
    const z = new SleepSets(lowSteps);
    const max = lowSteps + 32;
    expect(z.maxSteps).toBe(max);
    const many = { links: Array.from({ length: max + 2 }, (_, k) => ({ key: `x->y#${k}`, msgs: [{ to: k % 3 }], held: [] })) } as unknown as CheckState;
    const ids = many.links.map((l) => z.stepOf(many, deliver(l.key)));
    expect(ids.slice(0, max)).toEqual(Array.from({ length: max }, (_, k) => k));
    expect(ids.slice(max)).toEqual([-1, -1]);
    expect(z.steps).toBe(max);
    // Step 0 changes component 0: every step on 1 or 2 commutes with it, in both lanes.
    const low = z.commutingLowOf(0);
    const high = z.commutingHighOf(0);
    for (let x = 0; x < max; x++) expect(z.has(low, high, x)).toBe(x % 3 !== 0);
    // The low lane, shifted for the search's flag bit, still reads back whole.
    expect(((low << 1) | 1) >>> 1).toBe(low);
  });

  it('refuses a low lane wider than 31 steps', () => {
    expect(() => new SleepSets(32)).toThrow(/0 to 31 steps/);
    expect(() => new SleepSets(-1)).toThrow(/0 to 31 steps/);
  });
});

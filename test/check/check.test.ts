// The exhaustive search on real designs: the five Mercury verdicts agree with SPIN's (two orders,
// one crash), a counterexample replays from its choice path to the same trace, breadth-first
// finds a shortest one, a bound turns "holds" into "holds within bound", --fail-fast stops at
// the first violation, and every failure window is accounted for exactly once.
import { describe, expect, it } from 'vitest';
import { check, checkSetup, runChoices } from '../../src/modes/check/check.ts';
import { decodeChoices } from '../../src/modes/check/choicePath.ts';
import { replay } from '../../src/modes/replay.ts';
import { printRun } from '../../src/cli/printRun.ts';
import { styleFor } from '../../src/cli/style.ts';
import { loadScenario } from '../../src/scenario/catalogue.ts';
import { formatPlace } from '../../src/faults/place.ts';
import { describeCoverage } from '../../src/report/describeCoverage.ts';
import { exitCodeOf } from '../../src/checkers/verdict.ts';
import { verdictSummary } from '../../src/report/verdictSummary.ts';
import { fullDedupTable, fullDedupTableScenario } from '../fixtures/fullDedupTable.ts';

const load = async (name: string) => (await loadScenario(name)).scenario;

describe('check', () => {
  // SPIN's verdicts on bench/spin/mercury.pml at two orders and one crash (test/bench/spinModel.test.ts runs it).
  it.each([
    ['mercury-outbox', 'holds', []],
    ['mercury-dual-write-commit-first', 'violated', ['lost effect']],
    ['mercury-dual-write-publish-first', 'violated', ['phantom effect']],
    ['inventory-ack-before-commit', 'violated', ['lost effect']],
    ['inventory-inbox-separate-tx', 'violated', ['lost effect']],
  ] as const)('%s at two orders and one crash: %s, as SPIN says', async (name, verdict, found) => {
    const r = check(await load(name), { faults: 1, kinds: ['crash'] });
    expect(r.judgement.verdict).toBe(verdict);
    expect(r.judgement.found).toEqual(found);
    expect(r.coverage.bound).toBeUndefined();
    expect(r.check.size).toBe(2);
  }, 120_000);

  it('gives each violation a counterexample whose choice path replays its trace, and a shortest one breadth-first', async () => {
    const scenario = await load('mercury-dual-write-commit-first');
    const bfs = check(scenario, { faults: 1 });
    const ce = bfs.counterexamples.find((c) => c.violation === 'lost effect')!;
    expect(ce.replay.kind).toBe('choices');
    const path = decodeChoices(ce.replay.kind === 'choices' ? ce.replay.choices : '');
    const again = runChoices(scenario, checkSetup(scenario, { faults: 1 }), path);
    expect(again.traceHash).toBe(ce.traceHash);
    expect(again.findings.map((f) => f.violation)).toContain('lost effect');
    expect(again.plan).toEqual(ce.plan);
    expect(ce.plan).toHaveLength(1);
    const dfs = check(scenario, { faults: 1, dfs: true });
    const deep = dfs.counterexamples.find((c) => c.violation === 'lost effect')!;
    expect(dfs.judgement.verdict).toBe('violated');
    expect(decodeChoices(deep.replay.kind === 'choices' ? deep.replay.choices : '').length).toBeGreaterThanOrEqual(path.length);
    // Both orders visit the same states.
    expect(dfs.check.states).toBe(bfs.check.states);
  }, 120_000);

  it('marks where a counterexample\'s key went wrong, and its choice path\'s replay marks the same steps, in its summary and in its whole trace', async () => {
    const scenario = await load('mercury-dual-write-commit-first');
    const ce = check(scenario, { faults: 1 }).counterexamples.find((c) => c.violation === 'lost effect')!;
    const fact = ce.moments!.find((m) => m.kind === 'fact')!;
    expect([ce.trace[fact.at!]!.kind, ce.trace[fact.at!]!.component, (ce.trace[fact.at!]!.data as { event: { type: string } }).event.type]).toEqual(['deliver', 'ordersDb', 'db.commit']);
    expect(ce.moments!.map((m) => m.kind)).toEqual(['fact', 'missing']);
    const choices = decodeChoices(ce.replay.kind === 'choices' ? ce.replay.choices : '');
    const r = replay(scenario, { kind: 'choices', choices, faults: 1 });
    expect(r.moments).toEqual(ce.moments);
    for (const full of [false, true]) {
      const lines: string[] = [];
      printRun((t) => lines.push(t), styleFor(0), r, full);
      expect(lines.filter((l) => l.includes(`◀ source fact ${fact.key} committed`))).toHaveLength(1);
    }
  }, 120_000);

  it('is deterministic: the same search twice gives the same figures, paths and hashes', async () => {
    const scenario = await load('flow-rating-changed-fire-and-forget');
    const a = check(scenario, { faults: 1 });
    const b = check(scenario, { faults: 1 });
    expect(b.check).toEqual(a.check);
    expect(b.counterexamples.map((c) => [c.replay, c.traceHash])).toEqual(a.counterexamples.map((c) => [c.replay, c.traceHash]));
  }, 60_000);

  it('is inconclusive when a state bound stops it part-way, holds within a depth bound, and says which and what to shrink', async () => {
    const scenario = await load('mercury-outbox');
    const states = check(scenario, { faults: 1, maxStates: 500 });
    // No depth was searched whole, and no path reached its end: nothing was decided.
    expect(states.judgement.verdict).toBe('inconclusive');
    expect(states.judgement.asExpected).toBe(false);
    expect(exitCodeOf([states.judgement])).toBe(3);
    expect(states.coverage.bound).toEqual({ kind: 'states', max: 500 });
    expect(states.coverage.frontier).toBeGreaterThan(0);
    expect(verdictSummary(states).problems).toEqual([expect.stringMatching(/^the search was inconclusive: it reached no end state \(500 states to depth \d+, [\d,]+ states still waiting\); shrink the workload \(--size 1\), the faults \(--faults 0\) or their kinds \(--kinds crash\), or raise --max-states$/)]);
    expect(states.check.states).toBe(500);
    // At a workload of one the workload cannot shrink, and with no faults neither can the faults or their kinds: only the bound is advised.
    expect(verdictSummary(check(scenario, { faults: 1, size: 1, maxStates: 500 })).problems[0]).toMatch(/\); shrink the faults \(--faults 0\) or their kinds \(--kinds crash\), or raise --max-states$/);
    expect(verdictSummary(check(scenario, { faults: 0, size: 1, maxStates: 20 })).problems[0]).toMatch(/\); raise --max-states$/);
    // The breadth-first search that stopped at its bound was followed by a depth-first one, which found nothing either.
    expect(states.coverage.otherSearch).toMatchObject({ order: 'depth-first', states: 500 });
    expect(describeCoverage(states.judgement.verdict, states.coverage)).toMatch(/; a depth-first search within the same bound found no violation either \(500 states, depth \d+\)$/);
    // Every path to depth 160 searched, and some of them ended: that part of the space holds.
    const depth = check(scenario, { faults: 1, maxDepth: 160 });
    expect(depth.judgement.verdict).toBe('holds within bound');
    expect(depth.check.ends).toBeGreaterThan(0);
    expect(depth.coverage.bound).toEqual({ kind: 'depth', max: 160 });
    expect(depth.check.depth).toBeLessThanOrEqual(160);
    // Every path to depth 30 searched, but none reached its end: no claim was ever judged.
    const shallow = check(scenario, { faults: 1, maxDepth: 30 });
    expect(shallow.judgement.verdict).toBe('inconclusive');
    // The bound to raise is the one that stopped it.
    expect(verdictSummary(shallow).problems[0]).toMatch(/, or raise --max-depth$/);
    // A workload below the scenario's is a bound too: one order searched whole says nothing of two.
    const small = check(scenario, { faults: 1, size: 1 });
    expect(small.judgement.verdict).toBe('holds within bound');
    expect(small.coverage.workload).toEqual({ size: 1, of: 2 });
    expect(describeCoverage(small.judgement.verdict, small.coverage)).toMatch(/^holds within bound for every zero-latency interleaving with at most 1 fault at workload size 1 \(the scenario's is 2\): /);
    expect(check(scenario, { faults: 1, size: 2 }).coverage.workload).toBeUndefined();
  }, 60_000);

  it('follows a breadth-first search that stopped at its bound with a depth-first one, which reaches the end of long paths', async () => {
    // A reprocessing run is over 700 steps long: breadth-first, 25,000 states are a few dozen
    // levels, and no path has ended; the first path depth-first ends in the violation. (The
    // fault-free search that replaces a path whose fault played no part gets as many states as
    // the two searches took, and its space is 22,114 states.)
    const scenario = await load('reprocess-current-default');
    const r = check(scenario, { faults: 1, maxStates: 25_000 });
    expect(r.judgement.verdict).toBe('violated');
    expect(r.judgement.found).toEqual(['lost effect']);
    expect(r.coverage.otherSearch).toEqual({ order: 'breadth-first', states: 25_000, depth: expect.any(Number) });
    expect(r.coverage.otherSearch!.depth).toBeLessThan(100);
    expect(r.check.depth).toBeGreaterThan(500);
    expect(describeCoverage(r.judgement.verdict, r.coverage)).toContain('; found depth-first after a breadth-first search stopped at its bound without a violation (25,000 states, depth');
    // Its path replays like any other, under the fault budget its replay line names (none: the
    // violation needs no fault, and its fault-free path is the one shown).
    const ce = r.counterexamples[0]!;
    expect(ce.plan).toEqual([]);
    const again = runChoices(scenario, checkSetup(scenario, { faults: ce.replay.kind === 'choices' ? ce.replay.faults : -1 }), decodeChoices(ce.replay.kind === 'choices' ? ce.replay.choices : ''));
    expect(again.traceHash).toBe(ce.traceHash);
    // Asked for depth-first, the search runs once and names no other.
    expect(check(scenario, { faults: 1, maxStates: 25_000, dfs: true }).coverage.otherSearch).toBeUndefined();
  }, 120_000);

  it('with --fail-fast stops at its first violation and asks for no other', async () => {
    const scenario = await load('checkout-key-not-bound');
    const all = check(scenario, { faults: 1 });
    const fast = check(scenario, { faults: 1, failFast: true });
    expect(fast.judgement.verdict).toBe('violated');
    // One end state, which may break more than one clause.
    expect(new Set(fast.counterexamples.map((c) => c.traceHash)).size).toBe(1);
    expect(fast.check.states).toBeLessThan(all.check.states);
    expect(all.judgement.found.length).toBeGreaterThan(1);
    // A search cut short cannot be asked for every expected violation.
    expect(fast.judgement.missing).toEqual([]);
  }, 60_000);

  it('accounts for every failure window once: struck, reached only with the budget spent, or unreachable', async () => {
    const r = check(await load('mercury-dual-write-commit-first'), { faults: 1 });
    const struck = r.rows.filter((row) => row.fault === 'crash').map((row) => formatPlace(row.place));
    const all = [...struck, ...r.check.unstruckWindows, ...r.unreachedWindows].sort();
    expect(all).toEqual([...r.failureWindows].sort());
    expect(new Set(all).size).toBe(all.length);
    // The inbox guard fires only after a fault has brought a message back: never struck with one fault.
    expect(r.check.unstruckWindows).toContain('consumer.duplicateSeen');
    // With two faults it is struck.
    const two = check(await load('mercury-dual-write-commit-first'), { faults: 2, kinds: ['crash', 'duplicate'], size: 1 });
    expect(two.check.unstruckWindows).not.toContain('consumer.duplicateSeen');
  }, 120_000);

  // A windows run crashes a process as it enters the window it then rests in for good; a search
  // once ended the path there (nothing but faults was left to happen), so that crash was never
  // tried and the window was reported as reached only with the budget spent.
  it('strikes a process at the window it rests in at the end of a path, where the budget allows a fault', async () => {
    const scenario = await load('topic-transactional-read-process-write');
    const r = check(scenario, { faults: 1, kinds: ['crash'] });
    expect(r.check.unstruckWindows).toEqual([]);
    expect(r.rows.filter((row) => row.fault === 'crash').map((row) => formatPlace(row.place))).toContain('processor.drained');
    expect(r.judgement.verdict).toBe('holds');
    // As a choice path: the fault-free path to its end, then the crash there, which the process
    // survives by restarting from its durable state and coming back to rest.
    const setup = checkSetup(scenario, { faults: 1, kinds: ['crash'] });
    let path: number[] = [];
    let s = setup.world.initial();
    for (let offered = setup.world.choices(s); setup.world.end(s, offered) === undefined; offered = setup.world.choices(s)) {
      path.push(0);
      s = setup.world.apply(s, offered[0]!);
    }
    const offered = setup.world.choices(s);
    const crash = offered.findIndex((c) => c.kind === 'crash' && setup.world.names[c.comp] === 'processor');
    expect(crash).toBeGreaterThanOrEqual(0);
    path = [...path, crash];
    for (let t = setup.world.apply(s, offered[crash]!), o = setup.world.choices(t); setup.world.end(t, o) === undefined; t = setup.world.apply(t, o[0]!), o = setup.world.choices(t)) path.push(0);
    const run = runChoices(scenario, setup, path);
    expect(run.plan).toEqual([{ kind: 'crash', window: 'processor.drained', occurrence: 1 }]);
    expect(run.trace.some((e) => e.kind === 'restart' && e.component === 'processor')).toBe(true);
    expect(run.outcome).toBe('holds');
  }, 60_000);

  it('shows a violation that needs no fault with none, though the first path to reach it took one', async () => {
    // A fault-free interleaving of two events duplicates the effect; a path with a delayed poll
    // reply reaches a duplicate in fewer steps (the poll cycles it cut), and the search stopped there.
    const scenario = await load('inventory-two-events-inbox-only');
    const r = check(scenario, { faults: 1 });
    const ce = r.counterexamples.find((c) => c.violation === 'duplicate effect')!;
    expect(ce.plan).toEqual([]);
    const budget = ce.replay.kind === 'choices' ? ce.replay.faults : -1;
    const again = runChoices(scenario, checkSetup(scenario, { faults: budget }), decodeChoices(ce.replay.kind === 'choices' ? ce.replay.choices : ''));
    expect(again.plan).toEqual([]);
    expect(again.traceHash).toBe(ce.traceHash);
    expect(again.findings.map((f) => f.violation)).toContain('duplicate effect');
    // A violation that does need a fault keeps it.
    const lost = check(await load('mercury-dual-write-commit-first'), { faults: 1 }).counterexamples.find((c) => c.violation === 'lost effect')!;
    expect(lost.plan).toHaveLength(1);
  }, 120_000);

  it('finds a fault-free violation with no fault at all, and a row for every fault that struck', async () => {
    const r = check(await load('dedup-horizon-7d-vs-30d'), { faults: 0 });
    expect(r.judgement.verdict).toBe('violated');
    expect(r.counterexamples[0]!.plan).toEqual([]);
    expect(r.rows).toEqual([]);
    const scenario = await load('dedup-horizon-7d-vs-30d');
    const one = check(scenario, { faults: 1 });
    for (const row of one.rows) {
      expect(row.struck).toBeGreaterThan(0);
      expect(row.replay?.kind).toBe('choices');
    }
    // Found with no fault by the search with one, it is replayed with none, to the trace hash shown.
    const ce = one.counterexamples[0]!;
    expect(ce.plan).toEqual([]);
    expect(ce.replay.kind === 'choices' && ce.replay.faults).toBe(0);
    const again = runChoices(scenario, checkSetup(scenario, { faults: 0 }), decodeChoices(ce.replay.kind === 'choices' ? ce.replay.choices : ''));
    expect(again.traceHash).toBe(ce.traceHash);
    expect(again.findings.map((f) => f.violation)).toContain(ce.violation);
  }, 60_000);
});

describe("a counterexample's marks on a path whose fault rides on a delivery", () => {
  it('marks the delivery that committed each outcome, never the fault line recorded before it', () => {
    // A dedup table of no entries: a duplicated order is applied twice.
    const r = check({ ...fullDedupTableScenario, build: () => fullDedupTable(0) }, { faults: 1, kinds: ['duplicate'] });
    expect(r.judgement.verdict).toBe('violated');
    const ce = r.counterexamples[0]!;
    const marked = (ce.moments ?? []).filter((m) => m.kind === 'outcome').map((m) => ce.trace[m.at!]!);
    expect(marked.map((e) => [e.kind, e.component])).toEqual([
      ['deliver', 'receiver'],
      ['deliver', 'receiver'],
    ]);
  });
});

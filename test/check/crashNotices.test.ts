// A search sends a crash's notice only to components whose machine handles one somewhere: to any
// other it changes nothing but the link it came on, so leaving it out must change no end state,
// verdict, row or window, while every such notice no longer doubles the states a crash leads to.
// Which machines handle an event is read from their definitions, at any depth and through
// wildcards, so the answer "never" is one a machine cannot contradict.
import { describe, expect, it } from 'vitest';
import { createMachine } from 'xstate';
import { handlesEvent } from '../../src/kernel/handlesEvent.ts';
import { check, type CheckResult } from '../../src/modes/check/check.ts';
import { loadScenario } from '../../src/scenario/catalogue.ts';
import { sampled } from '../support/suite.ts';

describe('handlesEvent', () => {
  it('finds a transition for the type on the root, in a nested state, or through a wildcard, and none where no node has one', () => {
    const root = createMachine({ initial: 'a', on: { 'sys.peerCrashed': {} }, states: { a: {} } });
    const nested = createMachine({ initial: 'a', states: { a: { initial: 'b', states: { b: { on: { 'sys.peerCrashed': {} } } } } } });
    const prefix = createMachine({ initial: 'a', states: { a: { on: { 'sys.*': {} } } } });
    const any = createMachine({ initial: 'a', states: { a: { on: { '*': {} } } } });
    const deaf = createMachine({ initial: 'a', on: { 'sys.peerCrashedX': {}, 'db.exec': {} }, states: { a: { on: { 'sys.clockSkew': {} } }, b: {} } });
    for (const m of [root, nested, prefix, any]) expect(handlesEvent(m, 'sys.peerCrashed')).toBe(true);
    expect(handlesEvent(deaf, 'sys.peerCrashed')).toBe(false);
    expect(handlesEvent(deaf, 'sys.clockSkew')).toBe(true);
  });
});

/** What leaving the notices out must not change: everything but the state and transition counts. */
function judged(r: CheckResult) {
  const { interleavings, ...coverage } = r.coverage;
  return {
    judgement: r.judgement,
    finished: interleavings.kind,
    coverage,
    failureWindows: r.failureWindows,
    unreachedWindows: r.unreachedWindows,
    rows: r.rows.map((w) => [w.place, w.fault, w.runs, w.struck, w.outcome, w.outcomes]),
    distinctOutcomes: r.distinctOutcomes,
    found: r.counterexamples.map((c) => c.findings.map((f) => [f.violation, f.effect])),
  };
}

describe('crash notices in the exhaustive search', () => {
  // Each has a component that never listens for a crash (a relay, the order service, a provider)
  // beside ones that do (a database, the broker, a consumer); the quick suite keeps the first.
  it.each(
    sampled(['mercury-outbox', 'checkout-stable-key-database-crash', 'group-rebalance-inbox', 'carrier-key-short-retention'], (name) => name === 'mercury-outbox'),
  )('%s: the same end states, verdict, rows and windows as with every notice sent, in fewer states', async (name) => {
    const { scenario } = await loadScenario(name);
    const every = check(scenario, { faults: 1, kinds: ['crash'], failFast: false, everyNotice: true });
    const some = check(scenario, { faults: 1, kinds: ['crash'], failFast: false });
    expect(every.coverage.bound).toBeUndefined();
    expect(judged(some)).toEqual(judged(every));
    expect(some.check.states).toBeLessThan(every.check.states);
  }, 120_000);

  // At two faults the second strikes after the first crash's notices, so in fewer states: each
  // row is struck fewer times, and rows are met in another order, but each ends the same.
  it('mercury-dual-write-commit-first at two crashes: the same verdict, end states and outcome of every row', async () => {
    const { scenario } = await loadScenario('mercury-dual-write-commit-first');
    const every = check(scenario, { faults: 2, kinds: ['crash'], failFast: false, everyNotice: true });
    const some = check(scenario, { faults: 2, kinds: ['crash'], failFast: false });
    expect(every.coverage.bound).toBeUndefined();
    const rows = (r: CheckResult) => r.rows.map((w) => JSON.stringify([w.place, w.fault, w.outcome, w.outcomes])).sort();
    const { rows: _e, ...everyRest } = judged(every);
    const { rows: _s, ...someRest } = judged(some);
    expect(someRest).toEqual(everyRest);
    expect(rows(some)).toEqual(rows(every));
    expect(some.check.states).toBeLessThan(every.check.states);
  }, 120_000);
});

describe('a message held back past its sender’s crash notice', () => {
  // The broker's reply to a subscribe, reordered behind the notice of the broker's own restore,
  // would land on a connection already dropped: the consumer, back to connecting, took it for the
  // restarted broker's answer and waited for ever (a lost effect in a design that holds). The
  // World drops what a reorder held when its sender crashes; a search does the same.
  it('is lost with the connection, so a design that holds still holds with a restore and a reorder', async () => {
    const { scenario } = await loadScenario('mercury-outbox-restore-offsets');
    const r = check(scenario, { faults: 2, kinds: ['restore', 'reorder'], size: 1, failFast: true });
    // Within bound only for the workload: one order where the scenario has two.
    expect(r.judgement.verdict).toBe('holds within bound');
    expect(r.counterexamples).toEqual([]);
  });
});

describe('a reply from before a restore, delayed past it', () => {
  it('never answers a later take of the same record: a consumer that lost its broker session names its transactions anew', async () => {
    const { default: design } = await import('./fixtures/restoredCredits.ts');
    const { runScenario } = await import('../../src/run/runScenario.ts');
    const plan = [
      { kind: 'delay', point: 'pointsDb->crediter:db.result', occurrence: 1 },
      { kind: 'restore', component: 'pointsDb', window: 'publisher.pacing', occurrence: 3 },
    ] as const;
    const run = runScenario(design, { seed: 1, plan: [...plan] as never, keepTrace: true });
    expect(run.findings.map((f) => f.violation)).toEqual([]);
    // The take after the broker came back runs under a name of its own, so the stale reply to d0.0.t1.1 answers nothing.
    const execs = (run.report.trace ?? []).filter((e) => e.kind === 'deliver' && e.component === 'pointsDb' && (e.data as { event: { type: string } }).event.type === 'db.exec');
    expect(execs.map((e) => (e.data as { event: { tx: string } }).event.tx)).toContain('d0.0.t2.1');
  });
});

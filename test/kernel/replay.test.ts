// Replay as data: a plan line and an explore path both come back as the run they name, with
// its findings, clauses, trace, the faults that never struck and the line that replays it again.
// A plan naming what the design does not have is bad input; a harness error keeps its stack.
import { describe, expect, it } from 'vitest';
import { explore } from '../../src/modes/explore.ts';
import { InputError } from '../../src/base/inputError.ts';
import { replayLine } from '../../src/modes/replayLine.ts';
import { checkPlan, replay } from '../../src/modes/replay.ts';
import { timeScaleOf, type Scenario } from '../../src/scenario/scenario.ts';
import commitFirst from '../../scenarios/mercury-dual-write-commit-first.ts';
import outbox from '../../scenarios/mercury-outbox.ts';

describe('replay of a plan', () => {
  it('reruns the plan and reports the run, its clauses, and a line that names it again', () => {
    const plan = [{ kind: 'crash', window: 'source.afterSourceCommit', occurrence: 1 }] as const;
    const r = replay(commitFirst, { kind: 'plan', seed: 1, plan: [...plan] }, 'scenarios/mine.ts');
    expect(r).toMatchObject({ kind: 'replay', name: commitFirst.name, ref: 'scenarios/mine.ts', seed: 1, size: commitFirst.workload.size, search: undefined, outcome: 'lost effect', unstruck: [] });
    expect(r.findings.map((f) => f.violation)).toContain('lost effect');
    expect(r.judgement).toMatchObject({ verdict: 'violated', asExpected: true, found: ['lost effect'] });
    expect(r.coverage).toMatchObject({ mode: 'replay', faultDepth: 1, kinds: ['crash'], runs: 1, unstruckRuns: 0, interleavings: { kind: 'seeded', seed: 1 } });
    expect(r.trace.length).toBeGreaterThan(0);
    expect(r.traceHash).toMatch(/^[0-9a-f]{64}$/);
    expect(replayLine(r.replay)).toBe(`npx faultline replay scenarios/mine.ts --seed 1 --plan '${JSON.stringify(plan)}'`);
    // The same input gives the same run, byte for byte.
    expect(replay(commitFirst, { kind: 'plan', seed: 1, plan: [...plan] }).traceHash).toBe(r.traceHash);
  });

  it('says which planned faults never struck, and judges a fault-free run as the fault-free expectation', () => {
    const r = replay(outbox, { kind: 'plan', seed: 3, plan: [{ kind: 'lose', point: 'relay->broker:broker.publish', occurrence: 99 }], size: 1 });
    expect(r.size).toBe(1);
    expect(r.unstruck).toEqual([{ kind: 'lose', point: 'relay->broker:broker.publish', occurrence: 99 }]);
    expect(r.coverage.unstruckRuns).toBe(1);
    expect(r.replay).toEqual({ kind: 'plan', scenario: 'mercury-outbox', seed: 3, plan: r.plan, size: 1 });
    const none = replay(commitFirst, { kind: 'plan', seed: 1, plan: [] });
    expect(none.coverage).toMatchObject({ faultDepth: 0, kinds: [] });
    expect(none.judgement).toMatchObject({ verdict: 'holds', asExpected: false });
  });
});

describe('replay of an explore path', () => {
  it('decodes the path back into explore’s shrunk counterexample, with the same trace hash', () => {
    const found = explore(commitFirst, { seed: 9, runs: 300, maxFaults: 2 });
    if (found.search.status !== 'failed') throw new Error('explore found nothing');
    const ce = found.search.counterexample;
    const r = replay(commitFirst, { kind: 'path', seed: 9, path: found.search.path, maxFaults: 2 });
    expect(r).toMatchObject({ seed: ce.seed, size: ce.size, plan: ce.plan, traceHash: ce.traceHash, search: { seed: 9, path: found.search.path }, outcome: ce.outcome });
    expect(replayLine(r.replay)).toBe(replayLine(ce.replay));
    expect(replayLine(r.replay)).toMatch(/ --max-faults 2$/);
  });
});

describe('checkPlan', () => {
  it('refuses a fault kind, window or message point the design does not have', () => {
    const refusal = (plan: unknown[]) => {
      try {
        checkPlan(outbox, plan as never, undefined);
      } catch (error) {
        expect(error).toBeInstanceOf(InputError);
        return (error as Error).message;
      }
      return 'accepted';
    };
    expect(refusal([{ kind: 'crash', window: 'relay.polling', occurrence: 1 }, { kind: 'lose', point: 'relay->broker:broker.publish', occurrence: 1 }])).toBe('accepted');
    expect(refusal([{ kind: 'crsh', window: 'relay.polling', occurrence: 1 }])).toBe('--plan: no fault kind crsh (did you mean crash?)');
    expect(refusal([{ kind: 'crash', window: 'relay', occurrence: 1 }])).toBe('--plan: mercury-outbox has no failure window relay');
    expect(refusal([{ kind: 'crash', window: 'relay.poling', occurrence: 1 }])).toBe('--plan: mercury-outbox has no failure window relay.poling (did you mean relay.polling?)');
    expect(refusal([{ kind: 'delay', point: 'relay.polling', occurrence: 1 }])).toMatch(/^--plan: relay\.polling is not a message point of mercury-outbox/);
    expect(refusal([{ kind: 'delay', point: 'relay->nobody:x', occurrence: 1 }])).toMatch(/^--plan: relay->nobody:x is not a message point/);
    expect(refusal([{ kind: 'delay', point: 'nobody->relay:x', occurrence: 1 }])).toMatch(/^--plan: nobody->relay:x is not a message point/);
  });
});

describe('a harness error', () => {
  // A design whose build fails at the smallest workload: every run at that size throws.
  const broken: Scenario = {
    ...commitFirst,
    build: (w) => {
      if (w.size === 1) throw new Error('build failed at size 1');
      return commitFirst.build(w, timeScaleOf(commitFirst));
    },
  };

  it('is rethrown by explore as it is, never turned into a counterexample', () => {
    expect(() => explore(broken, { seed: 1, runs: 200 })).toThrow(/^build failed at size 1$/);
  });

  it('is rethrown by an explore replay as it is, never turned into bad input', () => {
    let error: unknown;
    try {
      replay(broken, { kind: 'path', seed: 1, path: '0' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(InputError);
    expect((error as Error).message).toBe('build failed at size 1');
  });
});

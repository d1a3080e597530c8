// The benchmark's plain baseline (bench/plainOutbox.ts) runs the Mercury outbox protocol as the
// models do, run for run: inside the real World its hand-written steppers leave the compiled
// models' trace hash (and outcome, steps, ticks and durable end state) on every windows-mode plan
// at seeds 1..10 and on 300 sampled explore cases, and they step without XState.
import { timeScaleOf } from '../../src/scenario.ts';
import { describe, expect, it, vi } from 'vitest';
import { comparePlainOutbox, plainComparisonCases } from '../../bench/plainComparison.ts';
import { plainOutboxComponents, plainStepperFor, runPlainOutbox } from '../../bench/plainOutbox.ts';
import { CompiledMachine } from '../../src/compiledMachine.ts';
import { loadScenario } from '../../src/catalogue.ts';
import { runScenario } from '../../src/runScenario.ts';
import mercuryOutbox from '../../scenarios/mercury-outbox.ts';

describe('the plain outbox baseline', () => {
  it('gives the compiled models’ trace hash on every windows plan at seeds 1..10 and 300 explore cases', () => {
    const cases = plainComparisonCases();
    const windows = cases.filter((c) => c.mode === 'windows');
    // Every windows plan of mercury-outbox (database links lose or delay only) at ten seeds.
    expect(windows.length).toBeGreaterThan(10 * 130);
    expect(cases.length - windows.length).toBe(300);
    const r = comparePlainOutbox(cases);
    expect(r.divergences.map((d) => `seed ${d.case.seed} size ${d.case.size} ${JSON.stringify(d.case.plan)}: ${d.differs.join('; ')}`)).toEqual([]);
    expect(r.identical).toBe(cases.length);
    // The cases exercise faults, not only fault-free runs.
    expect(r.struck).toBeGreaterThan(cases.length / 2);
  });

  it('a trace hash tells the baseline from a changed protocol', () => {
    // The relay's poll interval is part of the protocol: with another one the plain run's trace
    // differs from the models', so the equality above is not an artefact of the hash.
    const plan = [{ kind: 'crash' as const, window: 'relay.afterBrokerAccept', occurrence: 1 }];
    const model = runScenario(mercuryOutbox, { seed: 3, plan });
    const changed = runScenario(
      {
        ...mercuryOutbox,
        build: ({ size }) =>
          plainOutboxComponents(size).map((c) => (c.name === 'relay' ? { ...c, stepper: plainStepperFor({ ...c, input: { ...c.input, pollTicks: 9 } }) } : c)),
      },
      { seed: 3, plan },
    );
    expect(runPlainOutbox({ seed: 3, plan }).report.traceHash).toBe(model.report.traceHash);
    expect(changed.report.traceHash).not.toBe(model.report.traceHash);
  });

  it('steps every component without XState or the compiled driver', () => {
    const machines = mercuryOutbox.build(mercuryOutbox.workload, timeScaleOf(mercuryOutbox)).map((c) => c.machine);
    const spies = [
      vi.spyOn(CompiledMachine.prototype, 'transition'),
      vi.spyOn(CompiledMachine.prototype, 'initial'),
      ...machines.flatMap((m) => [vi.spyOn(m, 'transition'), vi.spyOn(m, 'getInitialSnapshot')]),
    ];
    try {
      const run = runPlainOutbox({ seed: 1, plan: [{ kind: 'crash', window: 'consumer.afterInboxInsert', occurrence: 1 }] });
      expect(run.report.strikes).toHaveLength(1);
      expect(run.outcome).toBe('holds');
      for (const spy of spies) expect(spy).not.toHaveBeenCalled();
      // The same spies see the models' run, so they would catch a plain run that used them.
      runScenario(mercuryOutbox, { seed: 1, plan: [] });
      expect(spies[0]).toHaveBeenCalled();
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
  });

  it('refuses a component whose design option it does not implement', async () => {
    const { scenario } = await loadScenario('mercury-dual-write-commit-first');
    const source = scenario.build(scenario.workload, timeScaleOf(scenario)).find((c) => c.name === 'source')!;
    expect(() => plainStepperFor(source)()).toThrow('the plain outbox baseline does not implement source with design dualWriteCommitFirst');
  });
});

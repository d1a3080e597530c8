// Prefix sharing (src/resumePoints.ts): a faulted run started where its first fault strikes in a
// captured reference run must be the run performed from the beginning, event for event: the same
// trace, the same hash, the same strikes, notes, end state and findings. Every single-fault plan
// of scenarios that between them use every fault kind and both kinds of crashing component is
// held to that, and every pair of one scenario, since a pair resumes at the earlier of its two.
import { describe, expect, it } from 'vitest';
import { loadScenario } from '../../src/catalogue.ts';
import type { FaultPlan } from '../../src/faults.ts';
import { resumeIndex } from '../../src/resumePoints.ts';
import { runScenario, type RunRecord } from '../../src/runScenario.ts';
import type { Scenario } from '../../src/scenario.ts';
import { sweepPlan } from '../../src/windowsPart.ts';

const SEED = 1;

/** Everything a run leaves that a report or a checker reads. */
function essence(r: RunRecord) {
  const { report } = r;
  return {
    ending: report.ending,
    ticks: report.ticks,
    steps: report.steps,
    strikes: report.strikes,
    unstruck: report.unstruck,
    traceHash: report.traceHash,
    census: [...report.census],
    windowCounts: [...report.windowCounts],
    notes: report.notes,
    durable: report.durable,
    trace: report.trace,
    outcome: r.outcome,
    findings: r.findings,
  };
}

/** Runs each plan whole and resumed; returns how many of them resumed part-way. */
function compare(scenario: Scenario, plans: readonly FaultPlan[]): { resumed: number; skippedSteps: number } {
  const reference = runScenario(scenario, { seed: SEED, plan: [], keepTrace: true, capture: true });
  const points = reference.report.resume!;
  let resumed = 0;
  let skippedSteps = 0;
  for (const plan of plans) {
    const whole = runScenario(scenario, { seed: SEED, plan, keepTrace: true });
    const part = runScenario(scenario, { seed: SEED, plan, keepTrace: true }, reference);
    expect(essence(part), `${scenario.name} ${JSON.stringify(plan)}`).toEqual(essence(whole));
    const index = resumeIndex(points, plan);
    // The report says how many of its steps it took over, so speeds count only those performed.
    expect(part.report.sharedSteps).toBe(index === undefined ? undefined : points.saved[index]!.steps);
    expect(whole.report.sharedSteps).toBeUndefined();
    if (index !== undefined) {
      resumed++;
      skippedSteps += points.saved[index]!.steps;
    }
  }
  return { resumed, skippedSteps };
}

const load = async (name: string) => (await loadScenario(name)).scenario;

describe('a run resumed from a captured reference run', () => {
  it.each([
    'mercury-outbox', // crash, lose, duplicate, delay, reorder on an order pipeline
    'mercury-dual-write-commit-first', // violated: the counterexamples' runs resume too
    'outbox-servers-crash', // server crashes inside a database or broker step
    'mercury-outbox-restore-database', // restore
    'stream-clock-skew', // skew
    'group-rebalance-inbox', // rebalance
    'mercury-outbox-two-relays', // several relay workers
  ])('is the run performed from the start, for every single fault of %s', async (name) => {
    const scenario = await load(name);
    const plan = sweepPlan(scenario, { seed: SEED, pairs: false, maxOccurrence: 2, failFast: false });
    const { resumed, skippedSteps } = compare(scenario, plan.plans);
    // Most plans strike after the components booted, so most runs skip a prefix.
    expect(resumed).toBeGreaterThan(plan.plans.length / 2);
    expect(skippedSteps).toBeGreaterThan(0);
  }, 120_000);

  it('is the run performed from the start for every pair of faults, resumed at the earlier one', async () => {
    const scenario = await load('mercury-dual-write-publish-first');
    const plan = sweepPlan(scenario, { seed: SEED, pairs: true, maxOccurrence: 1, failFast: false });
    const pairs = plan.plans.filter((p) => p.length === 2);
    expect(pairs.length).toBeGreaterThan(100);
    expect(compare(scenario, pairs).resumed).toBeGreaterThan(pairs.length / 2);
  }, 120_000);

  it('runs whole when the reference cannot serve it: another seed, a schedule of latencies, a fault at boot', async () => {
    const scenario = await load('mercury-outbox');
    const reference = runScenario(scenario, { seed: SEED, plan: [], keepTrace: true, capture: true });
    const points = reference.report.resume!;
    const late = sweepPlan(scenario, { seed: SEED, pairs: false, maxOccurrence: 2, failFast: false }).plans.find((p) => resumeIndex(points, p) !== undefined)!;
    // Another seed draws other latencies, so the reference's prefix is not this run's.
    const other = runScenario(scenario, { seed: SEED + 1, plan: late, keepTrace: true }, reference);
    expect(other.report.traceHash).toBe(runScenario(scenario, { seed: SEED + 1, plan: late }).report.traceHash);
    const latencies = [2, 0, 1];
    expect(runScenario(scenario, { seed: SEED, plan: late, latencies }, reference).report.traceHash).toBe(runScenario(scenario, { seed: SEED, plan: late, latencies }).report.traceHash);
    // A window entered while the components boot has no saved step before it.
    const bootKey = [...points.at].find(([, at]) => at === -1)![0];
    const window = bootKey.slice(1, bootKey.lastIndexOf('#'));
    expect(resumeIndex(points, [{ kind: 'crash', window, occurrence: 1 }])).toBeUndefined();
  });

  it('is refused by a World given another run’s components or seed', async () => {
    const scenario = await load('mercury-outbox');
    const reference = runScenario(scenario, { seed: SEED, plan: [], keepTrace: true, capture: true });
    const { World } = await import('../../src/world.ts');
    const from = { points: reference.report.resume!, index: 0 };
    expect(() => new World(scenario.build({ size: scenario.workload.size }, { tickMs: 1 } as never), { seed: SEED, plan: [] }, from)).toThrow(/resumes only from a reference run of its own components and seed/);
    expect(() => new World(reference.components, { seed: SEED + 1, plan: [] }, from)).toThrow(/resumes only from a reference run of its own components and seed/);
    expect(() => new World(reference.components, { seed: SEED, plan: [{ kind: 'crash', window: 'relay.polling', occurrence: 1 }], capture: true })).toThrow(/only a fault-free run is captured/);
  });
});

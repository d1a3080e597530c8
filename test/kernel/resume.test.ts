// Prefix sharing (src/kernel/resumePoints.ts): a faulted run started where its first fault strikes in a
// captured reference run must be the run performed from the beginning, event for event: the same
// trace, the same hash, the same strikes, notes, end state and findings. Every single-fault plan
// of scenarios that between them use every fault kind and both kinds of crashing component is
// held to that, and every second pair of one scenario, since a pair resumes at the earlier of its two.
// The quick suite takes three of the scenarios and a fifth of the pairs (test/support/suite.ts).
import { describe, expect, it } from 'vitest';
import { loadScenario } from '../../src/scenario/catalogue.ts';
import type { Fault, FaultPlan } from '../../src/faults/faults.ts';
import { resumeIndex, sameRunAs } from '../../src/kernel/resumePoints.ts';
import { runScenario, type RunRecord } from '../../src/run/runScenario.ts';
import type { Scenario } from '../../src/scenario/scenario.ts';
import { pairBase, sweepPlan } from '../../src/modes/windowsPart.ts';
import { full, sampled } from '../support/suite.ts';

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
  it.each(
    sampled(
      [
        'mercury-outbox', // crash, lose, duplicate, delay, reorder on an order pipeline
        'mercury-dual-write-commit-first', // violated: the counterexamples' runs resume too
        'outbox-servers-crash', // server crashes inside a database or broker step
        'mercury-outbox-restore-database', // restore
        'stream-clock-skew', // skew
        'group-rebalance-inbox', // rebalance
        'mercury-outbox-two-relays', // several relay workers
      ],
      (name) => ['mercury-outbox', 'outbox-servers-crash', 'stream-clock-skew'].includes(name),
    ),
  )('is the run performed from the start, for every single fault of %s', async (name) => {
    const scenario = await load(name);
    const plan = sweepPlan(scenario, { seed: SEED, pairs: false, maxOccurrence: 2, failFast: false });
    const { resumed, skippedSteps } = compare(scenario, plan.plans);
    // Most plans strike after the components booted, so most runs skip a prefix.
    expect(resumed).toBeGreaterThan(plan.plans.length / 2);
    expect(skippedSteps).toBeGreaterThan(0);
  }, 120_000);

  it(`is the run performed from the start for every ${full ? 'second' : 'fifth'} pair of faults of one design, resumed at the earlier one`, async () => {
    const scenario = await load('mercury-dual-write-publish-first');
    const plan = sweepPlan(scenario, { seed: SEED, pairs: true, maxOccurrence: 1, failFast: false });
    const all = plan.plans.filter((p) => p.length === 2);
    expect(all.length).toBeGreaterThan(100);
    // Every second pair in the catalogue suite: the tests below resume pairs of six more designs.
    const pairs = all.filter((_, i) => i % (full ? 2 : 5) === 0);
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
    const { World } = await import('../../src/run/world.ts');
    const from = { points: reference.report.resume!, index: 0 };
    expect(() => new World(scenario.build({ size: scenario.workload.size }, { tickMs: 1 } as never), { seed: SEED, plan: [] }, from)).toThrow(/resumes only from a reference run of its own components and seed/);
    expect(() => new World(reference.components, { seed: SEED + 1, plan: [] }, from)).toThrow(/resumes only from a reference run of its own components and seed/);
    // A captured faulted run serves only plans that have its fault: another plan's run differs from the strike on.
    const crash: Fault = { kind: 'crash', window: 'relay.polling', occurrence: 1 };
    const captured = runScenario(scenario, { seed: SEED, plan: [crash], keepTrace: true, capture: true }, reference);
    const other: Fault = { kind: 'crash', window: 'consumer.idle', occurrence: 1 };
    expect(() => new World(reference.components, { seed: SEED, plan: [other] }, { points: captured.report.resume!, index: 0 })).toThrow(/whose faults are all in its own plan/);
    expect(resumeIndex(captured.report.resume!, [other])).toBeUndefined();
    expect(sameRunAs(captured.report.resume!, [other])).toBe(false);
    expect(runScenario(scenario, { seed: SEED, plan: [other], keepTrace: true }, captured).report.traceHash).toBe(runScenario(scenario, { seed: SEED, plan: [other] }).report.traceHash);
  });
});

/** A pair's fields a sweep reads, for a run that keeps neither its trace nor its hash. */
function untraced(r: RunRecord) {
  const { trace: _t, traceHash: _h, ...rest } = essence(r);
  return { ...rest, plan: r.plan, claims: r.claims };
}

describe('a pair resumed from the captured run of the fault that strikes first', () => {
  it.each(
    sampled(
      [
        ['mercury-outbox', 1],
        ['outbox-servers-crash', 1],
        ['mercury-outbox-restore-database', 1],
        ['stream-clock-skew', 1],
        ['group-rebalance-inbox', 1],
        ['mercury-dual-write-commit-first', 2],
      ] as const,
      ([name]) => name === 'group-rebalance-inbox',
    ),
  )('is the run performed from the start, for every third pair of %s (occurrences up to %i)', async (name, maxOccurrence) => {
    const scenario = await load(name);
    const plan = sweepPlan(scenario, { seed: SEED, pairs: true, maxOccurrence, failFast: false });
    // Every third pair keeps the file's time down; each group still captures its base and runs several pairs from it.
    const pairs = plan.plans.filter((p) => p.length === 2).filter((_, i) => i % 3 === 0);
    const points = plan.reference.report.resume!;
    let base: RunRecord | undefined;
    let hashedBase: RunRecord | undefined;
    let refused = 0;
    let beyondReference = 0;
    let notPerformed = 0;
    for (const pair of pairs) {
      const first = pairBase(plan, pair);
      if (base?.plan[0] !== first) {
        // As the sweep captures it: unhashed, so it logs no trace lines.
        base = runScenario(scenario, { seed: SEED, plan: [first], keepTrace: true, hashTrace: false, capture: true }, plan.reference);
        // The same run captured hashed, for the runs below that compare their hash with the run from the start.
        hashedBase = runScenario(scenario, { seed: SEED, plan: [first], keepTrace: true, capture: true }, plan.reference);
        // The base itself, captured while resumed from the reference, is still the run from the start.
        expect(essence(runScenario(scenario, { seed: SEED, plan: [first], keepTrace: true }, hashedBase))).toEqual(essence(runScenario(scenario, { seed: SEED, plan: [first], keepTrace: true })));
      }
      const label = `${name} ${JSON.stringify(pair)}`;
      const whole = runScenario(scenario, { seed: SEED, plan: pair, keepTrace: true });
      const part = runScenario(scenario, { seed: SEED, plan: pair, keepTrace: true }, hashedBase);
      expect(essence(part), label).toEqual(essence(whole));
      // As a sweep runs it: neither trace nor hash, and not performed at all when the other fault never strikes.
      // Keeping the trace and its hash changes nothing else a run leaves, so the run from the start above is its measure.
      const swept = runScenario(scenario, { seed: SEED, plan: pair, keepTrace: false, hashTrace: false }, base);
      expect(untraced(swept), label).toEqual(untraced(whole));
      const captured = base!.report.resume!;
      const index = resumeIndex(captured, pair);
      // A run that hashes its trace cannot take its prefix from one that did not.
      if (index !== undefined) {
        expect(() => runScenario(scenario, { seed: SEED, plan: pair, keepTrace: true }, base), label).toThrow(/hashed trace continues only from the log of a hashed trace/);
        refused++;
      }
      const fromReference = resumeIndex(points, pair);
      const referenceShares = fromReference === undefined ? 0 : points.saved[fromReference]!.steps;
      if (sameRunAs(captured, pair)) {
        notPerformed++;
        expect(swept.report.sharedSteps).toBe(swept.report.steps);
        expect(swept.report.unstruck.length).toBeGreaterThan(0);
      } else {
        expect(part.report.sharedSteps).toBe(index === undefined ? undefined : captured.saved[index]!.steps);
        if ((part.report.sharedSteps ?? 0) > referenceShares) beyondReference++;
      }
    }
    // The captured runs take over more than the reference run alone could; and every planned
    // pair's second fault strikes in the run of its first, so none is that run again.
    expect(beyondReference).toBeGreaterThan(pairs.length / 10);
    expect(notPerformed).toBe(0);
    expect(refused).toBeGreaterThan(0);
  }, 300_000);

  it('groups pairs by the fault that strikes first, in the order they strike, each second fault striking after it', async () => {
    const scenario = await load('mercury-outbox');
    const grouped = sweepPlan(scenario, { seed: SEED, pairs: true, maxOccurrence: 2, failFast: false });
    const singles = grouped.space.singles;
    expect(grouped.plans.slice(0, singles.length)).toEqual(singles.map((f) => [f]));
    const pairs = grouped.plans.slice(singles.length);
    const bases = pairs.map((p) => pairBase(grouped, p));
    const seen = new Set<Fault>();
    for (let i = 0; i < bases.length; i++) {
      if (i > 0 && bases[i] !== bases[i - 1]) {
        expect(seen.has(bases[i]!), `group of ${JSON.stringify(bases[i])} comes back`).toBe(false);
        expect(grouped.strikesAt!(bases[i]!)).toBeGreaterThanOrEqual(grouped.strikesAt!(bases[i - 1]!));
      }
      seen.add(bases[i]!);
    }
    expect(seen.size).toBeGreaterThan(10);
    // No two plans are the same two faults.
    const asSet = (p: FaultPlan) => p.map((f) => JSON.stringify(f)).sort().join('|');
    expect(new Set(pairs.map(asSet)).size).toBe(pairs.length);
  });

  it('plans every two single faults whose run strikes both exactly once, and second faults at occurrences only the first fault’s run reaches', async () => {
    const scenario = await load('mercury-dual-write-publish-first');
    const plan = sweepPlan(scenario, { seed: SEED, pairs: true, maxOccurrence: 1, failFast: false });
    const singles = plan.space.singles;
    const asSet = (p: FaultPlan) => p.map((f) => JSON.stringify(f)).sort().join('|');
    const planned = new Map<string, number>();
    for (const p of plan.plans.slice(singles.length)) planned.set(asSet(p), (planned.get(asSet(p)) ?? 0) + 1);
    let both = 0;
    for (let i = 0; i < singles.length; i += full ? 1 : 3) {
      for (let j = i + 1; j < singles.length; j += full ? 1 : 2) {
        const pair = [singles[i]!, singles[j]!];
        const run = runScenario(scenario, { seed: SEED, plan: pair, hashTrace: false, keepTrace: false });
        const struck = run.report.unstruck.length === 0;
        if (struck) both++;
        expect(planned.get(asSet(pair)) ?? 0, JSON.stringify(pair)).toBe(struck ? 1 : 0);
      }
    }
    expect(both).toBeGreaterThan(20);
    // Some pair's second fault is at an occurrence the fault-free run never reached: only the
    // run of its first fault (a retry, a redelivery) offers it.
    const beyondReference = plan.plans.slice(singles.length).filter(([, second]) => !singles.some((f) => asSet([f]) === asSet([second!])));
    expect(beyondReference.length).toBeGreaterThan(0);
    for (const p of beyondReference.slice(0, 5)) expect(runScenario(scenario, { seed: SEED, plan: p, hashTrace: false, keepTrace: false }).report.unstruck).toEqual([]);
  });
});

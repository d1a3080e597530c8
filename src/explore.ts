// Explore mode: fast-check searches fault plans, workload sizes and simulation seeds (which
// decide the interleaving). A violation shrinks to a minimal plan, and the failure is printed
// as data first: the claim, the plan, the trace and one line (fast-check seed and path) that
// replays it exactly. Only running counts are kept between runs, so memory stays flat however
// many runs are asked for.
import fc from 'fast-check';
import { claimSentence } from './claims.ts';
import type { Finding, RunOutcome } from './checkers/finding.ts';
import { MESSAGE_FAULT_KINDS, type Fault, type FaultPlan } from './faults.ts';
import { runScenario } from './runScenario.ts';
import type { Scenario } from './scenario.ts';
import type { TraceEvent } from './trace.ts';
import { DEFAULT_SEED, failureWindows } from './windows.ts';

export interface ExploreOptions {
  readonly runs?: number;
  /** fast-check's seed; the same seed explores the same sequence of plans. */
  readonly seed?: number;
  /** A fast-check path: replays one (shrunk) case directly. */
  readonly path?: string;
  /** At most this many faults per plan. */
  readonly maxFaults?: number;
  /** Highest occurrence of a window or message a fault may target. */
  readonly maxOccurrence?: number;
  /** How the user named the scenario (a catalogue name or a file path), for the replay line. */
  readonly ref?: string;
}

export interface Case {
  readonly seed: number;
  readonly size: number;
  readonly plan: FaultPlan;
}

export interface ExploreCounterexample extends Case {
  readonly outcome: RunOutcome;
  readonly findings: readonly Finding[];
  readonly traceHash: string;
  readonly trace: readonly TraceEvent[];
  readonly replay: string;
}

export interface ExploreResult {
  readonly name: string;
  readonly expect: 'holds' | 'violated';
  readonly verdict: 'holds' | 'violated' | 'unknown';
  readonly asExpected: boolean;
  readonly claims: readonly string[];
  /** The fast-check seed and, after a failure, the path of the shrunk case. */
  readonly seed: number;
  readonly path: string | undefined;
  readonly runs: number;
  readonly outcomes: Readonly<Partial<Record<RunOutcome, number>>>;
  readonly counterexample: ExploreCounterexample | undefined;
  /** Convenience copies of the counterexample's fields, as the `--json` contract names them. */
  readonly plan: FaultPlan | undefined;
  readonly traceHash: string | undefined;
  readonly trace: readonly TraceEvent[] | undefined;
}

/** The places a generated fault may strike, from the machine definitions and a reference run. */
export function explorationSpace(scenario: Scenario): { windows: string[]; points: string[] } {
  const reference = runScenario(scenario, { seed: DEFAULT_SEED, plan: [] });
  const windows = failureWindows(scenario.build(scenario.workload));
  const points = [...reference.world.network.census().keys()].sort();
  return { windows, points };
}

export function caseArbitrary(scenario: Scenario, options: ExploreOptions = {}): fc.Arbitrary<Case> {
  const { windows, points } = explorationSpace(scenario);
  const occurrence = fc.integer({ min: 1, max: options.maxOccurrence ?? 3 });
  const crash = fc.record({ kind: fc.constant('crash' as const), window: fc.constantFrom(...windows), occurrence });
  const message = fc.record({ kind: fc.constantFrom(...MESSAGE_FAULT_KINDS), point: fc.constantFrom(...points), occurrence });
  const fault: fc.Arbitrary<Fault> = points.length > 0 ? fc.oneof(crash, message) : crash;
  return fc.record({
    seed: fc.integer({ min: 0, max: 0x7fffffff }),
    size: fc.integer({ min: 1, max: scenario.workload.size }),
    plan: fc.array(fault, { maxLength: options.maxFaults ?? 3 }),
  });
}

/** The line that replays a shrunk case; it repeats every option that shapes the search space. */
export function exploreReplayLine(scenario: string, seed: number, path: string, options: ExploreOptions = {}): string {
  const extra = `${options.maxFaults === undefined ? '' : ` --max-faults ${options.maxFaults}`}${options.maxOccurrence === undefined ? '' : ` --max-occurrence ${options.maxOccurrence}`}`;
  return `npx faultline replay ${scenario} --seed ${seed} --path ${path}${extra}`;
}

export function explore(scenario: Scenario, options: ExploreOptions = {}): ExploreResult {
  const seed = options.seed ?? DEFAULT_SEED;
  const outcomes: Partial<Record<RunOutcome, number>> = {};
  let runs = 0;
  const property = fc.property(caseArbitrary(scenario, options), (c) => {
    const run = runScenario(scenario, { seed: c.seed, plan: c.plan, size: c.size, hashTrace: false });
    runs++;
    outcomes[run.outcome] = (outcomes[run.outcome] ?? 0) + 1;
    // Only a violation fails the property; a checker that could not decide is counted as
    // unknown and makes the verdict unknown, never a counterexample and never a pass.
    return run.findings.length === 0;
  });
  const details = fc.check(property, {
    seed,
    numRuns: options.runs ?? 1_000,
    ...(options.path === undefined ? {} : { path: options.path }),
  });
  let counterexample: ExploreCounterexample | undefined;
  if (details.failed && details.counterexample) {
    const c = details.counterexample[0] as Case;
    const traced = runScenario(scenario, { seed: c.seed, plan: c.plan, size: c.size, keepTrace: true });
    counterexample = {
      ...c,
      outcome: traced.outcome,
      findings: traced.findings,
      traceHash: traced.result.traceHash,
      trace: traced.world.trace.events,
      replay: exploreReplayLine(options.ref ?? scenario.name, seed, details.counterexamplePath ?? '', options),
    };
  }
  if (details.errorInstance && !counterexample) throw details.errorInstance;
  const verdict = counterexample ? 'violated' : outcomes.unknown ? 'unknown' : 'holds';
  const expected = scenario.expect.verdict;
  const asExpected =
    verdict === expected && (expected === 'holds' || (scenario.expect.verdict === 'violated' && scenario.expect.violations.includes(counterexample!.outcome as never)));
  return {
    name: scenario.name,
    expect: expected,
    verdict,
    asExpected,
    claims: scenario.claims.map(claimSentence),
    seed,
    path: details.counterexamplePath ?? undefined,
    runs,
    outcomes,
    counterexample,
    plan: counterexample?.plan,
    traceHash: counterexample?.traceHash,
    trace: counterexample?.trace,
  };
}

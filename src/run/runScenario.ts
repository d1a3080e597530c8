// One run of a scenario under one fault plan: build the design, run the World's safety and
// liveness phases, check every claim against the durable end state. Everything a report or a
// replay needs comes back as data (the World's RunReport, each claim's clauses, the findings),
// together with the components the run was built from, so no caller builds the design again.
import { beat } from '../base/heartbeat.ts';
import { checkClaim, type ClaimVerdict } from '../checkers/compose.ts';
import type { Finding, RunOutcome } from '../checkers/finding.ts';
import { sameFault, type FaultPlan } from '../faults/faults.ts';
import { timeScaleOf, worldOptionsOf, type DesignComponent, type Scenario } from '../scenario/scenario.ts';
import { resumeIndex, sameRunAs } from '../kernel/resumePoints.ts';
import { runOutcome } from '../checkers/verdict.ts';
import { refuseUnhandled } from './unhandledMessages.ts';
import { World, type Driver } from './world.ts';
import { type RunReport } from '../kernel/runReport.ts';
import type { WorldView } from '../kernel/worldView.ts';

export interface RunSpec {
  readonly seed: number;
  readonly plan: FaultPlan;
  /** Workload size; the scenario's own when absent. */
  readonly size?: number;
  /**
   * A schedule of message latencies, in ticks above the least (see NetworkOptions); absent, the
   * simulation seed draws them.
   */
  readonly latencies?: readonly number[];
  readonly keepTrace?: boolean;
  /** Whether to hash the trace (default true); a run whose hash is never read can skip it. */
  readonly hashTrace?: boolean;
  /** How machines are stepped; the World's default when absent. */
  readonly driver?: Driver;
  /** Save where faulted runs can start (a fault-free reference run only; src/kernel/resumePoints.ts). */
  readonly capture?: boolean;
}

export interface RunRecord {
  /** The scenario run, and the driver asked for (undefined: the World's default). */
  readonly scenario: Scenario;
  readonly driver: Driver | undefined;
  readonly seed: number;
  readonly plan: FaultPlan;
  readonly size: number;
  readonly report: RunReport;
  /** The worst outcome of the run: its worst finding, unknown when a clause could not be decided, or holds. */
  readonly outcome: RunOutcome;
  readonly findings: readonly Finding[];
  readonly claims: readonly ClaimVerdict[];
  /** The components the run was built from, at this size. */
  readonly components: readonly DesignComponent[];
}

/** What checkers see of a finished run. */
export function viewOf(report: Pick<RunReport, 'durable' | 'ending' | 'notes'>): WorldView {
  return {
    durable: <T>(name: string) => {
      if (!(name in report.durable)) throw new Error(`no component named ${name}`);
      return report.durable[name] as T;
    },
    result: report,
    notes: report.notes,
  };
}

/**
 * One run. Given `reference`, a captured run of the same scenario, seed and size (the fault-free
 * reference run, or a run of some of this plan's faults), the run starts where the first of its
 * other faults strikes in the captured run instead of from the beginning, with the same result
 * (src/kernel/resumePoints.ts); a run the captured one cannot serve (a schedule of latencies, another
 * driver, a fault that strikes at boot, a captured fault this plan lacks) runs whole.
 */
export function runScenario(scenario: Scenario, spec: RunSpec, reference?: RunRecord): RunRecord {
  beat();
  const size = spec.size ?? scenario.workload.size;
  const time = timeScaleOf(scenario);
  const points = reference?.report.resume;
  const serves = points !== undefined && reference!.scenario === scenario && reference!.seed === spec.seed && reference!.size === size && reference!.driver === spec.driver && spec.latencies === undefined;
  // A run that keeps neither its trace nor its hash and whose extra faults never strike is the
  // captured run itself, so it is not performed again.
  if (serves && !spec.keepTrace && spec.hashTrace === false && !spec.capture && sameRunAs(points, spec.plan)) return asSameRun(reference!, spec.plan);
  const index = serves ? resumeIndex(points, spec.plan) : undefined;
  const from = index === undefined ? undefined : { points: points!, index };
  const components = from ? (reference!.components as DesignComponent[]) : builtOnce(scenario, size);
  const world = new World(components, {
    ...worldOptionsOf(scenario, time),
    seed: spec.seed,
    plan: spec.plan,
    ...(spec.latencies === undefined ? {} : { latencies: spec.latencies }),
    keepTrace: spec.keepTrace ?? false,
    hashTrace: spec.hashTrace ?? true,
    ...(spec.driver === undefined ? {} : { driver: spec.driver }),
    ...(spec.capture ? { capture: true } : {}),
  }, from);
  const report = world.run();
  // Only a run of the full design can send to the wrong component; a resumed run's sends were checked in its reference.
  if (from === undefined) refuseUnhandled(report.census, components);
  const { outcome, findings, claims } = judgeClaims(scenario, viewOf(report));
  return { scenario, seed: spec.seed, plan: spec.plan, size, driver: spec.driver, report, outcome, findings, claims, components };
}

/**
 * The record of a run that is `captured` with more faults in its plan, none of which struck: the
 * same steps, end state and findings, every step taken over, and the extra faults unstruck. Its
 * trace was neither kept nor hashed, so nothing names the other plan.
 */
function asSameRun(captured: RunRecord, plan: FaultPlan): RunRecord {
  const { resume: _points, sharedSteps: _shared, trace: _trace, ...report } = captured.report;
  const unstruck = plan.filter((f) => !report.strikes.some((s) => sameFault(s.fault, f)));
  return { ...captured, plan, report: { ...report, trace: undefined, traceHash: '', unstruck, sharedSteps: report.steps } };
}

/**
 * A scenario's components at a size, built once per process: a design is data, so a sweep or an
 * exploration need not build it again for every run.
 */
const built = new WeakMap<Scenario, Map<number, readonly DesignComponent[]>>();

export function builtOnce(scenario: Scenario, size: number): readonly DesignComponent[] {
  let bySize = built.get(scenario);
  if (bySize === undefined) built.set(scenario, (bySize = new Map()));
  let components = bySize.get(size);
  if (components === undefined) bySize.set(size, (components = scenario.build({ size }, timeScaleOf(scenario))));
  return components;
}

/** Every claim of a scenario judged on one end state, and the run's outcome from them. */
export function judgeClaims(scenario: Scenario, view: WorldView): { outcome: RunOutcome; findings: Finding[]; claims: ClaimVerdict[] } {
  const claims = scenario.claims.map((c) => checkClaim(c, view));
  const findings = claims.flatMap((c) => c.findings);
  return { outcome: runOutcome(findings, claims.some((c) => c.outcome === 'unknown'), claims.some((c) => c.outcome === 'inconclusive')), findings, claims };
}

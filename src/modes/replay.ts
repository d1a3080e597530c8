// Replay: one run, exactly as a failure line describes it. Either a simulation seed and a fault
// plan (the line windows mode prints), or fast-check's seed and path (the line explore prints),
// which is decoded back into the same shrunk case, its schedule of message latencies included. The result is data: the run's findings and
// clauses, its trace and hash, and the planned faults that never struck (a plan that does not
// strike proves nothing, and the replay says so).
import { refOf } from '../scenario/scenarioRef.ts';
import { checkRanges, OPTION_RANGES } from '../base/optionRanges.ts';
import { beatless } from '../base/heartbeat.ts';
import type { ClaimVerdict } from '../checkers/compose.ts';
import type { Finding, RunOutcome } from '../checkers/finding.ts';
import type { Claim } from '../checkers/claims.ts';
import { ClauseTally, type Coverage } from '../checkers/coverage.ts';
import { FAULT_KINDS, faultDescriptor, faultPlace, isWindowFault, type Fault, type FaultKind, type FaultPlan, type WindowFault, type WindowFaultDescriptor } from '../faults/faults.ts';
import { explorationSpace, exploreRange, finishExplore, type ExploreResult } from './explore.ts';
import { designWindows, failureWindows } from '../run/failureWindows.ts';
import { InputError } from '../base/inputError.ts';
import { didYouMean } from '../base/nearest.ts';
import { formatPlace } from '../faults/place.ts';
import { readPlan } from '../faults/readPlan.ts';
import type { ReplayRef } from './replayLine.ts';
import { framedRun } from '../run/framedRun.ts';
import { runScenario } from '../run/runScenario.ts';
import { keyMoments, type KeyMoment } from '../analysis/keyMoments.ts';
import { checkSetup, choiceMoments, runChoices } from './check/check.ts';
import { encodeChoices } from './check/choicePath.ts';
import type { Duration } from '../base/duration.ts';
import { linkFaults } from '../faults/linkFaults.ts';
import { expectedAt, timeScaleOf, type DesignComponent, type Scenario } from '../scenario/scenario.ts';
import type { TraceEvent } from '../kernel/trace.ts';
import { undecidedOf } from './windowRow.ts';
import { judge, verdictOf, type Judgement } from '../checkers/verdict.ts';
import type { DriverRefusal } from '../kernel/runEvents.ts';

export type ReplayInput =
  | { readonly kind: 'plan'; readonly seed: number; readonly plan: FaultPlan; readonly size?: number }
  | { readonly kind: 'choices'; readonly choices: readonly number[]; readonly faults: number; readonly kinds?: readonly FaultKind[]; readonly size?: number; readonly worldLatency?: boolean }
  | { readonly kind: 'path'; readonly seed: number; readonly path: string; readonly maxFaults?: number; readonly maxOccurrence?: number };

export interface ReplayResult {
  readonly kind: 'replay';
  readonly name: string;
  readonly ref: string;
  readonly claims: readonly Claim[];
  /** The simulation seed, workload size and plan of the run. */
  readonly seed: number;
  readonly size: number;
  readonly plan: FaultPlan;
  /** How long one tick of the scenario's simulated time is. */
  readonly tick: Duration;
  /** For an explore line, fast-check's seed and path. */
  readonly search: { readonly seed: number; readonly path: string } | undefined;
  /** For a check line, the choice path. */
  readonly choices?: string;
  /** For an explore line, the case's schedule of message latencies; a plan's run draws them from its seed, and a check's run has none. */
  readonly latencies: readonly number[] | undefined;
  readonly outcome: RunOutcome;
  readonly findings: readonly Finding[];
  readonly claimVerdicts: readonly ClaimVerdict[];
  readonly traceHash: string;
  readonly trace: readonly TraceEvent[];
  /** Planned faults that never struck. */
  readonly unstruck: readonly Fault[];
  readonly judgement: Judgement;
  readonly coverage: Coverage;
  readonly replay: ReplayRef;
  readonly refusals: readonly DriverRefusal[];
  /** The steps at which the keys of the run's worst finding went wrong (absent when it has none). */
  readonly moments?: readonly KeyMoment[];
}

/**
 * Refuses a plan that names a window or a message point the design does not have. A point's
 * nearest names are the points the design's fault-free run sends (`sent`, run only when needed).
 */
export function checkPlan(scenario: Scenario, plan: FaultPlan, size: number | undefined, sent: () => readonly string[] = () => []): void {
  const components = scenario.build(size === undefined ? scenario.workload : { size }, timeScaleOf(scenario));
  const names = components.map((c) => c.name);
  const windows = failureWindows(components);
  for (const f of plan) {
    if (!FAULT_KINDS.includes(f.kind)) throw new InputError(`--plan: no fault kind ${f.kind}${didYouMean(f.kind, FAULT_KINDS)}`);
    const place = faultPlace(f);
    if (isWindowFault(f)) {
      if (!place || !windows.includes(formatPlace(place))) throw new InputError(`--plan: ${scenario.name} has no failure window ${f.window}${didYouMean(f.window, windows)}`);
      checkDeclaredWindowFault(f, components, place.kind === 'window' ? place.component : '');
    } else if (!place || place.kind !== 'point' || !names.includes(place.from) || !names.includes(place.to)) {
      throw new InputError(`--plan: ${f.point} is not a message point of ${scenario.name} (<from>-><to>:<type>)${didYouMean(f.point, sent())}`);
    } else if (!linkFaults(components, place.from, place.to, place.type).includes(f.kind)) {
      const can = linkFaults(components, place.from, place.to, place.type).join(', ') || 'nothing';
      throw new InputError(`--plan: ${f.point} cannot suffer ${f.kind} (it can: ${can})`);
    }
  }
}

/** The message points the design's fault-free run sends with this seed and size, sorted; run once, when first asked. */
function sentPoints(scenario: Scenario, seed: number, size: number | undefined): () => readonly string[] {
  let points: readonly string[] | undefined;
  return () => (points ??= [...runScenario(scenario, { seed, plan: [], hashTrace: false, keepTrace: false, ...(size === undefined ? {} : { size }) }).report.census.keys()].sort());
}

/**
 * Refuses a message fault at a point that neither the plan's own run nor the design's fault-free
 * run ever sends: such a place does not exist (a misspelt message type), and reporting the fault
 * as merely never struck would pass the plan off as tried. A point the runs do send but not as
 * often as the fault's occurrence is a real place, and stays a fault that never struck.
 */
function checkPointsSent(scenario: Scenario, plan: FaultPlan, census: ReadonlyMap<string, number>, sent: () => readonly string[]): void {
  for (const f of plan) {
    if (isWindowFault(f) || census.has(f.point) || sent().includes(f.point)) continue;
    const known = [...new Set([...census.keys(), ...sent()])].sort();
    const near = didYouMean(f.point, known);
    throw new InputError(`--plan: ${scenario.name} never sends a message at ${f.point}${near || `; its message points: ${known.join(', ') || 'none'}`}`);
  }
}

/** A declared window fault needs what its kind needs declared (a restore a snapshot, a skew a clock that can jump). */
function checkDeclaredWindowFault(f: WindowFault, components: readonly DesignComponent[], owner: string): void {
  const refused = (faultDescriptor(f.kind) as WindowFaultDescriptor).refuse(f, components, owner);
  if (refused !== undefined) throw new InputError(`--plan: ${refused}`);
}

/** Explore's one case at fast-check's seed and path; a path that does not fit the search space is bad input. */
function explorePath(scenario: Scenario, input: Extract<ReplayInput, { kind: 'path' }>, ref: string): ExploreResult {
  // The path's first number is the run the search failed at. fast-check reaches it by stepping
  // over every run before it (about 45 s for a hundred million, with no beat and none of the
  // scenario's code, which the stall watch is told), so a number no search of at most the most
  // runs could print is refused rather than stepped to.
  const run = Number(/^\d+/.exec(input.path)?.[0] ?? 0);
  const most = OPTION_RANGES.runs[1];
  if (run >= most) throw new InputError(`path ${input.path} starts at run ${run}, past the last run a search of at most ${most.toLocaleString('en-US')} runs makes: no search printed it`);
  const options = {
    seed: input.seed,
    path: input.path,
    runs: 1,
    ref,
    ...(input.maxFaults === undefined ? {} : { maxFaults: input.maxFaults }),
    ...(input.maxOccurrence === undefined ? {} : { maxOccurrence: input.maxOccurrence }),
  };
  const space = explorationSpace(scenario);
  // From the search's start to its first run: the stepping, which the first run's beat ends
  // before any of the scenario's code runs.
  const stepping = beatless();
  try {
    return finishExplore(scenario, options, exploreRange(scenario, options, 0, 1, space), space);
  } catch (error) {
    // fast-check refuses a path that does not fit the search space the options describe; any
    // other error is a harness bug and keeps its stack.
    if (!(error instanceof Error) || !/replay|path/i.test(error.message)) throw error;
    throw new InputError(`seed ${input.seed} and path ${input.path} do not replay for ${scenario.name}: ${error.message.split('\n')[0]}`);
  } finally {
    stepping();
  }
}

/** The kinds of replay: a windows plan, a check choice path, an explore path. */
const REPLAY_KINDS: readonly (string | undefined)[] = ['plan', 'choices', 'path'];

export function replay(scenario: Scenario, input: ReplayInput, ref = refOf(scenario)): ReplayResult {
  if (!REPLAY_KINDS.includes(input?.kind)) throw new InputError(`replay: kind must be one of ${REPLAY_KINDS.join(', ')}, got ${JSON.stringify(input?.kind)}`);
  checkRanges('replay', input, input.kind === 'choices' ? [['faults', 'pathFaults'], 'size'] : ['seed', 'size', 'maxFaults', 'maxOccurrence']);
  if (input.kind === 'choices') return replayChoices(scenario, input, ref);
  return replayRun(scenario, input.kind === 'plan' ? { ...input, plan: readPlan(input.plan, 'replay: plan') } : input, ref);
}

/** A plan's run, or an explore case's, replayed. */
function replayRun(scenario: Scenario, input: Exclude<ReplayInput, { kind: 'choices' }>, ref: string): ReplayResult {
  let seed: number;
  let size: number | undefined;
  let plan: FaultPlan;
  let latencies: readonly number[] | undefined;
  let search: ReplayResult['search'];
  let replayRef: ReplayRef;
  const sent = input.kind === 'plan' ? sentPoints(scenario, input.seed, input.size) : undefined;
  if (input.kind === 'path') {
    const found = explorePath(scenario, input, ref);
    if (found.search.status !== 'failed') throw new InputError(`seed ${input.seed} and path ${input.path} reproduce no failure for ${scenario.name}: a path replays only with the --max-faults and --max-occurrence of the search that printed it, on the same design`);
    const ce = found.search.counterexample;
    seed = ce.seed;
    size = ce.size;
    plan = ce.plan;
    latencies = ce.latencies;
    search = { seed: input.seed, path: input.path };
    replayRef = ce.replay;
  } else {
    checkPlan(scenario, input.plan, input.size, sent);
    seed = input.seed;
    size = input.size;
    plan = input.plan;
    search = undefined;
    replayRef = { kind: 'plan', scenario: ref, seed, plan, ...(size === undefined ? {} : { size }) };
  }
  // Framed, so the summary can mark where the worst finding's key went wrong; the run is the same.
  const framed = framedRun(scenario, { seed, plan, ...(size === undefined ? {} : { size }), ...(latencies === undefined ? {} : { latencies }) });
  const run = framed.record;
  if (sent !== undefined) checkPointsSent(scenario, plan, run.report.census, sent);
  const worst = run.outcome === 'holds' || run.outcome === 'unknown' || run.outcome === 'inconclusive' ? undefined : run.outcome;
  const clauses = new ClauseTally();
  clauses.add(run.claims);
  const coverage: Coverage = {
    mode: 'replay',
    faultDepth: plan.length,
    kinds: [...new Set(plan.map((f) => f.kind))],
    windows: designWindows(run.components, (w) => run.report.windowCounts.has(w)).length,
    points: run.report.census.size,
    runs: 1,
    unstruckRuns: run.report.unstruck.length > 0 ? 1 : 0,
    interleavings: latencies === undefined ? { kind: 'seeded', seed } : { kind: 'scheduled' },
    clauses: clauses.result(),
  };
  const verdict = verdictOf([run.outcome]);
  return {
    kind: 'replay',
    name: scenario.name,
    ref,
    claims: scenario.claims,
    seed,
    size: run.size,
    plan,
    tick: timeScaleOf(scenario).tick,
    search,
    latencies,
    outcome: run.outcome,
    findings: run.findings,
    claimVerdicts: run.claims,
    traceHash: run.report.traceHash,
    trace: run.report.trace ?? [],
    unstruck: run.report.unstruck,
    judgement: judge(expectedAt(scenario.expect, plan.length), verdict, run.findings.map((f) => f.violation), 'sampled', run.findings.map((f) => f.effect), undecidedOf(run)),
    coverage,
    replay: replayRef,
    refusals: run.report.refusals,
    ...(worst === undefined ? {} : { moments: keyMoments(framed, scenario.claims, worst) }),
  };
}

/** A check counterexample's run again: the choice path through the check's world, traced. */
function replayChoices(scenario: Scenario, input: Extract<ReplayInput, { kind: 'choices' }>, ref: string): ReplayResult {
  const setup = checkSetup(scenario, {
    faults: input.faults,
    ...(input.kinds === undefined ? {} : { kinds: input.kinds }),
    ...(input.size === undefined ? {} : { size: input.size }),
    ...(input.worldLatency ? { worldLatency: true } : {}),
  });
  const run = runChoices(scenario, setup, input.choices, { framed: true });
  if (run.end === undefined) throw new InputError(`--choices: the path stops before the run ends (after ${input.choices.length} steps the world is neither quiet nor stuck); give the whole path the check printed, with the --faults, --kinds and --size its line gives`);
  const worst = run.outcome === 'holds' || run.outcome === 'unknown' || run.outcome === 'inconclusive' ? undefined : run.outcome;
  const clauses = new ClauseTally();
  clauses.add(run.claims);
  const choices = encodeChoices(input.choices);
  const coverage: Coverage = {
    mode: 'replay',
    faultDepth: run.plan.length,
    kinds: [...new Set(run.plan.map((f) => f.kind))],
    // A path through the check's world counts the windows the check counted: those its options leave.
    windows: designWindows(run.components, () => false).length,
    points: 0,
    runs: 1,
    unstruckRuns: 0,
    interleavings: { kind: 'chosen' },
    clauses: clauses.result(),
  };
  return {
    kind: 'replay',
    name: scenario.name,
    ref,
    claims: scenario.claims,
    seed: 0,
    size: setup.size,
    plan: run.plan,
    tick: timeScaleOf(scenario).tick,
    search: undefined,
    latencies: undefined,
    choices,
    outcome: run.outcome,
    findings: run.findings,
    claimVerdicts: run.claims,
    traceHash: run.traceHash,
    trace: run.trace,
    unstruck: [],
    judgement: judge(expectedAt(scenario.expect, input.faults), verdictOf([run.outcome]), run.findings.map((f) => f.violation), 'sampled', run.findings.map((f) => f.effect), undecidedOf(run)),
    coverage,
    replay: { kind: 'choices', scenario: ref, choices, faults: input.faults, ...(input.kinds === undefined ? {} : { kinds: input.kinds }), ...(input.size === undefined ? {} : { size: input.size }), ...(input.worldLatency ? { worldLatency: true } : {}) },
    refusals: [],
    ...(worst === undefined ? {} : { moments: choiceMoments(scenario, run, worst) }),
  };
}

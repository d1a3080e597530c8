// Windows mode: exhaustive fault injection. The fault space (src/faultSpace.ts) comes from the
// design's machines and a fault-free reference run; every single fault (and, on request, every
// pair) is one run. Each run's worst outcome lands in the failure-window table, and the first
// run of each violation is run again, traced, as a counterexample with the line that replays it.
// Everything here is data; src/report/ words it.
import type { RetryObservation } from './retryObservation.ts';
import type { RepairQuery } from './repairQuery.ts';
import { windowRowOf, type ObservedRun } from './windowRow.ts';
import { VIOLATIONS, type Finding, type RunOutcome, type Violation } from './checkers/finding.ts';
import type { Claim } from './claims.ts';
import { ClauseTally, violatedClaims, type Coverage } from './coverage.ts';
import { faultPlace, type FaultKind, type FaultPlan } from './faults.ts';
import { failureWindows } from './failureWindows.ts';
import type { Place } from './place.ts';
import type { ReplayRef } from './replayLine.ts';
import { runScenario, type RunRecord } from './runScenario.ts';
import type { Duration } from './duration.ts';
import { expectedAt, timeScaleOf, type EvidencePart, type Scenario, type WindowNote } from './scenario.ts';
import { rerun, sweepPlan, sweepWindows, type HeldRuns, type RowPart, type SweepPlan, type SweepSettings, type WindowsPart } from './windowsPart.ts';
import type { TraceEvent } from './trace.ts';
import { judge, outcomeRank, verdictOf, type Judgement, type Undecided } from './verdict.ts';

export type { Undecided } from './verdict.ts';
import type { DriverRefusal, InFlight } from './world.ts';

/** What was durable and in flight when a fault struck. */
export interface Evidence {
  readonly tick: number;
  /** Each described component's durable state, in the design's order. */
  readonly components: readonly { readonly component: string; readonly parts: readonly EvidencePart[] }[];
  readonly inFlight: readonly InFlight[];
  /** What the end state shows that the row's finding points at (empty when the run held). */
  readonly end: readonly string[];
}

export interface WindowRow {
  /** A failure window or a message point. */
  readonly place: Place;
  readonly fault: FaultKind;
  /** For a restore, the component it set back to its snapshot. */
  readonly restored?: string;
  /** Runs at this place and fault (one per occurrence). */
  readonly runs: number;
  /** Runs in which the fault actually struck (none: the workload never reached this place). */
  readonly struck: number;
  /** The worst outcome over those runs. */
  readonly outcome: RunOutcome;
  readonly outcomes: Readonly<Partial<Record<RunOutcome, number>>>;
  /** Durable state and messages in flight when the representative run's fault struck, and its end-state difference. */
  readonly evidence: Evidence | undefined;
  /** Who re-sent the interrupted work in the representative run (undefined: the fault never struck). */
  readonly retry: RetryObservation | undefined;
  /** The query that finds the damage the row's finding points at, or checks for what the window could do. */
  readonly repair: RepairQuery | undefined;
  /** Whether the representative run saw a repeat attempt (a guard the fault called on fired, or a duplicate effect committed). */
  readonly repeatSeen: boolean;
  /** The guards that fired more often in the representative run than in the fault-free run: the ones the fault called on. */
  readonly guards: readonly string[];
  /** Whether the representative run committed a duplicate its fault-free run did not: the guards the fault called on did not suppress it. */
  readonly duplicated: boolean;
  /** The design's own note for this window, when it declares one. */
  readonly note: WindowNote | undefined;
  /** Why runs here could not be judged: the clause whose checker threw, and its error. */
  readonly undecided: readonly Undecided[];
  /** The plan of the worst run: the row's representative, whose strike, trace and findings its cells show. */
  readonly plan: FaultPlan;
  /** How to replay the worst run, when a plan and the sweep's seed do not (check mode: its choice path). */
  readonly replay?: ReplayRef;
}


export interface Counterexample {
  readonly violation: Violation;
  readonly seed: number;
  readonly size: number;
  readonly plan: FaultPlan;
  readonly findings: readonly Finding[];
  readonly traceHash: string;
  readonly trace: readonly TraceEvent[];
  readonly replay: ReplayRef;
}

/** What a check (src/check/check.ts) adds to a sweep's result: its search and what it reached. */
export interface CheckSummary {
  readonly faults: number;
  readonly size: number;
  /** Distinct states stored, choices taken, the longest path, distinct end states judged. */
  readonly states: number;
  readonly transitions: number;
  readonly depth: number;
  readonly ends: number;
  /** Bytes the visited set and the path tree hold. */
  readonly bytes: number;
  /** Windows some path entered but none struck: only paths whose faults were spent reached them. */
  readonly unstruckWindows: readonly string[];
}

/** A sweep's result: windows mode, or check mode (`check` set), which every report form renders alike. */
export interface WindowsResult {
  readonly kind: 'windows' | 'check';
  readonly name: string;
  readonly title: string;
  readonly source: string;
  readonly lesson: string;
  /** How the user named the scenario: a catalogue name or a file path; replay lines use it. */
  readonly ref: string;
  readonly seed: number;
  /** How long one tick of the scenario's simulated time is. */
  readonly tick: Duration;
  readonly claims: readonly Claim[];
  readonly judgement: Judgement;
  readonly coverage: Coverage;
  readonly distinctOutcomes: readonly RunOutcome[];
  readonly rows: readonly WindowRow[];
  readonly counterexamples: readonly Counterexample[];
  /** Failure windows of the design, and those no run ever entered. */
  readonly failureWindows: readonly string[];
  readonly unreachedWindows: readonly string[];
  readonly refusals: readonly DriverRefusal[];
  readonly check?: CheckSummary;
}

export interface WindowsOptions {
  readonly seed?: number;
  readonly pairs?: boolean;
  readonly maxOccurrence?: number;
  /** How the user named the scenario (a catalogue name or a file path), for replay lines. */
  readonly ref?: string;
  /** Called after each run, for progress indicators. */
  readonly onRun?: (done: number, total: number) => void;
  /**
   * Stop at the first run with a violation, expected or not: a CI gate's answer sooner, at the
   * price of rows and counterexamples for the plans left unrun (the coverage says so).
   */
  readonly failFast?: boolean;
}

export const DEFAULT_SEED = 1;


/** A World run as a row reads it. */
export function observedRunOf(run: RunRecord): ObservedRun {
  return { outcome: run.outcome, findings: run.findings, claims: run.claims, strikes: run.report.strikes, trace: run.report.trace, notes: run.report.notes, components: run.components, plan: run.plan };
}

const bound = (maxOccurrence: number | undefined) => (maxOccurrence === undefined ? {} : { maxOccurrence });

/**
 * The settings a sweep of this scenario runs with: the options given, else the scenario's own,
 * else the defaults (seed 1, single faults, every occurrence each place had).
 */
export function sweepSettings(scenario: Scenario, options: WindowsOptions = {}): SweepSettings {
  return {
    seed: options.seed ?? DEFAULT_SEED,
    pairs: options.pairs ?? false,
    ...bound(options.maxOccurrence ?? scenario.windows?.maxOccurrence),
    failFast: options.failFast ?? false,
  };
}

export function runWindows(scenario: Scenario, options: WindowsOptions = {}): WindowsResult {
  const plan = sweepPlan(scenario, sweepSettings(scenario, options));
  const held: HeldRuns = new Map();
  let done = 0;
  const onRun = options.onRun;
  const part = sweepWindows(scenario, plan, 0, plan.total, held, onRun && (() => onRun(++done, plan.total)));
  return finishWindows(scenario, plan, part, options.ref ?? scenario.name, held);
}

/** Rows of a sweep's tally, in its order, each built from its representative run (held here, or run again). */
export function windowRowsOf(scenario: Scenario, plan: SweepPlan, rows: readonly (readonly [string, RowPart])[], held?: HeldRuns): WindowRow[] {
  const time = timeScaleOf(scenario);
  const reference = observedRunOf(plan.reference);
  return rows.map(([, acc]): WindowRow =>
    windowRowOf({
      place: faultPlace(acc.fault)!,
      fault: acc.fault,
      tally: { runs: acc.runs, struck: acc.struck, outcomes: acc.outcomes, undecided: acc.undecided },
      run: observedRunOf(rerun(scenario, plan, acc.worst.index, held)),
      reference,
      claims: scenario.claims,
      time,
    }),
  );
}

/**
 * A sweep's result from the tally of all its plans (one part, or parts merged): each row's
 * representative and each violation's first run are read from `held` where the tally was made
 * here, and run again where it was made elsewhere.
 */
export function finishWindows(scenario: Scenario, plan: SweepPlan, part: WindowsPart, ref: string, held?: HeldRuns, rows: readonly WindowRow[] = windowRowsOf(scenario, plan, part.rows, held)): WindowsResult {
  const { settings, reference, space } = plan;
  const { seed, pairs, maxOccurrence } = settings;
  if (part.from !== 0 || (part.to !== plan.total && !part.stopped)) throw new Error(`${scenario.name}: the tally covers plans ${part.from} to ${part.to - 1} of ${plan.total}`);
  const time = timeScaleOf(scenario);
  const components = reference.components;
  const outcomes = new Set(part.outcomes);
  const firstOf = new Map(part.firstOf);
  const stopped = part.stopped;
  const done = part.done;
  const unstruckRuns = part.unstruckRuns;
  const reached = new Set<string>([...reference.report.windowCounts.keys(), ...part.reached]);
  const clauses = new ClauseTally();
  clauses.merge(part.clauses);
  const windowRows = rows;
  const found = VIOLATIONS.filter((v) => firstOf.has(v));
  // Occurrences a bound left out were never struck: the sweep holds only within that bound.
  const verdict = verdictOf(outcomes, plan.occurrences.beyond > 0);
  // A sweep stopped at its first violation cannot be asked for every expected one.
  const judgement = judge(expectedAt(scenario.expect, pairs ? 2 : 1), verdict, found, stopped ? 'sampled' : 'exhaustive', violatedClaims(clauses.result()), clauses.undecided());
  const counterexamples = found.map((violation): Counterexample => {
    const faults = plan.plans[firstOf.get(violation)! - 1] ?? reference.plan;
    const size = scenario.workload.size;
    const traced = runScenario(scenario, { seed, plan: faults, size, keepTrace: true }, reference);
    return {
      violation,
      seed,
      size,
      plan: faults,
      findings: traced.findings,
      traceHash: traced.report.traceHash,
      trace: traced.report.trace ?? [],
      replay: { kind: 'plan', scenario: ref, seed, plan: faults },
    };
  });
  const all = failureWindows(components);
  const coverage: Coverage = {
    mode: 'windows',
    faultDepth: pairs ? 2 : 1,
    kinds: space.kinds,
    windows: space.windows.length,
    points: space.points.length,
    faults: space.singles.length,
    ...bound(maxOccurrence),
    occurrences: plan.occurrences,
    runs: done,
    unstruckRuns,
    interleavings: { kind: 'seeded', seed },
    ...(stopped ? { bound: { kind: 'firstViolation' as const, after: done } } : {}),
    clauses: clauses.result(),
  };
  return {
    kind: 'windows',
    name: scenario.name,
    title: scenario.title,
    source: scenario.source,
    lesson: scenario.lesson,
    ref,
    seed,
    tick: time.tick,
    claims: scenario.claims,
    judgement,
    coverage,
    distinctOutcomes: [...outcomes].sort((a, b) => outcomeRank(a) - outcomeRank(b)),
    rows: windowRows,
    counterexamples,
    failureWindows: all,
    unreachedWindows: all.filter((w) => !reached.has(w)),
    refusals: reference.report.refusals,
  };
}

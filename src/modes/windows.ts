// Windows mode: exhaustive fault injection. The fault space (src/modes/faultSpace.ts) comes from the
// design's machines and a fault-free reference run; every single fault (and, on request, every
// pair) is one run. Each run's worst outcome lands in the failure-window table, and the first
// run of each violation is run again, traced, as a counterexample with the line that replays it.
// Everything here is data; src/report/ words it.
import { notDeterministic } from '../run/determinism.ts';
import { refOf } from '../scenario/scenarioRef.ts';
import { checkRanges } from '../base/optionRanges.ts';
import { windowRowOf, type ObservedRun, type WindowRow } from './windowRow.ts';
import { VIOLATIONS, type Finding, type RunOutcome, type Violation } from '../checkers/finding.ts';
import type { Claim } from '../checkers/claims.ts';
import { ClauseTally, violatedClaims, type Coverage } from '../checkers/coverage.ts';
import { faultPlace, type FaultPlan } from '../faults/faults.ts';
import { designWindows } from '../run/failureWindows.ts';
import type { ReplayRef } from './replayLine.ts';
import { runScenario, type RunRecord } from '../run/runScenario.ts';
import type { Duration } from '../base/duration.ts';
import { expectedAt, timeScaleOf, type Scenario } from '../scenario/scenario.ts';
import { rerun, sweepPlan, sweepWindows, type HeldRuns, type RowPart, type SweepPlan, type SweepSettings, type WindowsPart } from './windowsPart.ts';
import type { TraceEvent } from '../kernel/trace.ts';
import { PairTally, type FreshBreak, type KnownBreak } from './pairTally.ts';
import { framedRun } from '../run/framedRun.ts';
import { keyMoments, type KeyMoment } from '../analysis/keyMoments.ts';
import { stepFrames, type StepFrames } from '../run/stepFrames.ts';
import { judge, outcomeRank, verdictOf, type Judgement, type Undecided, type Verdict } from '../checkers/verdict.ts';

export type { Undecided } from '../checkers/verdict.ts';
import type { DriverRefusal } from '../kernel/runEvents.ts';

export type { Evidence, WindowRow } from './windowRow.ts';


export interface Counterexample {
  readonly violation: Violation;
  readonly seed: number;
  readonly size: number;
  readonly plan: FaultPlan;
  readonly findings: readonly Finding[];
  readonly traceHash: string;
  readonly trace: readonly TraceEvent[];
  readonly replay: ReplayRef;
  /** The World at each step of the trace, for a report's step-through view (absent for a check's path, whose steps are not the World's). */
  readonly frames?: StepFrames;
  /** The steps at which the findings' keys changed: each committed outcome, the fact, where it broke. */
  readonly moments?: readonly KeyMoment[];
}

/** What a check (src/modes/check/check.ts) adds to a sweep's result: its search and what it reached. */
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
  /** A `--pairs` sweep: how many pairs ran, and which of them broke which clause. */
  readonly pairs?: PairsSummary;
}

/** What the pairs of a `--pairs` sweep broke (see src/modes/pairTally.ts). */
export interface PairsSummary {
  /** Pairs of faults run. */
  readonly pairs: number;
  /** Pairs whose run broke some clause. */
  readonly broke: number;
  /** Clauses pairs broke that neither of their faults breaks alone, by first fault, each with its first pair's replay. */
  readonly fresh: readonly (FreshBreak & { readonly replay: ReplayRef })[];
  /** Clauses a single fault breaks alone, with how many pairs with it broke them too. */
  readonly known: readonly KnownBreak[];
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
  /** Run only the faults at this failure window or message point. */
  readonly only?: string;
  /** Told of each scenario's sweep once it is planned, before its runs: its reference run, and how the user named the scenario. */
  readonly onPlanned?: (plan: SweepPlan, ref: string) => void;
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
    ...(options.only === undefined ? {} : { only: options.only }),
  };
}

export function runWindows(scenario: Scenario, options: WindowsOptions = {}): WindowsResult {
  checkRanges('runWindows', options, ['seed', 'maxOccurrence']);
  const plan = sweepPlan(scenario, sweepSettings(scenario, options));
  options.onPlanned?.(plan, options.ref ?? refOf(scenario));
  const held: HeldRuns = new Map();
  let done = 0;
  const onRun = options.onRun;
  const part = sweepWindows(scenario, plan, 0, plan.total, held, onRun && (() => onRun(++done, plan.total)));
  return finishWindows(scenario, plan, part, options.ref ?? refOf(scenario), held);
}

/** Rows of a sweep's tally, in its order, each built from its representative run (held here, or run again). */
export function windowRowsOf(scenario: Scenario, plan: SweepPlan, rows: readonly (readonly [string, RowPart])[], held?: HeldRuns): WindowRow[] {
  const time = timeScaleOf(scenario);
  const reference = observedRunOf(plan.reference);
  return rows.map(([, acc]): WindowRow => {
    const again = rerun(scenario, plan, acc.worst.index, held);
    // Both runs were taken up from a reference run alike: a difference is the scenario's.
    if (again.outcome !== acc.worst.outcome) notDeterministic(scenario, acc.worst.index === 0 ? [] : plan.plans[acc.worst.index - 1]!, acc.worst.outcome, again.outcome);
    return windowRowOf({
      place: faultPlace(acc.fault)!,
      fault: acc.fault,
      tally: { runs: acc.runs, struck: acc.struck, outcomes: acc.outcomes, undecided: acc.undecided },
      run: observedRunOf(again),
      reference,
      claims: scenario.claims,
      time,
    });
  });
}

/**
 * A sweep's verdict against its expectation. A sweep stopped at its first violation, or run at
 * one place, cannot be asked for every expected violation: only an unexpected one counts
 * against it, and at one place a verdict that holds is no surprise either.
 */
function judgementOf(scenario: Scenario, settings: SweepSettings, verdict: Verdict, found: readonly Violation[], stopped: boolean, claims: readonly string[], undecided: readonly Undecided[], vacuous: readonly Undecided[]): Judgement {
  const only = settings.only !== undefined;
  const judged = judge(expectedAt(scenario.expect, settings.pairs ? 2 : 1), verdict, found, stopped || only ? 'sampled' : 'exhaustive', claims, undecided, only ? [] : vacuous);
  return only && judged.unexpected.length === 0 && judged.unexpectedClaims.length === 0 && judged.undecided.length === 0 && verdict !== 'inconclusive' ? { ...judged, asExpected: true } : judged;
}

/** The first run of a violation again, whole and with the World noted at every step, so a report can show any step of it. */
function counterexampleOf(scenario: Scenario, violation: Violation, faults: FaultPlan, seed: number, ref: string): Counterexample {
  const size = scenario.workload.size;
  const framed = framedRun(scenario, { seed, plan: faults, size });
  const traced = framed.record;
  if (!traced.findings.some((f) => f.violation === violation)) {
    const whole = runScenario(scenario, { seed, plan: faults, size, hashTrace: false });
    notDeterministic(scenario, faults, violation, traced.outcome, whole.findings.some((f) => f.violation === violation) ? violation : whole.outcome);
  }
  return {
    violation,
    seed,
    size,
    plan: faults,
    findings: traced.findings,
    traceHash: traced.report.traceHash,
    trace: traced.report.trace ?? [],
    replay: { kind: 'plan', scenario: ref, seed, plan: faults },
    frames: stepFrames(scenario, framed),
    moments: keyMoments(framed, scenario.claims, violation),
  };
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
  const only = settings.only;
  const judgement = judgementOf(scenario, settings, verdict, found, stopped, violatedClaims(clauses.result()), clauses.undecided(), clauses.vacuous());
  const counterexamples = found.map((violation) => counterexampleOf(scenario, violation, plan.plans[firstOf.get(violation)! - 1] ?? reference.plan, seed, ref));
  const all = designWindows(components, (w) => reached.has(w));
  const pairTally = new PairTally();
  pairTally.merge(part.pairs);
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
    ...(only === undefined ? {} : { only }),
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
    ...(pairs ? { pairs: pairsSummary(plan, pairTally, ref) } : {}),
  };
}

/** The pairs of a sweep and what they broke, each break with the line that replays its first pair. */
function pairsSummary(plan: SweepPlan, tally: PairTally, ref: string): PairsSummary {
  const { fresh, known } = tally.result();
  return {
    pairs: plan.plans.filter((p) => p.length === 2).length,
    broke: tally.brokeRuns,
    fresh: fresh.map((b) => ({ ...b, replay: { kind: 'plan' as const, scenario: ref, seed: plan.settings.seed, plan: plan.plans[b.index - 1]! } })),
    known,
  };
}

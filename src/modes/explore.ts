// Explore mode: fast-check searches fault plans, workload sizes and message latencies (which
// decide the interleaving). The latencies are a schedule fast-check generates, not a seed it can
// only draw again, so a violation shrinks towards a small plan and a small schedule: every
// message at the least latency but the few the failure needs late. Shrinking is local, so a
// smaller plan may exist (windows and check find the fewest faults). The failure is kept as data first: the
// plan, the schedule, the findings, the trace and the seed and path that replay it exactly.
// Only running counts are kept between runs, so memory stays flat however many runs are asked
// for. A search that finds nothing holds only within its bound: the number of samples.
import { checkDeterministic, notDeterministic } from '../run/determinism.ts';
import { refOf } from '../scenario/scenarioRef.ts';
import { checkRanges } from '../base/optionRanges.ts';
import fc from 'fast-check';
import type { Finding, RunOutcome } from '../checkers/finding.ts';
import type { Claim } from '../checkers/claims.ts';
import { ClauseTally, violatedClaims, type ClauseTallyState, type Coverage } from '../checkers/coverage.ts';
import { FAULT_KINDS, isDeclaredKind, windowDescriptors, type Fault, type FaultPlan, type MessageFaultKind } from '../faults/faults.ts';
import { parsePoint } from '../faults/place.ts';
import { offeredSpace } from '../run/failureWindows.ts';
import { InputError } from '../base/inputError.ts';
import type { StrikeSpace } from '../faults/faultKind.ts';
import type { ReplayRef } from './replayLine.ts';
import { runScenario } from '../run/runScenario.ts';
import { framedRun } from '../run/framedRun.ts';
import { keyMoments, type KeyMoment } from '../analysis/keyMoments.ts';
import type { Duration } from '../base/duration.ts';
import { linkFaults } from '../faults/linkFaults.ts';
import { expectedAt, timeScaleOf, worldOptionsOf, type Scenario } from '../scenario/scenario.ts';
import type { TraceEvent } from '../kernel/trace.ts';
import { judge, verdictOf, type Judgement } from '../checkers/verdict.ts';
import { DEFAULT_SEED } from './windows.ts';
import { DEFAULT_WORLD_OPTIONS } from '../kernel/worldOptions.ts';

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
  /**
   * The simulation seed. Only message latencies draw from it, and a case's schedule replaces
   * those draws, so it changes nothing but the trace's start event and shrinks to 0.
   */
  readonly seed: number;
  readonly size: number;
  readonly plan: FaultPlan;
  /** Ticks above the least latency for the n-th message sent; the least for every one past the end. */
  readonly latencies: readonly number[];
}

/** The most messages a schedule names; the catalogue's runs send fewer than a hundred. */
export const SCHEDULE_LENGTH_MAX = 256;

export interface ExploreCounterexample extends Case {
  readonly outcome: RunOutcome;
  readonly findings: readonly Finding[];
  readonly traceHash: string;
  readonly trace: readonly TraceEvent[];
  readonly replay: ReplayRef;
  /** The steps at which the keys of its worst finding went wrong, as a replay of it finds them. */
  readonly moments: readonly KeyMoment[];
}

/** How the search ended: no counterexample within its samples, or a shrunk counterexample. */
export type ExploreSearch =
  | { readonly status: 'passed' }
  | { readonly status: 'failed'; readonly path: string; readonly counterexample: ExploreCounterexample };

export interface ExploreResult {
  readonly kind: 'explore';
  readonly name: string;
  readonly ref: string;
  readonly claims: readonly Claim[];
  /** fast-check's seed. */
  readonly seed: number;
  /** How long one tick of the scenario's simulated time is. */
  readonly tick: Duration;
  readonly runs: number;
  readonly outcomes: Readonly<Partial<Record<RunOutcome, number>>>;
  readonly search: ExploreSearch;
  readonly judgement: Judgement;
  readonly coverage: Coverage;
}

/** A message point and the fault kinds its link can suffer. */
type PointFaults = { readonly point: string; readonly kinds: readonly MessageFaultKind[] };

/** Where generated faults may strike: what the design offers the window faults, and its message points. */
export interface ExplorationSpace extends StrikeSpace {
  readonly points: readonly PointFaults[];
  /** How often the fault-free run reached its places: in all, and the most at one place. */
  readonly reached: { readonly occurrences: number; readonly most: number };
  /** How often it reached each place a fault can strike, by window or point name. */
  readonly counts: ReadonlyMap<string, number>;
}

/** The occurrences a generated fault targets when the search is not told a bound: the first three, as always, and every one the fault-free run reached besides. */
const FIRST_OCCURRENCES = 3;

/** The places a generated fault may strike, from the machine definitions and a reference run. */
export function explorationSpace(scenario: Scenario): ExplorationSpace {
  const reference = runScenario(scenario, { seed: DEFAULT_SEED, plan: [] });
  checkDeterministic(scenario, reference);
  const points = [...reference.report.census.keys()]
    .sort()
    .map((point) => {
      const p = parsePoint(point)!;
      return { point, kinds: linkFaults(reference.components, p.from, p.to, p.type) };
    })
    .filter((p) => p.kinds.length > 0);
  // A window the options rule out is drawn only if the fault-free run reached it after all.
  const strikes = offeredSpace(reference.components, (w) => reference.report.windowCounts.has(w));
  // Only places a fault can strike count: a point whose link suffers none, however busy, does not.
  const byPlace = new Map<string, number>([...points.map((p) => [p.point, reference.report.census.get(p.point) ?? 0] as const), ...strikes.windows.map((w) => [w, reference.report.windowCounts.get(w) ?? 0] as const)]);
  const counts = [...byPlace.values()];
  const reached = { occurrences: counts.reduce((a, b) => a + b, 0), most: counts.reduce((a, b) => Math.max(a, b), 0) };
  return { ...strikes, points, reached, counts: byPlace };
}

/**
 * The occurrence a generated fault targets. Told a bound, any up to it. Not told, one of the first
 * three half the time, where most designs break and where the search always looked, and half the
 * time any the fault-free run reached, so a design that breaks only at a later occurrence (a
 * dedup store that evicts its fourth key) is found too. Where no place was reached more than three
 * times the two are the same, and a seed draws the cases it always drew.
 */
function occurrenceArbitrary(space: ExplorationSpace, maxOccurrence: number | undefined): fc.Arbitrary<number> {
  if (maxOccurrence !== undefined) return fc.integer({ min: 1, max: maxOccurrence });
  const first = fc.integer({ min: 1, max: FIRST_OCCURRENCES });
  if (space.reached.most <= FIRST_OCCURRENCES) return first;
  return fc.oneof(first, fc.integer({ min: 1, max: space.reached.most }));
}

/**
 * A fault drawn past the occurrences the fault-free run reached at its place is moved to one it
 * reached, with a bound given (--max-occurrence 100 where places come round twice) or not: the
 * wide draw spans the busiest place, and a place reached five times beside a point
 * reached five hundred would otherwise almost never be struck past its third. The first three are
 * always within reach, since a fault before them can make a place come round more often than the
 * fault-free run did (a retry), or at all.
 */
function withinReach(f: Fault, counts: ReadonlyMap<string, number>): Fault {
  const place = 'window' in f ? f.window : 'point' in f ? f.point : undefined;
  const reached = place === undefined ? undefined : counts.get(place);
  if (reached === undefined) return f;
  const reach = Math.max(reached, FIRST_OCCURRENCES);
  return f.occurrence <= reach ? f : { ...f, occurrence: ((f.occurrence - 1) % reach) + 1 };
}

export function caseArbitrary(scenario: Scenario, options: ExploreOptions = {}, space = explorationSpace(scenario)): fc.Arbitrary<Case> {
  const { points } = space;
  const occurrence = occurrenceArbitrary(space, options.maxOccurrence);
  // Crashes first, then message faults, then the window faults a design declares: the order
  // fast-check has always drawn from, kept so that a seed finds the case it always found.
  const windowFaults = (declared: boolean) =>
    windowDescriptors()
      .filter((kind) => kind.declared === declared)
      // An arbitrary of one kind of window fault draws values of the Fault union; fast-check's
      // Arbitrary is invariant in its type only through its shrinking predicate.
      .flatMap((kind) => (kind.arbitrary(space, occurrence) as fc.Arbitrary<Fault> | undefined) ?? []);
  const kinds: fc.Arbitrary<Fault>[] = windowFaults(false);
  if (points.length > 0) kinds.push(fc.constantFrom(...points).chain((p) => fc.record({ kind: fc.constantFrom(...p.kinds), point: fc.constant(p.point), occurrence })));
  kinds.push(...windowFaults(true));
  // Told no faults, it draws schedules alone, which a design with nothing to strike has too.
  if (options.maxFaults === 0) return fc.record({ seed: fc.integer({ min: 0, max: 0x7fffffff }), size: fc.integer({ min: 1, max: scenario.workload.size }), plan: fc.constant([]), latencies: scheduleArbitrary(scenario) });
  if (kinds.length === 0) throw new InputError(`${scenario.name}: explore has no fault to strike (no failure window, no message point that can suffer one)`);
  const drawn: fc.Arbitrary<Fault> = kinds.length > 1 ? fc.oneof(...kinds) : kinds[0]!;
  const fault = options.maxOccurrence !== undefined || space.reached.most > FIRST_OCCURRENCES ? drawn.map((f) => withinReach(f, space.counts)) : drawn;
  return fc.record({
    seed: fc.integer({ min: 0, max: 0x7fffffff }),
    size: fc.integer({ min: 1, max: scenario.workload.size }),
    plan: fc.array(fault, { maxLength: options.maxFaults ?? 3 }),
    latencies: scheduleArbitrary(scenario),
  });
}

/**
 * Message latencies within the scenario's window. fast-check shrinks an array by dropping its
 * first entries and by moving each entry towards 0, the least latency; trailing zeros say
 * nothing a shorter schedule does not, so they are cut and a shrunk schedule ends at its last
 * late message.
 */
function scheduleArbitrary(scenario: Scenario): fc.Arbitrary<readonly number[]> {
  const o = { ...DEFAULT_WORLD_OPTIONS, ...worldOptionsOf(scenario, timeScaleOf(scenario)) };
  const spread = o.latencyTicksMax - o.latencyTicksMin;
  if (spread === 0) return fc.constant([]);
  return fc.array(fc.integer({ min: 0, max: spread }), { maxLength: SCHEDULE_LENGTH_MAX, size: 'max' }).map((l) => {
    let end = l.length;
    while (end > 0 && l[end - 1] === 0) end--;
    return end === l.length ? l : l.slice(0, end);
  });
}

/**
 * The tally of a stretch of an explore search: runs [from, from + count) of the sequence its seed
 * draws, stopped at the first violation, which fast-check then shrinks (the shrinking's runs are
 * counted too, as one search counts them). Stretches are plain data and merge in order into the
 * tally of one search over all of them (see mergeExploreParts): the n-th case is the same
 * wherever it is drawn, since fast-check draws it from the seed and n alone.
 */
export interface ExplorePart {
  readonly scenario: string;
  readonly from: number;
  readonly count: number;
  readonly runs: number;
  readonly outcomes: Readonly<Partial<Record<RunOutcome, number>>>;
  readonly clauses: ClauseTallyState;
  readonly unstruckRuns: number;
  /** The shrunk counterexample and the path that replays it, when the stretch found a violation. */
  readonly failed?: { readonly path: string; readonly case: Case };
}

/**
 * Runs a stretch of the search (or, with `options.path`, replays that one case and its
 * shrinking). `onRun` hears of each run, for a progress line; it is no option of the search, so
 * it never travels to a worker or into a shard's settings.
 */
export function exploreRange(scenario: Scenario, options: ExploreOptions, from: number, count: number, space: ExplorationSpace = explorationSpace(scenario), onRun?: (runs: number) => void): ExplorePart {
  const seed = options.seed ?? DEFAULT_SEED;
  const outcomes: Partial<Record<RunOutcome, number>> = {};
  const clauses = new ClauseTally();
  let runs = 0;
  let unstruckRuns = 0;
  // An empty stretch (a shard of a search with fewer runs than shards) runs nothing.
  if (count === 0) return { scenario: scenario.name, from, count, runs, outcomes, clauses: clauses.state(), unstruckRuns };
  // A run that throws is a harness bug, not a counterexample: it is kept and rethrown as is.
  let harnessError: unknown;
  const property = fc.property(caseArbitrary(scenario, options, space), (c) => {
    let run;
    try {
      run = runScenario(scenario, { seed: c.seed, plan: c.plan, size: c.size, latencies: c.latencies, hashTrace: false });
    } catch (error) {
      harnessError ??= error;
      throw error;
    }
    runs++;
    onRun?.(runs);
    outcomes[run.outcome] = (outcomes[run.outcome] ?? 0) + 1;
    clauses.add(run.claims);
    if (run.report.unstruck.length > 0) unstruckRuns++;
    // Only a violation fails the property; a clause that could not be decided is counted as
    // unknown and makes the verdict unknown, never a counterexample and never a pass.
    return run.findings.length === 0;
  });
  const path = options.path ?? (from === 0 ? undefined : String(from));
  const details = fc.check(property, { seed, numRuns: count, ...(path === undefined ? {} : { path }) });
  if (harnessError !== undefined) throw harnessError;
  const failed = details.failed && details.counterexample ? { path: details.counterexamplePath ?? '', case: details.counterexample[0] as Case } : undefined;
  return { scenario: scenario.name, from, count, runs, outcomes, clauses: clauses.state(), unstruckRuns, ...(failed ? { failed } : {}) };
}

/** Merges stretches given in order and without gaps into one search's tally; none after the first that failed counts. */
export function mergeExploreParts(parts: readonly ExplorePart[]): ExplorePart {
  if (parts.length === 0) throw new Error('no parts to merge');
  const first = parts[0]!;
  const outcomes: Partial<Record<RunOutcome, number>> = {};
  const clauses = new ClauseTally();
  let runs = 0;
  let unstruckRuns = 0;
  let failed: ExplorePart['failed'];
  let expected = first.from;
  for (const p of parts) {
    if (p.scenario !== first.scenario) throw new Error(`parts of two searches: ${first.scenario} and ${p.scenario}`);
    if (p.from !== expected) throw new Error(`${first.scenario}: parts leave runs ${expected} to ${p.from - 1} out`);
    expected = p.from + p.count;
    if (failed) continue;
    runs += p.runs;
    unstruckRuns += p.unstruckRuns;
    for (const [o, n] of Object.entries(p.outcomes) as [RunOutcome, number][]) outcomes[o] = (outcomes[o] ?? 0) + n;
    clauses.merge(p.clauses);
    failed = p.failed;
  }
  return { scenario: first.scenario, from: first.from, count: expected - first.from, runs, outcomes, clauses: clauses.state(), unstruckRuns, ...(failed ? { failed } : {}) };
}

export function explore(scenario: Scenario, options: ExploreOptions = {}, onRun?: (runs: number) => void): ExploreResult {
  checkRanges('explore', options, ['runs', 'seed', 'maxFaults', 'maxOccurrence']);
  const space = explorationSpace(scenario);
  return finishExplore(scenario, options, exploreRange(scenario, options, 0, options.runs ?? DEFAULT_RUNS, space, onRun), space);
}

/** The number of cases a search tries when not told. */
export const DEFAULT_RUNS = 1_000;

/** A search's result from the tally of all its runs (one stretch, or stretches merged). */
export function finishExplore(scenario: Scenario, options: ExploreOptions, part: ExplorePart, space: ExplorationSpace = explorationSpace(scenario)): ExploreResult {
  const seed = options.seed ?? DEFAULT_SEED;
  const ref = options.ref ?? refOf(scenario);
  const maxFaults = options.maxFaults ?? 3;
  const { runs, outcomes, unstruckRuns } = part;
  const clauses = new ClauseTally();
  clauses.merge(part.clauses);
  let search: ExploreSearch = { status: 'passed' };
  if (part.failed) {
    const { path, case: c } = part.failed;
    // Framed, as its replay is, so its steps are marked where the worst finding's keys went wrong.
    const framed = framedRun(scenario, { seed: c.seed, plan: c.plan, size: c.size, latencies: c.latencies });
    const traced = framed.record;
    // The search failed on this case: run again, it must fail too, or the scenario is not a function of its seed.
    if (traced.findings.length === 0) notDeterministic(scenario, c.plan, 'a violation', traced.outcome);
    const worst = traced.outcome === 'holds' || traced.outcome === 'unknown' || traced.outcome === 'inconclusive' ? undefined : traced.outcome;
    search = {
      status: 'failed',
      path,
      counterexample: {
        ...c,
        outcome: traced.outcome,
        findings: traced.findings,
        traceHash: traced.report.traceHash,
        trace: traced.report.trace ?? [],
        moments: worst === undefined ? [] : keyMoments(framed, scenario.claims, worst),
        replay: {
          kind: 'path',
          scenario: ref,
          seed,
          path,
          ...(options.maxFaults === undefined ? {} : { maxFaults: options.maxFaults }),
          ...(options.maxOccurrence === undefined ? {} : { maxOccurrence: options.maxOccurrence }),
        },
      },
    };
  }
  const found = search.status === 'failed' ? search.counterexample.findings.map((f) => f.violation) : [];
  // A search that found nothing covered only its samples: it holds within that bound.
  const verdict = search.status === 'failed' ? 'violated' : verdictOf(Object.keys(outcomes) as RunOutcome[], true);
  const coverage: Coverage = {
    mode: 'explore',
    faultDepth: maxFaults,
    // A declared kind (a rebalance) counts only where some point of this design offers it.
    kinds: FAULT_KINDS.filter((k) => !isDeclaredKind(k) || space.points.some((p) => (p.kinds as readonly string[]).includes(k)) || windowDescriptors().some((d) => d.kind === k && d.places(space).length > 0)),
    windows: space.windows.length,
    points: space.points.length,
    // The occurrences its faults were drawn from: the first N of each place, or every one the fault-free run reached.
    ...(options.maxOccurrence === undefined ? { occurrences: { reached: space.reached.occurrences, beyond: 0, most: space.reached.most } } : { maxOccurrence: options.maxOccurrence }),
    runs,
    unstruckRuns,
    interleavings: { kind: 'sampled' },
    bound: { kind: 'samples', runs },
    clauses: clauses.result(),
  };
  return {
    kind: 'explore',
    name: scenario.name,
    ref,
    claims: scenario.claims,
    seed,
    tick: timeScaleOf(scenario).tick,
    runs,
    outcomes,
    search,
    judgement: judge(expectedAt(scenario.expect, maxFaults), verdict, found, 'sampled', violatedClaims(coverage.clauses), clauses.undecided()),
    coverage,
  };
}

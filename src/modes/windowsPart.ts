// A windows sweep split into parts. A sweep's plans are numbered (0 the fault-free reference run,
// then every single fault, then every pair), and a part is the tally of one contiguous range of
// them: outcomes, clauses, rows, the first run of each violation. A part is plain data, so a
// worker thread can send it back and a shard can write it to a file; parts merge in plan order
// into exactly the tally one sweep over every plan would have made, because every choice the
// tally makes (a row's representative, the first run of a violation, the order rows appear in)
// goes to the earlier plan on a tie. The representative runs themselves stay behind where the
// part was made; the sweep that finishes the merged tally runs them again, and since a run is a
// pure function of its scenario, seed and plan, it gets the same run back.
import { checkDeterministic } from '../run/determinism.ts';
import type { RunOutcome, Violation } from '../checkers/finding.ts';
import { ClauseTally, type ClauseTallyState } from '../checkers/coverage.ts';
import { faultLabel, faultPlaceName, isWindowFault, sameFault, type Fault, type FaultPlan } from '../faults/faults.ts';
import { InputError } from '../base/inputError.ts';
import { didYouMean } from '../base/nearest.ts';
import { faultSpace, type FaultSpace } from './faultSpace.ts';
import { strikeKey } from '../kernel/resumePoints.ts';
import { runScenario, type RunRecord } from '../run/runScenario.ts';
import type { Scenario } from '../scenario/scenario.ts';
import { outcomeRank } from '../checkers/verdict.ts';
import { PairTally, type PairTallyState } from './pairTally.ts';
import { faultGuardsOf, sawRepeat, undecidedOf } from './windowRow.ts';
import type { Undecided } from '../checkers/verdict.ts';

/** What decides a sweep's plans: the same settings give the same numbered plans everywhere. */
export interface SweepSettings {
  readonly seed: number;
  readonly pairs: boolean;
  /** Strike each place at its first this many occurrences; every occurrence reached when absent. */
  readonly maxOccurrence?: number;
  /** Stop at the first run with a violation, expected or not. */
  readonly failFast: boolean;
  /** Run only the faults at this failure window or message point (a pair: with one of its faults there). */
  readonly only?: string;
}

/** A sweep's plans, from its fault-free reference run. */
export interface SweepPlan {
  readonly settings: SweepSettings;
  readonly reference: RunRecord;
  readonly space: FaultSpace;
  /** Plan n is `plans[n - 1]`; plan 0 is the reference run's empty plan. */
  readonly plans: readonly FaultPlan[];
  /** How many numbered plans there are, the reference run's included. */
  readonly total: number;
  /** The step of the reference run at which a single fault strikes (Infinity: never), when the reference was captured. */
  readonly strikesAt?: (f: Fault) => number;
  /**
   * Occurrences the runs reached at which a fault could strike (single faults in the reference
   * run; with pairs, second faults in each first fault's run too), and those a bound left out:
   * a sweep that left some out holds only within its bound.
   */
  readonly occurrences: { readonly reached: number; readonly beyond: number; readonly most: number };
}

/** The representative a row has so far: the plan's number, and what ranks it. */
export interface Representative {
  readonly index: number;
  readonly outcome: RunOutcome;
  readonly struck: boolean;
  /** Whether the run saw a repeat: a guard the fault called on fired, or a duplicate committed. */
  readonly repeat: boolean;
}

export interface RowPart {
  /** The row's fault, as its first run had it. */
  readonly fault: Fault;
  runs: number;
  struck: number;
  worst: Representative;
  outcomes: Partial<Record<RunOutcome, number>>;
  undecided: Undecided[];
}

export interface WindowsPart {
  readonly scenario: string;
  /** The plans this part was asked for, [from, to). */
  readonly from: number;
  readonly to: number;
  /** Runs done: to - from, unless it stopped at a violation. */
  done: number;
  /** It stopped at its first violation (--fail-fast); no later part counts. */
  stopped: boolean;
  outcomes: RunOutcome[];
  clauses: ClauseTallyState;
  unstruckRuns: number;
  /** Windows some run entered. */
  reached: string[];
  /** The first plan that showed each violation. */
  firstOf: [Violation, number][];
  /** Rows keyed by place and fault kind, in the order their first run came. */
  rows: [string, RowPart][];
  /** Which pairs of faults broke which clause, and which clauses single faults broke alone. */
  pairs: PairTallyState;
}

/** A part's runs held where it was made, by plan number: rows read them without running them again. */
export type HeldRuns = Map<number, RunRecord>;

export function sweepPlan(scenario: Scenario, settings: SweepSettings, reference?: RunRecord): SweepPlan {
  const ref = reference ?? runScenario(scenario, { seed: settings.seed, plan: [], keepTrace: true, capture: true });
  if (reference === undefined) checkDeterministic(scenario, ref);
  const kinds = scenario.windows?.kinds ? { kinds: scenario.windows.kinds } : {};
  const whole = faultSpace(ref, { ...(settings.maxOccurrence === undefined ? {} : { maxOccurrence: settings.maxOccurrence }), ...kinds, strict: true, scenario: scenario.name });
  const points = ref.report.resume;
  const strikesAt = points === undefined ? undefined : (f: Fault) => points.at.get(strikeKey(f)) ?? Infinity;
  const only = settings.only;
  const space = only === undefined ? whole : onePlace(scenario, whole, faultSpace(ref, { ...(settings.maxOccurrence === undefined ? {} : { maxOccurrence: settings.maxOccurrence }), ...kinds, only }), only);
  const plans: FaultPlan[] = space.singles.map((f) => [f]);
  const occurrences = { reached: space.reached, beyond: space.beyond, most: space.most };
  if (settings.pairs) {
    if (strikesAt === undefined) throw new Error(`${scenario.name}: pairs are planned from a captured reference run`);
    // With --only, a pair runs when one of its faults is there: its first, or its second after any first.
    const pairs = pairsOf(scenario, settings, ref, whole, strikesAt);
    // One push per plan: spread into one call, the pairs of a scenario at every occurrence (hundreds
    // of thousands) overflow the stack.
    for (const p of pairs.plans) if (only === undefined || p.some((f) => faultPlaceName(f) === only)) plans.push(p);
    occurrences.reached += pairs.reached;
    occurrences.beyond += pairs.beyond;
    occurrences.most = Math.max(occurrences.most, pairs.most);
  }
  return { settings, reference: ref, space, plans, total: plans.length + 1, occurrences, ...(strikesAt === undefined ? {} : { strikesAt }) };
}

/**
 * The plan a stretch [from, from + plans.length) of a sweep runs, where the sweep was planned
 * elsewhere: `singles` is the sweep planned without pairs here (its reference run and single
 * faults, which pairs do not change), `plans` the stretch's numbered plans as sent (plan 0, the
 * reference run's, is never among them). Only the stretch's plans are there to run.
 */
export function stretchPlan(singles: SweepPlan, settings: SweepSettings, from: number, plans: readonly FaultPlan[]): SweepPlan {
  const all: FaultPlan[] = singles.plans.slice();
  const first = Math.max(1, from);
  for (let k = 0; k < plans.length; k++) all[first - 1 + k] = plans[k]!;
  return { ...singles, settings, plans: all, total: Math.max(singles.total, first + plans.length) };
}

/**
 * Every pair of faults a run can meet: for each single fault that strikes in the reference run,
 * in the order they strike, each fault the run of that fault alone reaches after it struck, at
 * every occurrence that run reached (or up to the bound). The occurrences a pair's second fault
 * strikes at are thus those of the run it strikes in, not the fault-free run's: a retry the first
 * fault caused is a place the second can strike. A pair names the fault that strikes first first,
 * and is made once: from the other side it would strike before its base. Faults that strike in
 * the same step pair from the one earlier among the single faults.
 */
function pairsOf(scenario: Scenario, settings: SweepSettings, reference: RunRecord, space: FaultSpace, strikesAt: (f: Fault) => number): { plans: FaultPlan[]; reached: number; beyond: number; most: number } {
  const bound = settings.maxOccurrence ?? Infinity;
  const singleIndex = new Map(space.singles.map((f, i) => [strikeKey(f) + '\u0000' + faultLabel(f), i]));
  const indexOf = (f: Fault) => singleIndex.get(strikeKey(f) + '\u0000' + faultLabel(f)) ?? -1;
  const bases = space.singles
    .map((f, i) => ({ f, i, at: strikesAt(f) }))
    .filter((b) => b.at !== Infinity)
    .sort((a, b) => a.at - b.at || a.i - b.i);
  const out = { plans: [] as FaultPlan[], reached: 0, beyond: 0, most: 0 };
  const perPlace = new Map<string, number>();
  for (const { f: first, i } of bases) {
    const run = runScenario(scenario, { seed: settings.seed, plan: [first], hashTrace: false, keepTrace: false, capture: true }, reference);
    const at = run.report.resume!.at;
    const struck = at.get(strikeKey(first))!;
    perPlace.clear();
    for (const second of faultSpace(run, scenario.windows?.kinds ? { kinds: scenario.windows.kinds } : {}).singles) {
      if (sameFault(second, first)) continue;
      // A message suffers one fault: a second fault of the message the first one struck never strikes.
      if (!isWindowFault(first) && !isWindowFault(second) && strikeKey(first) === strikeKey(second)) continue;
      const when = at.get(strikeKey(second));
      if (when === undefined || when < struck) continue;
      if (when === struck) {
        const j = indexOf(second);
        if (j >= 0 && j < i) continue;
      }
      out.reached++;
      const place = faultPlaceName(second) + '\u0000' + faultLabel(second);
      const n = (perPlace.get(place) ?? 0) + 1;
      perPlace.set(place, n);
      out.most = Math.max(out.most, n);
      if (second.occurrence > bound) out.beyond++;
      else out.plans.push([first, second]);
    }
  }
  return out;
}

/** The fault space cut down to one place, refused in one line when the design has no such place. */
/** The space of one place (`there`, its own occurrences counted), refused with a did-you-mean when the design has no such place. */
function onePlace(scenario: Scenario, space: FaultSpace, there: FaultSpace, place: string): FaultSpace {
  const places = [...space.windows, ...space.points];
  if (!places.includes(place)) throw new InputError(`--only: ${scenario.name} has no failure window or message point ${place}${didYouMean(place, places)}`);
  return { ...there, windows: space.windows.filter((w) => w === place), points: space.points.filter((p) => p === place) };
}

/**
 * The fault of a pair whose run, captured, the pair's run resumes from: the one that strikes
 * first, which a pair names first.
 */
export function pairBase(_plan: SweepPlan, faults: FaultPlan): Fault {
  return faults[0]!;
}

/**
 * Whether `a` should represent a row rather than `b`: a worse outcome; as bad and actually struck;
 * or as bad, as struck, and showing a repeat the other does not. A row's cells are all read off
 * its representative, so among equal runs it is the one with the most to show.
 */
export function ranksAbove(a: Omit<Representative, 'index'>, b: Omit<Representative, 'index'>): boolean {
  const d = outcomeRank(a.outcome) - outcomeRank(b.outcome);
  if (d !== 0) return d < 0;
  if (a.struck !== b.struck) return a.struck;
  return a.repeat && !b.repeat;
}

/** The row key of a single fault: its place and its kind. */
export function rowKey(fault: Fault): string {
  return `${faultPlaceName(fault)}\u0000${faultLabel(fault)}`;
}

/** A part of no runs over [from, to): a stretch that holds no plan, or one about to be run. */
export function emptyPart(scenario: string, from: number, to = from): WindowsPart {
  return { scenario, from, to, done: 0, stopped: false, outcomes: [], clauses: new ClauseTally().state(), unstruckRuns: 0, reached: [], firstOf: [], rows: [], pairs: new PairTally().state() };
}

/** What a part accumulates while it runs or merges, before it is written into the part as plain data. */
interface PartTally {
  readonly outcomes: Set<RunOutcome>;
  readonly clauses: ClauseTally;
  readonly reached: Set<string>;
  readonly firstOf: Map<Violation, number>;
  readonly rows: Map<string, RowPart>;
  readonly pairs: PairTally;
}

function partTally(): PartTally {
  return { outcomes: new Set(), clauses: new ClauseTally(), reached: new Set(), firstOf: new Map(), rows: new Map(), pairs: new PairTally() };
}

/** Writes a tally into its part, as the plain data a part carries between threads and shards. */
function settle(part: WindowsPart, t: PartTally): WindowsPart {
  part.outcomes = [...t.outcomes];
  part.clauses = t.clauses.state();
  part.reached = [...t.reached];
  part.firstOf = [...t.firstOf];
  part.rows = [...t.rows];
  part.pairs = t.pairs.state();
  return part;
}

/**
 * Runs plans [from, to) of a sweep and tallies them. Single-fault runs that may represent a row
 * keep their trace, and the part holds on to each row's current representative in `held`, so a
 * sweep finished where it ran reads them without running them again.
 */
export function sweepWindows(scenario: Scenario, plan: SweepPlan, from: number, to: number, held?: HeldRuns, onRun?: () => void): WindowsPart {
  const { settings, reference } = plan;
  const part = emptyPart(scenario.name, from, to);
  const tally = partTally();
  const { outcomes, clauses, reached, firstOf, rows, pairs } = tally;
  // A pair's run is the run of the fault that strikes first alone until the other strikes, and
  // pairs come grouped by that fault: its run, captured once, serves its whole group.
  let base: RunRecord | undefined;
  for (let index = from; index < to; index++) {
    const faults = index === 0 ? reference.plan : plan.plans[index - 1]!;
    if (faults.length === 2) {
      const first = pairBase(plan, faults);
      if (base?.plan[0] !== first) base = runScenario(scenario, { seed: settings.seed, plan: [first], hashTrace: false, keepTrace: true, capture: true }, reference);
    }
    // A single fault's run keeps its trace: the row it may represent reads the retry from it.
    const run = index === 0 ? reference : runScenario(scenario, { seed: settings.seed, plan: faults, hashTrace: false, keepTrace: faults.length === 1 }, faults.length === 2 ? base : reference);
    part.done++;
    onRun?.();
    outcomes.add(run.outcome);
    clauses.add(run.claims);
    if (run.report.unstruck.length > 0) part.unstruckRuns++;
    for (const w of run.report.windowCounts.keys()) reached.add(w);
    for (const f of run.findings) if (!firstOf.has(f.violation)) firstOf.set(f.violation, index);
    const stop = settings.failFast && run.findings.length > 0;
    if (faults.length === 1) tallyRow(rows, index, faults[0]!, run, reference, held);
    if (settings.pairs && faults.length === 1 && run.findings.length > 0) pairs.addSingle(faults[0]!, run.claims);
    if (faults.length === 2 && run.findings.length > 0) {
      const first = pairBase(plan, faults);
      pairs.addPair(index, first, faults[0] === first ? faults[1]! : faults[0]!, run.claims);
    }
    if (stop) {
      part.stopped = true;
      break;
    }
  }
  return settle(part, tally);
}

function tallyRow(rows: Map<string, RowPart>, index: number, fault: Fault, run: RunRecord, reference: RunRecord, held: HeldRuns | undefined): void {
  const key = rowKey(fault);
  const repeat = sawRepeat(run.findings, faultGuardsOf(run.report.notes, reference.report.notes));
  const rep: Representative = { index, outcome: run.outcome, struck: run.report.strikes.length > 0, repeat };
  let row = rows.get(key);
  if (!row) {
    row = { fault, runs: 0, struck: 0, worst: rep, outcomes: {}, undecided: [] };
    rows.set(key, row);
    held?.set(index, run);
  } else if (ranksAbove(rep, row.worst)) {
    held?.delete(row.worst.index);
    row.worst = rep;
    held?.set(index, run);
  }
  row.runs++;
  if (rep.struck) row.struck++;
  row.outcomes[run.outcome] = (row.outcomes[run.outcome] ?? 0) + 1;
  if (run.outcome === 'unknown') row.undecided.push(...undecidedOf(run));
}

/**
 * Merges parts of one sweep, given in plan order and covering their ranges without a gap, into the
 * part one sweep over all of them would have made. Parts after one that stopped do not count.
 */
export function mergeWindowsParts(parts: readonly WindowsPart[]): WindowsPart {
  if (parts.length === 0) throw new Error('no parts to merge');
  const first = parts[0]!;
  const out = emptyPart(first.scenario, first.from, parts[parts.length - 1]!.to);
  const tally = partTally();
  const { outcomes, clauses, reached, firstOf, rows, pairs } = tally;
  let expected = first.from;
  for (const p of parts) {
    if (p.scenario !== first.scenario) throw new Error(`parts of two sweeps: ${first.scenario} and ${p.scenario}`);
    if (p.from !== expected) throw new Error(`${first.scenario}: parts leave plans ${expected} to ${p.from - 1} out`);
    // A part ran every plan of its range, or stopped at a violation it holds: one that says
    // otherwise was not written by a sweep, and would pass off part of one as the whole.
    if (p.stopped ? p.firstOf.length === 0 || p.done > p.to - p.from : p.done !== p.to - p.from) throw new Error(`${first.scenario}: the part of plans ${p.from} to ${p.to - 1} says it ran ${p.done} of them${p.stopped ? ' and stopped at a violation' : ''}, which no sweep writes`);
    expected = p.to;
    if (out.stopped) continue;
    out.done += p.done;
    out.unstruckRuns += p.unstruckRuns;
    for (const o of p.outcomes) outcomes.add(o);
    clauses.merge(p.clauses);
    for (const w of p.reached) reached.add(w);
    for (const [v, i] of p.firstOf) if (!firstOf.has(v)) firstOf.set(v, i);
    for (const [key, r] of p.rows) {
      const row = rows.get(key);
      if (!row) {
        rows.set(key, { ...r, outcomes: { ...r.outcomes }, undecided: [...r.undecided] });
        continue;
      }
      row.runs += r.runs;
      row.struck += r.struck;
      if (ranksAbove(r.worst, row.worst)) row.worst = r.worst;
      for (const [o, n] of Object.entries(r.outcomes) as [RunOutcome, number][]) row.outcomes[o] = (row.outcomes[o] ?? 0) + n;
      row.undecided.push(...r.undecided);
    }
    pairs.merge(p.pairs);
    out.stopped = p.stopped;
  }
  return settle(out, tally);
}

/** A run of the sweep by its plan number: held where the part was made, or run again traced. */
export function rerun(scenario: Scenario, plan: SweepPlan, index: number, held?: HeldRuns): RunRecord {
  if (index === 0) return plan.reference;
  const kept = held?.get(index);
  if (kept) return kept;
  const faults = plan.plans[index - 1]!;
  return runScenario(scenario, { seed: plan.settings.seed, plan: faults, hashTrace: false, keepTrace: faults.length === 1 }, plan.reference);
}

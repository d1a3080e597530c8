// One failure-window row, built the same way in windows mode and check mode. A row shows many
// runs' tally (how often its fault struck, what each run ended in) and one representative run,
// the worst: its strike gives the evidence, its end state the end difference, its trace the
// retry owner and its notes the guards. Building every row here keeps the two modes from reading
// those cells off different runs, or observing them differently: the work a crash cut short is
// read from a fault-free run in both, and so are a guard's hits without any fault (a natural
// redelivery deduplicated): a guard the fault called on is one that fired more often than there.
import type { ClaimVerdict } from '../checkers/compose.ts';
import type { Finding, RunOutcome } from '../checkers/finding.ts';
import type { Claim } from '../checkers/claims.ts';
import type { Undecided } from '../checkers/verdict.ts';
import { endDifferenceOf } from '../analysis/endDifference.ts';
import { repairQueryOf, type RepairQuery } from '../analysis/repairQuery.ts';
import { nextSendOf, observeRetry, type RetryObservation } from '../analysis/retryObservation.ts';
import type { Fault, FaultKind, FaultPlan } from '../faults/faults.ts';
import type { Place } from '../faults/place.ts';
import type { ReplayRef } from './replayLine.ts';
import type { TimeScale } from '../base/duration.ts';
import type { DesignComponent, EvidencePart, WindowNote } from '../scenario/scenario.ts';
import { stableJson, type TraceEvent } from '../kernel/trace.ts';
import type { InFlight, Note, Strike } from '../kernel/runEvents.ts';

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

/** A run as a row reads it, whichever mode ran it: a World run or a check's choice path. */
export interface ObservedRun {
  readonly outcome: RunOutcome;
  readonly findings: readonly Finding[];
  readonly claims: readonly ClaimVerdict[];
  /** Its faults as they struck, with what was durable and in flight at each. */
  readonly strikes: readonly Strike[];
  /** Its trace; a row's retry owner is read from it (absent: not kept, and no owner is read). */
  readonly trace: readonly TraceEvent[] | undefined;
  readonly notes: readonly Note[];
  readonly components: readonly DesignComponent[];
  readonly plan: FaultPlan;
}

/** What a row counts over all its runs, besides its representative. */
export interface RowTally {
  readonly runs: number;
  readonly struck: number;
  readonly outcomes: Readonly<Partial<Record<RunOutcome, number>>>;
  /** Why the row's runs could not be judged, over all of them. */
  readonly undecided: readonly Undecided[];
}

export interface RowInput {
  readonly place: Place;
  /** The row's fault (its place and kind; the representative's own names its occurrence). */
  readonly fault: Fault;
  readonly tally: RowTally;
  /**
   * The row's representative: its worst run. Absent only when no run of the row reached an end
   * a claim could judge (a check stopped by its bound): the row then shows its tally alone.
   */
  readonly run: ObservedRun | undefined;
  /** A fault-free run: the work a crash cut short is what it sent next, and its guards' hits are no fault's doing. */
  readonly reference: ObservedRun;
  readonly claims: readonly Claim[];
  readonly time: TimeScale;
  /** How to replay the representative, when its plan and the sweep's seed do not. */
  readonly replay?: ReplayRef;
}

/** The clauses of a run that could not be decided, with their reasons. */
export function undecidedOf(run: { readonly claims: readonly ClaimVerdict[] }): Undecided[] {
  return run.claims.flatMap((c) => c.clauses.filter((k) => k.status === 'unknown').map((k) => ({ effect: c.effect, clause: k.clause, reason: k.reason ?? 'no reason given' })));
}

/**
 * The evidence of a strike, each component rendered by its own describer (components without one
 * are left out). A design none of whose components has one (hand-drawn machines) shows each
 * one's durable state as JSON, cut short, where it has any: left out, its cell would read
 * "nothing durable yet" while it held something.
 */
export function evidenceOf(strike: Strike, components: readonly DesignComponent[], time: TimeScale, end: readonly string[] = []): Evidence {
  const described = components.filter((c) => c.describe !== undefined);
  return {
    tick: strike.tick,
    components:
      described.length > 0
        ? described.map((c) => ({ component: c.name, parts: c.describe!(strike.durable[c.name], time) }))
        : components.flatMap((c) => (strike.durable[c.name] === undefined ? [] : [{ component: c.name, parts: [{ label: 'durable', items: [undescribed(strike.durable[c.name])] }] }])),
    inFlight: strike.inFlight,
    end,
  };
}

/** The longest an undescribed component's durable state is shown, in characters. */
const UNDESCRIBED_MAX = 160;

function undescribed(durable: unknown): string {
  const text = stableJson(durable);
  return text.length <= UNDESCRIBED_MAX ? text : `${text.slice(0, UNDESCRIBED_MAX - 1)}…`;
}

/** How often each guard a run's notes show fired: each hit is a repeat it suppressed. */
export function guardHitsOf(notes: readonly Note[]): Map<string, number> {
  const hits = new Map<string, number>();
  for (const n of notes) {
    const guard = (n.data as { guard?: unknown } | undefined)?.guard;
    if (n.kind === 'guard' && typeof guard === 'string') hits.set(guard, (hits.get(guard) ?? 0) + 1);
  }
  return hits;
}

/**
 * The guards the fault called on: those a faulted run shows firing more often than its
 * fault-free reference does, sorted. Comparing names alone would hide every guard that also
 * fires without a fault (a natural redelivery deduplicated), however often the fault made it fire.
 */
export function faultGuardsOf(notes: readonly Note[], reference: readonly Note[]): string[] {
  const free = guardHitsOf(reference);
  return [...guardHitsOf(notes)].filter(([g, n]) => n > (free.get(g) ?? 0)).map(([g]) => g).sort();
}

/**
 * Whether a faulted run committed a duplicate its fault-free reference did not: an effect's key
 * with more committed outcomes than there. The notes do not say which effect a guard protects, so
 * the fault links them: a guard it called on that fired while a duplicate it caused still
 * committed did not suppress that repeat. A duplicate the reference commits as well (a design
 * that repeats an effect without any fault) is no fault's doing, and says nothing of its guards.
 */
export function faultDuplicated(findings: readonly Finding[], reference: readonly Finding[]): boolean {
  const key = (f: { effect: string; key: string }) => `${f.effect}\u0000${f.key}`;
  const free = new Map(reference.flatMap((f) => (f.violation === 'duplicate effect' ? [[key(f), f.count] as const] : [])));
  return findings.some((f) => f.violation === 'duplicate effect' && f.count > (free.get(key(f)) ?? 0));
}

/** Whether a run saw a repeat: a guard its fault called on fired, or a duplicate committed. */
export function sawRepeat(findings: readonly Finding[], faultGuards: readonly string[]): boolean {
  return faultGuards.length > 0 || findings.some((x) => x.violation === 'duplicate effect');
}

/**
 * The design's declared note for a failure window; a message point has none, and neither has a
 * restore or a skew: a window's note speaks of a crash of the component resting there.
 */
export function noteFor(components: readonly DesignComponent[], place: Place, fault?: Fault): WindowNote | undefined {
  if (place.kind !== 'window' || (fault !== undefined && fault.kind !== 'crash')) return undefined;
  return components.find((c) => c.name === place.component)?.notes?.[place.state];
}

/** The components that act on their own: all but the stores that only answer. */
export function actorsOf(components: readonly DesignComponent[]): Set<string> {
  return new Set(components.filter((c) => c.answersOnly !== true).map((c) => c.name));
}

/** A restore row names the component it restored. */
function restoredOf(f: Fault): { restored?: string } {
  return f.kind === 'restore' ? { restored: f.component } : {};
}

/** A row: its tally, and every observed cell read off its representative run. */
export function windowRowOf(input: RowInput): WindowRow {
  const { run, reference, tally, claims, time } = input;
  if (run === undefined) {
    return { place: input.place, fault: input.fault.kind, ...restoredOf(input.fault), runs: tally.runs, struck: tally.struck, outcome: 'holds', outcomes: tally.outcomes, evidence: undefined, retry: undefined, repair: repairQueryOf(claims, 'holds', [], false), repeatSeen: false, guards: [], duplicated: false, note: noteFor(reference.components, input.place, input.fault), undecided: tally.undecided, plan: [input.fault] };
  }
  const strike = run.strikes[0];
  const actors = actorsOf(run.components);
  const f = strike?.fault;
  const interrupted = f?.kind === 'crash' && reference.trace ? nextSendOf(reference.trace, f.window, f.occurrence, actors) : undefined;
  // The guard cell is the representative's, as every other cell is: a guard that fired in
  // another occurrence's run is no evidence about the run whose evidence the row shows. A run that
  // still committed a duplicate its fault caused shows its guards as having fired, not as having
  // suppressed it; any duplicate it committed is a repeat it saw.
  const guards = faultGuardsOf(run.notes, reference.notes);
  const duplicated = faultDuplicated(run.findings, reference.findings);
  const repeatSeen = sawRepeat(run.findings, guards);
  const end = endDifferenceOf(run.outcome, run.findings, claims);
  return {
    place: input.place,
    fault: input.fault.kind,
    ...restoredOf(input.fault),
    runs: tally.runs,
    struck: tally.struck,
    outcome: run.outcome,
    outcomes: tally.outcomes,
    evidence: strike ? evidenceOf(strike, run.components, time, end) : undefined,
    retry: strike && run.trace ? observeRetry(run.trace, strike.fault, run.findings, actors, interrupted) : undefined,
    repair: repairQueryOf(claims, run.outcome, run.findings, repeatSeen),
    repeatSeen,
    guards,
    duplicated,
    note: noteFor(run.components, input.place, input.fault),
    undecided: tally.undecided,
    plan: run.plan,
    ...(input.replay ? { replay: input.replay } : {}),
  };
}

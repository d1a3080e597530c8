// One failure-window row, built the same way in windows mode and check mode. A row shows many
// runs' tally (how often its fault struck, what each run ended in) and one representative run,
// the worst: its strike gives the evidence, its end state the end difference, its trace the
// retry owner and its notes the guards. Building every row here keeps the two modes from reading
// those cells off different runs, or observing them differently: the work a crash cut short is
// read from a fault-free run in both, and a guard that fires without any fault (a natural
// redelivery deduplicated) is left out in both.
import type { ClaimVerdict } from './checkers/compose.ts';
import type { Finding, RunOutcome } from './checkers/finding.ts';
import type { Claim } from './claims.ts';
import { endDifferenceOf } from './endDifference.ts';
import type { Fault, FaultPlan } from './faults.ts';
import type { Place } from './place.ts';
import type { ReplayRef } from './replayLine.ts';
import { repairQueryOf } from './repairQuery.ts';
import { nextSendOf, observeRetry } from './retryObservation.ts';
import type { TimeScale } from './duration.ts';
import type { DesignComponent, WindowNote } from './scenario.ts';
import type { TraceEvent } from './trace.ts';
import type { Evidence, Undecided, WindowRow } from './windows.ts';
import type { Note, Strike } from './world.ts';

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
  /** Guards other runs of the row showed (the representative's own are read here). */
  readonly guards?: ReadonlySet<string>;
  /** Whether another run of the row saw a repeat attempt. */
  readonly repeat?: boolean;
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
  /** A fault-free run: the work a crash cut short is what it sent next, and its guards are no fault's doing. */
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

/** The evidence of a strike, each component rendered by its own describer (components without one are left out). */
export function evidenceOf(strike: Strike, components: readonly DesignComponent[], time: TimeScale, end: readonly string[] = []): Evidence {
  const described = components.filter((c) => c.describe !== undefined);
  return {
    tick: strike.tick,
    components: described.map((c) => ({ component: c.name, parts: c.describe!(strike.durable[c.name], time) })),
    inFlight: strike.inFlight,
    end,
  };
}

/** The guards a run's notes show suppressing a repeat. */
export function guardsOf(notes: readonly Note[]): Set<string> {
  const guards = new Set<string>();
  for (const n of notes) {
    const guard = (n.data as { guard?: unknown } | undefined)?.guard;
    if (n.kind === 'guard' && typeof guard === 'string') guards.add(guard);
  }
  return guards;
}

/** The guards a faulted run shows that its fault-free reference does not: the ones the fault called on. */
export function faultGuardsOf(notes: readonly Note[], reference: ReadonlySet<string>): string[] {
  return [...guardsOf(notes)].filter((g) => !reference.has(g));
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
    return { place: input.place, fault: input.fault.kind, ...restoredOf(input.fault), runs: tally.runs, struck: tally.struck, outcome: 'holds', outcomes: tally.outcomes, evidence: undefined, retry: undefined, repair: repairQueryOf(claims, 'holds', [], false), repeatSeen: false, guards: [], note: noteFor(reference.components, input.place, input.fault), undecided: tally.undecided, plan: [input.fault] };
  }
  const strike = run.strikes[0];
  const actors = actorsOf(run.components);
  const f = strike?.fault;
  const interrupted = f?.kind === 'crash' && reference.trace ? nextSendOf(reference.trace, f.window, f.occurrence, actors) : undefined;
  const guards = new Set([...(tally.guards ?? []), ...faultGuardsOf(run.notes, guardsOf(reference.notes))]);
  const repeatSeen = (tally.repeat ?? false) || guards.size > 0 || run.findings.some((x) => x.violation === 'duplicate effect');
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
    guards: [...guards].sort(),
    note: noteFor(run.components, input.place, input.fault),
    undecided: tally.undecided,
    plan: run.plan,
    ...(input.replay ? { replay: input.replay } : {}),
  };
}

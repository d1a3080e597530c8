// Prefix sharing: a faulted run is the fault-free reference run up to the moment its first fault
// strikes, so it need not perform that prefix again. A reference run made with `capture` saves
// the World before every step of its safety phase that entered a failure window or counted a
// message (the only moments a fault can strike), and notes, for each (window or message point,
// occurrence), the step it happened in. A run whose plan strikes first at step k is then started
// from the World as it stood before step k, with its own plan: its trace, its hash and its end
// are those of the run performed from the start (test/kernel/resume.test.ts holds every plan of
// a catalogue sweep to that).
//
// What makes that sound: before its first strike a faulted run takes every step the reference
// run took, since a plan changes nothing until one of its faults strikes (faults are looked up
// at a window entry or a counted send, and only while the safety phase lasts); machine snapshots
// are immutable, so the saved ones are shared rather than copied; and the one event that names
// the plan, the trace's first, is the run's own.
import { hasFault, includesPlan, isWindowFault, type Fault, type FaultPlan } from '../faults/faults.ts';
import type { KernelState } from './draft.ts';
import type { PrngState } from '../base/prng.ts';
import type { Stepper } from './stepper.ts';
import type { TraceLog } from './trace.ts';
import type { ComponentSpec } from './componentSpec.ts';
import type { DriverRefusal, Note, Strike } from './runEvents.ts';

/** The World before one step of the reference run's safety phase: its state (immutable, so shared) and the run's counts. */
export interface SavedWorld {
  readonly state: KernelState;
  readonly steps: number;
  readonly windowCounts: readonly (readonly [string, number])[];
  readonly census: readonly (readonly [string, number])[];
  /** How many faults had struck by then (none in a fault-free run). */
  readonly strikes: number;
  /** How many trace events and notes the run had made by then. */
  readonly traceLength: number;
  readonly notesLength: number;
  /** Where the network's stream of latencies stood, when the run draws them. */
  readonly network: PrngState | undefined;
}

/** What a captured reference run leaves for the runs that resume from it. */
export interface ResumePoints {
  /** The seed, components and steppers every resumed run must share with the reference. */
  readonly seed: string;
  /** The captured run's own plan, empty for a reference run; a run resuming from it has every one of these faults. */
  readonly plan: FaultPlan;
  readonly components: readonly ComponentSpec[];
  readonly steppers: readonly Stepper[];
  readonly refusals: readonly DriverRefusal[];
  readonly saved: readonly SavedWorld[];
  /** Strike key → the saved step it happened in; -1 when it happened while the components booted. */
  readonly at: ReadonlyMap<string, number>;
  readonly trace: TraceLog;
  readonly notes: readonly Note[];
  /** The faults that struck in the captured run, in order. */
  readonly strikes: readonly Strike[];
}

/** Where a resumed run starts: the points and the saved step. */
export interface ResumeFrom {
  readonly points: ResumePoints;
  readonly index: number;
}

/** The key of a window's n-th entry. */
export function windowKey(window: string, n: number): string {
  return `w${window}#${n}`;
}

/** The key of a message point's n-th counted send. */
export function pointKey(point: string, n: number): string {
  return `m${point}#${n}`;
}

/** The key of the moment a fault would strike. */
export function strikeKey(f: Fault): string {
  return isWindowFault(f) ? windowKey(f.window, f.occurrence) : pointKey(f.point, f.occurrence);
}

/**
 * The saved step a plan's run can start from: the earliest at which one of its faults that the
 * captured run lacks strikes there (every fault, for a fault-free reference run). None when the
 * captured run has a fault the plan lacks, when one of the plan's own faults strikes while the
 * components boot (the run starts from the beginning), or when none of them strikes in the
 * captured run's safety phase (nor then in this run, which stays the captured run throughout:
 * see `sameRunAs`).
 */
export function resumeIndex(points: ResumePoints, plan: FaultPlan): number | undefined {
  if (!includesPlan(plan, points.plan)) return undefined;
  let first = Infinity;
  for (const f of plan) {
    if (hasFault(points.plan, f)) continue;
    const at = points.at.get(strikeKey(f));
    if (at !== undefined && at < first) first = at;
  }
  return first === Infinity || first < 0 ? undefined : first;
}

/**
 * Whether a plan's run is the captured run itself, its extra faults never struck: it has every
 * fault the captured run had, and none of the others has its place reached in the captured run's
 * safety phase. A fault changes nothing until it strikes, so the two runs take the same steps to
 * the same end; only the plan, and so the trace's first event, differ.
 */
export function sameRunAs(points: ResumePoints, plan: FaultPlan): boolean {
  if (!includesPlan(plan, points.plan)) return false;
  return plan.every((f) => hasFault(points.plan, f) || !points.at.has(strikeKey(f)));
}

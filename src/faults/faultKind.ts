// What a fault kind says about itself. Each kind has one descriptor (src/faults/kinds/<kind>.ts):
// where it strikes (a failure window or a message point), whether a component must declare it
// before it can strike, how a plan entry of it is read and printed, where in a design it can
// strike, how explore draws one, how it is described and labelled, how a diagram draws what it
// did, and what it does to a running world: the choices a search is offered, what taking one
// does, how a plan's entry strikes, and which plan entry a chosen fault is (written with the
// kernel's primitives, src/faults/faultWorld.ts). The plan reader, the fault space, explore,
// check, replay, the reports and the kernel ask the descriptor, so no list of kinds is written
// anywhere else.
import type fc from 'fast-check';
import type { MessageOps, MessageWorld, WindowWorld } from './faultWorld.ts';

/** A fault that strikes a process as it rests in a window, at the window's n-th entry. */
export type WindowFaultOf<K extends string> = { readonly kind: K; readonly window: string; readonly occurrence: number };

/** A fault that strikes the n-th message of one kind on one link. */
export type PointFaultOf<K extends string> = { readonly kind: K; readonly point: string; readonly occurrence: number };

/** What a design offers the window faults, read from its components (src/run/failureWindows.ts). */
export interface StrikeSpace {
  /** Every failure window: the resting states of the processes, then the crashing servers' marks. */
  readonly windows: readonly string[];
  /** The resting states of the processes alone: the moments a restore or a skew can strike at. */
  readonly moments: readonly string[];
  /** The components that declare a snapshot to be restored to. */
  readonly restorable: readonly string[];
  /** The windows of the processes whose clock can jump. */
  readonly skewable: readonly string[];
}

/** One place a window fault can strike, and the fault it strikes there at each occurrence. */
export interface WindowStrike<F> {
  readonly window: string;
  fault(occurrence: number): F;
}

/** A plan entry read from JSON whose kind and occurrence are already known good. */
export type PlanEntry = Readonly<Record<string, unknown>> & { readonly kind: string; readonly occurrence: number };

/** What a replay checks a declared window fault against: the design's components as declared. */
export interface DeclaringComponent {
  readonly name: string;
  readonly process?: boolean;
  readonly restore?: unknown;
  readonly skewTicks?: number;
}

export interface KindDescriptor<F extends { readonly kind: string; readonly occurrence: number }> {
  readonly kind: F['kind'];
  /** Whether it strikes only where a component declares it (a snapshot, a clock that can jump, a group). */
  readonly declared: boolean;
  /** The fields of a plan entry of this kind between its kind and its occurrence, in the order plans print them. */
  readonly fields: readonly string[];
  /** Reads a plan entry of this kind; `fail` throws the reader's one-line error. */
  read(entry: PlanEntry, fail: (message: string) => never): F;
  /** One short line for the fault; `nth` is empty for a first occurrence, else ` (occurrence n)`. */
  describe(f: F, nth: string): string;
  /** The fault in a few words: its kind, and whatever else tells two faults at one place apart. */
  label(f: F): string;
  /** Why a fault of this kind strikes nowhere in a design that offers it no place. */
  readonly nowhere: string;
}

export interface WindowKind<F extends WindowFaultOf<string>, C = unknown> extends KindDescriptor<F> {
  readonly strikes: 'window';
  /** Every place it can strike in a design, in the order a sweep strikes them. */
  places(space: StrikeSpace): WindowStrike<F>[];
  /** Explore's generator of such faults, or undefined where the design offers it no place. */
  arbitrary(space: StrikeSpace, occurrence: fc.Arbitrary<number>): fc.Arbitrary<F> | undefined;
  /** Why a replay's plan entry cannot strike this design, or undefined when it can. */
  refuse(f: F, components: readonly DeclaringComponent[], owner: string): string | undefined;
  /** The note a diagram draws for the trace event the kernel records under this kind; undefined where it is drawn otherwise (a crash). */
  note(data: unknown): string | undefined;
  /** What it does to a running world, and the choices it offers a search. */
  readonly world: WindowWorld<F, C>;
}

export interface PointKind<F extends PointFaultOf<string>> extends KindDescriptor<F> {
  readonly strikes: 'point';
  /** The words a diagram's note adds to a message this kind struck; undefined where it is drawn as a lost message. */
  readonly drawn: string | undefined;
  /** What it does to the message it strikes. */
  readonly world: MessageWorld;
}

/** `field` of a plan entry as text, or the reader's error saying what the kind needs. */
export function textField(entry: PlanEntry, field: string, need: string, fail: (message: string) => never): string {
  const value = entry[field];
  if (typeof value !== 'string') fail(need);
  return value as string;
}

/** The descriptor of a message fault every link can suffer unless one of its ends says otherwise. */
export function transportKind<K extends string>(kind: K, o: { readonly drawn: string | undefined; readonly ownConnection?: boolean; act(ops: MessageOps): void }): PointKind<PointFaultOf<K>> {
  return pointKind(kind, {
    declared: false,
    drawn: o.drawn,
    describe: (f, nth) => `${kind} ${f.point}${nth}`,
    nowhere: `no message on a link that can ${kind} one`,
    world: { ownConnection: o.ownConnection ?? true, act: o.act },
  });
}

/** The descriptor of a message fault: read and labelled alike, told apart by what it does and says. */
export function pointKind<K extends string>(
  kind: K,
  o: { readonly declared: boolean; readonly drawn: string | undefined; readonly nowhere: string; describe(f: PointFaultOf<K>, nth: string): string; readonly world: MessageWorld },
): PointKind<PointFaultOf<K>> {
  return {
    kind,
    strikes: 'point',
    declared: o.declared,
    fields: ['point'],
    read: (entry, fail) => ({ kind, point: textField(entry, 'point', `a ${kind} fault needs a point`, fail), occurrence: entry.occurrence }),
    describe: o.describe,
    label: () => kind,
    nowhere: o.nowhere,
    drawn: o.drawn,
    world: o.world,
  };
}

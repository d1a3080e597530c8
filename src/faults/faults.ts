// The faults a run can suffer, as plain data. A FaultPlan is printed at the start of a run and
// in every failure, and it is all that (with the seed) a replay needs.
//
// Two kinds of place a fault can strike (src/faults/place.ts), both discovered from the models, never
// hand-listed:
// - a failure window `<component>.<state>`: the moment a process machine has entered that state
//   and not yet taken its next step, or a moment a crashing server marks inside a step
//   (`ordersDb.afterCommit`: committed, the reply not yet sent). A crash there loses the
//   component's volatile context (open transactions, in-flight requests, caches) and keeps its
//   durable context.
// - a message point `<from>-><to>:<type>`: a kind of message on one link. A message fault there
//   loses, duplicates, delays or reorders the n-th such message, or (where the receiver declares
//   it) rebalances it: the sender takes the work that message carries away from its receiver
//   and gives it to another, while the message is still on its way (a broker moving a partition
//   to another member of the consumer group as the record goes out).
// Two more window faults strike only where a component declares them:
// - a restore (`DesignComponent.restore`): when a process enters the window, the named component
//   is set back to its snapshot (a database to its last backup, a broker's group offsets to where
//   they stood, a stream processor to an older checkpoint) and restarts from it, so it replays
//   whatever its input still holds from the positions that snapshot recorded;
// - a clock skew (`DesignComponent.skewTicks`): from that moment the component's clock reads
//   that many ticks ahead of everyone else's, as a device's clock that jumped.
import { parsePoint, parseWindow, type Place } from './place.ts';

export type CrashFault = {
  readonly kind: 'crash';
  /** `<component>.<state>`: crash when the component enters this state... */
  readonly window: string;
  /** ...for the n-th time (1-based). */
  readonly occurrence: number;
};

/** A component set back to its snapshot when a process enters a window. */
export type RestoreFault = {
  readonly kind: 'restore';
  /** The component restored: one that declares a snapshot (DesignComponent.restore). */
  readonly component: string;
  /** `<process>.<state>`: the moment, as a crash names it... */
  readonly window: string;
  /** ...for the n-th time (1-based). */
  readonly occurrence: number;
};

/** The clock of the window's own component jumps ahead by the skew it declares (DesignComponent.skewTicks). */
export type SkewFault = {
  readonly kind: 'skew';
  readonly window: string;
  readonly occurrence: number;
};

/** The faults that strike at a failure window rather than at a message point. */
export type WindowFault = CrashFault | RestoreFault | SkewFault;
export type WindowFaultKind = WindowFault['kind'];

export type MessageFaultKind = 'lose' | 'duplicate' | 'delay' | 'reorder' | 'rebalance';

export type MessageFault = {
  readonly kind: MessageFaultKind;
  /** `<from>-><to>:<type>`: which message... */
  readonly point: string;
  /** ...and its n-th occurrence on that link (1-based). */
  readonly occurrence: number;
};

export type Fault = WindowFault | MessageFault;
export type FaultKind = Fault['kind'];
export type FaultPlan = readonly Fault[];

/** What any link can suffer unless one of its ends says otherwise (DesignComponent.messageFaults). */
export const TRANSPORT_FAULT_KINDS: readonly MessageFaultKind[] = ['lose', 'duplicate', 'delay', 'reorder'];
/**
 * Faults a link suffers only where the receiver declares them for a message type it receives
 * (DesignComponent.receivedFaults): a rebalance makes sense only for a record a broker delivers
 * to one member of a group that has another member to give it to.
 */
export const DECLARED_FAULT_KINDS: readonly MessageFaultKind[] = ['rebalance'];
export const MESSAGE_FAULT_KINDS: readonly MessageFaultKind[] = [...TRANSPORT_FAULT_KINDS, ...DECLARED_FAULT_KINDS];
/** Window faults a component must declare before it can suffer them: a snapshot to restore, a clock that can jump. */
export const DECLARED_WINDOW_FAULT_KINDS: readonly WindowFaultKind[] = ['restore', 'skew'];
export const WINDOW_FAULT_KINDS: readonly WindowFaultKind[] = ['crash', ...DECLARED_WINDOW_FAULT_KINDS];

/** Whether a kind strikes only where a component declares it. */
export function isDeclaredKind(k: FaultKind): boolean {
  return (DECLARED_FAULT_KINDS as readonly FaultKind[]).includes(k) || (DECLARED_WINDOW_FAULT_KINDS as readonly FaultKind[]).includes(k);
}
export const FAULT_KINDS: readonly FaultKind[] = ['crash', ...MESSAGE_FAULT_KINDS, ...DECLARED_WINDOW_FAULT_KINDS];

/** Whether a fault strikes at a failure window (a crash, a restore, a skew) rather than at a message point. */
export function isWindowFault(f: Fault): f is WindowFault {
  return f.kind === 'crash' || f.kind === 'restore' || f.kind === 'skew';
}

/** Whether a kind is one that strikes at a failure window. */
export function isWindowKind(k: FaultKind): k is WindowFaultKind {
  return (WINDOW_FAULT_KINDS as readonly FaultKind[]).includes(k);
}

/** The place a fault strikes, as the text plans carry. */
export function faultPlaceName(f: Fault): string {
  return isWindowFault(f) ? f.window : f.point;
}

/** The place a fault strikes, as data; undefined when the plan's text names no valid place. */
export function faultPlace(f: Fault): Place | undefined {
  return isWindowFault(f) ? parseWindow(f.window) : parsePoint(f.point);
}

/** The component a restore sets back; undefined for every other kind. */
export function restoredComponent(f: Fault): string | undefined {
  return f.kind === 'restore' ? f.component : undefined;
}

/** What a fault does, in a few words: its kind, and for a restore the component restored (`restore broker`). */
export function faultLabel(f: Fault): string {
  return f.kind === 'restore' ? `restore ${f.component}` : f.kind;
}

/** Two faults are the same when they strike the same place, the same way, at the same occurrence. */
export function sameFault(a: Fault, b: Fault): boolean {
  return a.kind === b.kind && a.occurrence === b.occurrence && faultPlaceName(a) === faultPlaceName(b) && restoredComponent(a) === restoredComponent(b);
}

/** Whether `plan` has the fault `f`. */
export function hasFault(plan: FaultPlan, f: Fault): boolean {
  return plan.some((g) => sameFault(f, g));
}

/** Whether every fault of `part` is in `plan`. */
export function includesPlan(plan: FaultPlan, part: FaultPlan): boolean {
  return part.every((f) => hasFault(plan, f));
}

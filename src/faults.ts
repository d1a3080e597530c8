// The faults a run can suffer, as plain data. A FaultPlan is printed at the start of a run and
// in every failure, and it is all that (with the seed) a replay needs.
//
// Two kinds of place a fault can strike (src/place.ts), both discovered from the models, never
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
import { parsePoint, parseWindow, type Place } from './place.ts';

export type CrashFault = {
  readonly kind: 'crash';
  /** `<component>.<state>`: crash when the component enters this state... */
  readonly window: string;
  /** ...for the n-th time (1-based). */
  readonly occurrence: number;
};

export type MessageFaultKind = 'lose' | 'duplicate' | 'delay' | 'reorder' | 'rebalance';

export type MessageFault = {
  readonly kind: MessageFaultKind;
  /** `<from>-><to>:<type>`: which message... */
  readonly point: string;
  /** ...and its n-th occurrence on that link (1-based). */
  readonly occurrence: number;
};

export type Fault = CrashFault | MessageFault;
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

/** Whether a kind strikes only where a receiver declares it. */
export function isDeclaredKind(k: FaultKind): boolean {
  return (DECLARED_FAULT_KINDS as readonly FaultKind[]).includes(k);
}
export const FAULT_KINDS: readonly FaultKind[] = ['crash', ...MESSAGE_FAULT_KINDS];

/** The place a fault strikes, as the text plans carry. */
export function faultPlaceName(f: Fault): string {
  return f.kind === 'crash' ? f.window : f.point;
}

/** The place a fault strikes, as data; undefined when the plan's text names no valid place. */
export function faultPlace(f: Fault): Place | undefined {
  return f.kind === 'crash' ? parseWindow(f.window) : parsePoint(f.point);
}

/** Two faults are the same when they strike the same place, the same way, at the same occurrence. */
export function sameFault(a: Fault, b: Fault): boolean {
  return a.kind === b.kind && a.occurrence === b.occurrence && faultPlaceName(a) === faultPlaceName(b);
}

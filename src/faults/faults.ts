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
// Each kind is described once, in its own file under src/faults/kinds/ (src/faults/faultKind.ts
// says what a descriptor holds); the lists of kinds below are read off those descriptors.
import { parsePoint, parseWindow, type Place } from './place.ts';
import type { PointFaultOf, PointKind, WindowKind } from './faultKind.ts';
import type { MessageChoiceOf, MessageWorld, WindowWorld } from './faultWorld.ts';
import { crash, type CrashChoice, type CrashFault } from './kinds/crash.ts';
import { delay } from './kinds/delay.ts';
import { duplicate } from './kinds/duplicate.ts';
import { lose } from './kinds/lose.ts';
import { rebalance } from './kinds/rebalance.ts';
import { reorder } from './kinds/reorder.ts';
import { restore, type RestoreChoice, type RestoreFault } from './kinds/restore.ts';
import { skew, type SkewChoice, type SkewFault } from './kinds/skew.ts';

export type { CrashChoice, CrashFault, RestoreChoice, RestoreFault, SkewChoice, SkewFault };

/** The faults that strike at a failure window rather than at a message point. */
export type WindowFault = CrashFault | RestoreFault | SkewFault;
export type WindowFaultKind = WindowFault['kind'];

/** The message faults, transport's first, then those a receiver declares. */
const MESSAGE_DESCRIPTORS = [lose, duplicate, delay, reorder, rebalance] as const;
export type MessageFaultKind = (typeof MESSAGE_DESCRIPTORS)[number]['kind'];
export type MessageFault = PointFaultOf<MessageFaultKind>;

export type Fault = WindowFault | MessageFault;
export type FaultKind = Fault['kind'];
export type FaultPlan = readonly Fault[];

/** A fault a search may choose: a window fault's names the component it strikes, a message fault's the link whose head it strikes. */
export type WindowChoice = CrashChoice | RestoreChoice | SkewChoice;
export type MessageChoice = MessageChoiceOf<MessageFaultKind>;
export type FaultChoice = WindowChoice | MessageChoice;

export type WindowFaultDescriptor = WindowKind<WindowFault, WindowChoice>;
export type MessageFaultDescriptor = PointKind<MessageFault>;
export type FaultDescriptor = WindowFaultDescriptor | MessageFaultDescriptor;

/**
 * Every kind's descriptor (src/faults/kinds/), in the one order kinds are listed, swept and
 * reported: the crash, the message faults, then the window faults a component declares.
 */
export const FAULT_DESCRIPTORS: readonly FaultDescriptor[] = [crash, ...MESSAGE_DESCRIPTORS, restore, skew];
const WINDOW_DESCRIPTORS = FAULT_DESCRIPTORS.filter((d): d is WindowFaultDescriptor => d.strikes === 'window');
const BY_KIND = new Map<string, FaultDescriptor>(FAULT_DESCRIPTORS.map((d) => [d.kind, d]));

export const FAULT_KINDS: readonly FaultKind[] = FAULT_DESCRIPTORS.map((d) => d.kind);
/** What any link can suffer unless one of its ends says otherwise (DesignComponent.messageFaults). */
export const TRANSPORT_FAULT_KINDS: readonly MessageFaultKind[] = MESSAGE_DESCRIPTORS.filter((d) => !d.declared).map((d) => d.kind);
/**
 * Faults a link suffers only where the receiver declares them for a message type it receives
 * (DesignComponent.receivedFaults), or, for a rebalance, where it joins a group another component
 * joins (DesignComponent.subscribes): a rebalance makes sense only for a record a broker delivers
 * to one member of a group that has another member to give it to.
 */
export const DECLARED_FAULT_KINDS: readonly MessageFaultKind[] = MESSAGE_DESCRIPTORS.filter((d) => d.declared).map((d) => d.kind);
export const MESSAGE_FAULT_KINDS: readonly MessageFaultKind[] = MESSAGE_DESCRIPTORS.map((d) => d.kind);
export const WINDOW_FAULT_KINDS: readonly WindowFaultKind[] = WINDOW_DESCRIPTORS.map((d) => d.kind);
/** Window faults a component must declare before it can suffer them: a snapshot to restore, a clock that can jump. */
export const DECLARED_WINDOW_FAULT_KINDS: readonly WindowFaultKind[] = WINDOW_DESCRIPTORS.filter((d) => d.declared).map((d) => d.kind);

/** A kind's descriptor; undefined for a name that is no fault kind. */
export function faultDescriptor(kind: string): FaultDescriptor | undefined {
  return BY_KIND.get(kind);
}

/** The descriptors of the window faults, crash first. */
export function windowDescriptors(): readonly WindowFaultDescriptor[] {
  return WINDOW_DESCRIPTORS;
}

/** Whether a kind strikes only where a component declares it. */
export function isDeclaredKind(k: FaultKind): boolean {
  return BY_KIND.get(k)?.declared === true;
}

/** Whether a fault strikes at a failure window (a crash, a restore, a skew) rather than at a message point. */
export function isWindowFault(f: Fault): f is WindowFault {
  return isWindowKind(f.kind);
}

/** Whether a kind is one that strikes at a failure window. */
export function isWindowKind(k: FaultKind): k is WindowFaultKind {
  return BY_KIND.get(k)?.strikes === 'window';
}

/** A window fault's descriptor. */
function windowDescriptor(f: WindowFault): WindowFaultDescriptor {
  return BY_KIND.get(f.kind) as WindowFaultDescriptor;
}

/** A message fault's descriptor. */
function messageDescriptor(f: MessageFault): MessageFaultDescriptor {
  return BY_KIND.get(f.kind) as MessageFaultDescriptor;
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
  return isWindowFault(f) ? windowDescriptor(f).label(f) : messageDescriptor(f).label(f);
}

/** One short line for a fault, as plans, reports and replay output print it. */
export function faultSentence(f: Fault): string {
  const nth = f.occurrence === 1 ? '' : ` (occurrence ${f.occurrence})`;
  return isWindowFault(f) ? windowDescriptor(f).describe(f, nth) : messageDescriptor(f).describe(f, nth);
}

/** A fault as plain JSON: its kind, its kind's fields in order, its occurrence. */
export function faultFields(f: Fault): Record<string, unknown> {
  const fields = (BY_KIND.get(f.kind) as FaultDescriptor).fields;
  const out: Record<string, unknown> = { kind: f.kind };
  for (const name of fields) out[name] = (f as unknown as Record<string, unknown>)[name];
  out['occurrence'] = f.occurrence;
  return out;
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

/**
 * The window kinds' parts in a running world, in the order a search is offered their choices
 * (the order kinds are listed); each is asked only of its own faults and choices.
 */
export const WINDOW_WORLDS: ReadonlyMap<WindowFaultKind, WindowWorld<WindowFault, WindowChoice>> = new Map(WINDOW_DESCRIPTORS.map((d) => [d.kind, d.world]));
/** The window kinds in the order their plan entries strike when several strike as one window is entered (WindowWorld.rank). */
export const WINDOW_STRIKE_ORDER: readonly WindowFaultKind[] = [...WINDOW_DESCRIPTORS].sort((a, b) => a.world.rank - b.world.rank).map((d) => d.kind);
/** The message kinds' parts in a running world. */
export const MESSAGE_WORLDS: ReadonlyMap<MessageFaultKind, MessageWorld> = new Map(MESSAGE_DESCRIPTORS.map((d) => [d.kind, d.world]));

// What a model may ask the World to do besides changing its own state: send a message to
// another component, write a note into the trace (a guard that suppressed a duplicate, an
// effect that became durable), or, for a server, mark one of its own failure windows within the
// step (a commit made, its reply not yet sent). Models emit these with XState's `emit`; the
// World performs them.
import type { EventObject } from 'xstate';

export interface SendEmitted {
  readonly type: 'send';
  readonly to: string;
  readonly event: EventObject;
  /** Sent on its own connection, outside the link's FIFO order (a concurrent in-flight request). */
  readonly unordered?: boolean;
}

export interface NoteEmitted {
  readonly type: 'note';
  readonly kind: string;
  readonly data?: unknown;
}

/**
 * A server's failure window, reached within a step: the actions emitted before it have happened,
 * those after it (its replies) have not. A server's windows are moments inside a step, not states
 * it rests in, because a commit and its reply are one step of its machine. With `undone`, the
 * step's own change is not yet durable either (a record received, not yet appended), so a crash
 * there restarts from the durable state before the step.
 */
export interface WindowEmitted {
  readonly type: 'window';
  readonly state: string;
  readonly undone?: true;
}

export type Emitted = SendEmitted | NoteEmitted | WindowEmitted;

export function send<E extends EventObject>(to: string, event: E, unordered = false): SendEmitted {
  return unordered ? { type: 'send', to, event, unordered } : { type: 'send', to, event };
}

export function note(kind: string, data?: unknown): NoteEmitted {
  return data === undefined ? { type: 'note', kind } : { type: 'note', kind, data };
}

export function window(state: string, undone = false): WindowEmitted {
  return undone ? { type: 'window', state, undone } : { type: 'window', state };
}

/** The window mark an executed action is, if it is one; the World and check mode read a server's step through it. */
export function windowMarkOf(action: { readonly type: string; readonly params?: unknown }): WindowEmitted | undefined {
  if (action.type !== 'xstate.emit') return undefined;
  const e = (action.params as { event: { type: string } }).event;
  return e.type === 'window' ? (e as WindowEmitted) : undefined;
}

/** Every network event arrives with its sender's name and the tick it arrived. */
export type FromPeer = { readonly from: string; readonly at: number };

/** Delivered to every live component when a peer crashes, like a dropped connection. */
export type PeerCrashed = { readonly type: 'sys.peerCrashed'; readonly peer: string; readonly at: number };

/**
 * Delivered to the sender of a message a `rebalance` fault struck, at the tick it was sent: take
 * the work `event` carries away from `peer`, its receiver, which still gets the message.
 */
export type Rebalance = { readonly type: 'sys.rebalance'; readonly peer: string; readonly event: EventObject };
export type Rebalanced = Rebalance & { readonly at: number };

// What a model may ask the World to do besides changing its own state: send a message to
// another component, or write a note into the trace (a guard that suppressed a duplicate, an
// effect that became durable). Models emit these with XState's `emit`; the World performs them.
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

export type Emitted = SendEmitted | NoteEmitted;

export function send<E extends EventObject>(to: string, event: E, unordered = false): SendEmitted {
  return unordered ? { type: 'send', to, event, unordered } : { type: 'send', to, event };
}

export function note(kind: string, data?: unknown): NoteEmitted {
  return data === undefined ? { type: 'note', kind } : { type: 'note', kind, data };
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

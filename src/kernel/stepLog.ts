// What a step tells the one driving it, and asks of it. The kernel (src/kernel/kernel.ts) knows
// the rules of a run; a driver knows which faults a plan strikes and keeps the run's records.
// So a step reports every trace event, every failure window a component enters and every message
// it sends, and a driver that strikes faults by plan (the World) answers, for a window or a
// message, the faults that strike there now; a search answers none (its faults are choices of
// their own) and keeps only what it counts.
import type { EventObject } from 'xstate';
import type { Fault, MessageFault } from '../faults/faults.ts';
import type { TraceKind } from './trace.ts';

/** A moment of the world as a fault found it: what was durable and what was on its way. */
export interface StrikeMoment {
  readonly tick: number;
  readonly durable: () => Readonly<Record<string, unknown>>;
  readonly inFlight: () => { from: string; to: string; event: EventObject }[];
}

export interface StepLog {
  /** Records a trace event; a search leaves it out, and then no event's data is even built. */
  trace?(tick: number, component: string, kind: TraceKind, data?: unknown): void;
  /**
   * Component `comp` entered failure window `window` (a process resting in a state, or a server's
   * step reaching one of its marks): the faults of a plan that strike there now, in the plan's
   * order. A search answers nothing. Which of them strike is the kernel's to pick (at a mark, only
   * a kind that strikes inside a step).
   */
  enter(comp: number, window: string): readonly Fault[] | undefined;
  /** A message of `point` was sent: which of its point it is, and the plan's fault for it (the World counts and answers). */
  sent?(point: string): { readonly n: number; readonly fault: MessageFault | undefined };
  /** A fault of the plan struck, at this moment. */
  struck?(fault: Fault, at: StrikeMoment): void;
  /** The latency of the `nth` message sent (a release at the heal passes none), where the world draws them. */
  latency?(nth: number | undefined): number;
}

/** A log that records nothing and strikes nothing: a search's, when it keeps no counts. */
export const NO_LOG: StepLog = { enter: () => undefined };

// What a run records as it goes, beside its trace: the faults that struck (with what was durable
// and in flight at that moment), the notes the models wrote, and the components the compiled
// driver refused. A run's report carries them, and the resume points save them with the World.
import type { EventObject } from 'xstate';
import type { Fault } from '../faults/faults.ts';

/** A message on its way when a fault struck: sent, not yet delivered (or held back by a reorder). */
export interface InFlight {
  readonly from: string;
  readonly to: string;
  readonly event: EventObject;
}

/** A fault that actually struck, with what was durable and what was in flight at that moment. */
export interface Strike {
  readonly fault: Fault;
  readonly tick: number;
  readonly durable: Readonly<Record<string, unknown>>;
  readonly inFlight: readonly InFlight[];
}

/** Something a model wrote into the trace: a guard that suppressed a repeat, an effect applied. */
export interface Note {
  readonly tick: number;
  readonly seq: number;
  readonly component: string;
  readonly kind: string;
  readonly data?: unknown;
}

/** A component the compiled driver refused, which therefore ran on XState's own step. */
export interface DriverRefusal {
  readonly component: string;
  readonly reason: string;
}

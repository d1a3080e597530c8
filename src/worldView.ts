// What a checker may look at after a run: every component's durable end state and the trace.
// Checkers judge durable evidence, the same evidence an operator has after an incident.
import type { RunResult } from './world.ts';
import type { TraceEvent } from './trace.ts';

export interface WorldView {
  durable<T = unknown>(component: string): T;
  readonly result: RunResult;
  /** Notes written during the run (guards that suppressed a repeat, effects applied). */
  readonly notes: readonly TraceEvent[];
}

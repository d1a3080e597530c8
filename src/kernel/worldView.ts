// What a checker may look at after a run: every component's durable end state, how the run
// ended and the notes the models wrote. Checkers judge durable evidence, the same evidence an
// operator has after an incident.
import type { Note } from './runEvents.ts';
import type { RunReport } from './runReport.ts';

export interface WorldView {
  durable<T = unknown>(component: string): T;
  readonly result: Pick<RunReport, 'ending'>;
  /** Notes written during the run (guards that suppressed a repeat, effects applied). */
  readonly notes: readonly Note[];
}

// What a run leaves behind, as data: how it ended, what struck and what was in flight then, the
// notes the models wrote, every component's durable state, and the censuses of its failure
// windows and message points. The World writes it; the checkers, the modes and the reports read it.
import type { Fault } from '../faults/faults.ts';
import type { DriverRefusal, Note, Strike } from './runEvents.ts';
import type { ResumePoints } from './resumePoints.ts';
import type { TraceEvent } from './trace.ts';

/** Why a run never reached quiescence, as data. */
export type StuckReason =
  /** The bound on scheduled items was reached, in the safety or the liveness phase. */
  | { readonly kind: 'steps'; readonly bound: number; readonly phase: 'safety' | 'liveness' }
  /** Something kept happening for the whole liveness phase (a livelock, a retry loop). */
  | { readonly kind: 'no quiescence'; readonly ticks: number }
  /** Nothing was left to happen, yet these processes (`component.state`) were not idle. */
  | { readonly kind: 'waiting'; readonly components: readonly string[] };

/** How a run ended: quiescent after healing, or stuck (no quiescence within the bounds). */
export type Ending = { readonly kind: 'quiescent' } | { readonly kind: 'stuck'; readonly reason: StuckReason };

/** Everything a run leaves behind, as data: what happened, what struck, what is durable at the end. */
export interface RunReport {
  readonly ending: Ending;
  readonly ticks: number;
  readonly steps: number;
  readonly strikes: readonly Strike[];
  /** Faults of the plan that never struck: their place was never entered or sent at that occurrence. */
  readonly unstruck: readonly Fault[];
  readonly traceHash: string;
  /** How many messages of each point were sent (the message census windows mode enumerates). */
  readonly census: ReadonlyMap<string, number>;
  /** How many times each failure window was entered. */
  readonly windowCounts: ReadonlyMap<string, number>;
  /**
   * The census and the window counts as they stood when faults were healed: the occurrences a
   * fault could strike at, since none strikes in the liveness phase.
   */
  readonly struckable: { readonly census: ReadonlyMap<string, number>; readonly windowCounts: ReadonlyMap<string, number> };
  /** Notes the models wrote, kept even when the trace keeps only its hash. */
  readonly notes: readonly Note[];
  /** Every component's durable context at the end. */
  readonly durable: Readonly<Record<string, unknown>>;
  /** The trace's events, when the run kept them. */
  readonly trace: readonly TraceEvent[] | undefined;
  readonly refusals: readonly DriverRefusal[];
  /** Where faulted runs of the same seed can start, when the run was made with `capture`. */
  readonly resume?: ResumePoints;
  /** Of `steps`, those a resumed run took over from its reference run rather than performing them. */
  readonly sharedSteps?: number;
}

/** The event a `skew` fault delivers: the component's clock now reads `ticks` further ahead. */
export type ClockSkewed = { readonly type: 'sys.clockSkew'; readonly ticks: number; readonly at: number };

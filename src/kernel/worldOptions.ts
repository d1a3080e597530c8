// The settings of one run: the seed and fault plan, the network's latencies, the phases' bounds,
// what the trace keeps, and which driver steps the machines. The World and check mode read the
// same options, and the trace's start event records the ones that decide what happens.
import type { FaultPlan } from '../faults/faults.ts';
import type { Driver } from './stepper.ts';

export interface NetworkOptions {
  /** Every message takes at least this many ticks. */
  readonly latencyTicksMin: number;
  /** And at most this many; draws come from the network's own stream. */
  readonly latencyTicksMax: number;
  /** The extra ticks a `delay` fault adds to one message. */
  readonly delayFaultTicks: number;
  /**
   * A schedule instead of draws: the n-th message sent (lost, held and connection-drop ones
   * counted too) takes `latencyTicksMin` plus the n-th entry, kept within the window, and every
   * message past the last entry takes the least latency. Being data, a schedule can be shrunk
   * entry by entry, which a seed cannot.
   */
  readonly latencies?: readonly number[];
}

export interface WorldOptions extends NetworkOptions {
  readonly seed: number | string;
  readonly plan: FaultPlan;
  /** A crashed component stays down this many ticks before it restarts. */
  readonly restartDelayTicks: number;
  /** The safety phase (faults apply) ends at this tick, or earlier once the world is quiet. */
  readonly safetyTicksMax: number;
  /** The liveness phase (faults healed) gets this many ticks to reach quiescence. */
  readonly livenessTicksMax: number;
  /** The world is quiet when no durable state has changed for this many ticks. */
  readonly quietTicks: number;
  /** A hard bound on scheduled items processed, so a livelock ends as `stuck`. */
  readonly stepsMax: number;
  /** Keep every trace event (replay, reports) or only the hash (long explorations). */
  readonly keepTrace: boolean;
  /** Hash the trace; off for runs whose hash nobody reads, such as most of an exploration. */
  readonly hashTrace: boolean;
  /**
   * How machines are stepped: `xstate` through `machine.transition`, `compiled` through the
   * precomputed tables of src/kernel/compiledMachine.ts (a machine it cannot compile runs on XState's
   * step, and the run reports why). Both give the same runs, trace for trace.
   */
  readonly driver: Driver;
  /**
   * Save the World before every step of the safety phase at which a fault could strike, so that
   * faulted runs can start where their first fault strikes (src/run/resumePoints.ts). For a
   * fault-free reference run; its report then carries the points.
   */
  readonly capture: boolean;
}

export const DEFAULT_WORLD_OPTIONS: Omit<WorldOptions, 'seed' | 'plan'> = {
  latencyTicksMin: 1,
  latencyTicksMax: 3,
  delayFaultTicks: 40,
  restartDelayTicks: 10,
  safetyTicksMax: 2_000,
  livenessTicksMax: 4_000,
  quietTicks: 60,
  stepsMax: 200_000,
  keepTrace: true,
  hashTrace: true,
  driver: 'compiled',
  capture: false,
};

/** The options that decide what happens in a run, as the trace's start event records them. */
export function behaviourOf(o: WorldOptions): Record<string, number> {
  return {
    latencyTicksMin: o.latencyTicksMin,
    latencyTicksMax: o.latencyTicksMax,
    delayFaultTicks: o.delayFaultTicks,
    restartDelayTicks: o.restartDelayTicks,
    safetyTicksMax: o.safetyTicksMax,
    livenessTicksMax: o.livenessTicksMax,
    quietTicks: o.quietTicks,
    stepsMax: o.stepsMax,
  };
}

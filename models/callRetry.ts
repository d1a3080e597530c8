// How a caller of an external API retries a call that went unanswered (seed 002: "Retry with
// exponential backoff"; the issue every "retry for up to two days" raises): the first retry waits
// `backoff`, each later one `factor` times longer, never longer than `cap`, and retries stop at
// the deadline `until`: the last retry is the one whose waiting so far still falls within it.
// After that the caller records the outcome UNKNOWN and moves on, which is where a reconciler
// (or a person) takes over. Not a machine: the waits are worked out once, when the design is
// drawn, by the same function `faultline calc retry --base … --factor … --cap … --until …`
// prints (src/capacity/retry.ts), so the schedule a design is swept with is the one a reader can
// print. The schedule is worked out in exact seconds, and each wait is then rounded up to a
// whole tick of the scenario's time scale (at least one). Only the waiting
// counts towards the deadline, as in that table; the time each attempt spends waiting for its
// answer (the caller's `timeout`) comes on top.
import Big from 'big.js';
import { retrySchedule } from '../src/capacity/retry.ts';
import { durationSeconds, type TimeScale } from '../src/base/duration.ts';
import { InputError } from '../src/base/inputError.ts';
import { duration, z } from '../src/scenario/options.ts';

/** A caller's retry schedule as a design draws it, in durations. */
export const CallRetryOptions = z.strictObject({
  /** The wait before the first retry. */
  backoff: duration,
  /** How much longer each wait is than the one before (2). */
  factor: z.number().min(1).optional(),
  /** The longest wait (no cap below the deadline). */
  cap: duration.optional(),
  /** Retries stop once the waiting so far would pass this. */
  until: duration,
});

export type CallRetryOptions = z.input<typeof CallRetryOptions>;

/** The waits before retry 1, 2, …, in ticks: as many retries as waits. */
export function callRetryWaits(time: TimeScale, where: string, o: z.output<typeof CallRetryOptions>): number[] {
  // The schedule is reckoned in exact seconds, whatever the tick; only its waits are rounded to ticks.
  const seconds = (name: string, d: string) => {
    const label = `${where} option retry.${name}`;
    return /tick/.test(d) ? time.tickSeconds.times(time.ticks(label, d, 1)) : durationSeconds(label, d);
  };
  const untilSec = seconds('until', o.until);
  try {
    const baseSec = seconds('backoff', o.backoff);
    // Without a cap the waits grow until the deadline stops them (the cap never below the first wait).
    const capSec = o.cap === undefined ? (untilSec.lt(baseSec) ? baseSec : untilSec) : seconds('cap', o.cap);
    const schedule = retrySchedule({ baseSec, factor: o.factor ?? 2, capSec, untilSec });
    return schedule.waitsSec.map((w) => w.div(time.tickSeconds).round(0, Big.roundUp).toNumber());
  } catch (error) {
    if (error instanceof InputError) throw new InputError(`${where} option retry: ${error.message}`);
    throw error;
  }
}

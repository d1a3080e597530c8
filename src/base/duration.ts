// Durations in a design, with their units, and the tick they come to. A scenario says how long
// one tick of simulated time is (`tick: '1s'` unless it says otherwise); every duration a design
// sets (a time-to-live, a retention, a poll interval, a timeout, an outage) is written with its
// unit ('250ms', '30s', '15m', '24h', '7d', or '3 ticks') and must come to a whole number of
// ticks. A bare number is refused as ambiguous: 30 what? Reports turn ticks back into durations
// with the same scale, so a reader sees "restart after 24 h", not "10 ticks".
import Big from 'big.js';
import { InputError } from './inputError.ts';

/** A length of simulated time with its unit: '250ms', '30s', '15m', '24h', '7d', '3 ticks'. */
export type Duration = `${number}${'ms' | 's' | 'm' | 'h' | 'd'}` | `${number} tick` | `${number} ticks` | (string & {});

const UNIT_SECONDS: Readonly<Record<string, string>> = { ms: '0.001', s: '1', m: '60', h: '3600', d: '86400' };
const FORMS = "a duration with its unit, such as '250ms', '30s', '15m', '24h', '7d' or '3 ticks'";

/** The seconds a duration names; ticks are left to the scale. */
function parse(where: string, d: unknown): { seconds: Big } | { ticks: Big } {
  if (typeof d === 'number') throw new InputError(`${where} is ${d}, which is ambiguous: write ${FORMS}`);
  if (typeof d !== 'string') throw new InputError(`${where} must be ${FORMS}, got ${JSON.stringify(d)}`);
  const m = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d|ticks?)\s*$/.exec(d);
  if (!m) throw new InputError(`${where} is ${JSON.stringify(d)}; expected ${FORMS}`);
  const value = new Big(m[1]!);
  const unit = m[2]!;
  return unit.startsWith('tick') ? { ticks: value } : { seconds: value.times(UNIT_SECONDS[unit]!) };
}

/** A duration in seconds, for figures that do not depend on a tick (refused when given in ticks). */
export function durationSeconds(where: string, d: Duration): Big {
  const p = parse(where, d);
  if ('ticks' in p) throw new InputError(`${where} is ${JSON.stringify(d)}; a tick has no length here: give a unit of time`);
  return p.seconds;
}

export class TimeScale {
  /** Seconds in one tick. */
  readonly tickSeconds: Big;

  constructor(readonly tick: Duration = '1s') {
    const s = durationSeconds('tick', tick);
    if (s.lte(0)) throw new InputError(`tick must be longer than zero, got ${JSON.stringify(tick)}`);
    this.tickSeconds = s;
  }

  /** The whole number of ticks a duration comes to; refused when it falls between ticks. */
  ticks(where: string, d: Duration, min = 0): number {
    const p = parse(where, d);
    const ticks = 'ticks' in p ? p.ticks : p.seconds.div(this.tickSeconds);
    if (!ticks.eq(ticks.round(0, Big.roundDown))) {
      throw new InputError(`${where} is ${d}, which is not a whole number of ticks of ${this.describeTick()} (${ticks.toFixed(3)} ticks)`);
    }
    const n = ticks.toNumber();
    if (n < min) throw new InputError(`${where} is ${d}; it must be at least ${min} tick${min === 1 ? '' : 's'}`);
    if (!Number.isSafeInteger(n)) throw new InputError(`${where} is ${d}, too many ticks of ${this.describeTick()} to simulate`);
    return n;
  }

  /** A number of ticks as the duration it stands for: `24 h`, `1.5 s`, `7 d`. */
  format(ticks: number): string {
    return formatSeconds(this.tickSeconds.times(ticks));
  }

  private describeTick(): string {
    return formatSeconds(this.tickSeconds);
  }
}

const STEPS: readonly (readonly [string, number])[] = [
  ['d', 86_400],
  ['h', 3_600],
  ['m', 60],
  ['s', 1],
];

/** Seconds in the largest unit that keeps the figure at least 1, with at most two decimals. */
export function formatSeconds(seconds: Big): string {
  if (seconds.eq(0)) return '0 s';
  for (const [unit, size] of STEPS) {
    if (seconds.gte(size)) return `${trim(seconds.div(size))} ${unit}`;
  }
  return `${trim(seconds.times(1000))} ms`;
}

function trim(x: Big): string {
  return x.round(2, Big.roundHalfUp).toString();
}

/** The default: one tick is a second. */
export const SECONDS = new TimeScale('1s');

// The range of each whole-number setting a mode takes, written once for the command line and the
// API alike. The command line refuses a flag outside its range; the API must refuse the same
// value given as an option, or a search told `runs: NaN` (an unset environment variable read as
// a number) runs nothing and passes.
import { InputError } from './inputError.ts';

export const OPTION_RANGES = {
  seed: [0, 0x7fffffff],
  runs: [1, 100_000_000],
  /** 0 draws schedules alone: every message's latency, no fault. */
  maxFaults: [0, 64],
  maxOccurrence: [1, 1_000],
  /** check's fault budget. */
  faults: [0, 8],
  /** A replayed choice path's fault budget. */
  pathFaults: [0, 64],
  size: [1, 10_000],
  maxStates: [1, 1_000_000_000],
  maxDepth: [1, 10_000_000],
} as const satisfies Record<string, readonly [number, number]>;

export type RangedOption = keyof typeof OPTION_RANGES;

function shown(value: unknown): string {
  return typeof value === 'number' ? String(value) : typeof value === 'string' ? JSON.stringify(value) : value === null ? 'null' : typeof value;
}

/**
 * Refuses an API option outside its range, in one line naming the call and the option: a value
 * that is not a whole number (NaN, 1.5, Infinity, a string) or lies outside it. Absent is allowed:
 * the mode's default applies.
 */
export function checkRanges(call: string, options: object, names: readonly (RangedOption | readonly [string, RangedOption])[]): void {
  for (const entry of names) {
    const [name, range] = typeof entry === 'string' ? [entry, entry] : entry;
    const value = (options as Record<string, unknown>)[name];
    if (value === undefined) continue;
    const [min, max] = OPTION_RANGES[range];
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min || value > max) {
      throw new InputError(`${call}: option ${name} must be a whole number from ${min} to ${max.toLocaleString('en-US')}, got ${shown(value)}`);
    }
  }
}

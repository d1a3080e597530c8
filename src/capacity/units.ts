// Models the quantities a capacity calculation takes and prints: durations, byte sizes, event
// counts, event rates, percentages and plain factors, held as exact decimals, parsed from
// command-line text and rendered back with their units.
//
// Every figure is a big.js decimal rather than a JavaScript number because the printed results
// are compared against hand-computed figures (74.6496 GB, not 74.64959999999999 GB); binary
// floating point cannot hold 0.1 or 74.6496 exactly, and a decimal library can.
import Big from 'big.js';
import { InputError } from '../base/inputError.ts';

// A private constructor keeps our precision settings away from anyone else using big.js in the
// same process. Forty decimal places on division is far beyond any printed figure, so the only
// visible rounding is the documented rounding done at render time.
const Decimal = Big();
Decimal.DP = 40;
Decimal.RM = Big.roundHalfUp;

export type DecimalLike = Big | number | string;

// Re-wrapping every input in our own constructor matters: big.js divides with the settings of the
// number the method is called on, so a Big made elsewhere would divide with its owner's precision.
export function dec(value: DecimalLike): Big {
  return new Decimal(value);
}

// Whether a value is a whole number: counts, copies and retries cannot be fractional.
export function isWhole(value: Big): boolean {
  return value.eq(value.round(0, Big.roundDown));
}

// Decimal digits, an optional fraction, an optional exponent; or digits grouped in threes with
// commas. A leading '+' or '.5' is rejected so that every accepted spelling reads unambiguously.
const PLAIN_NUMBER = /^(\d+(?:\.\d+)?)(?:[eE]([+-]?\d+))?$/;
const GROUPED_NUMBER = /^\d{1,3}(?:,\d{3})+(?:\.\d+)?$/;
// Exponents beyond this would render as thousands of digits without describing any real system.
const MAX_EXPONENT = 30;

export interface ParseOptions {
  // Whether zero is an acceptable value (a restore time may be zero; an event rate may not).
  allowZero?: boolean;
  // Whether the value must be a whole number (an event count or a retry count).
  integer?: boolean;
}

function describe(flag: string, raw: string): string {
  return `${flag} ${JSON.stringify(raw)}`;
}

// Splits "12h" into a number and its unit and checks the number's spelling and sign; the caller
// interprets the unit.
function splitNumber(flag: string, raw: string, expected: string): { value: Big; unit: string } {
  const text = raw.trim();
  if (text === '') {
    throw new InputError(`${flag} needs a value (expected ${expected})`);
  }
  if (text.startsWith('-')) {
    throw new InputError(`${describe(flag, raw)} is negative; expected ${expected}`);
  }
  const match = /^([0-9.,eE+-]*?\d)([A-Za-z%]*)$/.exec(text);
  const numberText = match?.[1];
  const unit = match?.[2] ?? '';
  if (numberText === undefined) {
    throw new InputError(`${describe(flag, raw)} is not a number; expected ${expected}`);
  }
  const plain = PLAIN_NUMBER.exec(numberText);
  if (plain !== null) {
    const exponent = plain[2] === undefined ? 0 : Number(plain[2]);
    if (Math.abs(exponent) > MAX_EXPONENT) {
      throw new InputError(`${describe(flag, raw)} has an exponent beyond ±${MAX_EXPONENT}`);
    }
    return { value: dec(numberText), unit };
  }
  if (GROUPED_NUMBER.test(numberText)) {
    return { value: dec(numberText.replaceAll(',', '')), unit };
  }
  throw new InputError(`${describe(flag, raw)} is not a number; expected ${expected}`);
}

function checkRange(flag: string, raw: string, value: Big, options: ParseOptions): Big {
  if (value.eq(0) && options.allowZero !== true) {
    throw new InputError(`${describe(flag, raw)} must be greater than zero`);
  }
  if (options.integer === true && !isWhole(value)) {
    throw new InputError(`${describe(flag, raw)} must be a whole number`);
  }
  return value;
}

// Scales are strings so that the millisecond factor is an exact decimal too.
const DURATION_UNITS: Readonly<Record<string, string>> = { ms: '0.001', s: '1', m: '60', h: '3600', d: '86400' };

// Durations: "500ms", "30s", "15m", "12h", "7d", or a plain number of seconds. The result is in
// seconds and exact, so "500ms" is 0.5 and "7d" is 604800.
export function parseDuration(flag: string, raw: string, options: ParseOptions = {}): Big {
  const expected = 'a duration such as 500ms, 30s, 15m, 12h, 7d, or plain seconds';
  const { value, unit } = splitNumber(flag, raw, expected);
  const scale = DURATION_UNITS[unit === '' ? 's' : unit];
  if (scale === undefined) {
    throw new InputError(`${describe(flag, raw)} has unknown unit "${unit}"; expected ${expected}`);
  }
  const seconds = value.times(dec(scale));
  // The millisecond is the finest unit a duration is given and printed in; a finer one would be
  // printed rounded, so that "1.0000001s exceeds 1s" read "exceeds the window by 0 s".
  if (!seconds.times(1000).mod(1).eq(0)) throw new InputError(`${describe(flag, raw)} is finer than a millisecond; give a duration in whole milliseconds`);
  return checkRange(flag, raw, seconds, options);
}

// Decimal units are powers of 1000 and binary units powers of 1024, as IEC 80000-13 defines them;
// "kB" is accepted as well because it is the SI spelling of the decimal kilobyte.
const BYTE_UNITS: Readonly<Record<string, Big>> = {
  B: dec(1),
  KB: dec(1000),
  kB: dec(1000),
  MB: dec(1000).pow(2),
  GB: dec(1000).pow(3),
  TB: dec(1000).pow(4),
  KiB: dec(1024),
  MiB: dec(1024).pow(2),
  GiB: dec(1024).pow(3),
  TiB: dec(1024).pow(4),
};

// Byte sizes: "96", "96B", "1KB" (1000), "1KiB" (1024), "1MB", "1GB". A size must come to a whole
// number of bytes, because a fraction of a byte is a typing mistake rather than a design figure.
export function parseBytes(flag: string, raw: string, options: ParseOptions = {}): Big {
  const expected = 'a size such as 96, 96B, 1KB (1000 B), 1KiB (1024 B), 1MB, 1GB';
  const { value, unit } = splitNumber(flag, raw, expected);
  const scale = BYTE_UNITS[unit === '' ? 'B' : unit];
  if (scale === undefined) {
    throw new InputError(`${describe(flag, raw)} has unknown unit "${unit}"; expected ${expected}`);
  }
  return checkRange(flag, raw, value.times(scale), { ...options, integer: true });
}

// "K" and "M" are the only count suffixes because "B" (billion) would collide with bytes and
// "G" reads as a size; larger counts are written as 1.2e9.
const COUNT_UNITS: Readonly<Record<string, Big>> = { '': dec(1), K: dec(1000), k: dec(1000), M: dec(1e6) };

// Counts and plain decimal figures: "18000", "18,000", "1.2e9", "20M", "2.5".
export function parseCount(flag: string, raw: string, options: ParseOptions = {}): Big {
  const expected = 'a number such as 18000, 18,000, 1.2e9 or 20M';
  const { value, unit } = splitNumber(flag, raw, expected);
  const scale = COUNT_UNITS[unit];
  if (scale === undefined) {
    throw new InputError(`${describe(flag, raw)} has unknown suffix "${unit}"; expected ${expected}`);
  }
  return checkRange(flag, raw, value.times(scale), options);
}

// An event rate: a count per period. Keeping the period instead of dividing it out keeps a daily
// rate exact, since 20,000,000 a day over 7 days is exactly 140,000,000 while 20,000,000/86,400
// per second has no finite decimal expansion.
export interface Rate {
  readonly count: Big;
  readonly periodSec: Big;
  readonly unit: 's' | 'd';
}

export function perSecond(count: DecimalLike): Rate {
  return { count: dec(count), periodSec: dec(1), unit: 's' };
}

export function perDay(count: DecimalLike): Rate {
  return { count: dec(count), periodSec: dec(86400), unit: 'd' };
}

// Events a rate delivers over a duration, exact whenever the duration is a whole number of periods.
export function eventsOver(rate: Rate, seconds: DecimalLike): Big {
  return rate.count.times(dec(seconds)).div(rate.periodSec);
}

// Rates: "18000" or "18000/s" per second, and where the caller allows it "20000000/d" per day.
// Only these two periods exist because the designs we size quote events per second or per day.
export function parseRate(flag: string, raw: string, options: ParseOptions & { allowPerDay?: boolean } = {}): Rate {
  const slash = raw.lastIndexOf('/');
  const countText = slash === -1 ? raw : raw.slice(0, slash);
  const period = slash === -1 ? 's' : raw.slice(slash + 1).trim();
  const allowPerDay = options.allowPerDay === true;
  if (period === 'd' && !allowPerDay) {
    throw new InputError(`${describe(flag, raw)} must be a rate per second here, such as 18000 or 18000/s`);
  }
  if (period !== 's' && period !== 'd') {
    const allowed = allowPerDay ? '"/s" or "/d"' : '"/s"';
    throw new InputError(`${describe(flag, raw)} has unknown rate period "/${period}"; expected ${allowed}`);
  }
  const count = parseCount(flag, countText, options);
  return period === 'd' ? perDay(count) : perSecond(count);
}

// Percentages must carry the % sign: a bare "25" could mean 25% or a ratio of 25, and guessing
// would silently turn a 25% slowdown into a 2500% one. The result is a fraction (25% -> 0.25).
export function parsePercent(flag: string, raw: string, options: ParseOptions & { below100?: boolean } = {}): Big {
  const expected = 'a percentage such as 25%';
  if (!raw.trim().endsWith('%')) {
    throw new InputError(`${describe(flag, raw)} needs a % sign; expected ${expected}`);
  }
  const { value, unit } = splitNumber(flag, raw, expected);
  if (unit !== '%') {
    throw new InputError(`${describe(flag, raw)} is not a percentage; expected ${expected}`);
  }
  if (options.below100 === true && value.gte(100)) {
    throw new InputError(`${describe(flag, raw)} must be below 100%`);
  }
  return checkRange(flag, raw, value.div(100), { ...options, integer: false });
}

// A guard for the pure functions, which can be called without going through the parsers above.
export function requirePositive(name: string, value: DecimalLike): Big {
  const big = dec(value);
  if (big.lte(0)) {
    throw new InputError(`${name} must be greater than zero, got ${big.toFixed()}`);
  }
  return big;
}

export function requireNonNegative(name: string, value: DecimalLike): Big {
  const big = dec(value);
  if (big.lt(0)) {
    throw new InputError(`${name} must not be negative, got ${big.toFixed()}`);
  }
  return big;
}

// ---- Rendering ----------------------------------------------------------------------------------

// Inserts thousands separators into the integer part of a plain decimal string.
function group(plain: string): string {
  const [whole = '', fraction] = plain.split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return fraction === undefined ? grouped : `${grouped}.${fraction}`;
}

export interface Rendered {
  // The figure as printed in text output, with thousands separators.
  readonly text: string;
  // The same figure as a plain decimal string for JSON: no separators, no exponent.
  readonly plain: string;
  // False when rounding changed the value, so the caller can print "≈" rather than "=".
  readonly exact: boolean;
}

// Rounds half-up to at most maxDecimals places and drops trailing zeros; with no limit the value
// is printed exactly, which is safe for figures whose decimal expansion is known to terminate.
export function render(value: DecimalLike, maxDecimals?: number): Rendered {
  const big = dec(value);
  const rounded = maxDecimals === undefined ? big : big.round(maxDecimals, Big.roundHalfUp);
  const plain = rounded.toFixed();
  return { text: group(plain), plain, exact: rounded.eq(big) };
}

// Derived durations in seconds are printed to the millisecond, the smallest unit we parse.
export const SECOND_DECIMALS = 3;
// Derived durations in hours and days are printed to two decimals, as planning figures are quoted.
export const HOUR_DECIMALS = 2;

export function renderSeconds(seconds: DecimalLike): Rendered {
  const r = render(seconds, SECOND_DECIMALS);
  return { ...r, text: `${r.text} s` };
}

// The largest unit that keeps the number at least 1, so that "7 d" reads better than "604,800 s".
// The result says whether it was rounded, so the caller can mark it with "≈".
export function renderDuration(seconds: DecimalLike): Rendered {
  const big = dec(seconds);
  const units: Array<[string, number]> = [['d', 86400], ['h', 3600], ['m', 60]];
  for (const [unit, size] of units) {
    if (big.gte(size)) {
      const r = render(big.div(size), HOUR_DECIMALS);
      return { ...r, text: `${r.exact ? '' : '≈ '}${r.text} ${unit}` };
    }
  }
  return renderSeconds(big);
}

// A span of time as a person says it: "6 h", "1 d 20 h 31 m", "4 h 16 m 30.5 s", each part
// whole except the seconds, which keep the millisecond. A span under ten minutes reads as well in
// seconds ("183 s", as seed 004 quotes its retry budget) and is printed so.
export function renderSpan(seconds: DecimalLike): string {
  const big = dec(seconds);
  return big.lt(SECONDS_READ_BEST_BELOW) ? renderSeconds(big).text : renderSpanCompound(big);
}

const SECONDS_READ_BEST_BELOW = 600;

// How a table of spans is printed: all in seconds when every one of them is under ten minutes,
// or all in days, hours and minutes otherwise, so one column never mixes "480 s" with "16 m".
export function spanRenderer(spans: readonly DecimalLike[]): (seconds: DecimalLike) => string {
  return spans.every((s) => dec(s).lt(SECONDS_READ_BEST_BELOW)) ? (s) => renderSeconds(s).text : (s) => renderSpanCompound(dec(s));
}

function renderSpanCompound(big: Big): string {
  if (big.lt(60)) return renderSeconds(big).text;
  const parts: string[] = [];
  let rest = big;
  for (const [unit, size] of [['d', 86400], ['h', 3600], ['m', 60]] as const) {
    const whole = rest.div(size).round(0, Big.roundDown);
    if (whole.gt(0)) parts.push(`${group(whole.toFixed())} ${unit}`);
    rest = rest.minus(whole.times(size));
  }
  if (rest.gt(0)) parts.push(renderSeconds(rest).text);
  return parts.join(' ');
}

// "7 d (604,800 s)", or just "45 s" when seconds are already the natural unit.
export function renderDurationWithSeconds(seconds: DecimalLike): string {
  const human = renderDuration(seconds);
  const secs = renderSeconds(seconds);
  return human.text === secs.text ? secs.text : `${human.text} (${secs.text})`;
}

export function renderRate(rate: Rate): string {
  return `${render(rate.count).text}/${rate.unit}`;
}

// A rate as given or as derived by subtraction and multiplication ends within a few decimals, and
// is printed exactly: rounding 1.0004/s to "1/s" made a formula contradict itself ("2/s − 1/s =
// 0.9996/s"). One that does not end (a division's) is rounded to the millisecond's three
// decimals and marked.
const RATE_EXACT_DECIMALS = 15;

export function renderPerSec(ratePerSec: DecimalLike): Rendered {
  const big = dec(ratePerSec);
  const exact = render(big);
  const decimals = exact.plain.split('.')[1]?.length ?? 0;
  return decimals <= RATE_EXACT_DECIMALS ? exact : render(big, SECOND_DECIMALS);
}

export function renderRatePerSec(ratePerSec: DecimalLike): string {
  const r = renderPerSec(ratePerSec);
  return `${r.exact ? '' : '≈ '}${r.text}/s`;
}

export function renderPercent(fraction: DecimalLike): string {
  return `${render(dec(fraction).times(100)).text}%`;
}

// Lays out "label = formula" lines with the labels padded to a common width, so the figures of
// one command read as a column.
export function alignLines(rows: ReadonlyArray<readonly [label: string, formula: string, sign?: '=' | '≈']>, indent = '  '): string[] {
  const width = Math.max(0, ...rows.map(([label]) => label.length));
  // A row whose figure rendering rounded says ≈ in place of =.
  return rows.map(([label, formula, sign = '=']) => `${indent}${label.padEnd(width)} ${sign} ${formula}`);
}

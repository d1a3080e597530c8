import { describe, it, expect } from 'vitest';
import { InputError } from '../../src/base/inputError.ts';
import {
  eventsOver,
  parseBytes,
  parseCount,
  parseDuration,
  parsePercent,
  parseRate,
  perDay,
  render,
  renderDuration,
  renderSpan,
  spanRenderer,
} from '../../src/capacity/units.ts';

// Captures the thrown error so a test can check both its class and its one-line message.
function errorOf(fn: () => unknown): Error {
  try {
    fn();
  } catch (e) {
    return e as Error;
  }
  throw new Error('expected an error, none was thrown');
}

describe('parseDuration', () => {
  it.each([
    ['12h', '43200'],
    ['7d', '604800'],
    ['30s', '30'],
    ['15m', '900'],
    ['500ms', '0.5'],
    ['90', '90'],
    ['1.5h', '5400'],
    ['1e3', '1000'],
  ])('reads %s as %s seconds exactly', (raw, seconds) => {
    expect(parseDuration('--window', raw).toFixed()).toBe(seconds);
  });

  it('keeps milliseconds exact instead of picking up float residue', () => {
    // In binary floats 700 * 0.001 is 0.7000000000000001 and 9 * 0.001 is 0.009000000000000001.
    expect(parseDuration('--base', '700ms').toFixed()).toBe('0.7');
    expect(parseDuration('--base', '9ms').toFixed()).toBe('0.009');
  });

  it.each([
    ['-5', '--window "-5" is negative'],
    ['abc', '--window "abc" is not a number'],
    ['10x', '--window "10x" has unknown unit "x"'],
    ['0', '--window "0" must be greater than zero'],
    ['12 h', '--window "12 h" is not a number'],
    ['+5', '--window "+5" is not a number'],
    ['1e40', '--window "1e40" has an exponent beyond'],
  ])('refuses %j with an InputError naming the flag and the value', (raw, message) => {
    const error = errorOf(() => parseDuration('--window', raw));
    expect(error).toBeInstanceOf(InputError);
    expect(error.message.startsWith(message)).toBe(true);
    expect(error.message).not.toContain('\n');
  });

  it('accepts zero only when the caller allows it', () => {
    expect(parseDuration('--restore', '0s', { allowZero: true }).toFixed()).toBe('0');
    expect(() => parseDuration('--restore', '0s')).toThrow(InputError);
  });

  it('reports a missing value as such', () => {
    expect(errorOf(() => parseDuration('--window', '')).message).toMatch(/^--window needs a value/);
  });
});

describe('parseBytes', () => {
  it.each([
    ['96', '96'],
    ['96B', '96'],
    ['64B', '64'],
    ['1KB', '1000'],
    ['1kB', '1000'],
    ['1KiB', '1024'],
    ['1MB', '1000000'],
    ['1MiB', '1048576'],
    ['1GB', '1000000000'],
    ['1.5KB', '1500'],
  ])('reads %s as %s bytes', (raw, bytes) => {
    expect(parseBytes('--entry-bytes', raw).toFixed()).toBe(bytes);
  });

  it.each([
    ['96b', 'has unknown unit "b"'],
    ['0.5B', 'must be a whole number'],
    ['-1', 'is negative'],
    ['0', 'must be greater than zero'],
    ['abc', 'is not a number'],
  ])('refuses %j', (raw, message) => {
    const error = errorOf(() => parseBytes('--entry-bytes', raw));
    expect(error).toBeInstanceOf(InputError);
    expect(error.message).toContain(`--entry-bytes ${JSON.stringify(raw)} ${message}`);
  });
});

describe('parseCount', () => {
  it.each([
    ['18000', '18000'],
    ['18,000', '18000'],
    ['1.2e9', '1200000000'],
    ['20M', '20000000'],
    ['2k', '2000'],
    ['1,200,000,000', '1200000000'],
  ])('reads %s as %s', (raw, value) => {
    expect(parseCount('--events', raw).toFixed()).toBe(value);
  });

  it.each([
    ['-5', 'is negative'],
    ['abc', 'is not a number'],
    ['10x', 'has unknown suffix "x"'],
    ['1,00', 'is not a number'],
    ['18,0000', 'is not a number'],
  ])('refuses %j', (raw, message) => {
    const error = errorOf(() => parseCount('--events', raw));
    expect(error).toBeInstanceOf(InputError);
    expect(error.message).toContain(`--events ${JSON.stringify(raw)} ${message}`);
  });

  it('refuses a fraction where a whole count is required', () => {
    expect(errorOf(() => parseCount('--retries', '1.5', { integer: true })).message).toBe(
      '--retries "1.5" must be a whole number',
    );
    expect(parseCount('--factor', '1.5').toFixed()).toBe('1.5');
  });
});

describe('parseRate', () => {
  it('reads a bare number and /s as events per second', () => {
    expect(parseRate('--rate', '18000').count.toFixed()).toBe('18000');
    expect(parseRate('--rate', '18000/s').unit).toBe('s');
  });

  it('keeps a daily rate exact over a whole number of days', () => {
    const rate = parseRate('--rate', '20000000/d', { allowPerDay: true });
    expect(rate.unit).toBe('d');
    expect(eventsOver(rate, 604800).toFixed()).toBe('140000000');
  });

  it('refuses a daily rate where only per-second rates make sense', () => {
    const error = errorOf(() => parseRate('--rate', '20000000/d'));
    expect(error).toBeInstanceOf(InputError);
    expect(error.message).toBe('--rate "20000000/d" must be a rate per second here, such as 18000 or 18000/s');
  });

  it('refuses unknown periods, zero and negative rates', () => {
    expect(errorOf(() => parseRate('--rate', '5/h', { allowPerDay: true })).message).toContain('unknown rate period "/h"');
    expect(errorOf(() => parseRate('--rate', '0')).message).toBe('--rate "0" must be greater than zero');
    expect(errorOf(() => parseRate('--rate', '-18000')).message).toContain('is negative');
  });

  it('divides a daily rate exactly when the window is a whole number of days', () => {
    expect(eventsOver(perDay(20000000), 86400 * 3).toFixed()).toBe('60000000');
  });
});

describe('parsePercent', () => {
  it('reads 25% as the fraction 0.25 and 12.5% as 0.125', () => {
    expect(parsePercent('--hot-key-slowdown', '25%').toFixed()).toBe('0.25');
    expect(parsePercent('--hot-key-slowdown', '12.5%').toFixed()).toBe('0.125');
  });

  it('refuses a bare ratio, because 0.25 and 25 are ambiguous without the sign', () => {
    expect(errorOf(() => parsePercent('--hot-key-slowdown', '0.25')).message).toBe(
      '--hot-key-slowdown "0.25" needs a % sign; expected a percentage such as 25%',
    );
  });

  it('refuses 100% and above when the caller needs a share below the whole', () => {
    expect(() => parsePercent('--hot-key-slowdown', '100%', { below100: true })).toThrow(InputError);
    expect(parsePercent('--x', '150%').toFixed()).toBe('1.5');
  });
});

describe('spans of time', () => {
  it('reads in days, hours and minutes, seconds under ten minutes', () => {
    expect(renderSpan(183)).toBe('183 s');
    expect(renderSpan(600)).toBe('10 m');
    expect(renderSpan(160260)).toBe('1 d 20 h 31 m');
    expect(renderSpan('15390.5')).toBe('4 h 16 m 30.5 s');
    expect(renderSpan(8640000)).toBe('100 d');
  });

  it('prints a whole column in one style: seconds when every span is under ten minutes', () => {
    expect([60, 183].map(spanRenderer([60, 183]))).toEqual(['60 s', '183 s']);
    expect([60, 183].map(spanRenderer([60, 183, 900]))).toEqual(['1 m', '3 m 3 s']);
  });
});

describe('rendering', () => {
  it('groups thousands and never prints float residue', () => {
    expect(render('777600000').text).toBe('777,600,000');
    expect(render('74649600000').text).toBe('74,649,600,000');
    expect(render('1234.5678').text).toBe('1,234.5678');
    // 0.1 + 0.2 in floats prints 0.30000000000000004.
    expect(render(parseDuration('--x', '100ms').plus(parseDuration('--x', '200ms'))).text).toBe('0.3');
  });

  it('rounds half up to the requested decimals and reports that it rounded', () => {
    expect(render('83.3333', 2)).toEqual({ text: '83.33', plain: '83.33', exact: false });
    expect(render('0.125', 2).text).toBe('0.13');
    expect(render('45', 2)).toEqual({ text: '45', plain: '45', exact: true });
  });

  it('prints large values in plain notation, never with an exponent', () => {
    expect(render('1e25').plain).toBe('10000000000000000000000000');
  });

  it('names durations in the largest fitting unit and marks rounding', () => {
    expect(renderDuration(604800).text).toBe('7 d');
    expect(renderDuration(561600).text).toBe('6.5 d');
    expect(renderDuration(43200).text).toBe('12 h');
    expect(renderDuration(600000).text).toBe('≈ 6.94 d');
    expect(renderDuration(45).text).toBe('45 s');
  });
});

import { describe, it, expect } from 'vitest';
import { InputError } from '../../src/base/inputError.ts';
import { describeRetry, retrySchedule } from '../../src/capacity/retry.ts';

describe('retrySchedule', () => {
  it('waits 1, 2, 4 … 32 then the 60 s cap, 183 s in total over 8 retries', () => {
    const schedule = retrySchedule({ baseSec: 1, factor: 2, capSec: 60, retries: 8 });
    expect(schedule.waitsSec.map((w) => w.toFixed())).toEqual(['1', '2', '4', '8', '16', '32', '60', '60']);
    expect(schedule.cumulativeSec.map((c) => c.toFixed())).toEqual(['1', '3', '7', '15', '31', '63', '123', '183']);
    const { text, json } = describeRetry(schedule);
    expect(text).toBe(
      [
        'retry schedule: wait(n) = min(1 s × 2^(n−1), 60 s), 8 retries',
        '  retry  wait  cumulative',
        '      1   1 s         1 s',
        '      2   2 s         3 s',
        '      3   4 s         7 s',
        '      4   8 s        15 s',
        '      5  16 s        31 s',
        '      6  32 s        63 s',
        '      7  60 s       123 s',
        '      8  60 s       183 s',
        '  attempts      = 1 first attempt + 8 retries = 9',
        '  total waiting = 183 s before the last retry',
      ].join('\n'),
    );
    expect(json).toMatchObject({
      waitsSec: ['1', '2', '4', '8', '16', '32', '60', '60'],
      cumulativeSec: ['1', '3', '7', '15', '31', '63', '123', '183'],
      totalWaitSec: '183',
      attempts: 9,
    });
  });

  it('keeps fractional bases and factors exact', () => {
    // 0.1 × 3 in floats is 0.30000000000000004.
    const schedule = retrySchedule({ baseSec: '0.1', factor: 3, capSec: 1, retries: 4 });
    expect(schedule.waitsSec.map((w) => w.toFixed())).toEqual(['0.1', '0.3', '0.9', '1']);
    expect(schedule.cumulativeSec.map((c) => c.toFixed())).toEqual(['0.1', '0.4', '1.3', '2.3']);
  });

  it('caps a wait the moment it would pass the cap, not one step later', () => {
    const schedule = retrySchedule({ baseSec: 5, factor: 10, capSec: 30, retries: 3 });
    expect(schedule.waitsSec.map((w) => w.toFixed())).toEqual(['5', '30', '30']);
  });

  it('refuses shrinking factors, a cap below the base and impossible retry counts', () => {
    expect(() => retrySchedule({ baseSec: 1, factor: '0.5', capSec: 60, retries: 3 })).toThrow('factor must be at least 1, got 0.5');
    expect(() => retrySchedule({ baseSec: 10, factor: 2, capSec: 5, retries: 3 })).toThrow('cap 5 s is below the base 10 s');
    expect(() => retrySchedule({ baseSec: 1, factor: 2, capSec: 60, retries: 0 })).toThrow(InputError);
    expect(() => retrySchedule({ baseSec: 1, factor: 2, capSec: 60, retries: 2.5 })).toThrow(InputError);
    expect(() => retrySchedule({ baseSec: 1, factor: 2, capSec: 60, retries: 10001 })).toThrow(InputError);
  });

  it('stops at a deadline: the last retry is the one whose cumulative wait stays within it', () => {
    // 1 m doubling to a 6 h cap within 2 d: nine growing waits (8 h 31 m), then 6 h six times.
    const schedule = retrySchedule({ baseSec: 60, factor: 2, capSec: 6 * 3600, untilSec: 2 * 86400 });
    expect(schedule.retries).toBe(15);
    expect(schedule.endedBy).toBe('until');
    expect(schedule.cumulativeSec.at(-1)!.toFixed()).toBe('160260');
    expect(schedule.nextWaitSec!.toFixed()).toBe('21600');
    // A deadline exactly on a cumulative wait keeps that retry.
    expect(retrySchedule({ baseSec: 1, factor: 2, capSec: 60, untilSec: 183 }).retries).toBe(8);
    expect(retrySchedule({ baseSec: 1, factor: 2, capSec: 60, untilSec: '182.999' }).retries).toBe(7);
  });

  it('ends at whichever of a count and a deadline comes first', () => {
    expect(retrySchedule({ baseSec: 60, factor: 2, capSec: 21600, untilSec: 172800, retries: 5 })).toMatchObject({ retries: 5, endedBy: 'retries' });
    expect(retrySchedule({ baseSec: 1, factor: 2, capSec: 60, untilSec: 10, retries: 8 })).toMatchObject({ retries: 3, endedBy: 'until' });
  });

  it('refuses a schedule with no end, a deadline before the first wait, and a deadline too far for the table', () => {
    expect(() => retrySchedule({ baseSec: 1, factor: 2, capSec: 60 })).toThrow('a retry schedule needs a number of retries, a deadline (until), or both');
    expect(() => retrySchedule({ baseSec: 60, factor: 2, capSec: 60, untilSec: 30 })).toThrow('until 30 s is shorter than the first wait 60 s: no retry fits before it');
    expect(() => retrySchedule({ baseSec: 1, factor: 1, capSec: 1, untilSec: 86400 })).toThrow('more than 10000 retries fit within until 1 d; give a number of retries too');
    expect(retrySchedule({ baseSec: 1, factor: 1, capSec: 1, untilSec: 86400, retries: 10 }).retries).toBe(10);
  });

  it('prints a long schedule in days, hours and minutes, and says why it ends', () => {
    const { text, json } = describeRetry(retrySchedule({ baseSec: 60, factor: 2, capSec: 21600, untilSec: 172800 }));
    const lines = text.split('\n');
    expect(lines[0]).toBe('retry schedule: wait(n) = min(1 m × 2^(n−1), 6 h), 15 retries within 2 d');
    expect(lines[1]).toBe('  retry      wait     cumulative');
    expect(lines[2]).toBe('      1       1 m            1 m');
    expect(lines[9]).toBe('      8   2 h 8 m       4 h 15 m');
    expect(lines[16]).toBe('     15       6 h  1 d 20 h 31 m');
    expect(lines.slice(17)).toEqual([
      '  attempts      = 1 first attempt + 15 retries = 16',
      '  total waiting = 1 d 20 h 31 m before the last retry',
      '  until         = 2 d: retry 16 would come at 2 d 2 h 31 m, past it',
    ]);
    expect(json).toMatchObject({ untilSec: '172800', endedBy: 'until', retries: 15, attempts: 16, totalWaitSec: '160260' });
  });
});

describe('describeRetry: a rounded total', () => {
  it('says ≈ for a total waiting finer than the millisecond it is shown to, = for one shown whole', () => {
    expect(describeRetry(retrySchedule({ baseSec: 1, factor: '1.5', capSec: 10, retries: 6 })).text).toContain('  total waiting ≈ 20.781 s before the last retry');
    expect(describeRetry(retrySchedule({ baseSec: 1, factor: 2, capSec: 60, retries: 8 })).text).toContain('  total waiting = 183 s before the last retry');
  });
});

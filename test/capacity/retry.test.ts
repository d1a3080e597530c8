import { describe, it, expect } from 'vitest';
import { InputError } from '../../src/inputError.ts';
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
});

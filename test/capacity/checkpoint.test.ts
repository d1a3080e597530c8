import { describe, it, expect } from 'vitest';
import { InputError } from '../../src/inputError.ts';
import { checkpointReplay, describeCheckpoint } from '../../src/capacity/checkpoint.ts';

const mercury = { ratePerSec: 18000, intervalSec: 30, recoveryRatePerSec: 24000 };

describe('checkpointReplay', () => {
  it('replays 270,000 events on average and 540,000 for a full interval, caught up in 45 s and 90 s', () => {
    const replay = checkpointReplay(mercury);
    expect(replay.averageReplayEvents.toFixed()).toBe('270000');
    expect(replay.fullReplayEvents.toFixed()).toBe('540000');
    expect(replay.netCatchUpPerSec.toFixed()).toBe('6000');
    expect(replay.idealCatchUpAverageSec.toFixed()).toBe('45');
    expect(replay.idealCatchUpFullSec.toFixed()).toBe('90');
    expect(replay.adjusted).toBeNull();
    const { text, json } = describeCheckpoint(replay);
    expect(text).toBe(
      [
        'checkpoint replay: 18,000/s live, checkpoint every 30 s, recovery at 24,000/s',
        '  average replay           = 18,000/s × 30 s ÷ 2 = 270,000 events',
        '  full-interval replay     = 18,000/s × 30 s = 540,000 events',
        '  net catch-up rate        = 24,000/s − 18,000/s = 6,000/s',
        '  ideal catch-up (average) = 270,000 ÷ 6,000/s = 45 s',
        '  ideal catch-up (full)    = 540,000 ÷ 6,000/s = 90 s',
      ].join('\n'),
    );
    expect(json).toEqual({
      command: 'checkpoint',
      ratePerSec: '18000',
      intervalSec: '30',
      recoveryRatePerSec: '24000',
      averageReplayEvents: '270000',
      fullReplayEvents: '540000',
      netCatchUpPerSec: '6000',
      idealCatchUpAverageSec: '45',
      idealCatchUpFullSec: '90',
      adjusted: null,
    });
  });

  it('counts live events that arrive during restore as backlog, not just the restore seconds', () => {
    // Naively adding 20 s to 45 s would give 65 s; the 360,000 events that arrive while state
    // loads must also be worked off at the 6,000/s margin: 20 + 630,000 / 6,000 = 125 s.
    const replay = checkpointReplay({ ...mercury, restoreSec: 20 });
    const adjusted = replay.adjusted;
    expect(adjusted?.restoreBacklogEvents.toFixed()).toBe('360000');
    expect(adjusted?.slowdownFactor.toFixed()).toBe('1');
    expect(adjusted?.catchUpAverageSec.toFixed()).toBe('105');
    expect(adjusted?.recoveryAverageSec.toFixed()).toBe('125');
    expect(adjusted?.recoveryFullSec.toFixed()).toBe('170');
    // Without a slowdown the formula carries no "× (100% + 0%)" factor.
    expect(describeCheckpoint(replay).text).toContain('  catch-up (average)       = (270,000 + 360,000) ÷ 6,000/s = 105 s\n');
  });

  it('makes the catch-up take 25% longer for a 25% hot-key slowdown: 45 s → 56.25 s, 90 s → 112.5 s', () => {
    const adjusted = checkpointReplay({ ...mercury, hotKeySlowdown: '0.25' }).adjusted;
    expect(adjusted?.slowdownFactor.toFixed()).toBe('1.25');
    expect(adjusted?.restoreBacklogEvents.toFixed()).toBe('0');
    expect(adjusted?.catchUpAverageSec.toFixed()).toBe('56.25');
    expect(adjusted?.catchUpFullSec.toFixed()).toBe('112.5');
    expect(adjusted?.recoveryAverageSec.toFixed()).toBe('56.25');
    expect(adjusted?.recoveryFullSec.toFixed()).toBe('112.5');
  });

  it('applies the slowdown after the restore backlog, and not to the restore time itself', () => {
    // The seed drill's figures: (270,000 + 360,000) / 6,000 = 105 s of catch-up, 25% longer is
    // 131.25 s, plus the 20 s restore = 151.25 s; the full interval gives 20 + 150 × 1.25 = 207.5 s.
    const { text, json } = describeCheckpoint(checkpointReplay({ ...mercury, restoreSec: 20, hotKeySlowdown: '0.25' }));
    expect(text).toBe(
      [
        'checkpoint replay: 18,000/s live, checkpoint every 30 s, recovery at 24,000/s',
        '  average replay           = 18,000/s × 30 s ÷ 2 = 270,000 events',
        '  full-interval replay     = 18,000/s × 30 s = 540,000 events',
        '  net catch-up rate        = 24,000/s − 18,000/s = 6,000/s',
        '  ideal catch-up (average) = 270,000 ÷ 6,000/s = 45 s',
        '  ideal catch-up (full)    = 540,000 ÷ 6,000/s = 90 s',
        '  backlog added by restore = 18,000/s × 20 s = 360,000 events',
        'hot-key slowdown 25%, reading (a) on catch-up time: the catch-up takes 25% longer',
        '  catch-up (average)       = (270,000 + 360,000) ÷ 6,000/s × (100% + 25%) = 131.25 s',
        '  catch-up (full)          = (540,000 + 360,000) ÷ 6,000/s × (100% + 25%) = 187.5 s',
        '  recovery (average)       = 20 s + 131.25 s = 151.25 s',
        '  recovery (full)          = 20 s + 187.5 s = 207.5 s',
        'hot-key slowdown 25%, reading (b) on the recovery rate: recovery processes 25% fewer events a second',
        '  slowed recovery rate     = 24,000/s × (100% − 25%) = 18,000/s',
        '  slowed net catch-up rate = 18,000/s − 18,000/s = 0/s',
        '  catch-up never completes: the slowed recovery rate 18,000/s does not exceed the live rate 18,000/s',
      ].join('\n'),
    );
    expect(json).toMatchObject({
      adjusted: {
        restoreSec: '20',
        hotKeySlowdownPercent: '25',
        slowdownFactor: '1.25',
        restoreBacklogEvents: '360000',
        catchUpAverageSec: '131.25',
        catchUpFullSec: '187.5',
        recoveryAverageSec: '151.25',
        recoveryFullSec: '207.5',
      },
    });
  });

  it('accepts slowdowns of 100% and more, which double the catch-up and beyond', () => {
    expect(checkpointReplay({ ...mercury, hotKeySlowdown: 1 }).adjusted?.catchUpAverageSec.toFixed()).toBe('90');
    expect(checkpointReplay({ ...mercury, hotKeySlowdown: '2.5' }).adjusted?.catchUpFullSec.toFixed()).toBe('315');
    expect(() => checkpointReplay({ ...mercury, hotKeySlowdown: '-0.1' })).toThrow(InputError);
  });

  it('keeps a slowed catch-up exact where it terminates and marks it ≈ where it does not', () => {
    // 270,000 × 1.1 / 7,000 = 42.428571…; 12.5% of 45 s is exactly 5.625 s.
    const { text } = describeCheckpoint(checkpointReplay({ ...mercury, recoveryRatePerSec: 25000, hotKeySlowdown: '0.1' }));
    expect(text).toContain('catch-up (average)       = (270,000 + 0) ÷ 7,000/s × (100% + 10%) ≈ 42.429 s');
    expect(checkpointReplay({ ...mercury, hotKeySlowdown: '0.125' }).adjusted?.catchUpAverageSec.toFixed()).toBe('50.625');
  });

  it('refuses recovery that is not faster than live input', () => {
    const error = (() => {
      try {
        checkpointReplay({ ...mercury, recoveryRatePerSec: 18000 });
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(InputError);
    expect((error as Error).message).toBe('recovery rate 18,000/s does not exceed the live rate 18,000/s: catch-up never finishes');
    expect(() => checkpointReplay({ ...mercury, recoveryRatePerSec: 12000 })).toThrow(InputError);
  });

  it('marks rounded catch-up times with ≈ and keeps three decimals', () => {
    const { text, json } = describeCheckpoint(checkpointReplay({ ...mercury, recoveryRatePerSec: 25000 }));
    expect(text).toContain('= 270,000 ÷ 7,000/s ≈ 38.571 s');
    expect(json).toMatchObject({ idealCatchUpAverageSec: '38.571', idealCatchUpFullSec: '77.143' });
  });

  it('refuses zero or negative inputs', () => {
    expect(() => checkpointReplay({ ...mercury, ratePerSec: 0 })).toThrow(InputError);
    expect(() => checkpointReplay({ ...mercury, intervalSec: -30 })).toThrow(InputError);
    expect(() => checkpointReplay({ ...mercury, restoreSec: -1 })).toThrow(InputError);
  });
});

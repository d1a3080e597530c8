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
    const adjusted = checkpointReplay({ ...mercury, restoreSec: 20 }).adjusted;
    expect(adjusted?.restoreBacklogEvents.toFixed()).toBe('360000');
    expect(adjusted?.recoveryAverageSec.toFixed()).toBe('125');
    expect(adjusted?.recoveryFullSec.toFixed()).toBe('170');
  });

  it('applies a hot-key slowdown to the recovery throughput, not to the catch-up time', () => {
    // 10% slower recovery is 21,600/s, a margin of 3,600/s: 270,000 / 3,600 = 75 s, not 45 × 1.1.
    const adjusted = checkpointReplay({ ...mercury, hotKeySlowdown: '0.1' }).adjusted;
    expect(adjusted?.effectiveRecoveryPerSec.toFixed()).toBe('21600');
    expect(adjusted?.netCatchUpPerSec.toFixed()).toBe('3600');
    expect(adjusted?.recoveryAverageSec.toFixed()).toBe('75');
    expect(adjusted?.recoveryFullSec.toFixed()).toBe('150');
  });

  it('combines restore and slowdown into the printed recovery figures', () => {
    const { text, json } = describeCheckpoint(checkpointReplay({ ...mercury, restoreSec: 20, hotKeySlowdown: '0.1' }));
    expect(text).toContain('  effective recovery rate  = 24,000/s × (100% − 10%) = 21,600/s\n');
    expect(text).toContain('  backlog added by restore = 18,000/s × 20 s = 360,000 events\n');
    expect(text).toContain('  recovery (average)       = 20 s + (270,000 + 360,000) ÷ 3,600/s = 195 s\n');
    expect(text.endsWith('  recovery (full)          = 20 s + (540,000 + 360,000) ÷ 3,600/s = 270 s')).toBe(true);
    expect(json).toMatchObject({
      adjusted: { restoreSec: '20', hotKeySlowdownPercent: '10', catchUpAverageSec: '175', recoveryAverageSec: '195', recoveryFullSec: '270' },
    });
  });

  it('refuses a 25% slowdown of the Mercury figures: it consumes the whole 6,000/s margin', () => {
    expect(() => checkpointReplay({ ...mercury, hotKeySlowdown: '0.25' })).toThrow(
      'hot-key slowdown 25% leaves recovery at 18,000/s, not above the live rate 18,000/s: catch-up never finishes (the slowdown must stay below 25%)',
    );
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

import { describe, it, expect } from 'vitest';
import { InputError } from '../../src/base/inputError.ts';
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

// Reading (b): the slowdown taken off the recovery rate while live input keeps arriving at 18,000/s.
describe('checkpointReplay: a hot-key slowdown on the recovery rate', () => {
  it('leaves no margin at 25%: 24,000/s × 75% = 18,000/s, the live rate, so catch-up never completes', () => {
    // 24,000 × (1 − 0.25) = 24,000 × 0.75 = 18,000; 18,000 − 18,000 = 0, nothing left to catch up with.
    const adjusted = checkpointReplay({ ...mercury, hotKeySlowdown: '0.25' }).adjusted;
    const b = adjusted?.slowdownOnRecoveryRate;
    expect(b?.recoveryRateFactor.toFixed()).toBe('0.75');
    expect(b?.recoveryRatePerSec.toFixed()).toBe('18000');
    expect(b?.netCatchUpPerSec.toFixed()).toBe('0');
    expect(b?.catchUpCompletes).toBe(false);
    expect(b?.catchUpAverageSec).toBeNull();
    expect(b?.catchUpFullSec).toBeNull();
    expect(b?.recoveryAverageSec).toBeNull();
    expect(b?.recoveryFullSec).toBeNull();
    // Reading (a) of the same slowdown still has its figures.
    expect(adjusted?.catchUpAverageSec.toFixed()).toBe('56.25');
  });

  it('leaves 3,600/s at 10%: 75 s on average and 150 s for the full interval', () => {
    // 24,000 × (1 − 0.10) = 21,600; 21,600 − 18,000 = 3,600; 270,000 ÷ 3,600 = 75 and
    // 540,000 ÷ 3,600 = 150 (3,600 × 75 = 270,000; 3,600 × 150 = 540,000). With no restore the
    // recovery is the catch-up alone.
    const b = checkpointReplay({ ...mercury, hotKeySlowdown: '0.1' }).adjusted?.slowdownOnRecoveryRate;
    expect(b?.recoveryRateFactor.toFixed()).toBe('0.9');
    expect(b?.recoveryRatePerSec.toFixed()).toBe('21600');
    expect(b?.netCatchUpPerSec.toFixed()).toBe('3600');
    expect(b?.catchUpCompletes).toBe(true);
    expect(b?.catchUpAverageSec?.toFixed()).toBe('75');
    expect(b?.catchUpFullSec?.toFixed()).toBe('150');
    expect(b?.recoveryAverageSec?.toFixed()).toBe('75');
    expect(b?.recoveryFullSec?.toFixed()).toBe('150');
  });

  it('adds the restore backlog before dividing by the slowed margin, and the restore time after', () => {
    // (270,000 + 18,000 × 20) ÷ 3,600 = 630,000 ÷ 3,600 = 175 s, recovery 20 + 175 = 195 s;
    // (540,000 + 360,000) ÷ 3,600 = 900,000 ÷ 3,600 = 250 s, recovery 20 + 250 = 270 s.
    const replay = checkpointReplay({ ...mercury, restoreSec: 20, hotKeySlowdown: '0.1' });
    const b = replay.adjusted?.slowdownOnRecoveryRate;
    expect(b?.catchUpAverageSec?.toFixed()).toBe('175');
    expect(b?.catchUpFullSec?.toFixed()).toBe('250');
    expect(b?.recoveryAverageSec?.toFixed()).toBe('195');
    expect(b?.recoveryFullSec?.toFixed()).toBe('270');
    const { text } = describeCheckpoint(replay);
    expect(text.split('\n').slice(7)).toEqual([
      'hot-key slowdown 10%, reading (a) on catch-up time: the catch-up takes 10% longer',
      '  catch-up (average)       = (270,000 + 360,000) ÷ 6,000/s × (100% + 10%) = 115.5 s',
      '  catch-up (full)          = (540,000 + 360,000) ÷ 6,000/s × (100% + 10%) = 165 s',
      '  recovery (average)       = 20 s + 115.5 s = 135.5 s',
      '  recovery (full)          = 20 s + 165 s = 185 s',
      'hot-key slowdown 10%, reading (b) on the recovery rate: recovery processes 10% fewer events a second',
      '  slowed recovery rate     = 24,000/s × (100% − 10%) = 21,600/s',
      '  slowed net catch-up rate = 21,600/s − 18,000/s = 3,600/s',
      '  catch-up (average)       = (270,000 + 360,000) ÷ 3,600/s = 175 s',
      '  catch-up (full)          = (540,000 + 360,000) ÷ 3,600/s = 250 s',
      '  recovery (average)       = 20 s + 175 s = 195 s',
      '  recovery (full)          = 20 s + 250 s = 270 s',
    ]);
  });

  it('gives the JSON both readings, with null times and catchUpCompletes false where catch-up never ends', () => {
    const { json } = describeCheckpoint(checkpointReplay({ ...mercury, restoreSec: 20, hotKeySlowdown: '0.25' }));
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
      adjusted: {
        restoreSec: '20',
        hotKeySlowdownPercent: '25',
        slowdownFactor: '1.25',
        restoreBacklogEvents: '360000',
        catchUpAverageSec: '131.25',
        catchUpFullSec: '187.5',
        recoveryAverageSec: '151.25',
        recoveryFullSec: '207.5',
        slowdownOnRecoveryRate: {
          recoveryRateFactor: '0.75',
          recoveryRatePerSec: '18000',
          netCatchUpPerSec: '0',
          catchUpCompletes: false,
          catchUpAverageSec: null,
          catchUpFullSec: null,
          recoveryAverageSec: null,
          recoveryFullSec: null,
        },
      },
    });
    expect(JSON.parse(JSON.stringify(json))).toEqual(json);
  });

  it('says the backlog grows when the slowed rate falls below the live rate', () => {
    // 24,000 × 0.7 = 16,800, which is 1,200/s short of the 18,000/s arriving.
    const replay = checkpointReplay({ ...mercury, hotKeySlowdown: '0.3' });
    expect(replay.adjusted?.slowdownOnRecoveryRate.netCatchUpPerSec.toFixed()).toBe('-1200');
    const { text, json } = describeCheckpoint(replay);
    expect(text).toContain('  slowed net catch-up rate = 16,800/s − 18,000/s = −1,200/s\n');
    expect(text.split('\n').at(-1)).toBe(
      '  catch-up never completes: the slowed recovery rate 16,800/s does not exceed the live rate 18,000/s; ' +
        'the backlog grows by 1,200 events a second',
    );
    expect(json).toMatchObject({ adjusted: { slowdownOnRecoveryRate: { netCatchUpPerSec: '-1200', catchUpCompletes: false } } });
    // 24% leaves 24,000 × 0.76 = 18,240/s, just above the live rate; 26% leaves 17,760/s, just below.
    expect(checkpointReplay({ ...mercury, hotKeySlowdown: '0.24' }).adjusted?.slowdownOnRecoveryRate.catchUpCompletes).toBe(true);
    expect(checkpointReplay({ ...mercury, hotKeySlowdown: '0.26' }).adjusted?.slowdownOnRecoveryRate.catchUpCompletes).toBe(false);
  });

  it('stops recovery at a slowdown of 100% and does not turn a larger one into a negative rate', () => {
    // 100%: 24,000 × 0 = 0/s. 150%: 24,000 × (1 − 1.5) would be −12,000/s, which no processor
    // has, so the rate is 0/s and the margin is −18,000/s either way; reading (a) still doubles
    // and more than doubles the catch-up.
    for (const [slowdown, formula] of [
      ['1', '24,000/s × (100% − 100%) = 0/s'],
      ['1.5', '0/s, not 24,000/s × (100% − 150%): a rate cannot fall below zero'],
    ] as const) {
      const replay = checkpointReplay({ ...mercury, hotKeySlowdown: slowdown });
      const b = replay.adjusted?.slowdownOnRecoveryRate;
      expect(b?.recoveryRateFactor.toFixed()).toBe('0');
      expect(b?.recoveryRatePerSec.toFixed()).toBe('0');
      expect(b?.netCatchUpPerSec.toFixed()).toBe('-18000');
      expect(b?.catchUpCompletes).toBe(false);
      const { text } = describeCheckpoint(replay);
      expect(text).toContain('reading (b) on the recovery rate: a slowdown of 100% or more stops recovery\n');
      expect(text).toContain(`  slowed recovery rate     = ${formula}\n`);
      expect(text).toContain('catch-up never completes: the slowed recovery rate 0/s does not exceed the live rate 18,000/s');
    }
    expect(checkpointReplay({ ...mercury, hotKeySlowdown: '1.5' }).adjusted?.catchUpAverageSec.toFixed()).toBe('112.5');
  });

  it('prints one unlabelled set of figures for a 0% slowdown, where the two readings coincide', () => {
    const none = checkpointReplay({ ...mercury, restoreSec: 20 });
    const zero = checkpointReplay({ ...mercury, restoreSec: 20, hotKeySlowdown: 0 });
    expect(describeCheckpoint(zero).text).toBe(describeCheckpoint(none).text);
    expect(describeCheckpoint(zero).text).not.toContain('reading');
    const b = zero.adjusted?.slowdownOnRecoveryRate;
    expect(b?.recoveryRatePerSec.eq(zero.recoveryRatePerSec)).toBe(true);
    expect(b?.catchUpAverageSec?.eq(zero.adjusted?.catchUpAverageSec ?? -1)).toBe(true);
    expect(b?.recoveryFullSec?.eq(zero.adjusted?.recoveryFullSec ?? -1)).toBe(true);
  });

  it('keeps refusing a recovery rate that is not above the live rate before any slowdown', () => {
    expect(() => checkpointReplay({ ...mercury, recoveryRatePerSec: 18000, hotKeySlowdown: '0.1' })).toThrow(
      'recovery rate 18,000/s does not exceed the live rate 18,000/s: catch-up never finishes',
    );
  });

  it('marks a slowed catch-up that does not terminate with ≈', () => {
    // 24,000 × 0.9 = 21,600 against 18,500/s live leaves 3,100/s; 277,500 ÷ 3,100 = 89.516129…
    const { text, json } = describeCheckpoint(checkpointReplay({ ...mercury, ratePerSec: 18500, hotKeySlowdown: '0.1' }));
    expect(text).toContain('  catch-up (average)       = (277,500 + 0) ÷ 3,100/s ≈ 89.516 s\n');
    expect(json).toMatchObject({ adjusted: { slowdownOnRecoveryRate: { catchUpAverageSec: '89.516' } } });
  });
});

describe('describeCheckpoint: a rounded operand', () => {
  it('says ≈ where the working shows an operand rounded, though the result itself renders exactly', () => {
    const { text } = describeCheckpoint(checkpointReplay({ ratePerSec: '1.0005', intervalSec: 1, recoveryRatePerSec: '1.0006' }));
    // 0.5 events are 0.50025: 0.5 ÷ 0.0001/s is 5,000 s, not the 5,002.5 s shown.
    expect(text).toContain('  ideal catch-up (average) = 0.5 ÷ 0.0001/s ≈ 5,002.5 s\n');
    expect(describeCheckpoint(checkpointReplay(mercury)).text).toContain('  ideal catch-up (average) = 270,000 ÷ 6,000/s = 45 s\n');
  });
});

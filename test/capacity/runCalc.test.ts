import { describe, it, expect } from 'vitest';
import { InputError } from '../../src/base/inputError.ts';
import { runCalc } from '../../src/capacity/runCalc.ts';

function inputErrorOf(args: string[]): string {
  try {
    runCalc(args);
  } catch (e) {
    expect(e).toBeInstanceOf(InputError);
    const message = (e as Error).message;
    expect(message).not.toContain('\n');
    return message;
  }
  throw new Error(`expected calc ${args.join(' ')} to fail`);
}

describe('runCalc', () => {
  it('dedup prints the Mercury sizing and the same figures as JSON strings', () => {
    const { text, json } = runCalc(['dedup', '--rate', '18000', '--window', '12h', '--entry-bytes', '96']);
    expect(text).toBe(
      [
        'dedup sizing: 18,000/s kept for 12 h (43,200 s), 96 B per entry (GB = 10^9 bytes)',
        '  entries      = 18,000/s × 43,200 s = 777,600,000',
        '  logical size = 777,600,000 × 96 B = 74,649,600,000 B = 74.6496 GB',
      ].join('\n'),
    );
    expect(json).toMatchObject({ command: 'dedup', rate: '18000/s', windowSec: '43200', entries: '777600000', logicalGB: '74.6496' });
    // The JSON must survive serialisation unchanged: no Big objects, no numbers that could lose digits.
    expect(JSON.parse(JSON.stringify(json))).toEqual(json);
  });

  it('dedup accepts a daily rate, byte units, replication and amplification', () => {
    const daily = runCalc(['dedup', '--rate', '20000000/d', '--window', '7d', '--entry-bytes', '64B']);
    expect(daily.json).toMatchObject({ entries: '140000000', logicalGB: '8.96' });
    const physical = runCalc([
      'dedup', '--rate', '18,000', '--window', '12h', '--entry-bytes', '96', '--replication', '3', '--amplification', '1.5',
    ]);
    expect(physical.text).toContain('physical size   = 223.9488 GB × 1.5 amplification = 335.9232 GB');
    expect(physical.json).toMatchObject({ physicalGB: '335.9232' });
  });

  it('checkpoint prints 270,000 / 540,000 events and 45 / 90 s', () => {
    const { text, json } = runCalc(['checkpoint', '--rate', '18000', '--interval', '30s', '--recovery-rate', '24000']);
    expect(text).toContain('= 18,000/s × 30 s ÷ 2 = 270,000 events');
    expect(text).toContain('= 18,000/s × 30 s = 540,000 events');
    expect(text).toContain('= 270,000 ÷ 6,000/s = 45 s');
    expect(text).toContain('= 540,000 ÷ 6,000/s = 90 s');
    expect(json).toMatchObject({ idealCatchUpAverageSec: '45', idealCatchUpFullSec: '90', adjusted: null });
  });

  it('prints a rate exactly as given or derived, marks a rounded figure with ≈, and keeps JSON exact', () => {
    // Rounded to three decimals, 1.0004/s read "1/s", and "2/s − 1/s = 1/s" hid a margin of 0.9996/s.
    const { text, json } = runCalc(['checkpoint', '--rate', '1.0004', '--interval', '1s', '--recovery-rate', '2']);
    expect(text).toContain('checkpoint replay: 1.0004/s live');
    expect(text).toContain('= 1.0004/s × 1 s ÷ 2 ≈ 0.5 events');
    expect(text).toContain('= 2/s − 1.0004/s = 0.9996/s');
    expect(json).toMatchObject({ ratePerSec: '1.0004', netCatchUpPerSec: '0.9996', averageReplayEvents: '0.5' });
    const tight = runCalc(['checkpoint', '--rate', '1', '--interval', '1s', '--recovery-rate', '1.0000000001']);
    expect(tight.json).toMatchObject({ netCatchUpPerSec: '0.0000000001' });
    const backfill = inputErrorOf(['backfill', '--events', '1', '--envelope', '1.0004', '--live-reserve', '0.0001', '--variance-reserve', '0.0001', '--cap', '1.0003']);
    expect(backfill).toBe('backfill cap 1.0003/s exceeds the headroom 1.0002/s (envelope 1.0004/s − reservations 0.0002/s)');
  });

  it('refuses a duration finer than a millisecond, the finest it prints', () => {
    expect(inputErrorOf(['horizon', '--window', '1s', '--broker-retention', '1.0000001s'])).toBe('--broker-retention "1.0000001s" is finer than a millisecond; give a duration in whole milliseconds');
    expect(runCalc(['horizon', '--window', '1s', '--broker-retention', '1.001s']).text).toContain('exceeds the window by 0.001 s');
  });

  it('checkpoint takes restore time and a slowdown percentage', () => {
    const { json } = runCalc([
      'checkpoint', '--rate', '18000', '--interval', '30s', '--recovery-rate', '24000', '--restore', '20s', '--hot-key-slowdown', '10%',
    ]);
    expect(json).toMatchObject({ adjusted: { catchUpAverageSec: '115.5', recoveryAverageSec: '135.5', recoveryFullSec: '185' } });
    expect(
      inputErrorOf(['checkpoint', '--rate', '18000', '--interval', '30s', '--recovery-rate', '24000', '--hot-key-slowdown', '0.25']),
    ).toBe('--hot-key-slowdown "0.25" needs a % sign; expected a percentage such as 25%');
  });

  it("checkpoint gives the seed drill's 25% hot-key slowdown a figure, not a refusal", () => {
    const drill = ['checkpoint', '--rate', '18000', '--interval', '30s', '--recovery-rate', '24000'];
    expect(runCalc([...drill, '--hot-key-slowdown', '25%']).json).toMatchObject({
      adjusted: { catchUpAverageSec: '56.25', catchUpFullSec: '112.5' },
    });
    const { text } = runCalc([...drill, '--restore', '20s', '--hot-key-slowdown', '25%']);
    expect(text).toContain('recovery (average)       = 20 s + 131.25 s = 151.25 s');
    expect(text).toContain('recovery (full)          = 20 s + 187.5 s = 207.5 s');
    expect(runCalc([...drill, '--hot-key-slowdown', '100%']).json).toMatchObject({ adjusted: { catchUpAverageSec: '90' } });
  });

  it('checkpoint prints both readings of the seed drill\'s 25% slowdown, the second one never completing', () => {
    const drill = ['checkpoint', '--rate', '18000', '--interval', '30s', '--recovery-rate', '24000', '--restore', '20s'];
    const { text, json } = runCalc([...drill, '--hot-key-slowdown', '25%']);
    const lines = text.split('\n');
    // Reading (a) keeps the figures the command printed before; reading (b) has no catch-up time.
    expect(lines.slice(7)).toEqual([
      'hot-key slowdown 25%, reading (a) on catch-up time: the catch-up takes 25% longer',
      '  catch-up (average)       = (270,000 + 360,000) ÷ 6,000/s × (100% + 25%) = 131.25 s',
      '  catch-up (full)          = (540,000 + 360,000) ÷ 6,000/s × (100% + 25%) = 187.5 s',
      '  recovery (average)       = 20 s + 131.25 s = 151.25 s',
      '  recovery (full)          = 20 s + 187.5 s = 207.5 s',
      'hot-key slowdown 25%, reading (b) on the recovery rate: recovery processes 25% fewer events a second',
      '  slowed recovery rate     = 24,000/s × (100% − 25%) = 18,000/s',
      '  slowed net catch-up rate = 18,000/s − 18,000/s = 0/s',
      '  catch-up never completes: the slowed recovery rate 18,000/s does not exceed the live rate 18,000/s',
    ]);
    expect(json).toMatchObject({
      adjusted: {
        catchUpAverageSec: '131.25',
        recoveryFullSec: '207.5',
        slowdownOnRecoveryRate: {
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
    // Nulls and the boolean survive serialisation as they are.
    expect(JSON.parse(JSON.stringify(json))).toEqual(json);
  });

  it('checkpoint at a 10% slowdown on the recovery rate catches up at 3,600/s', () => {
    const base = ['checkpoint', '--rate', '18000', '--interval', '30s', '--recovery-rate', '24000', '--hot-key-slowdown', '10%'];
    // 270,000 ÷ 3,600 = 75 s and 540,000 ÷ 3,600 = 150 s with no restore.
    const ideal = runCalc(base);
    expect(ideal.text).toContain('  slowed recovery rate     = 24,000/s × (100% − 10%) = 21,600/s\n');
    expect(ideal.text).toContain('  slowed net catch-up rate = 21,600/s − 18,000/s = 3,600/s\n');
    expect(ideal.text).toContain('  catch-up (average)       = (270,000 + 0) ÷ 3,600/s = 75 s\n');
    expect(ideal.text).toContain('  catch-up (full)          = (540,000 + 0) ÷ 3,600/s = 150 s\n');
    expect(ideal.json).toMatchObject({
      adjusted: {
        catchUpAverageSec: '49.5',
        catchUpFullSec: '99',
        slowdownOnRecoveryRate: {
          recoveryRateFactor: '0.9',
          recoveryRatePerSec: '21600',
          netCatchUpPerSec: '3600',
          catchUpCompletes: true,
          catchUpAverageSec: '75',
          catchUpFullSec: '150',
          recoveryAverageSec: '75',
          recoveryFullSec: '150',
        },
      },
    });
    // A 20 s restore adds 360,000 events: 630,000 ÷ 3,600 = 175 s and 900,000 ÷ 3,600 = 250 s.
    const restored = runCalc([...base, '--restore', '20s']);
    expect(restored.text.split('\n').at(-1)).toBe('  recovery (full)          = 20 s + 250 s = 270 s');
    expect(restored.json).toMatchObject({
      adjusted: { slowdownOnRecoveryRate: { catchUpAverageSec: '175', recoveryAverageSec: '195', recoveryFullSec: '270' } },
    });
  });

  it('checkpoint states a slowdown of 100% or more stops recovery instead of refusing', () => {
    const { text, json } = runCalc([
      'checkpoint', '--rate', '18000', '--interval', '30s', '--recovery-rate', '24000', '--hot-key-slowdown', '200%',
    ]);
    // Reading (a) triples the 45 s catch-up; reading (b) has no rate left to recover with.
    expect(text).toContain('  catch-up (average)       = (270,000 + 0) ÷ 6,000/s × (100% + 200%) = 135 s\n');
    expect(text).toContain('  slowed recovery rate     = 0/s, not 24,000/s × (100% − 200%): a rate cannot fall below zero\n');
    expect(json).toMatchObject({
      adjusted: { catchUpAverageSec: '135', slowdownOnRecoveryRate: { recoveryRatePerSec: '0', netCatchUpPerSec: '-18000', catchUpCompletes: false } },
    });
  });

  it('checkpoint refuses recovery no faster than live input', () => {
    expect(inputErrorOf(['checkpoint', '--rate', '18000', '--interval', '30s', '--recovery-rate', '18000'])).toBe(
      'recovery rate 18,000/s does not exceed the live rate 18,000/s: catch-up never finishes',
    );
  });

  it('backfill prints 300,000 s and 83.33 hours', () => {
    const { text, json } = runCalc([
      'backfill', '--events', '1.2e9', '--envelope', '25000', '--live-reserve', '20000', '--variance-reserve', '1000', '--cap', '4000',
    ]);
    expect(text).toContain('duration = 1,200,000,000 ÷ 4,000/s = 300,000 s ≈ 83.33 hours');
    expect(json).toMatchObject({ durationSec: '300000', durationHours: '83.33' });
  });

  it('retry takes a deadline in place of a count, and refuses neither', () => {
    const { text, json } = runCalc(['retry', '--base', '1m', '--factor', '2', '--cap', '6h', '--until', '2d']);
    expect(text).toContain('  total waiting = 1 d 20 h 31 m before the last retry');
    expect(json).toMatchObject({ retries: 15, untilSec: '172800', endedBy: 'until' });
    expect(inputErrorOf(['retry', '--base', '1m', '--factor', '2', '--cap', '6h'])).toBe('calc retry: give --retries, --until, or both');
    expect(inputErrorOf(['retry', '--base', '1m', '--factor', '2', '--cap', '6h', '--until', '-2d'])).toMatch(/^--until "-2d" is negative/);
  });

  it('retry prints the capped schedule', () => {
    const { json } = runCalc(['retry', '--base', '1s', '--factor', '2', '--cap', '60s', '--retries', '8']);
    expect(json).toMatchObject({ cumulativeSec: ['1', '3', '7', '15', '31', '63', '123', '183'] });
  });

  it('horizon reports the gap to partner redelivery and an invalid 12 h window', () => {
    const partner = runCalc(['horizon', '--window', '7d', '--partner-redelivery', '30d']);
    expect(partner.text).toContain('gap                = 30 d − 7 d = 23 d (1,987,200 s)');
    expect(partner.json).toMatchObject({ valid: false, gapSec: '1987200' });
    const replay = runCalc(['horizon', '--window', '12h', '--broker-retention', '7d', '--approved-replay', '7d']);
    expect(replay.json).toMatchObject({ valid: false, exceeding: ['broker-retention', 'approved-replay'] });
  });

  it.each<[string[], string]>([
    [[], 'calc needs a subcommand: dedup|checkpoint|backfill|retry|horizon'],
    [['sizing'], 'calc: unknown subcommand "sizing"; expected dedup|checkpoint|backfill|retry|horizon'],
    [['dedpu'], 'calc: unknown subcommand "dedpu" (did you mean dedup?); expected dedup|checkpoint|backfill|retry|horizon'],
    [['toString'], 'calc: unknown subcommand "toString"; expected dedup|checkpoint|backfill|retry|horizon'],
    [['dedup', '--rate', '18000', '--window', '12h'], 'calc dedup: missing required --entry-bytes'],
    [['dedup', '--rate', '18000', '--window', '12h', '--entry-bytes'], 'calc dedup: --entry-bytes needs a value'],
    [['dedup', '--rate', '--window', '12h', '--entry-bytes', '96'], 'calc dedup: --rate needs a value'],
    [['dedup', '--rate', '18000', '--window', '12h', '--entry-bytes', '96', '--ttl', '3'], 'calc dedup: unknown flag --ttl; known flags: --rate, --window, --entry-bytes, --replication, --amplification'],
    [['dedup', '--rate', '1', '--rate', '2', '--window', '12h', '--entry-bytes', '96'], 'calc dedup: --rate is given more than once'],
    [['dedup', 'rate', '18000'], 'calc dedup: takes no arguments; unexpected argument "rate"'],
    [['dedup', '--rate=18000'], 'calc dedup: missing required --window, --entry-bytes'],
    [['dedup', '--rat', '18000', '--window', '12h', '--entry-bytes', '96'], 'calc dedup: unknown flag --rat (did you mean --rate?); known flags: --rate, --window, --entry-bytes, --replication, --amplification'],
    [['dedup', '--rate', '-5', '--window', '12h', '--entry-bytes', '96'], '--rate "-5" is negative; expected a number such as 18000, 18,000, 1.2e9 or 20M'],
    [['dedup', '--rate', '0', '--window', '12h', '--entry-bytes', '96'], '--rate "0" must be greater than zero'],
    [['dedup', '--rate', 'abc', '--window', '12h', '--entry-bytes', '96'], '--rate "abc" is not a number; expected a number such as 18000, 18,000, 1.2e9 or 20M'],
    [['dedup', '--rate', '18000', '--window', '10x', '--entry-bytes', '96'], '--window "10x" has unknown unit "x"; expected a duration such as 500ms, 30s, 15m, 12h, 7d, or plain seconds'],
    [['checkpoint', '--rate', '20000000/d', '--interval', '30s', '--recovery-rate', '24000'], '--rate "20000000/d" must be a rate per second here, such as 18000 or 18000/s'],
    [['backfill', '--events', '1.2e9', '--envelope', '25000', '--live-reserve', '20000', '--variance-reserve', '1000', '--cap', '5000'], 'backfill cap 5,000/s exceeds the headroom 4,000/s (envelope 25,000/s − reservations 21,000/s)'],
    [['backfill', '--events', '1.2e9', '--envelope', '25000', '--live-reserve', '25000', '--variance-reserve', '1000', '--cap', '4000'], 'reservations 25,000/s live + 1,000/s variance = 26,000/s leave no headroom in the 25,000/s envelope'],
    [['retry', '--base', '1s', '--factor', '2', '--cap', '60s', '--retries', '2.5'], '--retries "2.5" must be a whole number'],
    [['horizon', '--window', '12h'], 'horizon needs at least one requirement to compare, such as --broker-retention or --approved-replay'],
  ])('refuses %j with one line', (args, message) => {
    expect(inputErrorOf(args)).toBe(message);
  });
});

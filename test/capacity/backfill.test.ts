import { describe, it, expect } from 'vitest';
import { InputError } from '../../src/base/inputError.ts';
import { backfillDuration, describeBackfill } from '../../src/capacity/backfill.ts';

const mercury = {
  events: '1.2e9',
  envelopePerSec: 25000,
  liveReservePerSec: 20000,
  varianceReservePerSec: 1000,
  capPerSec: 4000,
};

describe('backfillDuration', () => {
  it('backfills 1.2e9 events at 4,000/s in 300,000 s, 83.33 hours', () => {
    const backfill = backfillDuration(mercury);
    expect(backfill.headroomPerSec.toFixed()).toBe('4000');
    expect(backfill.durationSec.toFixed()).toBe('300000');
    const { text, json } = describeBackfill(backfill);
    expect(text).toBe(
      [
        'backfill: 1,200,000,000 events at a cap of 4,000/s',
        '  headroom = 25,000/s − 20,000/s live − 1,000/s variance = 4,000/s',
        '  cap      = 4,000/s ≤ 4,000/s headroom',
        '  duration = 1,200,000,000 ÷ 4,000/s = 300,000 s ≈ 83.33 hours',
      ].join('\n'),
    );
    expect(json).toEqual({
      command: 'backfill',
      events: '1200000000',
      envelopePerSec: '25000',
      liveReservePerSec: '20000',
      varianceReservePerSec: '1000',
      capPerSec: '4000',
      headroomPerSec: '4000',
      durationSec: '300000',
      durationHours: '83.33',
    });
  });

  it('prints an exact hour figure with "="', () => {
    expect(describeBackfill(backfillDuration({ ...mercury, events: 7200 * 4000 })).text).toContain('= 7,200 s = 2 hours');
    expect(describeBackfill(backfillDuration({ ...mercury, events: 3600 * 4000 })).text).toContain('= 3,600 s = 1 hour');
  });

  it('refuses a cap above the headroom and says by how much headroom there is', () => {
    expect(() => backfillDuration({ ...mercury, capPerSec: 4001 })).toThrow(
      'backfill cap 4,001/s exceeds the headroom 4,000/s (envelope 25,000/s − reservations 21,000/s)',
    );
  });

  it('refuses reservations that use up the envelope', () => {
    expect(() => backfillDuration({ ...mercury, liveReservePerSec: 24000 })).toThrow(
      'reservations 24,000/s live + 1,000/s variance = 25,000/s leave no headroom in the 25,000/s envelope',
    );
    expect(() => backfillDuration({ ...mercury, liveReservePerSec: 30000 })).toThrow(InputError);
  });

  it('refuses fractional or non-positive event counts and negative reserves', () => {
    expect(() => backfillDuration({ ...mercury, events: '1.5' })).toThrow(InputError);
    expect(() => backfillDuration({ ...mercury, events: 0 })).toThrow(InputError);
    expect(() => backfillDuration({ ...mercury, varianceReservePerSec: -1 })).toThrow(InputError);
    expect(backfillDuration({ ...mercury, varianceReservePerSec: 0, capPerSec: 5000 }).durationSec.toFixed()).toBe('240000');
  });
});

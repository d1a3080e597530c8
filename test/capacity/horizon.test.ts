import { describe, it, expect } from 'vitest';
import { InputError } from '../../src/base/inputError.ts';
import { dedupHorizon, describeHorizon } from '../../src/capacity/horizon.ts';

const DAY = 86400;

describe('dedupHorizon', () => {
  it('finds a 23-day gap between a 7-day window and 30-day partner redelivery', () => {
    const horizon = dedupHorizon({ windowSec: 7 * DAY, brokerRetentionSec: 3 * DAY, partnerRedeliverySec: 30 * DAY });
    expect(horizon.valid).toBe(false);
    expect(horizon.exceeding).toEqual(['partner-redelivery']);
    expect(horizon.gapSec?.toFixed()).toBe(String(23 * DAY));
    const { text, json } = describeHorizon(horizon);
    expect(text).toBe(
      [
        'dedup horizon: window 7 d (604,800 s)',
        '  broker-retention   = 3 d (259,200 s), within the window',
        '  partner-redelivery = 30 d (2,592,000 s), exceeds the window by 23 d (1,987,200 s)',
        '  verdict            = INVALID: 1 requirement exceeds the 7 d window',
        '  largest            = partner-redelivery (30 d)',
        '  gap                = 30 d − 7 d = 23 d (1,987,200 s)',
      ].join('\n'),
    );
    expect(json).toMatchObject({ valid: false, gapSec: '1987200', largest: { names: ['partner-redelivery'], sec: '2592000' } });
  });

  it('declares a 12 h window invalid against a 7 d approved replay and names every tied maximum', () => {
    const horizon = dedupHorizon({ windowSec: 12 * 3600, brokerRetentionSec: 7 * DAY, approvedReplaySec: 7 * DAY });
    expect(horizon.valid).toBe(false);
    expect(horizon.largest?.names).toEqual(['broker-retention', 'approved-replay']);
    const { text } = describeHorizon(horizon);
    expect(text).toContain('  gap              = 7 d − 12 h = 6.5 d (561,600 s)');
  });

  it('names the largest requirement, not the first one that exceeds', () => {
    const horizon = dedupHorizon({
      windowSec: DAY,
      producerRetrySec: 2 * DAY,
      deadLetterRedriveSec: 14 * DAY,
      offlineConsumerSec: 3 * DAY,
    });
    expect(horizon.exceeding).toEqual(['producer-retry', 'offline-consumer', 'dead-letter-redrive']);
    expect(horizon.largest?.names).toEqual(['dead-letter-redrive']);
    expect(horizon.gapSec?.toFixed()).toBe(String(13 * DAY));
  });

  it('treats a requirement equal to the window as covered', () => {
    const horizon = dedupHorizon({ windowSec: 7 * DAY, approvedReplaySec: 7 * DAY });
    expect(horizon.valid).toBe(true);
    expect(horizon.gapSec).toBeNull();
    expect(describeHorizon(horizon).text).toContain('verdict         = valid: every requirement fits inside the 7 d window');
  });

  it('refuses to judge a window against nothing', () => {
    expect(() => dedupHorizon({ windowSec: DAY })).toThrow(InputError);
    expect(() => dedupHorizon({ windowSec: 0, approvedReplaySec: DAY })).toThrow(InputError);
  });
});

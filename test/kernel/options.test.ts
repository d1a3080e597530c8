// Design options are parsed strictly: a typo is bad input naming the option and the nearest valid
// key or value, never a silent default.
import { describe, expect, it } from 'vitest';
import { duration, parseOptions, z } from '../../src/scenario/options.ts';
import { TimeScale, formatSeconds } from '../../src/base/duration.ts';
import Big from 'big.js';

const relay = z.strictObject({ mark: z.enum(['afterSend', 'beforeSend']).optional(), poll: duration.optional(), workers: z.number().int().min(1).optional() });
const pipeline = z.strictObject({ design: z.enum(['outbox', 'dualWriteCommitFirst']), relay: relay.optional() });

describe('parseOptions', () => {
  it('returns the options when they are valid', () => {
    expect(parseOptions('orderPipeline', pipeline, { design: 'outbox', relay: { mark: 'beforeSend', poll: '8s' } })).toEqual({ design: 'outbox', relay: { mark: 'beforeSend', poll: '8s' } });
  });

  it.each([
    [{ design: 'outbox', relay: { mark: 'beforeSnd' } }, 'orderPipeline option relay.mark has no value "beforeSnd" (did you mean beforeSend?); expected "afterSend", "beforeSend"'],
    [{ design: 'telepathy' }, 'orderPipeline option design has no value "telepathy"; expected "outbox", "dualWriteCommitFirst"'],
    [{ design: 'outbox', relai: {} }, 'orderPipeline has no option relai (did you mean relay?); options: design, relay'],
    [{ design: 'outbox', relay: { marks: 'afterSend' } }, 'orderPipeline option relay has no option marks (did you mean mark?); options: mark, poll, workers'],
    [{ design: 'outbox', relay: { workers: 1.5 } }, 'orderPipeline option relay.workers must be a whole number, got 1.5'],
    [{ design: 'outbox', relay: { poll: 8 } }, "orderPipeline option relay.poll must be a duration with its unit, such as '250ms', '30s', '15m', '24h', '7d' or '3 ticks', got 8"],
    [{ design: 'outbox', relay: { poll: '8 parsecs' } }, "orderPipeline option relay.poll: a duration with its unit, such as '250ms', '30s', '15m', '24h', '7d' or '3 ticks', got \"8 parsecs\""],
  ])('refuses %j in one line', (value, message) => {
    expect(() => parseOptions('orderPipeline', pipeline, value)).toThrow(message);
  });
});

describe('durations and ticks', () => {
  it('turns a duration into whole ticks of the scenario’s tick', () => {
    const hours = new TimeScale('2.4h');
    expect(hours.ticks('inboxTtl', '7d')).toBe(70);
    expect(hours.ticks('restartAfter', '10 ticks')).toBe(10);
  });

  it('refuses a duration between ticks, a bare number and a negative one', () => {
    expect(() => new TimeScale('1s').ticks('poll', '250ms')).toThrow('poll is 250ms, which is not a whole number of ticks of 1 s (0.250 ticks)');
    expect(() => new TimeScale('1s').ticks('poll', 30 as never)).toThrow('poll is 30, which is ambiguous');
    expect(() => new TimeScale('1s').ticks('poll', '-3s')).toThrow("poll is \"-3s\"; expected a duration with its unit");
    expect(() => new TimeScale('1s').ticks('poll', '0s', 1)).toThrow('poll is 0s; it must be at least 1 tick');
    expect(() => new TimeScale('0s')).toThrow('tick must be longer than zero');
  });

  it('writes ticks back as durations', () => {
    expect(new TimeScale('2.4h').format(10)).toBe('1 d');
    expect(new TimeScale('1s').format(90)).toBe('1.5 m');
    expect(new TimeScale('250ms').format(3)).toBe('750 ms');
    expect(formatSeconds(new Big(0))).toBe('0 s');
  });
});

// The option schemas' validators: what each accepts, what it refuses and the issue it reports
// (code and path), every issue of a value and not only its first, since src/scenario/options.ts turns them
// into the one line a user reads, each problem at its path.
import { describe, expect, it } from 'vitest';
import { parseOptions } from '../../src/scenario/options.ts';
import * as z from '../../src/base/schema.ts';

/** The first issue of a refused value, as code and path. */
function refusal(schema: z.Schema, value: unknown): { code: string; path: readonly PropertyKey[] } | 'accepted' {
  const r = schema.safeParse(value);
  return r.success ? 'accepted' : { code: r.error.issues[0]!.code, path: r.error.issues[0]!.path };
}

describe('the scalar schemas', () => {
  it('takes a string, and holds it to its bounds and patterns', () => {
    const name = z.string().min(2).regex(/^[a-z]+$/, 'lower-case letters');
    expect(name.safeParse('ab')).toEqual({ success: true, data: 'ab' });
    expect(refusal(name, 3)).toEqual({ code: 'invalid_type', path: [] });
    expect(refusal(name, 'a')).toEqual({ code: 'too_small', path: [] });
    expect(refusal(name, 'aB')).toEqual({ code: 'invalid_format', path: [] });
  });

  it('takes a finite number; int() refuses fractions as a type, and bounds are inclusive but for positive()', () => {
    const workers = z.number().int().min(1).max(8);
    expect(workers.safeParse(8)).toEqual({ success: true, data: 8 });
    for (const v of [Number.NaN, Number.POSITIVE_INFINITY, '3']) expect(refusal(workers, v)).toEqual({ code: 'invalid_type', path: [] });
    expect(workers.safeParse(1.5)).toMatchObject({ success: false, error: { issues: [{ code: 'invalid_type', expected: 'int' }] } });
    expect(refusal(workers, 0)).toEqual({ code: 'too_small', path: [] });
    expect(refusal(workers, 9)).toEqual({ code: 'too_big', path: [] });
    expect(refusal(z.number().positive(), 0)).toEqual({ code: 'too_small', path: [] });
    expect(z.number().nonnegative().safeParse(0).success).toBe(true);
    expect(z.number().safeParse(1.5).success).toBe(true);
  });

  it('takes booleans, null, an enum’s values and a literal, and nothing else', () => {
    expect(z.boolean().safeParse(false).success).toBe(true);
    expect(refusal(z.boolean(), 'true')).toEqual({ code: 'invalid_type', path: [] });
    expect(z.null().safeParse(null).success).toBe(true);
    expect(refusal(z.null(), undefined)).toEqual({ code: 'invalid_type', path: [] });
    const mark = z.enum(['afterSend', 'beforeSend']);
    expect(mark.safeParse('beforeSend')).toEqual({ success: true, data: 'beforeSend' });
    expect(mark.safeParse('beforeSnd')).toMatchObject({ success: false, error: { issues: [{ code: 'invalid_value', values: ['afterSend', 'beforeSend'] }] } });
    expect(refusal(z.literal(true), false)).toEqual({ code: 'invalid_value', path: [] });
  });

  it('lets optional() through undefined only', () => {
    const o = z.string().optional();
    expect(o.safeParse(undefined)).toEqual({ success: true, data: undefined });
    expect(refusal(o, null)).toEqual({ code: 'invalid_type', path: [] });
  });

  it('takes what a custom test accepts, with its message for what it does not', () => {
    const fn = z.custom<() => void>((v) => typeof v === 'function', 'a function');
    const f = () => undefined;
    expect(fn.safeParse(f)).toEqual({ success: true, data: f });
    expect(fn.safeParse(1)).toMatchObject({ success: false, error: { issues: [{ code: 'custom', message: 'a function' }] } });
    expect(z.custom<unknown>().safeParse(Symbol.iterator).success).toBe(true);
  });
});

describe('the compound schemas', () => {
  it('refuses the first bad item of a list at its index, and holds a list to its length', () => {
    const keys = z.array(z.string()).min(1);
    expect(keys.safeParse(['a', 'b'])).toEqual({ success: true, data: ['a', 'b'] });
    expect(refusal(keys, ['a', 2, 3])).toEqual({ code: 'invalid_type', path: [1] });
    expect(refusal(keys, [])).toEqual({ code: 'too_small', path: [] });
    expect(refusal(keys, { 0: 'a' })).toEqual({ code: 'invalid_type', path: [] });
  });

  it('holds a tuple to its length and each place to its schema', () => {
    const latency = z.tuple([z.string(), z.number()]);
    expect(latency.safeParse(['1s', 2])).toEqual({ success: true, data: ['1s', 2] });
    expect(refusal(latency, ['1s'])).toEqual({ code: 'too_small', path: [] });
    expect(refusal(latency, ['1s', 2, 3])).toEqual({ code: 'too_big', path: [] });
    expect(refusal(latency, ['1s', '2'])).toEqual({ code: 'invalid_type', path: [1] });
  });

  it('checks a record’s every value under its key', () => {
    const tables = z.record(z.string(), z.strictObject({ ttl: z.string() }));
    expect(tables.safeParse({ a: { ttl: '1d' } })).toEqual({ success: true, data: { a: { ttl: '1d' } } });
    expect(refusal(tables, { a: { ttl: '1d' }, b: { ttl: 3 } })).toEqual({ code: 'invalid_type', path: ['b', 'ttl'] });
    expect(refusal(tables, [])).toEqual({ code: 'invalid_type', path: [] });
  });

  it('takes a union’s first fitting option; a union of values alone is refused as one list of values', () => {
    const keys = z.union([z.boolean(), z.enum(['intentBound', 'honoured'])]);
    expect(keys.safeParse(true)).toEqual({ success: true, data: true });
    expect(keys.safeParse('honoured')).toEqual({ success: true, data: 'honoured' });
    expect(keys.safeParse('honored')).toMatchObject({ success: false, error: { issues: [{ code: 'invalid_value', values: [true, false, 'intentBound', 'honoured'] }] } });
    const column = z.union([z.string(), z.strictObject({ now: z.literal(true) })]);
    expect(column.safeParse({ now: true }).success).toBe(true);
    expect(refusal(column, { now: false })).toEqual({ code: 'invalid_value', path: ['now'] });
    expect(refusal(column, 3)).toEqual({ code: 'invalid_union', path: [] });
  });

  it('refuses an object that fits no object of a union with the problems of the one it comes closest to', () => {
    const holds = z.strictObject({ verdict: z.literal('holds') });
    const violated = z.strictObject({ verdict: z.literal('violated'), violations: z.array(z.string()).min(1) });
    const split = z.strictObject({ single: z.union([holds, violated]), pairs: z.union([holds, violated]), why: z.string() });
    const expectation = z.union([holds, violated, split]);
    // A wrong literal lists the values every object allows there.
    expect(expectation.safeParse({ verdict: 'hold' })).toMatchObject({ success: false, error: { issues: [{ code: 'invalid_value', path: ['verdict'], values: ['holds', 'violated'] }] } });
    expect(refusal(expectation, { verdict: 'violated' })).toEqual({ code: 'invalid_type', path: ['violations'] });
    // On a tie, the object whose literal the value matches.
    expect(refusal(expectation, { verdict: 'holds', violations: ['x'] })).toEqual({ code: 'unrecognized_keys', path: [] });
    expect(refusal(expectation, { single: { verdict: 'holds' }, pairs: { verdict: 'x' }, why: 'w' })).toEqual({ code: 'invalid_value', path: ['pairs', 'verdict'] });
  });
});

describe('every problem of a value', () => {
  it('is reported, each at its path, in the order of the schema’s keys', () => {
    const record = z.strictObject({ id: z.string(), flows: z.array(z.strictObject({ id: z.string(), scenario: z.string() })).min(1), owner: z.string() });
    const r = record.safeParse({ flows: [{ id: 1, scenario: 's' }, { id: 'b' }], extra: true });
    expect(r.success).toBe(false);
    expect(!r.success && r.error.issues.map((i) => [i.code, i.path])).toEqual([
      ['invalid_type', ['id']],
      ['invalid_type', ['flows', 0, 'id']],
      ['invalid_type', ['flows', 1, 'scenario']],
      ['invalid_type', ['owner']],
      ['unrecognized_keys', []],
    ]);
  });
});

describe('meta', () => {
  it('gives a schema a description without changing what it accepts, on a copy', () => {
    const plain = z.string().min(1);
    const described = plain.meta({ description: 'the flow’s id' });
    expect(described.metadata).toEqual({ description: 'the flow’s id' });
    expect(plain.metadata).toBeUndefined();
    expect(described.safeParse('')).toMatchObject({ success: false });
    expect(described.meta({ typescript: 'string' }).metadata).toEqual({ description: 'the flow’s id', typescript: 'string' });
  });
});

describe('strict objects', () => {
  const relay = z.strictObject({ mark: z.enum(['afterSend', 'beforeSend']).optional(), workers: z.number().int().min(1).optional() });
  const pipeline = z.strictObject({ design: z.enum(['outbox', 'dualWriteCommitFirst']), relay: relay.optional() });

  it('returns a new object with the keys given, leaving out optional keys not given', () => {
    const given = { design: 'outbox', relay: { mark: 'afterSend' } };
    const r = pipeline.safeParse(given);
    expect(r).toEqual({ success: true, data: { design: 'outbox', relay: { mark: 'afterSend' } } });
    expect(r.success && r.data).not.toBe(given);
    expect(r.success && 'workers' in r.data.relay!).toBe(false);
    expect(pipeline.safeParse({ design: 'outbox', relay: undefined })).toEqual({ success: true, data: { design: 'outbox', relay: undefined } });
  });

  it('reports a known key’s problem before an unknown key, and an unknown key at its object’s path', () => {
    expect(refusal(pipeline, { design: 'telepathy', relai: {} })).toEqual({ code: 'invalid_value', path: ['design'] });
    expect(pipeline.safeParse({ design: 'outbox', relay: { marks: 'afterSend', workerz: 2 } })).toMatchObject({ success: false, error: { issues: [{ code: 'unrecognized_keys', path: ['relay'], keys: ['marks', 'workerz'] }] } });
    expect(refusal(pipeline, null)).toEqual({ code: 'invalid_type', path: [] });
    expect(refusal(pipeline, [])).toEqual({ code: 'invalid_type', path: [] });
  });

  it('extends with new or replaced keys, and picks a subset', () => {
    const group = relay.extend({ consumers: z.number().int(), mark: z.enum(['afterSend']) });
    expect(Object.keys(group.shape)).toEqual(['mark', 'workers', 'consumers']);
    expect(refusal(group, { consumers: 2, mark: 'beforeSend' })).toEqual({ code: 'invalid_value', path: ['mark'] });
    const picked = pipeline.pick({ design: true });
    expect(Object.keys(picked.shape)).toEqual(['design']);
    expect(refusal(picked, { design: 'outbox', relay: {} })).toEqual({ code: 'unrecognized_keys', path: [] });
  });
});

describe('the one line parseOptions writes for each kind of problem', () => {
  const options = z.strictObject({
    workers: z.number().int().min(1).max(8).optional(),
    design: z.enum(['outbox', 'dualWriteCommitFirst']),
    keys: z.union([z.boolean(), z.enum(['intentBound'])]).optional(),
    owner: z.string().min(1, 'a topic needs an owning team').optional(),
    tables: z.record(z.string(), z.strictObject({ key: z.array(z.string()).min(1) })).optional(),
  });

  it.each([
    [{ design: 'outbox', workers: 0 }, 'design option workers must be at least 1, got 0'],
    [{ design: 'outbox', workers: 9 }, 'design option workers must be at most 8, got 9'],
    [{}, 'design option design is missing; expected "outbox", "dualWriteCommitFirst"'],
    [{ design: 'outbox', keys: 'intentbound' }, 'design option keys has no value "intentbound" (did you mean intentBound?); expected true, false, "intentBound"'],
    [{ design: 'outbox', owner: '' }, 'design option owner: a topic needs an owning team, got ""'],
    [{ design: 'outbox', tables: { t: { key: [] } } }, 'design option tables.t.key must be at least 1 item, got []'],
    [{ design: 'outbox', tables: { t: { kee: ['id'] } } }, 'design option tables.t.key must be a list, got nothing'],
    [{ design: 'outbox', tables: { t: { key: ['id'], ttl: '1d' } } }, 'design option tables.t has no option ttl; options: key'],
    ['outbox', 'design must be an object, got "outbox"'],
    [{ workers: 0, design: 'outbx', owner: '' }, 'design option workers must be at least 1, got 0; design option design has no value "outbx" (did you mean outbox?); expected "outbox", "dualWriteCommitFirst"; design option owner: a topic needs an owning team, got ""'],
  ])('refuses %j as: %s', (value, message) => {
    expect(() => parseOptions('design', options, value)).toThrow(message);
  });
});

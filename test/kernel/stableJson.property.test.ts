// stableJson is written for speed, and every trace hash goes through it, so it must stay
// byte-equal to its plain definition (the one bench/hashes.ts checks the kernel against): sorted
// own keys, undefined values left out, primitives as JSON.stringify writes them, `null` where that
// writes nothing. And it must not depend on the order keys were written in. The seeds are fixed,
// so a failure prints a seed and path that reproduce it.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stableJson } from '../../src/kernel/trace.ts';

/** The plain definition stableJson must equal. */
function referenceStableJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(referenceStableJson).join(',')}]`;
  const obj = value as Record<string, unknown>;
  const keys = Object.keys(obj)
    .filter((k) => obj[k] !== undefined)
    .sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${referenceStableJson(obj[k])}`).join(',')}}`;
}

/** A class instance: its own fields are its keys, its prototype is not Object.prototype. */
class Point {
  constructor(
    readonly y: unknown,
    readonly x: unknown,
  ) {}
}

// Keys that sort differently as strings and as numbers, unicode, quotes, the empty key.
const key = fc.oneof(fc.string({ maxLength: 4 }), fc.constantFrom('', '10', '9', '2', 'a"b', 'é', 'B', 'b', '__proto__x', 'type'), fc.string({ unit: 'binary', maxLength: 3 }));

const primitive = fc.oneof(
  fc.constant(undefined),
  fc.constant(null),
  fc.boolean(),
  fc.double(),
  fc.constantFrom(-0, NaN, Infinity, -Infinity, 1e21, 5e-324, -1.5e-7),
  fc.integer(),
  fc.string({ unit: 'binary', maxLength: 6 }), // lone surrogates included
  fc.constantFrom(() => 1, Symbol('s')),
);

const { value } = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    primitive,
    fc.array(tie('value'), { maxLength: 4 }),
    fc.sparseArray(tie('value'), { maxLength: 4 }),
    fc.dictionary(key, tie('value'), { maxKeys: 5 }),
    // A plain object whose fields may be undefined (left out, not written as null).
    fc.record({ kind: fc.constantFrom('deliver', 'state'), data: tie('value'), missing: fc.constant(undefined) }, { requiredKeys: ['kind'] }),
    fc.dictionary(key, tie('value'), { maxKeys: 3 }).map((d) => Object.assign(Object.create(null) as object, d)),
    fc.tuple(tie('value'), tie('value')).map(([y, x]) => new Point(y, x)),
  ),
}));

/** The same value with every object's keys written in another order, from a shuffling seed. */
function reinsert(v: unknown, seed: number): unknown {
  if (v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) return v.map((x) => reinsert(x, seed));
  let s = seed >>> 0 || 1;
  const keys = Object.keys(v);
  for (let i = keys.length - 1; i > 0; i--) {
    s = (s * 1103515245 + 12345) >>> 0;
    const j = s % (i + 1);
    [keys[i], keys[j]] = [keys[j]!, keys[i]!];
  }
  const out = Object.create(Object.getPrototypeOf(v) as object | null) as Record<string, unknown>;
  for (const k of keys) out[k] = reinsert((v as Record<string, unknown>)[k], s);
  return out;
}

const RUNS = 1_000;

describe('stableJson, property', () => {
  it('equals the plain definition on any JSON value', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        expect(stableJson(v)).toBe(referenceStableJson(v));
      }),
      { seed: 0x57ab1e, numRuns: RUNS },
    );
  });

  it('equals the plain definition on values with undefined fields, holes, class instances and null prototypes', () => {
    fc.assert(
      fc.property(value, (v) => {
        expect(stableJson(v)).toBe(referenceStableJson(v));
      }),
      { seed: 0x57ab1f, numRuns: RUNS },
    );
  });

  it('does not depend on the order keys were inserted in', () => {
    fc.assert(
      fc.property(value, fc.nat(), (v, seed) => {
        expect(stableJson(reinsert(v, seed))).toBe(stableJson(v));
      }),
      { seed: 0x57ab20, numRuns: RUNS },
    );
  });

  it('is JSON, and parses back to the value JSON.stringify gives, for JSON values', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        expect(JSON.parse(stableJson(v))).toEqual(JSON.parse(JSON.stringify(v)));
      }),
      { seed: 0x57ab21, numRuns: RUNS },
    );
  });
});

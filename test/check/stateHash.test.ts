// The state hash: equal JSON-like values hash equal whatever order their keys were set in and
// whether or not they share objects; values a checker would tell apart hash apart.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hashOf } from '../../src/kernel/stateHash.ts';
import { stableJson } from '../../src/kernel/trace.ts';

describe('hashOf', () => {
  it('hashes equal values equal, and different values (by their stable JSON) apart', () => {
    const seen = new Map<string, string>();
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        const copy = JSON.parse(JSON.stringify(v)) as unknown;
        const h = hashOf(v).join(':');
        expect(hashOf(copy).join(':')).toBe(h);
        const json = stableJson(v);
        const other = seen.get(h);
        if (other !== undefined) expect(other).toBe(json);
        seen.set(h, json);
      }),
      { numRuns: 2000 },
    );
  });

  it('does not depend on the order keys were set in, and leaves out undefined fields', () => {
    expect(hashOf({ a: 1, b: [2, { c: 'x' }] })).toEqual(hashOf({ b: [2, { c: 'x' }], a: 1 }));
    expect(hashOf({ a: 1, gone: undefined })).toEqual(hashOf({ a: 1 }));
    expect(hashOf({ a: 1 })).not.toEqual(hashOf({ a: '1' }));
    expect(hashOf([1, 2])).not.toEqual(hashOf([2, 1]));
    expect(hashOf({ a: [] })).not.toEqual(hashOf({ a: {} }));
    expect(hashOf(null)).not.toEqual(hashOf(false));
  });
});

// The visited set against a plain Set of the same 64-bit keys: the same answers through growth,
// including hashes that share a lane or land in the same slot.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { VisitedSet } from '../../src/check/visitedSet.ts';

describe('VisitedSet', () => {
  it('answers as a Set of the pairs does, through every growth', () => {
    const lane = fc.oneof(fc.constantFrom(0, 1, 0xffffffff, 0x80000000), fc.nat({ max: 0xffffffff }));
    fc.assert(
      fc.property(fc.array(fc.tuple(lane, lane), { maxLength: 400 }), (pairs) => {
        const v = new VisitedSet(4);
        const ref = new Set<string>();
        for (const [hi, lo] of pairs) {
          const key = `${hi >>> 0}:${lo >>> 0}`;
          expect(v.add(hi, lo)).toBe(!ref.has(key));
          ref.add(key);
          expect(v.has(hi, lo)).toBe(true);
        }
        expect(v.size).toBe(ref.size);
      }),
    );
  });

  it('keeps eight bytes and a flag a slot, at most half full', () => {
    const v = new VisitedSet(16);
    for (let i = 0; i < 1000; i++) v.add(i, i * 7);
    expect(v.size).toBe(1000);
    expect(v.bytes).toBe(2048 * 9);
    expect(v.has(1000, 7000)).toBe(false);
  });
});

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

  it('keeps eight bytes a slot, at most three quarters full', () => {
    const v = new VisitedSet(16);
    // From 1: the hash 0:0 would go to its flag, not a slot.
    for (let i = 1; i <= 1536; i++) v.add(i, i * 7);
    expect(v.size).toBe(1536);
    expect(v.bytes).toBe(2048 * 8);
    v.add(1537, 1537 * 7);
    expect(v.bytes).toBe(4096 * 8);
    expect(v.has(5000, 7000)).toBe(false);
  });

  it('keeps the hash that is 0 in both lanes, which marks an empty slot, apart from every other', () => {
    const v = new VisitedSet(4);
    expect(v.has(0, 0)).toBe(false);
    expect(v.add(0, 1)).toBe(true);
    expect(v.has(0, 0)).toBe(false);
    expect(v.add(0, 0)).toBe(true);
    expect(v.add(0, 0)).toBe(false);
    expect(v.has(0, 0)).toBe(true);
    expect(v.size).toBe(2);
    for (let i = 1; i < 100; i++) v.add(i, 0);
    expect(v.has(0, 0)).toBe(true);
    expect(v.size).toBe(101);
  });
});

// The visited set against a plain Set of the same 64-bit keys, and with values against a Map: the
// same answers through growth, including hashes that share a lane or land in the same slot.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { VisitedSet } from '../../src/modes/check/visitedSet.ts';

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

  it("with values, keeps each hash's two values as a Map of the pairs does, through every growth and the widening", () => {
    const lane = fc.oneof(fc.constantFrom(0, 1, 0xffffffff, 0x80000000), fc.nat({ max: 0xffffffff }));
    const int = fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 });
    fc.assert(
      fc.property(fc.array(fc.tuple(lane, lane, int, int), { maxLength: 400 }), fc.nat({ max: 400 }), (ops, widenAt) => {
        const v = new VisitedSet(4, true);
        const ref = new Map<string, [number, number]>();
        ops.forEach(([hi, lo, a, b], n) => {
          if (n === widenAt) v.widen();
          const key = `${hi >>> 0}:${lo >>> 0}`;
          const put = v.put(hi, lo);
          // New where the Map has no such pair, and then its values start at 0.
          expect(put < 0).toBe(!ref.has(key));
          const slot = put < 0 ? ~put : put;
          expect([v.value(slot), v.value2(slot)]).toEqual(ref.get(key) ?? [0, 0]);
          v.setValue(slot, a);
          if (v.wide) v.setValue2(slot, b);
          ref.set(key, [a, v.wide ? b : 0]);
          expect(v.slot(hi, lo)).toBe(slot);
        });
        expect(v.size).toBe(ref.size);
        for (const [key, values] of ref) {
          const [hi, lo] = key.split(':').map(Number);
          const slot = v.slot(hi!, lo!);
          expect([v.value(slot), v.value2(slot)]).toEqual(values);
        }
      }),
    );
  });

  it('takes twelve bytes a slot with values and sixteen widened; without, keeps none and refuses to set one', () => {
    const v = new VisitedSet(16, true);
    for (let i = 1; i <= 12; i++) v.add(i, i);
    // One place past the slots for the hash that is 0 in both lanes.
    expect(v.bytes).toBe(16 * 8 + 17 * 4);
    // At the load limit, asking for a hash that is there neither grows the table nor moves it.
    const slot = v.slot(5, 5);
    expect(v.put(5, 5)).toBe(slot);
    expect(v.bytes).toBe(16 * 8 + 17 * 4);
    expect(v.slot(5, 5)).toBe(slot);
    expect(() => v.setValue2(v.slot(1, 1), 1)).toThrow(/widened/);
    v.widen();
    expect(v.bytes).toBe(16 * 8 + 17 * 8);
    expect(v.slot(99, 99)).toBe(-1);
    const plain = new VisitedSet(16);
    plain.add(1, 1);
    expect(() => plain.setValue(plain.slot(1, 1), 5)).toThrow(/without values/);
    expect(() => plain.widen()).toThrow(/without values/);
  });

  it('empties on clear and keeps its memory: nothing is there, values are 0 again, the second value is gone', () => {
    const v = new VisitedSet(4, true);
    for (let i = 1; i <= 40; i++) v.setValue(~v.put(i, i * 7), i);
    v.add(0, 0);
    const grown = v.bytes;
    expect(grown).toBeGreaterThan(4 * 8 + 5 * 4);
    v.widen();
    v.setValue2(v.slot(3, 21), 9);
    v.clear();
    expect(v.size).toBe(0);
    expect(v.wide).toBe(false);
    for (let i = 1; i <= 40; i++) expect(v.has(i, i * 7)).toBe(false);
    expect(v.has(0, 0)).toBe(false);
    // The slots it grew to stay; the second value's do not.
    expect(v.bytes).toBe(grown);
    const slot = ~v.put(3, 21);
    expect(v.value(slot)).toBe(0);
    expect(v.add(0, 0)).toBe(true);
    expect(v.size).toBe(2);
  });
});

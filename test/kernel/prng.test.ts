import { describe, expect, it } from 'vitest';
import { Prng } from '../../src/base/prng.ts';

const draws = (p: Prng, n: number) => Array.from({ length: n }, () => p.int(1_000_000));

describe('Prng', () => {
  it('gives the same stream for the same seed and a different one for another seed', () => {
    expect(draws(new Prng(42), 20)).toEqual(draws(new Prng(42), 20));
    expect(draws(new Prng(42), 20)).not.toEqual(draws(new Prng(43), 20));
  });

  it('forks streams that are independent of how much the parent or a sibling drew', () => {
    const a = new Prng(7);
    const b = new Prng(7);
    draws(a, 500); // the parent draws a lot before forking
    draws(a.fork('relay'), 300); // and a sibling stream draws a lot
    expect(draws(a.fork('consumer'), 20)).toEqual(draws(b.fork('consumer'), 20));
    expect(draws(a.fork('consumer'), 20)).not.toEqual(draws(a.fork('relay'), 20));
  });

  it('keeps integer draws inside their bounds and covers them', () => {
    const p = new Prng('bounds');
    const seen = new Set<number>();
    for (let i = 0; i < 2_000; i++) {
      const v = p.between(3, 7);
      expect(v).toBeGreaterThanOrEqual(3);
      expect(v).toBeLessThanOrEqual(7);
      seen.add(v);
    }
    expect([...seen].sort()).toEqual([3, 4, 5, 6, 7]);
  });

  it('treats chance 0 and 1 as never and always, and a ratio as roughly that often', () => {
    const p = new Prng(1);
    expect(Array.from({ length: 100 }, () => p.chance(0)).some(Boolean)).toBe(false);
    expect(Array.from({ length: 100 }, () => p.chance(1)).every(Boolean)).toBe(true);
    const hits = Array.from({ length: 10_000 }, () => p.chance(0.3)).filter(Boolean).length;
    expect(hits).toBeGreaterThan(2_800);
    expect(hits).toBeLessThan(3_200);
  });

  it('picks every element of a list and refuses an empty one', () => {
    const p = new Prng(5);
    const seen = new Set(Array.from({ length: 200 }, () => p.pick(['a', 'b', 'c'])));
    expect([...seen].sort()).toEqual(['a', 'b', 'c']);
    expect(() => p.pick([])).toThrow(RangeError);
    expect(() => p.int(0)).toThrow(RangeError);
  });
});

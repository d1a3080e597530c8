import { describe, expect, it } from 'vitest';
import { Schedule } from '../../src/kernel/schedule.ts';
import { Prng } from '../../src/base/prng.ts';

describe('Schedule', () => {
  it('releases items by tick, and by scheduling order within a tick', () => {
    const s = new Schedule<string>();
    s.push(5, 'e');
    s.push(1, 'a');
    s.push(3, 'c1');
    s.push(3, 'c2');
    s.push(1, 'b');
    const out: string[] = [];
    for (let e = s.pop(); e; e = s.pop()) out.push(e.item);
    expect(out).toEqual(['a', 'b', 'c1', 'c2', 'e']);
  });

  it('matches a sort by (tick, seq) for a large random workload', () => {
    const p = new Prng('heap');
    const s = new Schedule<number>();
    const expected: { tick: number; seq: number }[] = [];
    for (let i = 0; i < 5_000; i++) {
      const tick = p.int(300);
      const seq = s.push(tick, i);
      expected.push({ tick, seq });
    }
    expected.sort((a, b) => a.tick - b.tick || a.seq - b.seq);
    const got: { tick: number; seq: number }[] = [];
    for (let e = s.pop(); e; e = s.pop()) got.push({ tick: e.tick, seq: e.seq });
    expect(got).toEqual(expected);
  });

  it('ignores the cancel of an item already taken, so its size stays right', () => {
    const s = new Schedule<string>();
    const a = s.push(1, 'a');
    s.push(2, 'b');
    expect(s.pop()?.item).toBe('a');
    s.cancel(a);
    expect(s.size).toBe(1);
    expect(s.pop()?.item).toBe('b');
  });

  it('skips cancelled items and removes items by predicate', () => {
    const s = new Schedule<string>();
    const a = s.push(1, 'a');
    s.push(2, 'b');
    s.push(3, 'timer:x');
    s.cancel(a);
    s.removeWhere((item) => item.startsWith('timer:'));
    expect(s.size).toBe(1);
    expect(s.pop()?.item).toBe('b');
    expect(s.pop()).toBeUndefined();
  });
});

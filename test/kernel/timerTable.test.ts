// The World's table of a component's pending timers behaves as the Map it replaced: an id set
// again keeps its place, a deletion keeps the others in order, and slots freed are taken again.
import { describe, expect, it } from 'vitest';
import { TimerTable, type PendingTimer } from '../../src/timerTable.ts';

const t = (seq: number, delay = 10): PendingTimer => ({ seq, delay, set: seq });

/** The table and a Map given the same operations, read back the same way. */
function both() {
  const table = new TimerTable();
  const map = new Map<string, PendingTimer>();
  return {
    set: (id: string, timer: PendingTimer) => (table.set(id, timer), map.set(id, timer)),
    delete: (id: string) => expect(table.delete(id)).toBe(map.delete(id)),
    clear: () => (table.clear(), map.clear()),
    check: () => {
      expect(table.entries()).toEqual([...map]);
      expect(table.size).toBe(map.size);
      expect(Array.from({ length: table.size }, (_, i) => table.at(i))).toEqual([...map.values()]);
      for (const id of ['a', 'b', 'c', 'd', '#7']) expect(table.get(id)).toBe(map.get(id));
    },
  };
}

describe('TimerTable', () => {
  it('keeps a timer set again under its id in its first place, as a Map does', () => {
    const m = both();
    m.set('a', t(1));
    m.set('b', t(2));
    m.set('a', t(3, 40));
    m.check();
    expect(new TimerTable().get('a')).toBeUndefined();
  });

  it('deletes from the front, the middle and the end keeping the rest in order, and answers whether it deleted', () => {
    const m = both();
    for (const [i, id] of ['a', 'b', 'c', 'd'].entries()) m.set(id, t(i));
    m.delete('b');
    m.check();
    m.delete('a');
    m.delete('d');
    m.delete('x');
    m.check();
    m.delete('c');
    m.check();
  });

  it('takes freed slots again after deletions and a clear', () => {
    const m = both();
    for (let round = 0; round < 3; round++) {
      m.set('a', t(round * 10));
      m.set('#7', t(round * 10 + 1));
      m.set('b', t(round * 10 + 2));
      m.delete('#7');
      m.set('c', t(round * 10 + 3));
      m.check();
      if (round === 1) m.clear();
      else {
        m.delete('a');
        m.delete('b');
        m.delete('c');
      }
      m.check();
    }
  });
});

import { describe, expect, it } from 'vitest';
import { Trace, stableJson } from '../../src/trace.ts';

describe('Trace', () => {
  it('hashes the same events identically whatever order object keys were written in', () => {
    const a = new Trace();
    const b = new Trace();
    a.add(1, 'relay', 'note', { x: 1, y: [1, { b: 2, a: 1 }] });
    b.add(1, 'relay', 'note', { y: [1, { a: 1, b: 2 }], x: 1 });
    expect(a.hash()).toBe(b.hash());
    expect(stableJson({ b: 1, a: undefined, c: null })).toBe('{"b":1,"c":null}');
  });

  it('changes the hash when any event differs, and seals after hashing', () => {
    const a = new Trace();
    const b = new Trace(false);
    a.add(1, 'relay', 'state', 'polling');
    b.add(2, 'relay', 'state', 'polling');
    expect(a.hash()).not.toBe(b.hash());
    expect(b.events).toHaveLength(0); // a hash-only trace keeps no events
    expect(() => a.add(3, 'relay', 'state', 'idle')).toThrow(/sealed/);
  });
});

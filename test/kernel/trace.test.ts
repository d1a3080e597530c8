import { describe, expect, it } from 'vitest';
import { Trace, stableJson } from '../../src/kernel/trace.ts';

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

describe('stableJson', () => {
  // The plain definition it must equal: sorted own keys, undefined values left out.
  const plain = (v: unknown): string => {
    if (v === null || typeof v !== 'object') return JSON.stringify(v) ?? 'null';
    if (Array.isArray(v)) return `[${v.map(plain).join(',')}]`;
    const o = v as Record<string, unknown>;
    return `{${Object.keys(o)
      .filter((k) => o[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${plain(o[k])}`)
      .join(',')}}`;
  };

  it('equals the plain definition on awkward values', () => {
    const values: unknown[] = [
      null, true, false, 0, -0, 1.5, -7, NaN, Infinity, -Infinity, '', 'a"b\\c', 'ünïcødé \u2028',
      [], [1, 'x', null, undefined, [2, [3]]], {}, { b: 1, a: 2 }, { z: { y: { x: [1, { b: 2, a: 1 }] } } },
      { a: undefined, b: null }, { '': 1, ' ': 2, '10': 3, '9': 4 }, [{ k: [] }, {}],
    ];
    for (const v of values) expect(stableJson(v)).toBe(plain(v));
  });

  it('writes a big integer, which JSON refuses, as its digits and an n, so a state holding one is hashed and shown', () => {
    expect(stableJson({ amount: 12345678901234567890n, n: [1n] })).toBe('{"amount":"12345678901234567890n","n":["1n"]}');
  });
});

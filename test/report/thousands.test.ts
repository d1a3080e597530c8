// The grouped count agrees, character for character, with the locale formatting it replaces.
import { describe, expect, it } from 'vitest';
import { thousands } from '../../src/report/thousands.ts';

describe('thousands', () => {
  it('groups whole numbers exactly as toLocaleString en-US does', () => {
    const values = [0, 1, 9, 10, 99, 100, 999, 1000, 1001, 12_345, 99_999, 100_000, 999_999, 1_000_000, 73_026, 10_000_000, 123_456_789, Number.MAX_SAFE_INTEGER];
    for (const v of [...values, ...values.map((x) => -x)]) expect(thousands(v), String(v)).toBe(v.toLocaleString('en-US'));
    for (let v = 0; v < 20_000; v += 7) expect(thousands(v)).toBe(v.toLocaleString('en-US'));
  });

  it('writes a fraction or an unsafe integer as the locale does', () => {
    for (const v of [0.5, 1234.5678, -1234.5, 2 ** 60]) expect(thousands(v)).toBe(v.toLocaleString('en-US'));
  });

  it('puts the commas where a reader expects them', () => {
    expect(thousands(73_026)).toBe('73,026');
    expect(thousands(860_529)).toBe('860,529');
    expect(thousands(-1_000)).toBe('-1,000');
  });
});

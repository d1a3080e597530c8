// A choice path survives the round trip through its text, stays short for the long runs of the
// first choice that counterexamples are made of, and bad text is one clear error.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeChoices, encodeChoices } from '../../src/modes/check/choicePath.ts';
import { InputError } from '../../src/base/inputError.ts';

describe('choice paths', () => {
  it('decode what they encode', () => {
    fc.assert(fc.property(fc.array(fc.nat({ max: 40 }), { maxLength: 300 }), (path) => {
        expect(decodeChoices(encodeChoices(path))).toEqual(path);
      }),
    );
  });

  it('write a run of one index once, with its count', () => {
    expect(encodeChoices([0, 0, 0, 2, 1, 1])).toBe('3x0.2.2x1');
    expect(encodeChoices([])).toBe('');
    expect(decodeChoices('12x0.3')).toEqual([...Array(12).fill(0), 3]);
    expect(encodeChoices(Array(290).fill(0).concat([4], Array(10).fill(0))).length).toBeLessThan(16);
  });

  it.each(['1..2', '1.a', 'x3', '3x', '0x1', '-1', '1,2', '1.2.'])('refuses %j with one line', (text) => {
    expect(() => decodeChoices(text)).toThrow(InputError);
    try {
      decodeChoices(text);
    } catch (error) {
      expect((error as Error).message).not.toContain('\n');
    }
  });
});

// "Did you mean": every refusal of a name offers the nearest valid one, by edit distance, and
// offers nothing when no name is close, so the hint is never a wild guess.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { didYouMean, editDistance, nearest } from '../../src/base/nearest.ts';

describe('editDistance', () => {
  it('counts insertions, deletions and substitutions', () => {
    expect(editDistance('', '')).toBe(0);
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('abc', '')).toBe(3);
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('lost efect', 'lost effect')).toBe(1);
    expect(editDistance('wnidows', 'windows')).toBe(2); // a transposition is two edits
  });

  it('is a metric: zero only for equal strings, symmetric, and obeys the triangle inequality', () => {
    const word = fc.string({ maxLength: 8 });
    fc.assert(
      fc.property(word, word, word, (a, b, c) => {
        expect(editDistance(a, b) === 0).toBe(a === b);
        expect(editDistance(a, b)).toBe(editDistance(b, a));
        expect(editDistance(a, c)).toBeLessThanOrEqual(editDistance(a, b) + editDistance(b, c));
        expect(editDistance(a, b)).toBeGreaterThanOrEqual(Math.abs(a.length - b.length));
        expect(editDistance(a, b)).toBeLessThanOrEqual(Math.max(a.length, b.length));
      }),
      { seed: 31, numRuns: 300 },
    );
  });
});

describe('nearest and didYouMean', () => {
  const kinds = ['crash', 'lose', 'duplicate', 'delay', 'reorder'];

  it('name the closest candidate, ignoring case, the first of equals', () => {
    expect(nearest('lsoe', kinds)).toBe('lose');
    expect(nearest('DELAY', kinds)).toBe('delay');
    expect(nearest('dela', ['delay', 'dual'])).toBe('delay');
    expect(nearest('ab', ['ax', 'bb'])).toBe('ax');
  });

  it('offer nothing when no candidate is close enough to be a typo', () => {
    expect(nearest('melt', kinds)).toBeUndefined();
    expect(nearest('x', [])).toBeUndefined();
    // Two edits are always close; a long name tolerates a third of its length.
    expect(nearest('abcd', ['abxy'])).toBe('abxy');
    expect(nearest('abcd', ['axyz'])).toBeUndefined();
    expect(nearest('relay.afterBrokerAcept', ['relay.afterBrokerAccept'])).toBe('relay.afterBrokerAccept');
    expect(nearest('relay.beforeBrokerSend', ['relay.afterBrokerAccept'])).toBeUndefined();
  });

  it('word the hint for a refusal line', () => {
    expect(didYouMean('lsoe', kinds)).toBe(' (did you mean lose?)');
    expect(didYouMean('melt', kinds)).toBe('');
  });
});

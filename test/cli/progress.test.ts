// The progress line: drawn only where asked, at most ten times a second, with its rate and an
// estimate of what is left (or, for a search with a bound, the most time to that bound), and
// erased only if it was drawn.
import { describe, expect, it } from 'vitest';
import { bufferIo } from '../../src/cli/io.ts';
import { durationText, Progress } from '../../src/cli/progress.ts';

/** An io whose clock reads the times given, in order. */
function clocked(times: readonly number[]) {
  let i = 0;
  return bufferIo(true, { now: () => times[Math.min(i++, times.length - 1)]! });
}

describe('Progress', () => {
  it('draws the count, the rate and the time left, no more than ten times a second', () => {
    const io = clocked([0, 1000, 1050, 2000]);
    const p = new Progress(io, 'run', true);
    p.begin('[1/2] orders', 100);
    p.update(10);
    p.update(11);
    p.update(20);
    expect(io.stderr).toBe('\r[1/2] orders: run 10 of 100 · 10 runs/s · about 9 s left\u001b[K\r[1/2] orders: run 20 of 100 · 10 runs/s · about 8 s left\u001b[K');
    p.clear();
    expect(io.stderr.endsWith('\r\u001b[K')).toBe(true);
  });

  it('words a bound as the most time left to it, and a count with no total as a count and a rate', () => {
    const io = clocked([0, 2000, 2000, 4000]);
    const p = new Progress(io, 'state', true);
    p.begin('flow', 1_000_000, true);
    p.update(20_000);
    p.begin('all', undefined);
    p.update(300);
    expect(io.stderr).toBe('\rflow: state 20,000 · 10,000 states/s · at most 1 m 38 s to its bound of 1,000,000\u001b[K\rall: state 300 · 150 states/s\u001b[K');
  });

  it('draws nothing, reads no clock and erases nothing when not enabled', () => {
    const io = bufferIo(false, { now: () => Number.NaN });
    const p = new Progress(io, 'run', false);
    p.begin('x', 10);
    p.update(5);
    p.clear();
    expect(io.stderr).toBe('');
  });

  it('words durations as a reader estimates them', () => {
    expect([0.4, 12, 60, 245, 3600, 4320].map(durationText)).toEqual(['0 s', '12 s', '1 m 00 s', '4 m 05 s', '1 h 00 m', '1 h 12 m']);
  });
});

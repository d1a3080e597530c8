// A sweep's pair tally is merged from its parts (threads, shards). A part of a scenario swept at
// every occurrence can hold hundreds of thousands of pair runs for one clause; merging them must
// keep every run, in order, and not fail on their number.
import { describe, expect, it } from 'vitest';
import { PairTally, type PairTallyState } from '../../src/modes/pairTally.ts';
import type { Fault } from '../../src/faults/faults.ts';

const crash = (window: string): Fault => ({ kind: 'crash', window, occurrence: 1 });

describe('PairTally.merge', () => {
  it('keeps every run of a part, in order, however many', () => {
    const runs = Array.from({ length: 300_000 }, (_, index) => ({ index, first: crash('relay.a'), second: crash('relay.b') }));
    const part: PairTallyState = { broke: runs.length, breaks: [{ effect: 'reservation', clause: 'atMostOne', runs }], alone: [] };
    const tally = new PairTally();
    tally.merge(part);
    tally.merge({ broke: 1, breaks: [{ effect: 'reservation', clause: 'atMostOne', runs: [{ index: 300_000, first: crash('relay.a'), second: crash('relay.c') }] }], alone: [] });
    const merged = tally.state().breaks[0]!.runs;
    expect(merged).toHaveLength(300_001);
    expect(merged.slice(-2).map((r) => r.index)).toEqual([299_999, 300_000]);
    expect(tally.state().broke).toBe(300_001);
  });
});

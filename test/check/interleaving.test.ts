// A bug that needs one interleaving of two concurrent processes: two claimers that both read
// "absent" before either inserts (test/check/fixtures/twoClaimers.ts). The test pins down which
// mode finds it and where the default timing of check stops seeing it, since an architect reads
// "holds" from check as "no order of these steps breaks it".
import { describe, expect, it } from 'vitest';
import { check, runChoices, checkSetup } from '../../src/modes/check/check.ts';
import { decodeChoices } from '../../src/modes/check/choicePath.ts';
import { runWindows } from '../../src/modes/windows.ts';
import { explore } from '../../src/modes/explore.ts';
import { twoClaimers } from './fixtures/twoClaimers.ts';

describe('a race between two check-then-insert claimers', () => {
  it('is found by check with no fault when both start at once, and its path replays the duplicate', () => {
    const s = twoClaimers(0);
    const r = check(s, { faults: 0 });
    expect(r.judgement.verdict).toBe('violated');
    expect(r.judgement.found).toEqual(['duplicate effect']);
    expect(r.check.faults).toBe(0);
    const ce = r.counterexamples[0]!;
    expect(ce.replay.kind).toBe('choices');
    if (ce.replay.kind !== 'choices') return;
    const again = runChoices(s, checkSetup(s, { faults: 0 }), decodeChoices(ce.replay.choices));
    expect(again.traceHash).toBe(ce.traceHash);
  });

  it('one that started a tick later escapes the default timing, where a message lands before the clock moves, and --world-latency finds it', () => {
    const s = twoClaimers(3);
    // With zero latency the first claimer's read and insert both land at the tick it starts,
    // before the second one wakes: no order of the remaining steps duplicates the claim. The
    // report says so in its coverage line ("messages land before the clock moves").
    const instant = check(s, { faults: 0 });
    expect(instant.judgement.verdict).toBe('holds');
    const spread = check(s, { faults: 0, worldLatency: true });
    expect(spread.judgement.verdict).toBe('violated');
    expect(spread.judgement.found).toEqual(['duplicate effect']);
  });

  it.each([0, 3, 6])('stagger %i: windows finds it under the seed-1 schedule, and explore within 200 runs', (stagger) => {
    const s = twoClaimers(stagger);
    expect(runWindows(s, {}).judgement.found).toContain('duplicate effect');
    const e = explore(s, { runs: 200, maxFaults: 0 });
    expect(e.judgement.verdict).toBe('violated');
    expect(e.runs).toBeLessThan(200);
  });
});

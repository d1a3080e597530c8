// A `--pairs` sweep says which pairs of faults broke which clause: what no single fault breaks
// alone, by the fault that struck first, with a count and the line that replays the first such
// pair; and which single faults break a clause alone, so every pair they are part of does too.
// The tally merges across parts into what one sweep makes.
import { beforeAll, describe, expect, it } from 'vitest';
import redelivery from '../../scenarios/dedup-horizon-covers-redelivery.ts';
import type { ClaimVerdict } from '../../src/checkers/compose.ts';
import type { Fault } from '../../src/faults/faults.ts';
import { PairTally } from '../../src/modes/pairTally.ts';
import { renderJson } from '../../src/report/json.ts';
import { renderMarkdownFile } from '../../src/report/markdown.ts';
import { knownLines, pairRows, pairsLead } from '../../src/report/pairsSummary.ts';
import { replay } from '../../src/modes/replay.ts';
import { runWindows, type WindowsResult } from '../../src/modes/windows.ts';

const crash = (window: string): Fault => ({ kind: 'crash', window, occurrence: 1 });
const broke = (clause: 'atMostOne' | 'liveness'): ClaimVerdict[] => [{ effect: 'e', outcome: 'duplicate effect', findings: [], clauses: [{ clause, status: 'violated', findings: [] }] } as unknown as ClaimVerdict];

describe('PairTally', () => {
  it('counts a pair against the fault that breaks the clause alone, and only the rest as found by pairs', () => {
    const t = new PairTally();
    t.addSingle(crash('a.x'), broke('atMostOne'));
    t.addPair(10, crash('a.x'), crash('b.y'), broke('atMostOne'));
    t.addPair(11, crash('c.z'), crash('a.x'), broke('atMostOne'));
    t.addPair(12, crash('b.y'), crash('c.z'), broke('atMostOne'));
    t.addPair(13, crash('b.y'), crash('d.w'), broke('atMostOne'));
    const { fresh, known } = t.result();
    expect(known).toEqual([{ fault: crash('a.x'), effect: 'e', clause: 'atMostOne', count: 2 }]);
    expect(fresh).toEqual([{ first: crash('b.y'), effect: 'e', clause: 'atMostOne', count: 2, index: 12, second: crash('c.z') }]);
    expect(t.brokeRuns).toBe(4);
  });

  it('merges parts in plan order into the tally of one sweep, the single that breaks alone in another part included', () => {
    const whole = new PairTally();
    const a = new PairTally();
    const b = new PairTally();
    whole.addSingle(crash('a.x'), broke('liveness'));
    a.addSingle(crash('a.x'), broke('liveness'));
    for (const [t, i] of [[whole, 5], [b, 5]] as const) t.addPair(i, crash('b.y'), crash('a.x'), broke('liveness'));
    for (const [t, i] of [[whole, 6], [b, 6]] as const) t.addPair(i, crash('b.y'), crash('c.z'), broke('liveness'));
    const merged = new PairTally();
    merged.merge(a.state());
    merged.merge(b.state());
    expect(merged.result()).toEqual(whole.result());
    expect(merged.result().known[0]!.fault).toEqual(crash('a.x'));
  });
});

describe('a --pairs sweep of a design that breaks only under two faults', () => {
  let r: WindowsResult;
  beforeAll(() => {
    r = runWindows(redelivery, { pairs: true });
  }, 60_000);

  it('names the first fault, the clause, the count and a replay line that reproduces the break', () => {
    expect(pairsLead(r)).toMatch(/^\d+ pairs of [\d,]+ pairs broke a clause; \d+ breaks? of a clause came from pairs neither of whose faults breaks it alone\.$/);
    const rows = pairRows(r);
    expect(rows.length).toBeGreaterThan(0);
    expect(knownLines(r)).toEqual([]);
    const first = rows[0]!;
    expect(first.clause).toBe('at most one committed outcome per key');
    const fresh = r.pairs!.fresh[0]!;
    expect(fresh.replay.kind).toBe('plan');
    const again = replay(redelivery, { kind: 'plan', seed: 1, plan: fresh.replay.kind === 'plan' ? fresh.replay.plan : [] });
    expect(again.findings.some((f) => f.violation === 'duplicate effect')).toBe(true);
    const md = renderMarkdownFile(r);
    expect(md).toContain('## Fault pairs that broke a clause');
    expect(md).toContain(first.replay.replace(/\|/g, '\\|'));
    const doc = JSON.parse(renderJson([r])) as { scenarios: { pairs: { pairs: number; fresh: { pairs: number; replay: string }[] } }[] };
    expect(doc.scenarios[0]!.pairs.fresh[0]!.replay).toBe(first.replay);
  });
});

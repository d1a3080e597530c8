// Windows mode strikes every occurrence of every place the runs reach, so a flaw that shows only
// at a late occurrence is found by default; a bound that leaves occurrences unstruck makes the
// verdict "holds within bound", never "holds". Explore draws its faults' occurrences from every
// one the fault-free run reached. The design (test/fixtures/fullDedupTable.ts) breaks only when its
// sender crashes after its seventh send, past a dedup table of six entries.
import { describe, expect, it } from 'vitest';
import { describeCoverage } from '../../src/report/describeCoverage.ts';
import { evidenceText } from '../../src/report/windowCells.ts';
import { runScenario } from '../../src/run/runScenario.ts';
import { runWindows } from '../../src/modes/windows.ts';
import fc from 'fast-check';
import { caseArbitrary, explorationSpace, explore } from '../../src/modes/explore.ts';
import outbox from '../../scenarios/mercury-outbox.ts';
import { fullDedupTable, fullDedupTableScenario } from '../fixtures/fullDedupTable.ts';

const crashRow = (r: ReturnType<typeof runWindows>) => r.rows.find((row) => row.fault === 'crash' && row.place.kind === 'window' && row.place.component === 'sender' && row.place.state === 'awaitingAck')!;

describe('windows mode, every occurrence by default', () => {
  it('finds the duplicate a crash after the seventh send makes, with the plan that replays it', () => {
    const r = runWindows(fullDedupTableScenario);
    expect(r.judgement.verdict).toBe('violated');
    const row = crashRow(r);
    expect(row.outcome).toBe('duplicate effect');
    expect(row.runs).toBe(8);
    expect(row.plan).toEqual([{ kind: 'crash', window: 'sender.awaitingAck', occurrence: 7 }]);
    // Occurrences one to six are deduplicated; seven and eight are not.
    expect(row.outcomes).toEqual({ holds: 6, 'duplicate effect': 2 });
    expect(r.coverage.occurrences).toMatchObject({ beyond: 0 });
    expect(r.coverage.maxOccurrence).toBeUndefined();
    // Neither hand-drawn machine describes itself: their durable state is shown as it is, never "nothing durable yet".
    expect(evidenceText(row.evidence)).toMatch(/^sender \{durable: \{"acked":\d+\}\} · receiver \{durable: \{"applied":\[[\d,]*\],"seen":\[[\d,]*\]\}\}/);
  });

  it('holds only within its bound when a bound leaves later occurrences unstruck, and says how many', () => {
    for (const r of [runWindows(fullDedupTableScenario, { maxOccurrence: 2 }), runWindows({ ...fullDedupTableScenario, windows: { maxOccurrence: 2 } })]) {
      expect(r.judgement.verdict).toBe('holds within bound');
      // Holding within a bound is still holding: the expectation is met, and the words say where.
      expect(r.judgement.asExpected).toBe(true);
      expect(crashRow(r).runs).toBe(2);
      expect(r.coverage.occurrences!.beyond).toBeGreaterThan(0);
      expect(describeCoverage(r.judgement.verdict, r.coverage)).toMatch(/first 2 occurrences of each: [\d,]+ of the [\d,]+ the runs reached, up to \d+ at one place; [\d,]+ left unstruck/);
    }
  });

  it('holds without a bound word when the bound leaves nothing out, or there is none', () => {
    const roomy = { ...fullDedupTableScenario, build: () => fullDedupTable(100) };
    expect(runWindows(roomy).judgement.verdict).toBe('holds');
    const bounded = runWindows(roomy, { maxOccurrence: 50 });
    expect(bounded.judgement.verdict).toBe('holds');
    expect(bounded.coverage.occurrences!.beyond).toBe(0);
  });

  it('counts a window entered again by a way out and back as one more occurrence, under both drivers', () => {
    for (const driver of ['compiled', 'xstate'] as const) {
      const run = runScenario(fullDedupTableScenario, { seed: 1, plan: [], driver });
      // One entry per order: after each ack the sender passes through `choosing` and comes back.
      expect(run.report.windowCounts.get('sender.awaitingAck'), driver).toBe(8);
    }
  });

  it('pairs a first fault with the occurrences its own run reaches, past what the fault-free run reached', () => {
    const r = runWindows({ ...fullDedupTableScenario, build: () => fullDedupTable(100) }, { pairs: true, maxOccurrence: 3 });
    expect(r.coverage.faultDepth).toBe(2);
    expect(r.judgement.verdict).toBe('holds within bound');
    expect(r.coverage.occurrences!.beyond).toBeGreaterThan(0);
  });
});

describe('explore, past the first occurrences', () => {
  it('explore finds the duplicate by default, draws from every occurrence the fault-free run reached, and says so; bounded to the first three it holds within bound', () => {
    const found = explore(fullDedupTableScenario, { runs: 300, seed: 1 });
    expect(found.judgement.verdict).toBe('violated');
    expect(found.search.status === 'failed' && found.search.counterexample.plan.some((f) => f.kind === 'crash' && f.occurrence >= 7)).toBe(true);
    const bounded = explore(fullDedupTableScenario, { runs: 300, seed: 1, maxOccurrence: 3 });
    expect(bounded.judgement.verdict).toBe('holds within bound');
    expect(describeCoverage(bounded.judgement.verdict, bounded.coverage)).toMatch(/first 3 occurrences of each/);
    const roomy = explore({ ...fullDedupTableScenario, build: () => fullDedupTable(100) }, { runs: 50, seed: 1 });
    expect(describeCoverage(roomy.judgement.verdict, roomy.coverage)).toMatch(/occurrences drawn from the \d+ the fault-free run reached, up to 8 at one place/);
  });

  it('draws no occurrence past the third that the fault-free run did not reach at its place', () => {
    // (A place it never reached keeps the first three: a fault before may bring it round.)
    // mercury-outbox: one point is reached 18 times, most places a few: a draw over 1..18 is moved within each place's reach.
    const space = explorationSpace(outbox);
    expect(space.reached.most).toBeGreaterThan(3);
    const faults = fc.sample(caseArbitrary(outbox, {}, space), { seed: 1, numRuns: 500 }).flatMap((c) => c.plan);
    const place = (f: (typeof faults)[number]) => ('window' in f ? f.window : 'point' in f ? f.point : '');
    const beyond = faults.filter((f) => f.occurrence > Math.max(3, space.counts.get(place(f)) ?? Infinity));
    expect(beyond).toEqual([]);
    // And later ones are drawn, where a place was reached more than three times.
    expect(faults.some((f) => f.occurrence > 3)).toBe(true);
  });
});

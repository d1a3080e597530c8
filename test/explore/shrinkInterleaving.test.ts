// Explore searches message latencies as data, so a failure that only an interleaving causes is
// found and shrunk like a fault plan: the counterexample keeps the late messages the failure needs
// and nothing else, and fast-check's seed and path replay it, schedule and trace hash included.
// The design is test/explore/checkThenInsert.ts: two claimers that read, then insert, with no
// unique constraint, the second starting a few ticks after the first.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { caseArbitrary, explore, SCHEDULE_LENGTH_MAX, type ExploreCounterexample } from '../../src/modes/explore.ts';
import { replay } from '../../src/modes/replay.ts';
import { runScenario } from '../../src/run/runScenario.ts';
import checkThenInsert from './checkThenInsert.ts';
import { presentExplore } from '../../src/cli/exploreCommand.ts';
import { findingKey } from '../../src/checkers/finding.ts';

const SEEDS = [1, 2, 3, 4, 5];
// No faults: the only thing the search can vary is the schedule.
const OPTIONS = { runs: 300, maxFaults: 0 } as const;

function counterexample(seed: number): { ce: ExploreCounterexample; path: string } {
  const r = explore(checkThenInsert, { seed, ...OPTIONS });
  if (r.search.status !== 'failed') throw new Error(`explore found nothing at seed ${seed}`);
  return { ce: r.search.counterexample, path: r.search.path };
}

const outcomeWith = (latencies: readonly number[]) => runScenario(checkThenInsert, { seed: 0, plan: [], latencies }).outcome;

describe('explore on a failure only an interleaving causes', () => {
  it('holds when every message takes the least latency: the duplicate needs a late message', () => {
    expect(outcomeWith([])).toBe('holds');
  });

  it.each(SEEDS)('finds the duplicate with no fault and shrinks the schedule to one late message (fast-check seed %i)', (seed) => {
    const { ce } = counterexample(seed);
    expect(ce).toMatchObject({ outcome: 'duplicate effect', plan: [], size: 1, seed: 0 });
    const late = ce.latencies.flatMap((extra, i) => (extra > 0 ? [i] : []));
    expect(late).toHaveLength(1);
    // The schedule ends at its late message: nothing after it is named.
    expect(ce.latencies.length).toBe(late[0]! + 1);
    // The late message is one the violation depends on: it was delivered no later than the second
    // claimer's read, which is what made that read miss the first claim.
    const deliveries = ce.trace.filter((e) => e.kind === 'deliver');
    const secondRead = deliveries.findIndex((e) => e.component === 'db' && (e.data as { from: string }).from === 'late');
    expect(secondRead).toBeGreaterThanOrEqual(0);
    expect(ce.latencies.length).toBeLessThanOrEqual(secondRead + 1);
    // And it is late by no more than it needs: one tick less and the run holds.
    const lessLate = ce.latencies.map((extra, i) => (i === late[0] ? extra - 1 : extra));
    expect(outcomeWith(lessLate)).toBe('holds');
  });

  it('records the schedule in the trace it hashes, and replays the shrunk case from fast-check’s seed and path', () => {
    const { ce, path } = counterexample(2);
    expect(ce.trace[0]).toMatchObject({ kind: 'start', data: { latencies: ce.latencies } });
    const r = replay(checkThenInsert, { kind: 'path', seed: 2, path, maxFaults: 0 });
    expect(r).toMatchObject({ seed: ce.seed, plan: [], latencies: ce.latencies, outcome: 'duplicate effect', traceHash: ce.traceHash });
    expect(r.coverage.interleavings).toEqual({ kind: 'scheduled' });
    // The case as data reruns to the same hash without fast-check.
    expect(runScenario(checkThenInsert, { seed: ce.seed, plan: ce.plan, size: ce.size, latencies: ce.latencies }).report.traceHash).toBe(ce.traceHash);
  });

  it('marks the committed outcomes of its duplicate where its replay marks them, and prints the marks', () => {
    const { ce, path } = counterexample(2);
    const r = replay(checkThenInsert, { kind: 'path', seed: 2, path, maxFaults: 0 });
    expect(ce.moments.filter((m) => m.kind === 'outcome').map((m) => m.nth)).toEqual([1, 2]);
    expect(ce.moments).toEqual(r.moments);
    const lines: string[] = [];
    presentExplore([explore(checkThenInsert, { seed: 2, ...OPTIONS })], { json: false }, { out: (t: string) => lines.push(t), err: () => undefined, colorLevel: 0 } as never);
    const key = findingKey(ce.findings[0]!);
    expect(lines.filter((l) => l.includes('◀')).map((l) => l.replace(/^.*◀ /, ''))).toEqual([`1st committed outcome for ${key}`, `DUPLICATE: 2nd committed outcome for ${key}`]);
  });
});

describe('the schedules explore generates', () => {
  it('span the latency window and are long enough to cover a run', () => {
    const cases = fc.sample(caseArbitrary(checkThenInsert, { maxFaults: 0 }), { seed: 7, numRuns: 200 });
    const entries = cases.flatMap((c) => c.latencies);
    expect(new Set(entries)).toEqual(new Set([0, 1, 2]));
    const lengths = cases.map((c) => c.latencies.length).sort((a, b) => a - b);
    expect(lengths[lengths.length - 1]).toBeLessThanOrEqual(SCHEDULE_LENGTH_MAX);
    // Half of them name more messages than a whole run of this design sends (six).
    expect(lengths[Math.floor(lengths.length / 2)]).toBeGreaterThan(6);
    // A schedule ends at its last late message.
    expect(cases.every((c) => c.latencies.length === 0 || c.latencies[c.latencies.length - 1]! > 0)).toBe(true);
  });

  it('are empty when the window leaves no room, and explore then finds no duplicate', () => {
    const fixed = { ...checkThenInsert, world: { latency: ['1s', '1s'] as const } };
    expect(fc.sample(caseArbitrary(fixed, { maxFaults: 0 }), { seed: 7, numRuns: 50 }).every((c) => c.latencies.length === 0)).toBe(true);
    expect(explore(fixed, { seed: 1, ...OPTIONS, runs: 50 }).search.status).toBe('passed');
  });
});

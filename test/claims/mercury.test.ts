// The five Mercury designs of the seeds, judged by both windows mode and explore mode.
import { describe, expect, it } from 'vitest';
import { claimSentence } from '../../src/report/claimSentence.ts';
import { replayLine } from '../../src/modes/replayLine.ts';
import { expectedAt } from '../../src/scenario/scenario.ts';
import { explore } from '../../src/modes/explore.ts';
import { runScenario } from '../../src/run/runScenario.ts';
import { runWindows } from '../../src/modes/windows.ts';
import type { Scenario } from '../../src/scenario/scenario.ts';
import outbox from '../../scenarios/mercury-outbox.ts';
import commitFirst from '../../scenarios/mercury-dual-write-commit-first.ts';
import publishFirst from '../../scenarios/mercury-dual-write-publish-first.ts';
import ackFirst from '../../scenarios/inventory-ack-before-commit.ts';
import splitInbox from '../../scenarios/inventory-inbox-separate-tx.ts';

const firstViolation = (s: Scenario) => {
  const e = expectedAt(s.expect, 1);
  return e.verdict === 'violated' ? e.violations[0]! : '';
};
const cases: [string, Scenario, string][] = [commitFirst, publishFirst, ackFirst, splitInbox].map((s) => [s.name, s, firstViolation(s)]);

/** The counterexample of a failed search. */
function counterexampleOf(r: ReturnType<typeof explore>) {
  if (r.search.status !== 'failed') throw new Error(`${r.name}: explore found nothing`);
  return r.search.counterexample;
}

describe('the Mercury pipeline with 2 orders, one fault per run', () => {
  it('outbox + relay + inbox consumer holds at every window and fault', () => {
    const r = runWindows(outbox);
    expect(r.judgement.verdict).toBe('holds');
    expect(r.distinctOutcomes).toEqual(['holds']);
    expect(r.coverage.runs).toBeGreaterThan(130);
    // Database links are lost or delayed, never duplicated or reordered: fewer faults than places x kinds.
    expect(r.coverage.faults).toBeLessThan((r.coverage.windows + r.coverage.points) * 5 * 2);
    // The relay and the consumer really did repeat work that a guard then suppressed.
    expect(r.rows.some((w) => w.guards.includes('inboxKey'))).toBe(true);
  });

  it.each(cases)('windows mode finds the violation of %s', (_name, scenario, violation) => {
    const r = runWindows(scenario);
    expect(r.judgement.verdict).toBe('violated');
    expect(r.counterexamples.map((c) => c.violation)).toContain(violation);
    expect(r.judgement.asExpected).toBe(true);
  });

  it.each(cases)('explore mode finds the violation of %s', (_name, scenario, violation) => {
    const r = explore(scenario, { runs: 500, seed: 7 });
    expect(r.judgement.verdict).toBe('violated');
    expect(counterexampleOf(r).outcome).toBe(violation);
  });

  it('explore finds nothing wrong with the outbox design', () => {
    const r = explore(outbox, { runs: 150, seed: 7 });
    // A sampled search that finds nothing holds within its bound, and says so.
    expect(r.judgement.verdict).toBe('holds within bound');
    expect(r.judgement.asExpected).toBe(true);
    expect(r.runs).toBe(150);
    expect(r.coverage.bound).toEqual({ kind: 'samples', runs: 150 });
  });
});

describe('the shrunk counterexample for dual write commit-then-publish', () => {
  // Each test makes the search itself (vitest.mutants.config.ts says why).
  const shrunk = () => counterexampleOf(explore(commitFirst, { runs: 500, seed: 11 }));

  it('fails as found', () => {
    const ce = shrunk();
    expect(runScenario(commitFirst, { seed: ce.seed, plan: ce.plan, size: ce.size }).outcome).toBe('lost effect');
  });

  it('has no fault that can be removed while it still fails', () => {
    const ce = shrunk();
    expect(ce.plan.length).toBeGreaterThan(0);
    for (let i = 0; i < ce.plan.length; i++) {
      const smaller = ce.plan.filter((_, j) => j !== i);
      expect(runScenario(commitFirst, { seed: ce.seed, plan: smaller, size: ce.size }).outcome).toBe('holds');
    }
  });

  it('has no workload step that can be removed while it still fails', () => {
    const ce = shrunk();
    expect(ce.size).toBe(1);
  });

  it('replays from the printed seed and path to the identical trace hash', () => {
    const ce = shrunk();
    const [, , , , seedFlag, seed, pathFlag, path] = replayLine(ce.replay).split(' ');
    expect([seedFlag, pathFlag]).toEqual(['--seed', '--path']);
    const again = explore(commitFirst, { seed: Number(seed), path: path!, runs: 1 });
    expect(counterexampleOf(again).traceHash).toBe(ce.traceHash);
    expect(counterexampleOf(again).plan).toEqual(ce.plan);
  });
});

describe('claims', () => {
  it('renders the inventory reservation claim as the seed\'s sentence', () => {
    expect(claimSentence(outbox.claims[0]!)).toMatch(
      /^For inventory reservation, identified by \(order_id, reservation_version\), the inventory database's unique constraint enforces at most one committed outcome for the lifetime of the order/,
    );
  });

  it('turns a checker that throws into unknown, never a pass', () => {
    const broken: Scenario = {
      ...outbox,
      claims: [{ ...outbox.claims[0]!, facts: () => { throw new Error('no orders table'); } }],
    };
    const run = runScenario(broken, { seed: 1, plan: [] });
    expect(run.outcome).toBe('unknown');
    expect(run.claims[0]!.outcome).toBe('unknown');
    // Both clauses that read the facts say why they could not decide; the others still judged.
    const unknown = run.claims[0]!.clauses.filter((c) => c.status === 'unknown');
    expect(unknown.map((c) => c.clause)).toEqual(['liveness', 'phantom']);
    expect(unknown.every((c) => /no orders table/.test(c.reason ?? ''))).toBe(true);
    expect(run.claims[0]!.clauses.find((c) => c.clause === 'atMostOne')?.status).toBe('holds');
  });

  it('explores a claim whose checker throws as unknown, not as a counterexample', () => {
    const broken: Scenario = { ...outbox, claims: [{ ...outbox.claims[0]!, facts: () => { throw new Error('no orders table'); } }] };
    const r = explore(broken, { runs: 20, seed: 3 });
    expect(r.judgement.verdict).toBe('unknown');
    expect(r.judgement.asExpected).toBe(false);
    expect(r.search.status).toBe('passed');
    expect(r.outcomes.unknown).toBe(20);
    expect(r.coverage.clauses.find((c) => c.clause === 'liveness')).toMatchObject({ status: 'unknown', reason: 'no orders table' });
  });

  it('refuses a scenario named like a report file', async () => {
    const { defineScenario } = await import('../../src/scenario/scenario.ts');
    expect(() => defineScenario({ ...outbox, name: 'index' })).toThrow(/taken by a report file/);
  });

  it('prints the windows, runs and distinct outcomes of every scenario run', () => {
    const r = runWindows(commitFirst);
    expect(r.coverage.windows).toBeGreaterThan(10);
    expect(r.coverage.runs).toBeGreaterThan(r.coverage.windows + r.coverage.points);
    expect(r.distinctOutcomes).toEqual(['lost effect', 'holds']);
  });
});

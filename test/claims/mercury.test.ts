// The five Mercury designs of the seeds, judged by both windows mode and explore mode.
import { describe, expect, it } from 'vitest';
import { claimSentence } from '../../src/claims.ts';
import { explore } from '../../src/explore.ts';
import { runScenario } from '../../src/runScenario.ts';
import { runWindows } from '../../src/windows.ts';
import type { Scenario } from '../../src/scenario.ts';
import outbox from '../../scenarios/mercury-outbox.ts';
import commitFirst from '../../scenarios/mercury-dual-write-commit-first.ts';
import publishFirst from '../../scenarios/mercury-dual-write-publish-first.ts';
import ackFirst from '../../scenarios/inventory-ack-before-commit.ts';
import splitInbox from '../../scenarios/inventory-inbox-separate-tx.ts';

const cases: [string, Scenario, string][] = [commitFirst, publishFirst, ackFirst, splitInbox].map((s) => [s.name, s, s.expect.verdict === 'violated' ? s.expect.violations[0]! : '']);

describe('the Mercury pipeline with 2 orders, one fault per run', () => {
  it('outbox + relay + inbox consumer holds at every window and fault', () => {
    const r = runWindows(outbox);
    expect(r.verdict).toBe('holds');
    expect(r.distinctOutcomes).toEqual(['holds']);
    expect(r.runs).toBeGreaterThan(150);
    // The relay and the consumer really did repeat work that a guard then suppressed.
    expect(r.windows.some((w) => w.duplicateGuard.includes('inboxKey'))).toBe(true);
  });

  it.each(cases)('windows mode finds the violation of %s', (_name, scenario, violation) => {
    const r = runWindows(scenario);
    expect(r.verdict).toBe('violated');
    expect(r.counterexamples.map((c) => c.violation)).toContain(violation);
    expect(r.asExpected).toBe(true);
  });

  it.each(cases)('explore mode finds the violation of %s', (_name, scenario, violation) => {
    const r = explore(scenario, { runs: 500, seed: 7 });
    expect(r.verdict).toBe('violated');
    expect(r.counterexample?.outcome).toBe(violation);
  });

  it('explore finds nothing wrong with the outbox design', () => {
    const r = explore(outbox, { runs: 150, seed: 7 });
    expect(r.verdict).toBe('holds');
    expect(r.runs).toBe(150);
  });
});

describe('the shrunk counterexample for dual write commit-then-publish', () => {
  const r = explore(commitFirst, { runs: 500, seed: 11 });
  const ce = r.counterexample!;

  it('fails as found', () => {
    expect(runScenario(commitFirst, { seed: ce.seed, plan: ce.plan, size: ce.size }).outcome).toBe('lost effect');
  });

  it('has no fault that can be removed while it still fails', () => {
    expect(ce.plan.length).toBeGreaterThan(0);
    for (let i = 0; i < ce.plan.length; i++) {
      const smaller = ce.plan.filter((_, j) => j !== i);
      expect(runScenario(commitFirst, { seed: ce.seed, plan: smaller, size: ce.size }).outcome).toBe('holds');
    }
  });

  it('has no workload step that can be removed while it still fails', () => {
    expect(ce.size).toBe(1);
  });

  it('replays from the printed seed and path to the identical trace hash', () => {
    const [, , , , seedFlag, seed, pathFlag, path] = ce.replay.split(' ');
    expect([seedFlag, pathFlag]).toEqual(['--seed', '--path']);
    const again = explore(commitFirst, { seed: Number(seed), path: path!, runs: 1 });
    expect(again.counterexample?.traceHash).toBe(ce.traceHash);
    expect(again.counterexample?.plan).toEqual(ce.plan);
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
    expect(run.claims[0]!.verdict).toBe('unknown');
    expect(run.claims[0]!.unknown.join()).toMatch(/no orders table/);
  });

  it('explores a claim whose checker throws as unknown, not as a counterexample', () => {
    const broken: Scenario = { ...outbox, claims: [{ ...outbox.claims[0]!, facts: () => { throw new Error('no orders table'); } }] };
    const r = explore(broken, { runs: 20, seed: 3 });
    expect(r.verdict).toBe('unknown');
    expect(r.counterexample).toBeUndefined();
    expect(r.outcomes.unknown).toBe(20);
  });

  it('refuses a scenario named like a report file', async () => {
    const { defineScenario } = await import('../../src/scenario.ts');
    expect(() => defineScenario({ ...outbox, name: 'index' })).toThrow(/taken by a report file/);
  });

  it('prints the windows, runs and distinct outcomes of every scenario run', () => {
    const r = runWindows(commitFirst);
    expect(r.windowCount).toBeGreaterThan(10);
    expect(r.runs).toBeGreaterThan(r.windowCount);
    expect(r.distinctOutcomes).toEqual(['lost effect', 'holds']);
  });
});

// A golden file for explore at fixed seeds, in the spirit of fast-check's own no-regression
// suite: for each Mercury design and each seed, the verdict and either the shrunk counterexample
// (its plan, schedule of latencies, fast-check path, simulation seed, workload size and trace
// hash) or the outcomes of a search that found nothing. A change that alters what exploration
// generates, how it shrinks or what a run does shows up here as a diff to review. After reviewing one, rewrite the file with
//   FAULTLINE_UPDATE_GOLDEN=1 npx vitest run test/golden/explore.test.ts
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadScenario } from '../../src/scenario/catalogue.ts';
import { explore } from '../../src/modes/explore.ts';

const FILE = join(import.meta.dirname, 'explore.json');
const SCENARIOS = ['mercury-outbox', 'mercury-dual-write-commit-first', 'mercury-dual-write-publish-first', 'inventory-ack-before-commit', 'inventory-inbox-separate-tx'];
const SEEDS = [1, 42];
const RUNS = 300;

interface GoldenEntry {
  readonly scenario: string;
  readonly seed: number;
  readonly verdict: string;
  /** Runs the search made, shrinking included (every one asked for when it passed). */
  readonly runs: number;
  readonly outcomes: Readonly<Record<string, number>>;
  readonly counterexample: 'passed' | { readonly outcome: string; readonly path: string; readonly plan: unknown; readonly latencies: readonly number[]; readonly simulationSeed: number; readonly size: number; readonly traceHash: string; readonly traceEvents: number };
}

async function entry(name: string, seed: number): Promise<GoldenEntry> {
  const { scenario } = await loadScenario(name);
  const r = explore(scenario, { seed, runs: RUNS });
  const ce = r.search.status === 'failed' ? r.search.counterexample : undefined;
  return {
    scenario: name,
    seed,
    verdict: r.judgement.verdict,
    runs: r.runs,
    outcomes: Object.fromEntries(Object.entries(r.outcomes).sort(([a], [b]) => (a < b ? -1 : 1))),
    counterexample:
      r.search.status === 'failed' && ce
        ? { outcome: ce.outcome, path: r.search.path, plan: ce.plan, latencies: ce.latencies, simulationSeed: ce.seed, size: ce.size, traceHash: ce.traceHash, traceEvents: ce.trace.length }
        : 'passed',
  };
}

const cases = SCENARIOS.flatMap((name) => SEEDS.map((seed) => [name, seed] as const));

if (process.env['FAULTLINE_UPDATE_GOLDEN'] === '1') {
  it('rewrites test/golden/explore.json', async () => {
    const entries: GoldenEntry[] = [];
    for (const [name, seed] of cases) entries.push(await entry(name, seed));
    writeFileSync(FILE, `${JSON.stringify({ runs: RUNS, entries }, null, 2)}\n`);
  });
} else {
  describe(`explore at fixed seeds, ${RUNS} runs, matches test/golden/explore.json`, () => {
    const golden = existsSync(FILE) ? (JSON.parse(readFileSync(FILE, 'utf8')) as { runs: number; entries: GoldenEntry[] }) : { runs: RUNS, entries: [] };

    it('holds an entry for exactly these scenarios and seeds, at this number of runs', () => {
      expect(golden.runs).toBe(RUNS);
      expect(golden.entries.map((e) => [e.scenario, e.seed])).toEqual(cases.map(([n, s]) => [n, s]));
    });

    it.each(cases)('%s at seed %i', async (name, seed) => {
      expect(await entry(name, seed)).toEqual(golden.entries.find((e) => e.scenario === name && e.seed === seed));
    });
  });
}

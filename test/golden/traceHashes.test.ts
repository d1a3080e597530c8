// The exact traces of the sampled scenarios' runs, pinned: for each scenario the quick suite
// samples, the hash of its reference run's trace and a digest of the trace hashes of every
// single-fault run of its windows sweep, in the sweep's order. The catalogue goldens hold what a
// sweep concludes (each row's outcome and tally); this file holds what each run did, step by step:
// when a message was released, which latency it drew, what state a component entered. A change to
// the kernel that moves any of that without moving a verdict (a latency drawn once too often at
// the heal, a state entered but not traced) shows up here as a diff to review, and the trace-hash
// promise ("the same seed and plan give a byte-identical trace") is held across versions, not only
// within one. After reviewing a change, rewrite the file with
//   FAULTLINE_UPDATE_GOLDEN=1 npx vitest run test/golden/traceHashes.test.ts
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadScenario } from '../../src/scenario/catalogue.ts';
import { sweepSettings } from '../../src/modes/windows.ts';
import { sweepPlan } from '../../src/modes/windowsPart.ts';
import { runScenario } from '../../src/run/runScenario.ts';
import { SAMPLE_SCENARIOS } from '../support/suite.ts';

const FILE = join(import.meta.dirname, 'trace-hashes.json');
const SEED = 1;

interface Pinned {
  /** Single-fault runs in the sweep, the reference run left out. */
  readonly runs: number;
  /** The trace hash of the run with no fault. */
  readonly reference: string;
  /** SHA-256 (first 16 hex digits) of the runs' trace hashes, one per line, in the sweep's order. */
  readonly digest: string;
}

async function pinned(name: string): Promise<Pinned> {
  const { scenario } = await loadScenario(name);
  const plan = sweepPlan(scenario, sweepSettings(scenario, { seed: SEED }));
  const hashes = plan.plans.map((p) => runScenario(scenario, { seed: SEED, plan: p }).report.traceHash);
  // The sweep's own reference run (run once, captured for the sweep) is the run with no fault.
  const reference = plan.reference.report.traceHash;
  return { runs: hashes.length, reference, digest: createHash('sha256').update(hashes.join('\n')).digest('hex').slice(0, 16) };
}

if (process.env['FAULTLINE_UPDATE_GOLDEN'] === '1') {
  it('rewrites test/golden/trace-hashes.json', async () => {
    const entries: Record<string, Pinned> = {};
    for (const name of SAMPLE_SCENARIOS) entries[name] = await pinned(name);
    writeFileSync(FILE, `${JSON.stringify({ seed: SEED, scenarios: entries }, null, 2)}\n`);
  });
} else {
  describe(`the traces of the sampled scenarios' single-fault runs at seed ${SEED} match test/golden/trace-hashes.json`, () => {
    const golden = existsSync(FILE) ? (JSON.parse(readFileSync(FILE, 'utf8')) as { seed: number; scenarios: Record<string, Pinned> }) : { seed: SEED, scenarios: {} };

    it('pins exactly the sampled scenarios, at this seed', () => {
      expect(golden.seed).toBe(SEED);
      expect(Object.keys(golden.scenarios).sort()).toEqual([...SAMPLE_SCENARIOS].sort());
    });

    it.each(SAMPLE_SCENARIOS)('%s', async (name) => {
      const now = await pinned(name);
      const was = golden.scenarios[name];
      expect(now.runs, `${name}: the sweep plans another number of runs`).toBe(was?.runs);
      expect(now.reference, `${name}: the run with no fault took another course (see it: node bin/faultline.js replay ${name} --seed ${SEED} --plan '[]' --trace)`).toBe(was?.reference);
      expect(now.digest, `${name}: some single-fault run took another course (the reference run did not)`).toBe(was?.digest);
    });
  });
}

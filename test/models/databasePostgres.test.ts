// The database model held to real PostgreSQL. fast-check generates a schema and a sequence of
// statements from several sessions; each sequence runs on the model (databaseMachine, driven as
// the World drives it) and on PostgreSQL, and every answer (inserted or not, written, updated and
// deleted counts, selected rows as sets, commit ok or failed, which key a failing statement
// conflicted on, who waits for whom) and every table's final rows must agree. What the model
// implements, statement by statement, is listed at the top of models/database.ts.
//
// - Serial sequences (transactions take turns; a session may die between statements) run on
//   PGlite, PostgreSQL in-process, in every run.
// - Interleaved sequences (statements of open transactions interleave, so row locks make them
//   wait, deadlock, or re-read a row) need a multi-session server: the one FAULTLINE_POSTGRES_URL
//   names, else a throwaway cluster from the machine's own server binaries; with neither they are
//   skipped, and the skipped test says why.
// - The model's isolation is READ COMMITTED, PostgreSQL's default, with its row locks; no other
//   level is modelled. What the generators leave out on purpose, and why, is listed as skipped
//   tests below (EXCLUDED).
//
// FAULTLINE_PG_RUNS sets the number of sequences of each kind (default 1000 serial, 300
// interleaved in the catalogue suite, a fifth of that in the quick one); FAULTLINE_PG_SEED the fast-check seed (fixed by default, so a run is repeatable).
// `npm run conformance -- --postgres URL` runs the same property against any server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conformance, describeReport, type Mode } from './postgres/conformance.ts';
import { serverBinaries, startLocalCluster, type LocalCluster } from './postgres/localCluster.ts';
import { PgliteBackend } from './postgres/pgliteBackend.ts';
import { REGRESSIONS } from './postgres/regressions.ts';
import { runSequence } from './postgres/runSequence.ts';
import { ServerBackend } from './postgres/serverBackend.ts';
import type { SqlBackend } from './postgres/sqlBackend.ts';
import { EXCLUDED } from './postgres/steps.ts';
import { full } from '../support/suite.ts';

// The quick suite runs a fifth of the sequences the catalogue suite runs (test/support/suite.ts).
const runsOf = (mode: Mode) => Number(process.env['FAULTLINE_PG_RUNS'] ?? (mode === 'serial' ? 1000 : 300) / (full ? 1 : 5));
const SEED = Number(process.env['FAULTLINE_PG_SEED'] ?? 20_251_201);
const URL_GIVEN = process.env['FAULTLINE_POSTGRES_URL'];
/** A property's time limit: it only guards against a hang, so it is far above a run's length on a busy machine. */
const PROPERTY_TIMEOUT_MS = 900_000;

/** Where interleaved sequences run, or why they cannot. */
function serverPlan(): { readonly url: string } | { readonly local: true } | { readonly skip: string } {
  if (URL_GIVEN) return { url: URL_GIVEN };
  if (serverBinaries() === undefined) return { skip: 'no multi-session PostgreSQL: set FAULTLINE_POSTGRES_URL, or install the server binaries (initdb, pg_ctl)' };
  return { local: true };
}
const plan = serverPlan();
if ('skip' in plan) console.warn(`databasePostgres: interleaved sequences skipped: ${plan.skip}`);

/** The model's answers to a regression case: replies and waits, step by step, then the final rows. */
async function modelAnswers(name: string): Promise<string[]> {
  const r = REGRESSIONS.find((x) => x.name === name)!;
  const result = await runSequence(r.schema, r.steps, undefined);
  return result.answers.filter((line) => line.startsWith('  ') || line.startsWith('final')).map((line) => line.trim());
}

describe('the database model and PostgreSQL: serial sequences, on PGlite', () => {
  let backend: PgliteBackend;
  beforeAll(async () => {
    backend = await PgliteBackend.start();
  });
  afterAll(async () => {
    await backend?.close();
  });

  it(`agree on ${runsOf('serial')} generated sequences`, async () => {
    const report = await conformance(backend, { mode: 'serial', runs: runsOf('serial'), seed: SEED });
    console.info(describeReport(report));
    expect(report.failure, describeReport(report)).toBeUndefined();
    expect(report.sequences).toBe(runsOf('serial'));
  }, PROPERTY_TIMEOUT_MS);

  describe.each(REGRESSIONS.filter((r) => r.mode === 'serial').map((r) => [r.name, r] as const))('regression: %s', (name, r) => {
    it('the model now answers as PostgreSQL does', async () => {
      expect(await modelAnswers(name)).toEqual(r.answers);
    });
    it('and PGlite agrees', async () => {
      const result = await runSequence(r.schema, r.steps, backend);
      expect(result.divergence?.transcript).toBeUndefined();
    });
  });
});

describe('the database model and PostgreSQL: interleaved sequences, on a multi-session server', () => {
  if ('skip' in plan) {
    it.skip(`agree on interleaved sequences (skipped: ${plan.skip})`, () => undefined);
    return;
  }
  let backend: SqlBackend;
  let cluster: LocalCluster | undefined;
  beforeAll(async () => {
    if ('url' in plan) {
      backend = await ServerBackend.connect({ connectionString: plan.url });
      return;
    }
    const started = startLocalCluster();
    if (typeof started === 'string') throw new Error(`cannot start a throwaway PostgreSQL cluster: ${started}`);
    cluster = started;
    backend = await ServerBackend.connect(started.config);
  });
  afterAll(async () => {
    await backend?.close();
    cluster?.stop();
  });

  it(`agree on ${runsOf('interleaved')} generated sequences`, async () => {
    const report = await conformance(backend, { mode: 'interleaved', runs: runsOf('interleaved'), seed: SEED });
    console.info(describeReport(report));
    expect(report.failure, describeReport(report)).toBeUndefined();
    expect(report.sequences).toBe(runsOf('interleaved'));
    // The sequences did make statements wait, or the comparison proved little about locks.
    expect(report.waits).toBeGreaterThan(0);
  }, PROPERTY_TIMEOUT_MS);

  it('and on every serial sequence as well', async () => {
    const report = await conformance(backend, { mode: 'serial', runs: Math.min(100, runsOf('serial')), seed: SEED });
    expect(report.failure, describeReport(report)).toBeUndefined();
  }, PROPERTY_TIMEOUT_MS);

  describe.each(REGRESSIONS.map((r) => [r.name, r] as const))('regression: %s', (name, r) => {
    if (r.mode === 'interleaved') {
      it('the model now answers as PostgreSQL does', async () => {
        expect(await modelAnswers(name)).toEqual(r.answers);
      });
    }
    it(`and ${'url' in plan ? 'the given server' : 'a throwaway cluster'} agrees`, async () => {
      const result = await runSequence(r.schema, r.steps, backend);
      expect(result.divergence?.transcript).toBeUndefined();
    });
  });
});

describe('the interleaved regression cases, on the model alone', () => {
  // Without a server the model's side of each case is still checked.
  describe.skipIf(!('skip' in plan)).each(REGRESSIONS.filter((r) => r.mode === 'interleaved').map((r) => [r.name, r] as const))('regression: %s', (name, r) => {
    it('the model answers as PostgreSQL does', async () => {
      expect(await modelAnswers(name)).toEqual(r.answers);
    });
  });
});

describe('left out of the generated sequences, on purpose', () => {
  for (const e of EXCLUDED) it.skip(`${e.branch}: ${e.reason}`, () => undefined);
});

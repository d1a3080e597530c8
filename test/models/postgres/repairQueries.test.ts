// Every repair query a report can print, run on PostgreSQL against the damage it repairs. Each
// catalogue scenario is swept in windows mode, and every row's representative run is replayed
// from its plan. Each distinct durable end state is loaded into PGlite: every table of every
// database component, and every table the claims declare as a view of a record kept outside a
// database (a provider's ledger, a topic, a results store, an audit history). There every query
// every claim's tables give (a lost, duplicate or phantom effect, an order regression, a replay
// mismatch, a mishandled conflict, an unresolved outcome, a silent revision) must return exactly
// the keys of that claim's findings of that kind in the run, none where it found none; and the
// query each row prints must return its finding's keys (a repair) or nothing (a check). A query
// that names a wrong table or column, or finds the wrong rows, fails here rather than in an
// operator's terminal. One scenario of this file's own adds the unresolved outcome the
// catalogue's single faults never leave: a payment capture with no reconciler, whose lost
// response leaves its outcome UNKNOWN. The quick suite sweeps a sample of the catalogue, the
// catalogue suite every scenario (test/support/suite.ts).
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseMachine, rowsOf, type DatabaseDurable } from '../../../models/database.ts';
import { captures, PAYMENT_KEY, paymentCaptureClaim } from '../../../models/designs/paymentCapture.ts';
import { providerPipeline } from '../../../models/designs/providerPipeline.ts';
import { closedPeriodClaim } from '../../../models/designs/streamPipeline.ts';
import type { StoredPost } from '../../../models/resultSink.ts';
import { loadCatalogue } from '../../../src/scenario/catalogue.ts';
import type { Violation } from '../../../src/checkers/finding.ts';
import type { Claim, TableView } from '../../../src/checkers/claims.ts';
import { queryForms, repairQueryOf } from '../../../src/analysis/repairQuery.ts';
import { runScenario, viewOf, type RunRecord } from '../../../src/run/runScenario.ts';
import { defineScenario, type Scenario } from '../../../src/scenario/scenario.ts';
import { full, SAMPLE_SCENARIOS, sampled } from '../../support/suite.ts';
import { runWindows } from '../../../src/modes/windows.ts';

let db: PGlite;
beforeAll(async () => {
  db = await PGlite.create();
});
afterAll(async () => {
  await db.close();
});

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** The PostgreSQL type of a column from the values its rows hold: the narrowest one that takes them all. */
function columnType(values: readonly unknown[]): string {
  const present = values.filter((v) => v !== null && v !== undefined);
  if (present.length === 0) return 'text';
  if (present.every((v) => typeof v === 'boolean')) return 'boolean';
  if (present.every((v) => typeof v === 'number')) return present.every((v) => Number.isInteger(v)) ? 'bigint' : 'numeric';
  if (present.every((v) => typeof v === 'object')) return 'jsonb';
  if (present.every((v) => typeof v === 'string')) return 'text';
  throw new Error(`a column mixes ${[...new Set(present.map((v) => typeof v))].join(' and ')} values`);
}

const sqlValue = (v: unknown) => (v === undefined ? null : typeof v === 'object' && v !== null ? JSON.stringify(v) : v);

interface Table {
  readonly rows: Record<string, unknown>[];
  /** Each column's values, to infer its type; a view's declared type wins. */
  readonly columns: Map<string, unknown[]>;
  readonly types: Map<string, string>;
}

/**
 * Every table of every database component in a run's end state, by name, with its rows. A table
 * name two databases share holds both databases' rows, as one schema would; tables with no rows
 * still exist, their columns taken from `shape` (the fault-free run) so a query can name them.
 * Then every view the claims declare, with its declared columns, read off the same end state.
 */
function tablesOf(run: RunRecord, shape: RunRecord, claims: readonly Claim[]): Map<string, Table> {
  const out = new Map<string, Table>();
  const databases = (r: RunRecord) => r.components.filter((c) => c.machine === databaseMachine);
  for (const [r, keep] of [
    [run, true],
    [shape, false],
  ] as const) {
    for (const c of databases(r)) {
      const durable = r.report.durable[c.name] as DatabaseDurable;
      const declared = Object.keys((c.input as { tables: Record<string, unknown> }).tables);
      for (const table of new Set([...declared, ...Object.keys(durable.tables)])) {
        const t = out.get(table) ?? { rows: [], columns: new Map<string, unknown[]>(), types: new Map<string, string>() };
        out.set(table, t);
        const rows = rowsOf(durable, table);
        if (keep) t.rows.push(...rows);
        for (const row of rows) for (const [k, v] of Object.entries(row)) (t.columns.get(k) ?? t.columns.set(k, []).get(k)!).push(v);
      }
    }
  }
  const views = new Map<string, TableView>();
  for (const c of claims) for (const v of c.tables?.views ?? []) if (!views.has(v.table)) views.set(v.table, v);
  const view = viewOf(run.report);
  for (const v of views.values()) {
    if (out.has(v.table)) throw new Error(`the view ${v.table} has the name of a database table`);
    const rows = v.rows(view).map((r) => ({ ...r }));
    for (const r of rows) for (const k of Object.keys(r)) if (!(k in v.columns)) throw new Error(`the view ${v.table} has a row with the undeclared column ${k}`);
    out.set(v.table, { rows, columns: new Map(Object.keys(v.columns).map((c) => [c, []])), types: new Map(Object.entries(v.columns)) });
  }
  return out;
}

/**
 * Loads an end state into temporary tables of one transaction, hands `use` a query runner that
 * returns rows as arrays, and rolls the transaction back: a third of the cost of a schema made and
 * dropped per end state. A query PostgreSQL refuses aborts only itself: the transaction goes back
 * to the savepoint taken once the tables were loaded.
 */
async function withEndState<T>(tables: Map<string, Table>, use: (query: (sql: string) => Promise<unknown[][]>) => Promise<T>): Promise<T> {
  await db.exec('BEGIN');
  try {
    for (const [table, t] of tables) {
      const columns = [...t.columns.keys()];
      const defs = columns.length === 0 ? 'placeholder text' : columns.map((c) => `${quote(c)} ${t.types.get(c) ?? columnType(t.columns.get(c)!)}`).join(', ');
      await db.exec(`CREATE TEMPORARY TABLE ${quote(table)} (${defs});`);
      // One statement per table and set of columns, rather than one per row: a round trip into
      // PGlite costs more than the row it carries.
      const byColumns = new Map<string, Record<string, unknown>[]>();
      for (const row of t.rows) {
        const names = Object.keys(row).join('\u0000');
        (byColumns.get(names) ?? byColumns.set(names, []).get(names)!).push(row);
      }
      for (const [joined, rows] of byColumns) {
        const names = joined === '' ? [] : joined.split('\u0000');
        if (names.length === 0) {
          for (const _ of rows) await db.exec(`INSERT INTO ${quote(table)} DEFAULT VALUES`);
          continue;
        }
        const values = rows.map((_, r) => `(${names.map((_, i) => `$${r * names.length + i + 1}`).join(', ')})`).join(', ');
        await db.query(`INSERT INTO ${quote(table)} (${names.map(quote).join(', ')}) VALUES ${values}`, rows.flatMap((row) => names.map((n) => sqlValue(row[n]))));
      }
    }
    await db.exec('SAVEPOINT loaded');
    return await use(async (sql) => {
      try {
        return (await db.query<unknown[]>(sql, [], { rowMode: 'array' })).rows;
      } catch (error) {
        await db.exec('ROLLBACK TO SAVEPOINT loaded');
        throw error;
      }
    });
  } finally {
    await db.exec('ROLLBACK');
  }
}

/**
 * A payment capture with one call per delivery and no reconciler: a lost response, or a crash
 * of the provider after its effect, leaves the caller's outcome UNKNOWN with nobody to resolve
 * it. Not in the catalogue; here so the unresolved outcome's query meets the damage it finds.
 */
const unreconciledCapture = defineScenario({
  name: 'payment-capture-no-reconciler',
  title: 'Payment capture with no reconciler',
  source: '003 · Follow the checkout across the commit boundary (payment capture, unknown outcomes left unresolved)',
  lesson: 'A capture the consumer could not settle stays UNKNOWN when nobody reconciles it.',
  build: providerPipeline({
    records: captures,
    keyField: 'order_id',
    group: 'payments',
    caller: { effectKey: PAYMENT_KEY, sendKey: true, statusLookup: true, recordIntent: true, maxAttempts: 1 },
    provider: { idempotency: 'intentBound', statusLookup: 'byKey' },
  }),
  workload: { size: 2 },
  claims: [paymentCaptureClaim],
  expect: { verdict: 'violated', violations: ['unresolved unknown outcome'] },
});

/** What the sweeps so far met: per violation kind, end states its query found damage in, and ones it rightly found none in. */
const met = new Map<Violation, { found: number; clean: number }>();
const printed = { repair: 0, check: 0 };
let endStates = 0;

/**
 * Sweeps one scenario, replays each row's representative run, loads each distinct end state into
 * PostgreSQL and runs every query its claims give there; the failures, one line each.
 */
async function queryFailures(scenario: Scenario): Promise<string[]> {
  const failures: string[] = [];
  // Every claim of the catalogue declares its tables, so every violating row prints a query.
  for (const c of scenario.claims) if (c.tables === undefined) failures.push(`${scenario.name}: the claim on ${c.effect} declares no tables`);
  const shape = runScenario(scenario, { seed: 1, plan: [], hashTrace: false });
  const forms = scenario.claims.flatMap((claim) => queryForms(claim).map((form) => ({ claim, form })));
  // Over the whole catalogue, each place's first two occurrences: every table and query form a
  // claim gives is met there, and the deeper occurrences (three times the runs) would put CI past
  // its time. The quick suite's sample sweeps every occurrence.
  const result = runWindows(scenario, full ? { maxOccurrence: 2 } : {});
  // What each query returned on each end state met so far, by the end state and its findings.
  const answers = new Map<string, Map<string, string[]>>();
  for (const row of result.rows) {
    const q = row.repair;
    if (q === undefined) continue;
    const where = `${scenario.name}, row ${JSON.stringify(row.place)} ${row.fault} (${row.outcome}), ${q.role}: ${q.role === 'none' ? q.why : q.sql}`;
    const run = runScenario(scenario, { seed: result.seed, plan: row.plan, hashTrace: false });
    // The replay must be the row's own run: the same outcome and the same query from its findings.
    expect(run.outcome, where).toBe(row.outcome);
    expect(repairQueryOf(scenario.claims, run.outcome, run.findings, row.repeatSeen), where).toEqual(q);
    if (q.role === 'none') {
      failures.push(`${where}\n  a violating row of the catalogue prints no query`);
      continue;
    }
    const state = JSON.stringify([run.report.durable, run.findings]);
    let found = answers.get(state);
    if (found === undefined) {
      found = new Map();
      answers.set(state, found);
      endStates++;
      let tables: Map<string, Table>;
      try {
        tables = tablesOf(run, shape, scenario.claims);
      } catch (error) {
        failures.push(`${where}\n  the end state does not load: ${(error as Error).message}`);
        continue;
      }
      await withEndState(tables, async (query) => {
        for (const { claim, form } of forms) {
          let rows: unknown[][];
          try {
            rows = await query(form.sql);
          } catch (error) {
            failures.push(`${where}\n  ${claim.effect}, ${form.violation}: PostgreSQL refused ${form.sql}\n  ${(error as Error).message}`);
            continue;
          }
          const keys = [...new Set(rows.map(form.keyOf))].sort();
          const expected = [...new Set(run.findings.filter((f) => f.effect === claim.effect && f.violation === form.violation).map((f) => ('key' in f ? f.key : '')))].sort();
          const tally = met.get(form.violation) ?? { found: 0, clean: 0 };
          met.set(form.violation, tally);
          if (expected.length > 0) tally.found++;
          else tally.clean++;
          if (JSON.stringify(keys) !== JSON.stringify(expected)) failures.push(`${where}\n  ${claim.effect}, ${form.violation}: ${form.sql}\n  returned ${JSON.stringify(keys)}, the findings name ${JSON.stringify(expected)}`);
          if (!found!.has(form.sql)) found!.set(form.sql, keys);
        }
      });
    }
    // The row's own query: a repair finds exactly the finding's keys, a check nothing.
    const keys = found.get(q.sql);
    if (keys === undefined) {
      failures.push(`${where}\n  no claim's tables give the query the row prints`);
      continue;
    }
    printed[q.role]++;
    const want = q.role === 'repair' ? [...q.keys] : [];
    if (JSON.stringify(keys) !== JSON.stringify(want)) failures.push(`${where}\n  returned ${JSON.stringify(keys)}, the row names ${JSON.stringify(want)}`);
  }
  return failures;
}

const catalogue = (await loadCatalogue()).map((e) => e.scenario);

/**
 * What a scenario's queries are tested on: its claims (which give the queries) and the kinds of
 * damage it is expected to do under one fault (which give the end states they must find).
 */
function querySignature(s: Scenario): string {
  const e = s.expect as { verdict?: string; violations?: readonly string[]; single?: { violations?: readonly string[] } };
  const violations = e.verdict !== undefined ? (e.violations ?? []) : (e.single?.violations ?? []);
  return `${s.claims.map((c) => c.effect).sort().join('|')} / ${[...violations].sort().join('|')}`;
}

/**
 * Over the whole catalogue, one scenario per signature (67 of 116; scenarios that share claims and
 * expected damage run the same queries on the same kinds of end state), and every scenario the
 * quick suite samples: the rest would put CI past its time.
 */
const bySignature = new Map<string, Scenario>();
for (const s of catalogue) if (!bySignature.has(querySignature(s)) || SAMPLE_SCENARIOS.includes(s.name)) bySignature.set(querySignature(s) + (SAMPLE_SCENARIOS.includes(s.name) ? ` ${s.name}` : ''), s);
const swept = [...sampled([...bySignature.values()], (s) => SAMPLE_SCENARIOS.includes(s.name)), unreconciledCapture];

describe('repair queries on PostgreSQL', () => {
  // Each scenario's sweep, and a replay of each of its rows, runs in its own test, so a failure
  // names its scenario and `-t` runs it alone.
  it.each(swept.map((s) => [s.name, s] as const))('%s: every query its claims give finds exactly its findings in each run end state, and each row prints one of them', async (_name, scenario) => {
    const failures = await queryFailures(scenario);
    expect(failures, failures.join('\n')).toEqual([]);
  });

  // Across the catalogue, both roles ran and every query form met an end state it finds damage in
  // and one it must find nothing in, so no half of the assertions above is vacuous.
  it.runIf(full)('met every query form with and without damage, and printed both repairs and checks', () => {
    console.log(`repair queries on PGlite: ${endStates} end states; rows whose printed query was run: ${printed.repair} repair, ${printed.check} check`);
    console.log(`query forms met: ${[...met].map(([v, t]) => `${v} ${t.found} with damage, ${t.clean} without`).join('; ')}`);
    expect(printed.repair).toBeGreaterThan(0);
    expect(printed.check).toBeGreaterThan(0);
    for (const v of ['phantom effect', 'lost effect', 'duplicate effect', 'order regression', 'conflict mishandled', 'replay mismatch', 'unresolved unknown outcome', 'silent revision'] as const) {
      expect(met.get(v)?.found ?? 0, `${v} on a violating end state`).toBeGreaterThan(0);
      expect(met.get(v)?.clean ?? 0, `${v} on a holding end state`).toBeGreaterThan(0);
    }
  });
});

describe('a dashboard revision no catalogue run makes', () => {
  // Window 0 is revised to version 2 after it closed, and then version 1 is withdrawn: readers hold
  // version 2, so that retraction changes nothing they can tell (a silent revision). Window 1's
  // retraction withdraws the version readers hold, and its replacement follows: visible.
  const posts: StoredPost[] = [
    { kind: 'result', window: 0, version: 1, facts: ['f0-1'], value: 1, at: 10 },
    { kind: 'close', window: 0, version: 1, at: 11 },
    { kind: 'result', window: 0, version: 2, facts: ['f0-1', 'f1-1'], value: 2, at: 20 },
    { kind: 'retraction', window: 0, version: 1, at: 21 },
    { kind: 'result', window: 1, version: 1, facts: ['f0-2'], value: 1, at: 30 },
    { kind: 'close', window: 1, version: 1, at: 31 },
    { kind: 'retraction', window: 1, version: 1, at: 40 },
    { kind: 'result', window: 1, version: 2, facts: ['f0-2', 'f1-2'], value: 2, at: 40 },
  ];

  it('finds the retraction of a version readers no longer held, as the finality clause does, and not the one they did', async () => {
    const claim = closedPeriodClaim('dashboard');
    const view = viewOf({ durable: { sink: { posts, staged: {}, committed: [] } }, ending: { kind: 'quiescent' }, notes: [] });
    const silent = claim.revisions!(view).filter((r) => r.silent);
    expect(silent.map((r) => r.key)).toEqual(['w0']);
    const form = queryForms(claim).find((f) => f.violation === 'silent revision')!;
    const tables = new Map<string, Table>();
    for (const v of claim.tables!.views!.filter((x) => x.table.startsWith('window_results'))) {
      tables.set(v.table, { rows: v.rows(view).map((r) => ({ ...r })), columns: new Map(Object.keys(v.columns).map((c) => [c, []])), types: new Map(Object.entries(v.columns)) });
    }
    const keys = await withEndState(tables, async (query) => [...new Set((await query(form.sql)).map(form.keyOf))].sort());
    expect(keys).toEqual(['w0']);
  });
});

// Every repair query a report can print, run on PostgreSQL against the damage it repairs. Each
// catalogue scenario whose claims declare tables is swept in windows mode; a row with a query has
// its representative run replayed from its plan, and that run's durable end state (every table
// of every database component) is loaded into PGlite. A repair query must return exactly the keys
// its finding named, and a check (the row held) must return nothing: a query that names a wrong
// table or column, or finds the wrong rows, fails here rather than in an operator's terminal.
// Rows are sampled: one per scenario and distinct query, role, outcome and key set, which still
// runs every distinct query text in both roles it takes.
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseMachine, rowsOf, type DatabaseDurable, type Row } from '../../../models/database.ts';
import { loadCatalogue } from '../../../src/catalogue.ts';
import type { Claim, ClaimTable } from '../../../src/claims.ts';
import { duplicateQuery, lostQuery, phantomQuery, repairQueryOf } from '../../../src/repairQuery.ts';
import { runScenario, type RunRecord } from '../../../src/runScenario.ts';
import type { Scenario } from '../../../src/scenario.ts';
import { runWindows, type WindowRow } from '../../../src/windows.ts';

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

/**
 * Every table of every database component in a run's end state, by name, with its rows. A table
 * name two databases share holds both databases' rows, as one schema would; tables with no rows
 * still exist, their columns taken from `shape` (the fault-free run) so a query can name them.
 */
function tablesOf(run: RunRecord, shape: RunRecord): Map<string, { rows: Row[]; columns: Map<string, unknown[]> }> {
  const out = new Map<string, { rows: Row[]; columns: Map<string, unknown[]> }>();
  const databases = (r: RunRecord) => r.components.filter((c) => c.machine === databaseMachine);
  for (const [r, keep] of [
    [run, true],
    [shape, false],
  ] as const) {
    for (const c of databases(r)) {
      const durable = r.report.durable[c.name] as DatabaseDurable;
      const declared = Object.keys((c.input as { tables: Record<string, unknown> }).tables);
      for (const table of new Set([...declared, ...Object.keys(durable.tables)])) {
        const t = out.get(table) ?? { rows: [], columns: new Map<string, unknown[]>() };
        out.set(table, t);
        const rows = rowsOf(durable, table);
        if (keep) t.rows.push(...rows);
        for (const row of rows) for (const [k, v] of Object.entries(row)) (t.columns.get(k) ?? t.columns.set(k, []).get(k)!).push(v);
      }
    }
  }
  return out;
}

let schemas = 0;

/** Loads an end state into a fresh schema, runs `sql` there, and drops the schema again. */
async function runOn(run: RunRecord, shape: RunRecord, sql: string): Promise<Record<string, unknown>[]> {
  const schema = `end_state_${++schemas}`;
  await db.exec(`CREATE SCHEMA ${schema}; SET search_path TO ${schema};`);
  try {
    for (const [table, t] of tablesOf(run, shape)) {
      const columns = [...t.columns.keys()];
      const defs = columns.length === 0 ? 'placeholder text' : columns.map((c) => `${quote(c)} ${columnType(t.columns.get(c)!)}`).join(', ');
      await db.exec(`CREATE TABLE ${quote(table)} (${defs});`);
      for (const row of t.rows) {
        const names = Object.keys(row);
        await db.query(`INSERT INTO ${quote(table)} (${names.map(quote).join(', ')}) VALUES (${names.map((_, i) => `$${i + 1}`).join(', ')})`, names.map((n) => sqlValue(row[n])));
      }
    }
    return (await db.query<Record<string, unknown>>(sql)).rows;
  } finally {
    await db.exec(`SET search_path TO public; DROP SCHEMA ${schema} CASCADE;`);
  }
}

/** The table whose key columns a query selects, for each query the claims can produce. */
function selectedTables(claims: readonly Claim[]): Map<string, ClaimTable> {
  const out = new Map<string, ClaimTable>();
  for (const c of claims) {
    const t = c.tables;
    if (t === undefined) continue;
    out.set(duplicateQuery(t.effect), t.effect);
    if (t.source) {
      out.set(lostQuery(t.source, t.effect), t.source);
      out.set(phantomQuery(t.source, t.effect), t.effect);
    }
  }
  return out;
}

/** A returned row as a finding names its key: the table's key entries in the claim's order, constants as written, joined by `|`. */
function keyOf(row: Record<string, unknown>, table: ClaimTable): string {
  return table.key.map((k) => (/^[0-9']/.test(k) ? k.replace(/^'(.*)'$/, '$1') : String(row[k]))).join('|');
}

interface Case {
  readonly scenario: Scenario;
  readonly seed: number;
  readonly row: WindowRow;
}

/** One row per scenario and distinct query, role, outcome and keys. */
function casesOf(scenario: Scenario): Case[] {
  const result = runWindows(scenario);
  const seen = new Map<string, Case>();
  for (const row of result.rows) {
    const q = row.repair;
    if (q === undefined) continue;
    const id = [q.role, q.sql, row.outcome, q.keys.join(',')].join('\u0000');
    if (!seen.has(id)) seen.set(id, { scenario, seed: result.seed, row });
  }
  return [...seen.values()];
}

describe('repair queries on PostgreSQL', () => {
  // A windows sweep of every scenario with tables: minutes on a busy two-core machine.
  it('every query a window row prints finds exactly its damage in the row run end state', async () => {
    const catalogue = await loadCatalogue();
    // A scenario whose claims declare no tables prints no query, so sweeping it would test nothing.
    const scenarios = catalogue.map((e) => e.scenario).filter((s) => s.claims.some((c) => c.tables !== undefined));
    const executed = { repair: 0, check: 0 };
    const texts = { repair: new Set<string>(), check: new Set<string>() };
    const failures: string[] = [];
    for (const scenario of scenarios) {
      const shape = runScenario(scenario, { seed: 1, plan: [], hashTrace: false });
      const tables = selectedTables(scenario.claims);
      for (const { seed, row } of casesOf(scenario)) {
        const q = row.repair!;
        const where = `${scenario.name}, row ${JSON.stringify(row.place)} ${row.fault} (${row.outcome}), ${q.role}: ${q.sql}`;
        const run = runScenario(scenario, { seed, plan: row.plan, hashTrace: false });
        // The replay must be the row's own run: the same outcome and the same query from its findings.
        expect(run.outcome, where).toBe(row.outcome);
        expect(repairQueryOf(scenario.claims, run.outcome, run.findings, row.repeatSeen), where).toEqual(q);
        const sql = q.sql.replace(/^check: /, '');
        let rows: Record<string, unknown>[];
        try {
          rows = await runOn(run, shape, sql);
        } catch (error) {
          failures.push(`${where}\n  PostgreSQL refused it: ${(error as Error).message}`);
          continue;
        }
        executed[q.role]++;
        texts[q.role].add(sql);
        const table = tables.get(q.sql);
        if (table === undefined) {
          failures.push(`${where}\n  no claim table produces this query`);
          continue;
        }
        const found = [...new Set(rows.map((r) => keyOf(r, table)))].sort();
        const expected = q.role === 'repair' ? [...q.keys] : [];
        if (JSON.stringify(found) !== JSON.stringify(expected)) failures.push(`${where}\n  returned ${JSON.stringify(found)}, the finding names ${JSON.stringify(expected)}`);
      }
    }
    console.log(`repair queries executed on PGlite: ${executed.repair} repair (${texts.repair.size} distinct), ${executed.check} check (${texts.check.size} distinct)`);
    expect(failures, failures.join('\n')).toEqual([]);
    // Both roles ran, so neither half of the assertion is vacuous.
    expect(executed.repair).toBeGreaterThan(0);
    expect(executed.check).toBeGreaterThan(0);
  }, 600_000);
});

// A claim read once more, over the end of the design's fault-free run, before any sweep or
// search. At load a claim is read against the design's start (src/scenario/claimProbe.ts), where
// every table is empty: a claim that misspells a column (`r['statuss']`) or a field of a
// component's state reads nothing wrong there. Here the tables have rows, and a misspelt field
// would otherwise be judged in every run: every fact a phantom, or every key "names no value".
// So each field a claim reads that its object lacks, while the object has a field of a name
// close to it, and that no object read here has, is one line of bad input naming the nearest. A
// claim's repair-query tables are held to the same rows: each column a key, a condition or a
// history names must be a column of that table's rows (or of the view the claim declares). And
// no row may have an empty primary-key column, which only a column written from a field its
// records lack gives.
import { nearest } from '../base/nearest.ts';
import type { Claim, ClaimTable } from '../checkers/claims.ts';
import type { WorldView } from '../kernel/worldView.ts';
import { rowsOf, type DatabaseDurable, type DatabaseInput } from '../../models/database.ts';
import { observersOf, READ_MISTAKES } from '../scenario/claimProbe.ts';
import { InputError } from '../base/inputError.ts';
import type { CatalogueEntry } from '../scenario/catalogue.ts';
import type { Scenario } from '../scenario/scenario.ts';
import { claimTables } from '../scenario/wiring.ts';
import { runScenario, type RunRecord } from './runScenario.ts';

/** Refuses a loaded scenario whose claims or drawing read wrong over its fault-free run, every problem on one line. */
export function checkReference(entry: CatalogueEntry): void {
  const problems = referenceProblems(entry.scenario);
  if (problems.length > 0) throw new InputError(`malformed scenario ${entry.file}: ${problems.join('; ')}`);
}

/** What the claims read wrong over the fault-free run's end, one phrase each; none when that run fails (its sweep says why). */
export function referenceProblems(scenario: Scenario): string[] {
  let run: RunRecord;
  try {
    run = runScenario(scenario, { seed: 1, plan: [], hashTrace: false });
  } catch {
    return [];
  }
  return [...keyProblems(run), ...scenario.claims.flatMap((claim) => [...fieldProblems(claim, run), ...columnProblems(claim, run)])];
}

/**
 * Rows whose primary key has an empty column: a component writes the column from a field its
 * records do not carry (a consumer's `columns: { order_id: 'orderid' }`). PostgreSQL refuses a
 * NULL in a primary key; the drawing has it wrong, and every row would collide on the one key.
 */
function keyProblems(run: RunRecord): string[] {
  const problems: string[] = [];
  for (const c of run.components) {
    const tables = (c.input as Partial<DatabaseInput> | undefined)?.tables;
    if (tables === undefined || c.tables === undefined) continue;
    for (const table of c.tables) {
      const spec = tables[table];
      if (spec === undefined || spec.autoId === true) continue;
      let rows: readonly Readonly<Record<string, unknown>>[];
      try {
        rows = rowsOf(run.report.durable[c.name] as DatabaseDurable | undefined, table);
      } catch {
        continue;
      }
      for (const column of spec.key) {
        if (!rows.some((r) => r[column] === null || r[column] === undefined)) continue;
        problems.push(`${c.name}: table ${table} holds a row whose key column ${column} is empty in the fault-free run: does a component write it from a field its records do not carry?`);
      }
    }
  }
  return problems;
}

/** The fields the claim's observers read that their objects lack, where a near name is there instead. */
function fieldProblems(claim: Claim, run: RunRecord): string[] {
  const reads = new FieldReads();
  const view: WorldView = {
    durable: <T>(name: string) => reads.wrap(run.report.durable[name]) as T,
    result: reads.wrap(run.report) as WorldView['result'],
    notes: reads.wrap(run.report.notes) as WorldView['notes'],
  };
  const problems: string[] = [];
  for (const [name, observe] of observersOf(claim)) {
    reads.observer = name;
    try {
      observe(view);
    } catch (error) {
      // A read the drawing cannot answer that only data reaches; anything else is the runs' to judge.
      if (error instanceof Error && READ_MISTAKES.has(error.name)) problems.push(`claim ${JSON.stringify(claim.effect)}: ${name} ${error.message}`);
    }
  }
  for (const [field, { near, observer }] of reads.absent) {
    if (reads.present.has(field)) continue;
    problems.push(`claim ${JSON.stringify(claim.effect)}: ${observer} reads field ${field}, which the rows and states it reads in the fault-free run do not have (did you mean ${near}?)`);
  }
  return problems;
}

/**
 * Read-only stand-ins for the run's end state that record each field read: those an object has,
 * and those it lacks beside a field of a near name. Each object is wrapped over a shallow copy,
 * since a frozen object's fields must read back as themselves, not as their stand-ins.
 */
class FieldReads {
  readonly present = new Set<string>();
  readonly absent = new Map<string, { near: string; observer: string }>();
  private readonly stands = new WeakMap<object, object>();
  /** The observer reading now, named in a problem. */
  observer = '';

  wrap(value: unknown): unknown {
    if (typeof value !== 'object' || value === null || value instanceof Map || value instanceof Set || ArrayBuffer.isView(value)) return value;
    let stand = this.stands.get(value);
    if (stand === undefined) {
      stand = new Proxy(Array.isArray(value) ? [...value] : { ...value }, { get: (target, key, receiver) => this.read(target, key, receiver) });
      this.stands.set(value, stand);
    }
    return stand;
  }

  private read(target: object, key: string | symbol, receiver: unknown): unknown {
    const value = Reflect.get(target, key, receiver);
    if (typeof key === 'symbol') return value;
    if (key in target) {
      if (Object.hasOwn(target, key)) this.present.add(key);
      return typeof value === 'function' ? value : this.wrap(value);
    }
    if (!Array.isArray(target) && !/^\d+$/.test(key)) {
      const near = nearest(key, Object.keys(target));
      if (near !== undefined && !this.absent.has(key)) this.absent.set(key, { near, observer: this.observer });
    }
    return value;
  }
}

/** The columns the claim's repair-query tables name that the rows of their tables lack. */
function columnProblems(claim: Claim, run: RunRecord): string[] {
  const problems: string[] = [];
  for (const [where, table] of claimTables(claim)) {
    const columns = columnsOf(claim, table.table, run);
    if (columns === undefined) continue;
    for (const column of namedColumns(table)) {
      if (columns.has(column)) continue;
      const near = nearest(column, columns);
      problems.push(`claim ${JSON.stringify(claim.effect)}: ${where} names column ${column}, which no row of table ${table.table} has in the fault-free run${near === undefined ? '' : ` (did you mean ${near}?)`}; columns: ${[...columns].join(', ')}`);
    }
  }
  return problems;
}

/** A table's columns: a view's as the claim declares them, a database table's as its rows hold them; undefined when nothing says. */
function columnsOf(claim: Claim, table: string, run: RunRecord): Set<string> | undefined {
  const view = claim.tables?.views?.find((v) => v.table === table);
  if (view !== undefined) return new Set(Object.keys(view.columns));
  const holders = run.components.filter((c) => c.tables?.includes(table));
  const rows = holders.flatMap((c) => {
    try {
      return rowsOf(run.report.durable[c.name] as DatabaseDurable | undefined, table);
    } catch {
      return [];
    }
  });
  // A table the fault-free run leaves empty says nothing of its columns.
  return rows.length === 0 ? undefined : new Set(rows.flatMap((r) => Object.keys(r)));
}

/** The columns a table entry names: its key's columns and those of its expressions, its condition's, and a history's version and order. */
function namedColumns(t: ClaimTable & { version?: string; order?: string }): string[] {
  const out: string[] = [];
  const refs = (sql: string) => [...sql.matchAll(/\$([A-Za-z_][A-Za-z0-9_]*)/g)].map((m) => m[1]!);
  for (const k of t.key) {
    if (/^[0-9']/.test(k)) continue;
    out.push(...(k.includes('$') ? refs(k) : [k]));
  }
  if (t.where !== undefined) out.push(...refs(t.where));
  if (typeof t.version === 'string') out.push(t.version);
  if (typeof t.order === 'string') out.push(t.order);
  return [...new Set(out)];
}

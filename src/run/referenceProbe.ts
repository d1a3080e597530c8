// A claim read once more, over the end of the design's fault-free run, before any sweep or
// search. At load a claim is read against the design's start (src/scenario/claimProbe.ts), where
// every table is empty: a claim that misspells a column (`r['statuss']`) reads nothing wrong
// there. Here the tables have rows, and a misspelt column would otherwise be judged in every run:
// every fact a phantom, or every key "names no value". So a column a claim reads off a row that
// no row it reads has, while the row has a column a letter or two away, is one line of bad input
// naming the nearest. A claim's repair-query tables are held to the same rows: each column a key,
// a condition or a history names must be a column of that table's rows (or of the view the claim
// declares). And no row may have an empty primary-key column, which only a column written from a
// field its records lack gives.
import { editDistance, nearest } from '../base/nearest.ts';
import { NotInDesign } from '../base/notInDesign.ts';
import type { Claim, ClaimTable } from '../checkers/claims.ts';
import type { WorldView } from '../kernel/worldView.ts';
import { rowsOf, type DatabaseDurable, type DatabaseInput } from '../../models/database.ts';
import { OUTBOX_READERS, OUTBOX_ROW_COLUMNS, OUTBOX_TABLE } from '../../models/outboxRow.ts';
import { DELIVER_TYPE, SUBSCRIBE_TYPE } from '../../models/subscription.ts';
import { membershipsOf } from '../faults/linkFaults.ts';
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

/**
 * What the claims read wrong over the fault-free run's end, one phrase each. A fault-free run
 * that meets bad input (a statement on a table its database lacks or keeps no history of) is that
 * one problem, said at load with the file's name, before any sweep of this or another scenario
 * starts; one that fails otherwise gives none here (its sweep says why).
 */
export function referenceProblems(scenario: Scenario): string[] {
  let run: RunRecord;
  try {
    run = runScenario(scenario, { seed: 1, plan: [], hashTrace: false, keepTrace: true });
  } catch (error) {
    return error instanceof InputError ? [error.message] : [];
  }
  return [...keyProblems(run), ...relayProblems(run), ...groupProblems(run), ...scenario.claims.flatMap((claim) => [...fieldProblems(claim, run), ...columnProblems(claim, run)])];
}

/**
 * Every component that joins a consumer group at a broker in the fault-free run, where the group
 * has another member, must say so (`subscribes`, as the shipped consumers do with `groupMember`):
 * that is how every mode knows the broker may move a partition from it while a record is on its
 * way. A member drawn by hand without it would never be offered a rebalance, and a design that
 * breaks under one would hold. Every membership declared must be one the run shows.
 */
function groupProblems(run: RunRecord): string[] {
  const groups = new Map<string, { broker: string; group: string; members: Set<string> }>();
  for (const e of run.report.trace ?? []) {
    if (e.kind !== 'deliver') continue;
    const { from, event } = e.data as { from?: unknown; event?: { type?: unknown; group?: unknown } };
    if (event?.type !== SUBSCRIBE_TYPE || typeof from !== 'string' || typeof event.group !== 'string') continue;
    const id = `${e.component}\u0000${event.group}`;
    const g = groups.get(id) ?? { broker: e.component, group: event.group, members: new Set<string>() };
    g.members.add(from);
    groups.set(id, g);
  }
  const problems: string[] = [];
  for (const { broker, group, members } of groups.values()) {
    if (members.size < 2) continue;
    for (const name of members) {
      const declared = membershipsOf(run.components.find((c) => c.name === name));
      if (declared.some((m) => m.from === broker && m.group === group)) continue;
      const others = [...members].filter((m) => m !== name).join(', ');
      const membership = `{ from: '${broker}', group: '${group}', type: '${DELIVER_TYPE}' }`;
      const fix = declared.length === 0 ? `give it subscribes: ${membership}` : `add ${membership} to its subscribes, a list of one membership per group it joins`;
      problems.push(`${name} joins group ${group} at ${broker} with ${others} but does not declare it, so no mode would offer a rebalance of its deliveries: ${fix}`);
    }
  }
  // And the other way: a declared membership the run never shows would have a rebalance offered
  // that moves nothing, and counted as covered.
  for (const c of run.components) {
    for (const m of membershipsOf(c)) {
      if (groups.get(`${m.from}\u0000${m.group}`)?.members.has(c.name)) continue;
      problems.push(`${c.name} declares it joins group ${m.group} at ${m.from} (subscribes), but in the fault-free run it never subscribes there, so a rebalance of its deliveries would move nothing`);
    }
  }
  return problems;
}

/**
 * An outbox relay publishes the rows whose `published` is exactly `false`. Rows its table holds
 * at the end of the fault-free run that never carry such a column (a misspelt `publised`, or the
 * string `'false'`) would never be published, and every event downstream would read as a lost
 * effect: one line of bad input instead, naming what the rows carry. Every reader of outbox rows
 * (OUTBOX_READERS), a relay or a change-data-capture connector, also names each publish by the
 * row's `event_id` and keys it by its `aggregate_id`: a row without one would be published as
 * `"undefined"`, every record on one key, or never marked published and sent for ever.
 */
function relayProblems(run: RunRecord): string[] {
  const problems: string[] = [];
  for (const c of run.components) {
    const reader = OUTBOX_READERS[String((c.machine as { id?: unknown } | undefined)?.id)];
    if (reader === undefined) continue;
    const input = c.input as { db?: unknown; table?: unknown } | undefined;
    const db = typeof input?.db === 'string' ? input.db : undefined;
    const table = typeof input?.table === 'string' ? input.table : OUTBOX_TABLE;
    if (db === undefined) continue;
    let rows: readonly Readonly<Record<string, unknown>>[];
    try {
      rows = rowsOf(run.report.durable[db] as DatabaseDurable | undefined, table);
    } catch {
      continue;
    }
    if (rows.length === 0) continue;
    const columns = [...new Set(rows.flatMap((r) => Object.keys(r)))];
    const near = (column: string) => {
      const n = nearest(column, columns);
      return n === undefined ? '' : ` (did you mean ${n}?)`;
    };
    const where = `${c.name} publishes the rows of ${db}.${table}`;
    for (const column of OUTBOX_ROW_COLUMNS) {
      const lacking = rows.filter((r) => r[column] === undefined || r[column] === null || r[column] === '').length;
      if (lacking === 0) continue;
      const role = column === 'aggregate_id' ? 'keys each record at the broker by' : reader.polled ? 'names each publish, and marks it sent, by' : 'names each publish by';
      // Where some rows carry it, the column exists and no near name is worth suggesting.
      problems.push(`${where}, and ${role} its ${column}, which ${lacking === rows.length ? `no row carries${near(column)}` : `${lacking} of ${rows.length} rows lack`}; columns: ${columns.join(', ')}`);
    }
    if (!reader.polled || rows.some((r) => typeof r['published'] === 'boolean')) continue;
    const given = rows.find((r) => 'published' in r)?.['published'];
    const why = given !== undefined ? `its published column holds ${JSON.stringify(given)}, not the boolean false` : `its rows have no published column${near('published')}; columns: ${columns.join(', ')}`;
    problems.push(`${where} whose published is false, and ${why}: it would never publish one`);
  }
  return problems;
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

/** The columns the claim's observers read off table rows that no row has, where a row has a column of a near name. */
function fieldProblems(claim: Claim, run: RunRecord): string[] {
  const reads = new RowReads();
  const view: WorldView = {
    durable: <T>(name: string) => {
      if (!Object.hasOwn(run.report.durable, name)) throw new NotInDesign('component', name, Object.keys(run.report.durable), 'the design');
      return withRowStands(run.report.durable[name], reads) as T;
    },
    result: run.report,
    notes: run.report.notes,
  };
  const problems: string[] = [];
  for (const [name, observe] of observersOf(claim)) {
    reads.observer = name;
    try {
      const wrong = shapeProblem(name, observe.call(claim, view));
      if (wrong !== undefined) problems.push(`claim ${JSON.stringify(claim.effect)}: ${name} ${wrong}`);
    } catch (error) {
      // A read the drawing cannot answer that only data reaches; anything else is the runs' to judge.
      if (error instanceof Error && READ_MISTAKES.has(error.name)) problems.push(`claim ${JSON.stringify(claim.effect)}: ${name} ${error.message}`);
    }
  }
  for (const [column, { near, observer }] of reads.absent) {
    if (reads.present.has(column)) continue;
    problems.push(`claim ${JSON.stringify(claim.effect)}: ${observer} reads column ${column}, which no row it reads has in the fault-free run (did you mean ${near}?); if only some runs write ${column}, read it as ('${column}' in row ? row['${column}'] : undefined) and it is not refused`);
  }
  return problems;
}

/** What each observer returns, in words, and how one item of it is held: a list of items unless said. */
const SHAPES: Readonly<Record<string, { readonly shape: string; readonly item?: (x: unknown) => string | undefined; readonly record?: boolean }>> = {
  'outcomes()': { shape: 'a list of { key, intent? }', item: keyed },
  'facts()': { shape: 'a list of key strings', item: aString },
  'sources()': { shape: 'a list of key strings', item: aString },
  'unresolved()': { shape: 'a list of key strings', item: aString },
  'replies()': { shape: 'a list of { intent, outcome, ok }', item: anObject },
  'conflicts()': { shape: 'a list of { key, refused }', item: keyed },
  'revisions()': { shape: 'a list of revisions', item: anObject },
  'versions()': { shape: 'a record of version lists by aggregate key ({ "o-1": [1, 2] })', record: true },
};

function aString(x: unknown): string | undefined {
  return typeof x === 'string' ? undefined : `${described(x)} where a key string belongs (keys are strings: String(row.id))`;
}

function anObject(x: unknown): string | undefined {
  return typeof x === 'object' && x !== null && !Array.isArray(x) ? undefined : `${described(x)} where an object belongs`;
}

function keyed(x: unknown): string | undefined {
  const notObject = anObject(x);
  if (notObject !== undefined) return notObject;
  const key = (x as { key?: unknown }).key;
  if (typeof key === 'string') return undefined;
  return key === undefined ? `an item with no key (${JSON.stringify(x)?.slice(0, 80)})` : `an item whose key is ${described(key)} (keys are strings: String(row.id))`;
}

function described(x: unknown): string {
  if (x === null) return 'null';
  if (Array.isArray(x)) return 'a list';
  if (typeof x === 'object') return 'an object';
  if (typeof x === 'number' || typeof x === 'boolean' || typeof x === 'bigint') return `the ${typeof x} ${String(x)}`;
  return typeof x === 'string' ? `the string ${JSON.stringify(x.slice(0, 40))}` : `a ${typeof x}`;
}

/**
 * An observer that returns the wrong kind of value (a string, a Set, keys as numbers) would make
 * every clause reading it undecided in every run, each saying its keys name no value; over the
 * fault-free run's end it is one line of bad input naming what it returned and what belongs there.
 * A view's rows are a list of row objects.
 */
function shapeProblem(name: string, returned: unknown): string | undefined {
  const want = name.startsWith('view ') ? { shape: 'a list of row objects', item: anObject } : SHAPES[name];
  if (want === undefined) return undefined;
  if (want.record) {
    if (typeof returned !== 'object' || returned === null || Array.isArray(returned)) return `returned ${described(returned)}, not ${want.shape}`;
    for (const [key, list] of Object.entries(returned)) if (!Array.isArray(list) || list.some((v) => typeof v !== 'number')) return `returned ${JSON.stringify(key)}: ${described(list)}, not a list of version numbers; it returns ${want.shape}`;
    return undefined;
  }
  if (!Array.isArray(returned)) return `returned ${described(returned)}, not ${want.shape}`;
  for (const item of returned) {
    const wrong = want.item?.(item);
    if (wrong !== undefined) return `returned ${wrong}; it returns ${want.shape}`;
  }
  return undefined;
}

/**
 * A database's state with each row, current and historical, replaced by a stand-in that records
 * the columns read; any other component's state as it is. Only rows are read this way: a row is a
 * flat record of columns, while a component's own state may hold fields only a fault writes, class
 * instances and methods, where a missing field says nothing of a typo.
 */
function withRowStands(durable: unknown, reads: RowReads): unknown {
  if (typeof durable !== 'object' || durable === null || !('tables' in durable)) return durable;
  const d = durable as DatabaseDurable;
  const tables = Object.fromEntries(Object.entries(d.tables ?? {}).map(([t, entries]) => [t, Object.fromEntries(Object.entries(entries).map(([pk, e]) => [pk, { ...e, row: reads.stand(e.row) }]))]));
  const history = Object.fromEntries(Object.entries(d.history ?? {}).map(([t, rows]) => [t, rows.map((r) => reads.stand(r))]));
  return { ...d, tables, history };
}

/** JavaScript's own look-ups, which a row lacks by design (JSON.stringify asks for toJSON, await for then). */
const BUILT_IN = new Set(['toJSON', 'then', 'constructor', 'valueOf', 'toString', 'toLocaleString', 'inspect', 'asymmetricMatch', '$$typeof', 'nodeType']);

/**
 * Stand-ins for rows that record each column read: those a row has, and those it lacks beside a
 * column one or two edits away (one for a name under eight letters). A row is wrapped over a copy,
 * since a frozen row's columns must read back as themselves.
 */
class RowReads {
  readonly present = new Set<string>();
  readonly absent = new Map<string, { near: string; observer: string }>();
  /** The observer reading now, named in a problem. */
  observer = '';

  stand(row: Readonly<Record<string, unknown>>): Readonly<Record<string, unknown>> {
    if (typeof row !== 'object' || row === null || Array.isArray(row)) return row;
    return new Proxy({ ...row }, { get: (target, key, receiver) => this.read(target, key, receiver) });
  }

  private read(target: Record<string, unknown>, key: string | symbol, receiver: unknown): unknown {
    const value = Reflect.get(target, key, receiver);
    if (typeof key === 'symbol' || BUILT_IN.has(key)) return value;
    if (Object.hasOwn(target, key)) {
      this.present.add(key);
      return value;
    }
    if (key.length >= 4 && !(key in target) && !this.absent.has(key)) {
      const near = Object.keys(target).find((c) => editDistance(c, key) <= (key.length >= 8 ? 2 : 1));
      if (near !== undefined) this.absent.set(key, { near, observer: this.observer });
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
  // A `$` inside a quoted string ('a$usd') names no column.
  const refs = (sql: string) => [...sql.replace(/'(?:[^']|'')*'/g, "''").matchAll(/\$([A-Za-z_][A-Za-z0-9_]*)/g)].map((m) => m[1]!);
  for (const k of t.key) {
    if (/^[0-9']/.test(k)) continue;
    out.push(...(k.includes('$') ? refs(k) : [k]));
  }
  if (t.where !== undefined) out.push(...refs(t.where));
  if (typeof t.version === 'string') out.push(t.version);
  if (typeof t.order === 'string') out.push(t.order);
  return [...new Set(out)];
}

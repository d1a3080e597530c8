// A relational database server, reduced to what delivery designs depend on: tables with a
// primary key and unique keys, transactions (exec opens one, commit or abort ends it),
// `insert … on conflict do nothing`, an upsert that only moves a row's version forwards,
// conditional update by version, and rows that expire after a time-to-live (a dedup table with
// a horizon). Committed rows are durable; open transactions are volatile and are aborted when
// their owner's connection drops (a crash) or the database itself restarts.
//
// Its fault model lives in the network: a `db.committed` reply that is lost leaves the caller
// unable to tell a commit from a failure, which is the ambiguity the seeds start from.
import { assign, emit, setup } from 'xstate';
import { send, type Emitted, type FromPeer, type PeerCrashed } from '../src/emitted.ts';
import type { TimeScale } from '../src/duration.ts';
import type { EvidencePart } from '../src/scenario.ts';

export type Value = string | number | boolean | null;
export type Row = Readonly<Record<string, Value>>;

export interface TableSpec {
  /** Primary-key columns. */
  readonly key: readonly string[];
  /** Further unique keys, each a list of columns. */
  readonly unique?: readonly (readonly string[])[];
  /** Rows older than this many ticks are gone (a dedup record past its horizon). */
  readonly ttlTicks?: number;
  /** The database assigns the single key column (a surrogate id), so nothing stops a repeat. */
  readonly autoId?: boolean;
  /** Keep every committed version of every row, so a checker can see a row move backwards. */
  readonly history?: boolean;
}

export type DbOp =
  | { readonly op: 'insert'; readonly table: string; readonly row: Row; readonly onConflict?: 'nothing' | 'error' }
  | { readonly op: 'upsert'; readonly table: string; readonly row: Row; readonly onlyNewerVersion?: boolean }
  | { readonly op: 'update'; readonly table: string; readonly where: Row; readonly set: Row; readonly ifVersion?: number }
  | { readonly op: 'select'; readonly table: string; readonly where?: Row }
  | { readonly op: 'delete'; readonly table: string; readonly where?: Row };

export interface OpResult {
  /** insert: a row was created (false: a key already existed, nothing done). */
  readonly inserted?: boolean;
  /** upsert: the row was written (false: the stored version was not older). */
  readonly written?: boolean;
  /** update: rows changed. */
  readonly updated?: number;
  readonly rows?: readonly Row[];
  readonly deleted?: number;
  /** The key that conflicted, when an insert found one. */
  readonly conflict?: string;
}

interface StoredRow {
  readonly row: Row;
  readonly at: number;
  readonly seq: number;
}

type Table = Readonly<Record<string, StoredRow>>;

export interface DatabaseDurable {
  readonly tables: Readonly<Record<string, Table>>;
  readonly nextSeq: number;
  /** Committed row versions, in commit order, for tables declared with `history`. */
  readonly history: Readonly<Record<string, readonly Row[]>>;
}

/** A write inside an open transaction: the row to store, or null for a deletion. */
interface TxWrite {
  readonly table: string;
  readonly pk: string;
  readonly row: Row | null;
  readonly insert: boolean;
}

interface Tx {
  readonly owner: string;
  /** The transaction's name, unique among open ones; surrogate ids are drawn from it. */
  readonly id?: string;
  readonly writes: readonly TxWrite[];
  /** An `on conflict: error` insert failed: as in SQL, the transaction can only roll back. */
  readonly failed?: string;
  /** Results of the statements executed so far, by the caller's statement id. */
  readonly done?: Readonly<Record<string, readonly OpResult[]>>;
}

export type DatabaseEvent =
  /**
   * `stmt` names the statement within its transaction: the same statement arriving twice (a
   * duplicated message; a real connection never delivers a statement twice) runs once and gets
   * its first result again.
   */
  | ({ type: 'db.exec'; tx: string; ops: readonly DbOp[]; stmt?: string } & FromPeer)
  | ({ type: 'db.commit'; tx: string } & FromPeer)
  | ({ type: 'db.abort'; tx: string } & FromPeer)
  | ({ type: 'db.run'; ref: string; ops: readonly DbOp[] } & FromPeer)
  | PeerCrashed;

/** Replies a database sends; callers put these in their own event unions. */
export type DatabaseReply =
  | ({ type: 'db.result'; tx: string; results: readonly OpResult[]; stmt?: string } & FromPeer)
  | ({ type: 'db.committed'; tx: string; ok: boolean; conflict?: string } & FromPeer)
  | ({ type: 'db.ran'; ref: string; ok: boolean; results: readonly OpResult[]; conflict?: string } & FromPeer);

export interface DatabaseInput {
  readonly tables: Readonly<Record<string, TableSpec>>;
  readonly durable?: DatabaseDurable;
}

function pkOf(spec: TableSpec, row: Row): string {
  return spec.key.map((k) => String(row[k])).join('|');
}

function matches(row: Row, where: Row | undefined): boolean {
  if (!where) return true;
  for (const k in where) if (row[k] !== where[k]) return false;
  return true;
}

// A committed table is never changed in place (a commit copies it), so its rows in commit order
// are sorted once per table version instead of on every statement that reads it.
const orderedTables = new WeakMap<Table, readonly (readonly [string, StoredRow])[]>();

function bySeq(table: Table | undefined): readonly (readonly [string, StoredRow])[] {
  if (!table) return [];
  let rows = orderedTables.get(table);
  if (!rows) {
    rows = Object.entries(table).sort(([, a], [, b]) => a.seq - b.seq);
    orderedTables.set(table, rows);
  }
  return rows;
}

/** The engine behind the machine: pure functions over the durable tables and one transaction. */
export class Engine {
  constructor(readonly specs: Readonly<Record<string, TableSpec>>) {}

  spec(table: string): TableSpec {
    const s = this.specs[table];
    if (!s) throw new Error(`no table ${table}`);
    return s;
  }

  /** The rows a transaction sees: committed and unexpired, overlaid with its own writes. */
  view(durable: DatabaseDurable, writes: readonly TxWrite[], table: string, now: number): Map<string, Row> {
    const ttl = this.spec(table).ttlTicks;
    const out = new Map<string, Row>();
    for (const [pk, s] of bySeq(durable.tables[table])) if (ttl === undefined || now - s.at < ttl) out.set(pk, s.row);
    for (const w of writes) {
      if (w.table !== table) continue;
      if (w.row === null) out.delete(w.pk);
      else out.set(w.pk, w.row);
    }
    return out;
  }

  conflictOf(view: Map<string, Row>, spec: TableSpec, row: Row, pk: string): string | undefined {
    if (view.has(pk)) return `(${spec.key.join(', ')})`;
    for (const cols of spec.unique ?? []) {
      for (const other of view.values()) {
        if (cols.every((c) => other[c] === row[c])) return `(${cols.join(', ')})`;
      }
    }
    return undefined;
  }

  exec(durable: DatabaseDurable, tx: Tx, ops: readonly DbOp[], now: number): { tx: Tx; results: OpResult[] } {
    let writes = tx.writes;
    let failedBy = tx.failed;
    const results: OpResult[] = [];
    for (const op of ops) {
      const spec = this.spec(op.table);
      const view = this.view(durable, writes, op.table, now);
      switch (op.op) {
        case 'insert': {
          const row = spec.autoId ? { ...op.row, [spec.key[0]!]: `${durable.nextSeq}.${writes.length}@${tx.id ?? tx.owner}` } : op.row;
          const pk = pkOf(spec, row);
          const conflict = this.conflictOf(view, spec, row, pk);
          if (conflict) {
            results.push({ inserted: false, conflict });
            if (op.onConflict === 'error') failedBy ??= `${op.table} ${conflict}`;
          } else {
            writes = [...writes, { table: op.table, pk, row, insert: true }];
            results.push({ inserted: true });
          }
          break;
        }
        case 'upsert': {
          const pk = pkOf(spec, op.row);
          const stored = view.get(pk);
          const older = stored !== undefined && op.onlyNewerVersion && Number(stored['version']) >= Number(op.row['version']);
          if (older) {
            results.push({ written: false });
          } else {
            writes = [...writes, { table: op.table, pk, row: op.row, insert: false }];
            results.push({ written: true });
          }
          break;
        }
        case 'update': {
          let updated = 0;
          for (const [pk, row] of view) {
            if (!matches(row, op.where)) continue;
            if (op.ifVersion !== undefined && row['version'] !== op.ifVersion) continue;
            writes = [...writes, { table: op.table, pk, row: { ...row, ...op.set }, insert: false }];
            updated++;
          }
          results.push({ updated });
          break;
        }
        case 'select':
          results.push({ rows: [...view.values()].filter((r) => matches(r, op.where)) });
          break;
        case 'delete': {
          let deleted = 0;
          for (const [pk, row] of view) {
            if (!matches(row, op.where)) continue;
            writes = [...writes, { table: op.table, pk, row: null, insert: false }];
            deleted++;
          }
          results.push({ deleted });
          break;
        }
      }
    }
    return { tx: { ...tx, writes, ...(failedBy === undefined ? {} : { failed: failedBy }) }, results };
  }

  /** Applies a transaction's writes atomically, or refuses if an insert now collides. */
  commit(durable: DatabaseDurable, tx: Tx, now: number): { durable: DatabaseDurable; ok: boolean; conflict?: string } {
    if (tx.failed !== undefined) return { durable, ok: false, conflict: tx.failed };
    // First committer wins: an insert whose key another transaction committed meanwhile aborts.
    for (const w of tx.writes) {
      if (!w.insert || w.row === null) continue;
      const view = this.view(durable, [], w.table, now);
      const conflict = this.conflictOf(view, this.spec(w.table), w.row, w.pk);
      if (conflict) return { durable, ok: false, conflict: `${w.table} ${conflict}` };
    }
    if (tx.writes.length === 0) return { durable, ok: true };
    const tables: Record<string, Record<string, StoredRow>> = { ...durable.tables } as Record<string, Record<string, StoredRow>>;
    let seq = durable.nextSeq;
    let history = durable.history;
    for (const w of tx.writes) {
      const table = { ...(tables[w.table] ?? {}) };
      if (w.row === null) delete table[w.pk];
      else table[w.pk] = { row: w.row, at: w.insert || !table[w.pk] ? now : table[w.pk]!.at, seq: table[w.pk]?.seq ?? seq++ };
      tables[w.table] = table;
      if (w.row !== null && this.spec(w.table).history) history = { ...history, [w.table]: [...(history[w.table] ?? []), w.row] };
    }
    return { durable: { tables, nextSeq: seq + 1, history }, ok: true };
  }
}

/** Every committed version of a history table's rows, in commit order. */
export function historyOf(durable: DatabaseDurable | undefined, table: string): readonly Row[] {
  return durable?.history[table] ?? [];
}

/** Committed rows of one table, oldest first; for checkers, evidence and tests. */
export function rowsOf(durable: DatabaseDurable | undefined, table: string): Row[] {
  return bySeq(durable?.tables[table]).map(([, s]) => s.row);
}

/** A history table's committed `version`s per row, by `keyColumn`, in commit order: a row moving backwards shows. */
export function versionsOf(durable: DatabaseDurable | undefined, table: string, keyColumn: string): Record<string, number[]> {
  const out: Record<string, number[]> = {};
  for (const r of historyOf(durable, table)) (out[String(r[keyColumn])] ??= []).push(Number(r['version']));
  return out;
}

type Ctx = {
  durable: DatabaseDurable;
  engine: Engine;
  txs: Readonly<Record<string, Tx>>;
  reply: { to: string; event: { type: string } & Record<string, unknown> } | undefined;
};

export const databaseMachine = setup({
  types: {
    context: {} as Ctx,
    input: {} as DatabaseInput,
    events: {} as DatabaseEvent,
    emitted: {} as Emitted,
  },
  actions: {
    reply: emit(({ context }) => send(context.reply!.to, context.reply!.event)),
  },
}).createMachine({
  id: 'database',
  context: ({ input }) => {
    const empty: Record<string, Table> = {};
    for (const name of Object.keys(input.tables)) empty[name] = {};
    return { durable: input.durable ?? { tables: empty, nextSeq: 1, history: {} }, engine: new Engine(input.tables), txs: {}, reply: undefined };
  },
  initial: 'serving',
  states: {
    serving: {
      tags: ['idle'],
      on: {
        'db.exec': {
          actions: [
            assign(({ context, event }) => {
              const key = `${event.from}/${event.tx}`;
              const tx = context.txs[key] ?? { owner: event.from, id: key, writes: [] };
              const stmt = event.stmt;
              const reply = (results: readonly OpResult[]) => ({ to: event.from, event: { type: 'db.result', tx: event.tx, results, ...(stmt === undefined ? {} : { stmt }) } });
              const earlier = stmt === undefined ? undefined : tx.done?.[stmt];
              if (earlier) return { reply: reply(earlier) };
              const { tx: next, results } = context.engine.exec(context.durable, tx, event.ops, event.at);
              const done = stmt === undefined ? next : { ...next, done: { ...next.done, [stmt]: results } };
              return { txs: { ...context.txs, [key]: done }, reply: reply(results) };
            }),
            'reply',
          ],
        },
        'db.commit': {
          actions: [
            assign(({ context, event }) => {
              const key = `${event.from}/${event.tx}`;
              const tx = context.txs[key] ?? { owner: event.from, writes: [] };
              const { [key]: _closed, ...rest } = context.txs;
              const res = context.engine.commit(context.durable, tx, event.at);
              return {
                durable: res.durable,
                txs: rest,
                reply: { to: event.from, event: { type: 'db.committed', tx: event.tx, ok: res.ok, ...(res.conflict ? { conflict: res.conflict } : {}) } },
              };
            }),
            'reply',
          ],
        },
        'db.abort': {
          actions: assign(({ context, event }) => {
            const { [`${event.from}/${event.tx}`]: _closed, ...rest } = context.txs;
            return { txs: rest };
          }),
        },
        'db.run': {
          actions: [
            assign(({ context, event }) => {
              const { tx, results } = context.engine.exec(context.durable, { owner: event.from, id: `${event.from}/${event.ref}`, writes: [] }, event.ops, event.at);
              const res = context.engine.commit(context.durable, tx, event.at);
              return {
                durable: res.durable,
                reply: { to: event.from, event: { type: 'db.ran', ref: event.ref, ok: res.ok, results, ...(res.conflict ? { conflict: res.conflict } : {}) } },
              };
            }),
            'reply',
          ],
        },
        'sys.peerCrashed': {
          // A dropped connection rolls back every transaction it had open.
          actions: assign(({ context, event }) => ({
            txs: Object.fromEntries(Object.entries(context.txs).filter(([, tx]) => tx.owner !== event.peer)),
          })),
        },
      },
    },
  },
});

/** How a design reads one table's rows in evidence: `o-1 ACCEPTED v1` rather than every column. */
export type RowFormats = Readonly<Record<string, (row: Row) => string>>;

/**
 * Evidence for a database: its non-empty tables in declaration order, each row read by the
 * design's format for that table (by default its key columns joined by `/`); a row of a table
 * with a time-to-live also shows the tick it was committed, since its age decides whether it
 * still counts.
 */
export function databaseEvidence(specs: Readonly<Record<string, TableSpec>>, formats: RowFormats = {}): (durable: unknown, time?: TimeScale) => EvidencePart[] {
  return (durable, time) => {
    const d = durable as DatabaseDurable | undefined;
    const parts: EvidencePart[] = [];
    for (const [table, spec] of Object.entries(specs)) {
      const rows = bySeq(d?.tables[table]);
      if (rows.length === 0) continue;
      const format = formats[table] ?? ((r: Row) => spec.key.map((k) => String(r[k])).join('/'));
      parts.push({ label: table, items: rows.map(([, s]) => `${format(s.row)}${spec.ttlTicks === undefined ? '' : ` (committed at ${time ? time.format(s.at) : `tick ${s.at}`})`}`) });
    }
    return parts;
  };
}

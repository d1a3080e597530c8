// A relational database server, reduced to what delivery designs depend on: tables with a
// primary key and unique keys, transactions (exec opens one, commit or abort ends it), row locks
// that make a conflicting statement wait, `insert … on conflict do nothing`, an upsert that only
// moves a row's version forwards, conditional update by version, and rows that expire after a
// time-to-live (a dedup table with a horizon). Committed rows are durable; open transactions
// and waiting statements are volatile and end when their owner's connection drops (a crash) or
// the database itself restarts.
//
// Its fault model lives in the network: a `db.committed` reply that is lost leaves the caller
// unable to tell a commit from a failure, which is the ambiguity the seeds start from. Where the
// design lets it crash (`crashes`), it also crashes at its own windows: `afterStatement` (a
// statement has run in an open transaction, its result not yet sent) and `afterCommit` (a
// transaction that wrote has committed, the reply not yet sent). The committed tables survive;
// open transactions, waiting statements and the step's replies do not. Its clients learn of it
// the way they learn of a lost reply, by their own timeout: every caller already treats a
// silent database as "did not answer, outcome unknown", which is exactly what a connection
// error mid-request means, so no caller needs a second way to be told. The restarted database
// is given the transactions that were open (`broken`) and answers nothing on them, as a
// statement on a closed connection gets no result: otherwise a caller's next statement would
// open a fresh transaction with its earlier statements missing, and a commit of a transaction
// the crash rolled back would report success. Only the first request on each is refused: the
// caller has then met the closed connection, and a later transaction of the same name (a
// restarted process numbers its transactions from one again) is a new one; so is every name of
// a peer that crashed since.
//
// The SQL it implements, statement by statement, with the PostgreSQL behaviour each is held to.
// The differential test test/models/databasePostgres.test.ts holds all of them: it runs generated
// sequences of these statements on this machine and on PostgreSQL (PGlite in every run, a real
// server for interleaved transactions) and compares every answer, wait and final row. Every
// mismatch it found is a named case in test/models/postgres/regressions.ts, cited below as
// [regression: ...]; test/models/database.test.ts describes the same behaviours in the model's
// own terms.
//
// Isolation: READ COMMITTED, PostgreSQL's default, with its row locks; no other level is
// modelled. Each statement reads the rows committed when it starts plus its own transaction's
// writes. A write locks its row until the transaction ends; a statement that needs a row or a
// key another open transaction holds waits (its reply comes when that transaction commits or
// aborts) and then looks at the row again. Where it differs from PostgreSQL's READ COMMITTED:
// when one transaction ends, the statements it held are woken one at a time in arrival order
// (PostgreSQL wakes them together and the operating system decides), and a multi-row update or
// delete locks its rows in commit order (PostgreSQL: heap order).
//
// - insert, onConflict 'nothing' (or unset): INSERT INTO t (...) VALUES (...) ON CONFLICT DO
//   NOTHING. Every unique key is checked, the primary key first. A key value that an open
//   transaction inserted, deleted or changed makes the insert wait for it; then a live row with
//   the value answers `inserted: false` (naming the key, which PostgreSQL does not) and the
//   transaction goes on. After a wait it checks again from the key it waited on, and starts over
//   only if the rest pass and an earlier key was taken meanwhile. A row an upsert merely locked
//   does not make it wait. A key with a NULL in it never conflicts. [regression: a second insert
//   of a key another open transaction inserted...; an insert of a key another open transaction
//   had deleted...; an insert … on conflict do nothing that had waited on a unique key...; NULLs
//   in a unique key conflicted]
// - insert, onConflict 'error': INSERT INTO t (...) VALUES (...). The same checks, but a conflict
//   fails the statement, naming the key as PostgreSQL's unique violation does (`inserted: false,
//   conflict`). While it waits on a further unique key it already holds its primary key, as
//   PostgreSQL has inserted that index entry. [regression: a plain insert waiting on its unique
//   key already holds its primary key]
// - upsert: INSERT INTO t AS s (...) VALUES (...) ON CONFLICT (primary key) DO UPDATE SET c =
//   EXCLUDED.c, ... for the columns it names, with onlyNewerVersion WHERE s.version <
//   EXCLUDED.version (false when either is NULL). It waits for a transaction holding the key,
//   then locks the row it found even when the WHERE keeps it unchanged (`written: false`), and
//   sets only the columns it names. A further unique key it would duplicate fails it.
//   [regression: an upsert of newer versions only let an older version overwrite a newer one...;
//   an upsert that kept the stored row did not lock it; an upsert ignored a further unique key;
//   an upsert's update dropped the columns it did not name]
// - update: UPDATE t SET ... WHERE <where> [AND version = ifVersion]. Rows are the ones matching
//   when the statement starts; a row another open transaction holds makes it wait, and after that
//   one commits the row is matched again in its new version, a row deleted meanwhile skipped
//   (EvalPlanQual). A duplicated unique key fails it. Key columns are never set: the model
//   refuses, as it stores a row under its primary key. [regression: a conditional update of a row
//   another open transaction had updated overwrote it; an update ignored a further unique key]
// - delete: DELETE FROM t [WHERE ...], with the same waits as update. With `olderThan` it also
//   requires the row to have been inserted at least that many ticks ago (`AND created_at <=
//   now() - interval`, a cleanup job's retention); a row its own transaction inserted is new.
//   Counted in ticks, so held by the model's own tests only.
// - select: SELECT * FROM t [WHERE ...]; never waits. A `where` value of null reads IS NULL, and
//   a column a row never named is NULL. [regression: a where on NULL missed a column...]
// - select with `lock: 'skipLocked'`: SELECT * FROM t WHERE ... ORDER BY <commit order> LIMIT n
//   FOR UPDATE SKIP LOCKED, the polling relay's claim. A row another open transaction wrote or
//   locked is passed over, the rest are locked by this transaction until it ends (an update of
//   one by anyone else waits for it), up to `limit`. With `headsOf: column` only the earliest
//   matching row of each value of that column is a candidate, as `AND NOT EXISTS (SELECT 1 FROM
//   t e WHERE e.column = t.column AND <where on e> AND e.id < t.id)` reads it: a claimed head
//   keeps the rows behind it from every other claimant, which is what keeps one aggregate's
//   versions in order across several relays. Held by test/models/database.test.ts only, not by
//   the differential test: the model orders rows by commit, which no PostgreSQL column records
//   (a serial id is drawn at insert, so two writers can commit out of id order).
// - tail: the table's committed row versions from position `from` on, in commit order, as
//   logical decoding streams a publication of that table to a change-data-capture connector;
//   the table must keep `history`, which is that stream. A connector's position is its own.
// - db.run: the statements as one autocommitted batch (one implicit transaction, as a
//   multi-statement query is): it waits like any transaction and commits after its last one.
// - commit: COMMIT. It fails (`ok: false`) only for a transaction whose statement failed: a
//   second writer of a key waits for the first instead of failing at commit. [regression: a
//   transaction that deleted a key and inserted it again could not commit]
// - abort: ROLLBACK, which also cancels that transaction's waiting statement (a client cancels,
//   then rolls back).
// - sys.peerCrashed: the server noticing dropped connections: every transaction of that peer rolls
//   back at once and its waiting statements go unanswered.
// - failure: a failed statement (a conflict under 'error', a duplicated unique key, a deadlock)
//   aborts its transaction at once, as PostgreSQL does on an error: its writes and locks go, each
//   later statement in it answers `error: 'aborted'`, its commit `ok: false`. [regression: a
//   statement after a failed one in its transaction still ran; a failed statement releases its
//   transaction's locks at once, before the rollback]
// - deadlock: a statement that would wait for a transaction that (through others) waits for its
//   own fails with `error: 'deadlock'`. PostgreSQL fails whichever waiter's deadlock_timeout
//   expires first; the model fails the one that closes the cycle, which is PostgreSQL's choice
//   once the others have waited longer than that timeout (the test waits so before such a step).
//   [regression: two transactions writing two rows in opposite orders both went on]
// - idle in transaction: a transaction with no statement for `idleTxTicks` (100 by default) is
//   rolled back, and a commit of it that still arrives fails; any other statement on it gets no
//   answer, as on the session PostgreSQL's idle_in_transaction_session_timeout closes. The
//   simulated network can lose a commit, or deliver a statement after its transaction's abort,
//   without dropping the connection, which TCP never does; the timeout is the server noticing such an abandoned connection, so its locks do not
//   block every retry forever. Held by test/models/database.test.ts only: it is counted in ticks.
//
// Not SQL, and so not held to PostgreSQL (the differential test lists each with its reason):
// `ttlTicks` (the model expires a row itself where a cleanup job would delete it, and a statement
// that takes the key of such a row again says so, `lapsed`, for the trace to show), `capacity`
// (the model evicts a bounded table's oldest rows at commit, as a size-capped dedup store or
// cache does, and notes each, `evicted`), `history` (an
// evidence log for checkers), surrogate id values (`autoId` names a row after its transaction;
// rows are compared without it), a duplicated statement (`stmt` seen twice, answered with its
// first result), and the ordered claim above (SKIP LOCKED in commit order).
import { assign, enqueueActions, setup } from 'xstate';
import { note, send, window, type Emitted, type FromPeer, type NoteEmitted, type PeerCrashed } from '../src/kernel/emitted.ts';
import type { TimeScale } from '../src/base/duration.ts';
import type { EvidencePart } from '../src/scenario/scenario.ts';
import { NotInDesign } from '../src/base/notInDesign.ts';
import { InputError } from '../src/base/inputError.ts';
import { didYouMean } from '../src/base/nearest.ts';
import { backedUp, type BackupSchedule, type DatabaseBackup } from './databaseBackups.ts';
import { ofKind } from '../src/base/notOfKind.ts';

export type Value = string | number | boolean | null;
export type Row = Readonly<Record<string, Value>>;

export interface TableSpec {
  /** Primary-key columns. */
  readonly key: readonly string[];
  /** Further unique keys, each a list of columns. */
  readonly unique?: readonly (readonly string[])[];
  /** Rows older than this many ticks are gone (a dedup record past its horizon). */
  readonly ttlTicks?: number;
  /**
   * At most this many live rows: a commit that would leave more evicts the oldest first, by
   * first commit (a dedup store of bounded size, a cache that drops its oldest key). Each evicted
   * row is noted (`evicted`), since a store says nothing of a key it dropped.
   */
  readonly capacity?: number;
  /** The database assigns the single key column (a surrogate id), so nothing stops a repeat. */
  readonly autoId?: boolean;
  /** Keep every committed version of every row, so a checker can see a row move backwards. */
  readonly history?: boolean;
}

export type DbOp =
  | { readonly op: 'insert'; readonly table: string; readonly row: Row; readonly onConflict?: 'nothing' | 'error' }
  | { readonly op: 'upsert'; readonly table: string; readonly row: Row; readonly onlyNewerVersion?: boolean }
  | { readonly op: 'update'; readonly table: string; readonly where: Row; readonly set: Row; readonly ifVersion?: number }
  | {
      readonly op: 'select';
      readonly table: string;
      readonly where?: Row;
      /** FOR UPDATE SKIP LOCKED: lock the rows it returns, passing over rows another transaction holds. */
      readonly lock?: 'skipLocked';
      /** LIMIT: at most this many rows, in commit order. */
      readonly limit?: number;
      /** Only the earliest matching row of each value of this column is a candidate. */
      readonly headsOf?: string;
    }
  | { readonly op: 'tail'; readonly table: string; readonly from: number; readonly limit?: number }
  | {
      readonly op: 'delete';
      readonly table: string;
      readonly where?: Row;
      /** Only rows inserted at least this many ticks ago (a retention). */
      readonly olderThan?: number;
    };

export interface OpResult {
  /** insert: a row was created (false: a key already existed, nothing done). */
  readonly inserted?: boolean;
  /** upsert: the row was written (false: the stored version was not older). */
  readonly written?: boolean;
  /** update: rows changed. */
  readonly updated?: number;
  readonly rows?: readonly Row[];
  readonly deleted?: number;
  /** The key that conflicted, when an insert found one or a write would have duplicated it. */
  readonly conflict?: string;
  /**
   * The statement did not run: it closed a cycle of waiting transactions (`deadlock`), or an
   * earlier statement of its transaction had failed (`aborted`). Either way the transaction can
   * only roll back.
   */
  readonly error?: 'deadlock' | 'aborted';
  /**
   * insert and upsert on a table with a time to live: the rows whose key the new row takes, and
   * that would have stopped or changed the statement had their time to live not passed. A real
   * database says nothing of a row a cleanup job deleted; the model says it so a trace shows why
   * a repeat got through (the database notes each, see `droppedRowNotes`).
   */
  readonly lapsed?: readonly LapsedRow[];
}

/** A committed row a transaction deleted, as its commit removed it (a cleanup job's sweep, a rebuild's truncation). */
export interface DeletedRow {
  readonly table: string;
  readonly row: Row;
  /** The tick the row's version was committed at. */
  readonly committedAt: number;
}

/** A committed row a table of bounded capacity dropped to make room, as a commit evicted it. */
export interface EvictedRow {
  readonly table: string;
  readonly row: Row;
  /** The tick its version was committed at, and how many rows its table keeps. */
  readonly committedAt: number;
  readonly capacity: number;
}

/** A committed row past its time to live, as a statement met its key. */
export interface LapsedRow {
  readonly table: string;
  readonly row: Row;
  /** The tick its version was committed at, and how long rows of its table live. */
  readonly committedAt: number;
  readonly ttlTicks: number;
}

interface StoredRow {
  readonly row: Row;
  readonly at: number;
  /** Commit order; it stays with a row through updates, so it also tells a row from its replacement. */
  readonly seq: number;
}

type Table = Readonly<Record<string, StoredRow>>;

export interface DatabaseDurable {
  readonly tables: Readonly<Record<string, Table>>;
  readonly nextSeq: number;
  /** Committed row versions, in commit order, for tables declared with `history`. */
  readonly history: Readonly<Record<string, readonly Row[]>>;
  /** With a backup schedule: the backups a restore can reach (models/databaseBackups.ts). */
  readonly backups?: readonly DatabaseBackup<DatabaseDurable['tables'], DatabaseDurable['history']>[];
  /** With a backup schedule: the tick of the last commit (or restore). */
  readonly lastCommitAt?: number;
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
  /** Rows it locked without changing them (an upsert whose version check kept the row), as `table pk`. */
  readonly locked?: readonly string[];
  /**
   * A write whose statement waits in the middle of its unique checks: PostgreSQL has stored the
   * new version and its entries in the indexes checked so far, so those key values are already
   * this transaction's, and so is the committed row when the write changes one (`existing`; an
   * insert's committed namesake, if any, is someone else's row).
   */
  readonly holding?: { readonly table: string; readonly pk: string; readonly row: Row; readonly keys: readonly (readonly string[])[]; readonly existing: boolean };
  /** Why a statement of it failed: as in SQL, the transaction can only roll back. */
  readonly failed?: string;
  /** Results of the statements executed so far, by the caller's statement id. */
  readonly done?: Readonly<Record<string, readonly OpResult[]>>;
  /** An autocommitted batch (`db.run`): it commits by itself, so it is never idle in a transaction. */
  readonly run?: true;
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
  /**
   * PostgreSQL's idle_in_transaction_session_timeout, in ticks: an open transaction that has had
   * no statement for this long is rolled back and its connection closed. The simulated network
   * can lose a commit or deliver a statement after its transaction's abort without dropping the
   * connection, which TCP never does; without the timeout such an orphaned transaction would hold
   * its row locks forever. The default, 100, is longer than any caller's timeout plus a delayed
   * message, so no live transaction is ever cut off.
   */
  readonly idleTxTicks?: number;
  /** After a crash: the transactions that were open (`client/tx`), whose connections it broke. */
  readonly broken?: readonly string[];
  /** Periodic backups kept in the durable state, for a restore to one of a given age (models/databaseBackups.ts). */
  readonly backups?: BackupSchedule;
}

/** The database's failure windows, in the order a transaction reaches them. */
export const DATABASE_WINDOWS = ['afterStatement', 'afterCommit'] as const;

/** The default idle-in-transaction timeout, in ticks (see DatabaseInput.idleTxTicks). */
export const IDLE_TX_TICKS = 100;

/**
 * The database's own timer: a transaction has been idle for the timeout (the World stamps `at`
 * when it fires). Re-armed for what is left of a wait, it names the tick that wait began
 * (`waitedSince`), so the quiet rule sees one wait of the whole timeout, not a short timer that has
 * nothing left to do (src/kernel/quiet.ts).
 */
type IdleTimeout = { readonly type: 'db.idleTimeout'; readonly key: string; readonly at: number; readonly waitedSince?: number };

/** Where a waiting update or delete resumes. */
interface RowsProgress {
  /** The rows the statement matched when it started, by primary key and stored seq (none: its own insert). */
  readonly candidates: readonly (readonly [string, number | undefined])[];
  readonly next: number;
  readonly count: number;
}

/** Where a waiting insert … on conflict do nothing resumes: the key it waited on (PostgreSQL re-checks that one only). */
interface KeysProgress {
  readonly keyFrom: number;
}

/** A statement in progress. */
type Progress = RowsProgress | KeysProgress;

/** A request that cannot run yet: it waits for a lock, or behind its own transaction's waiting statement. */
interface Request {
  /** Its transaction: `from/tx`, or `from/run ref` for an autocommitted batch. */
  readonly key: string;
  readonly event: Extract<DatabaseEvent, { type: 'db.exec' | 'db.commit' | 'db.run' }>;
  /** Results of its statements done so far. */
  readonly results: readonly OpResult[];
  readonly progress?: Progress;
  /** The transaction it waits for. */
  readonly waitsFor?: string;
}

type Reply = {
  readonly to: string;
  readonly event: { type: string } & Record<string, unknown>;
  /** The rows the commit it answers evicted from bounded tables: noted, never sent. */
  readonly evicted?: readonly EvictedRow[];
  /** The committed rows the commit it answers deleted: noted, never sent. */
  readonly deleted?: readonly DeletedRow[];
};

function pkOf(spec: TableSpec, row: Row): string {
  // Most keys are one column: its value is the key, with no list made and joined.
  return spec.key.length === 1 ? String(row[spec.key[0]!]) : spec.key.map((k) => String(row[k])).join('|');
}

/** Equality as a `where` means it: a column the row lacks is NULL, and `null` reads IS NULL. */
function matches(row: Row, where: Row | undefined): boolean {
  if (!where) return true;
  for (const k in where) if ((row[k] ?? null) !== where[k]) return false;
  return true;
}

/** A unique key's values in a row, or undefined when one is NULL: such a key never conflicts. */
function keyValues(row: Row, cols: readonly string[]): readonly Value[] | undefined {
  const out: Value[] = [];
  for (const c of cols) {
    const v = row[c] ?? null;
    if (v === null) return undefined;
    out.push(v);
  }
  return out;
}

const sameValues = (row: Row, cols: readonly string[], values: readonly Value[]) => cols.every((c, i) => row[c] === values[i]);

const lockName = (table: string, pk: string) => `${table} ${pk}`;

/**
 * Which unique keys a statement checks: all of them (an insert), all but the primary key (an
 * upsert's insertion, whose conflict target is the primary key), or those an update changes from
 * the row it had (an unchanged value was the row's already).
 */
type KeysChecked = 'all' | 'unique' | { readonly changedFrom: Row };

function checks(which: KeysChecked, cols: readonly string[], primary: readonly string[], row: Row): boolean {
  if (which === 'all') return true;
  if (which === 'unique') return cols !== primary;
  return cols.some((c) => (row[c] ?? null) !== (which.changedFrom[c] ?? null));
}

/** Whether a transaction has this row already: it wrote it, locked it, or is writing it (see Tx.holding). */
function owns(t: Tx, table: string, pk: string, primary: readonly string[]): boolean {
  if (t.writes.some((w) => w.table === table && w.pk === pk) || (t.locked?.includes(lockName(table, pk)) ?? false)) return true;
  const h = t.holding;
  return h !== undefined && h.table === table && h.pk === pk && (h.existing || h.keys.includes(primary));
}

/** The transaction with one more write; a statement that was holding its row has finished with it. */
function withWrite(t: Tx, table: string, pk: string, row: Row | null, insert: boolean): Tx {
  // One copy: withoutEntry's is new, so the write is added to it in place.
  const out: { -readonly [K in keyof Tx]: Tx[K] } = withoutEntry(t, 'holding');
  out.writes = [...t.writes, { table, pk, row, insert }];
  return out;
}

/**
 * `{ ...record, [key]: value }`, made by Object.assign. Open transactions by key, a transaction's
 * results by statement, idle times by transaction: these records take many shapes, and a spread
 * site that meets many shapes copies on V8's slow path, several times slower, on most steps of
 * every run. The keys keep the order the spread gives them: an existing key keeps its place, a
 * new one comes last.
 */
function withEntry<T extends object>(record: T, key: string, value: unknown): T {
  const out = Object.assign({}, record) as Record<string, unknown>;
  out[key] = value;
  return out as T;
}

/**
 * The rest of `const { [key]: _, ...rest } = record`, copied key by key rather than copied whole
 * and then deleted from: a `delete` turns the copy into a slow dictionary for everything that
 * reads it afterwards.
 */
function withoutEntry<T extends object>(record: T, key: string): T {
  const out: Record<string, unknown> = {};
  for (const k in record) if (k !== key) out[k] = record[k];
  return out as T;
}

/** An update's or delete's rows: matching its where and, for an update, its expected version. */
function wanted(op: Extract<DbOp, { op: 'update' | 'delete' }>, row: Row): boolean {
  return matches(row, op.where) && (op.op === 'delete' || op.ifVersion === undefined || row['version'] === op.ifVersion);
}

/** `a < b` as SQL reads it: NULL (or a missing value) on either side is not less. */
function sqlLess(a: Value | undefined, b: Value | undefined): boolean {
  if (a === null || a === undefined || b === null || b === undefined) return false;
  return a < b;
}

/**
 * What the readers of one committed table version work out once: its rows in commit order and,
 * for a table whose rows never expire, its rows by key as every statement's view starts from.
 */
interface TableOrder {
  readonly rows: readonly (readonly [string, StoredRow])[];
  byPk: ReadonlyMap<string, Row> | undefined;
}

/**
 * A committed table is never changed in place (a commit copies it), so its order is kept on the
 * table version itself, under a symbol and not enumerable: no copy (Object.assign, a spread, a
 * structured clone), key listing or JSON of the table ever sees it, and looking it up costs less
 * than the WeakMap it replaces, whose every new entry (one per commit) the collector must trace.
 */
const ORDER = Symbol('rows in commit order');

function orderOf(table: Table): TableOrder {
  let order = (table as { [ORDER]?: TableOrder })[ORDER];
  if (order === undefined) {
    order = { rows: Object.entries(table).sort(([, a], [, b]) => a.seq - b.seq), byPk: undefined };
    // A table a design froze (a restore's snapshot, say) is read the long way every time.
    if (Object.isExtensible(table)) Object.defineProperty(table, ORDER, { value: order });
  }
  return order;
}

function bySeq(table: Table | undefined): readonly (readonly [string, StoredRow])[] {
  return table ? orderOf(table).rows : [];
}

const NO_ROWS: ReadonlyMap<string, Row> = new Map();

/** What one statement came to: done, waiting for another transaction, or failed. */
/** What every statement of a step reads: the database, the transactions, the table and its rows as `tx` sees them. */
interface StatementAt {
  readonly durable: DatabaseDurable;
  readonly txs: Readonly<Record<string, Tx>>;
  readonly self: string;
  readonly tx: Tx;
  readonly now: number;
  readonly spec: TableSpec;
  readonly view: ReadonlyMap<string, Row>;
}

type StepOutcome =
  | { readonly kind: 'done'; readonly tx: Tx; readonly result: OpResult }
  | { readonly kind: 'wait'; readonly tx: Tx; readonly on: string; readonly progress?: Progress }
  | { readonly kind: 'failed'; readonly result: OpResult; readonly reason: string };

/** The engine behind the machine: pure functions over the durable tables and the open transactions. */
export class Engine {
  /** Whether some table has a capacity, so a commit may evict. */
  private readonly bounded: boolean;

  constructor(
    readonly specs: Readonly<Record<string, TableSpec>>,
    /** A backup schedule: each commit first records the state it changes where a backup was due. */
    readonly backups?: BackupSchedule,
  ) {
    this.bounded = Object.values(specs).some((s) => s.capacity !== undefined);
  }

  spec(table: string): TableSpec {
    const s = this.specs[table];
    if (!s) throw new InputError(`no table ${table}${didYouMean(table, Object.keys(this.specs))}; tables: ${Object.keys(this.specs).join(', ')}`);
    return s;
  }

  private live(s: StoredRow, table: string, now: number): boolean {
    const ttl = this.spec(table).ttlTicks;
    return ttl === undefined || now - s.at < ttl;
  }

  /** The committed, unexpired version of a row. */
  private committed(durable: DatabaseDurable, table: string, pk: string, now: number): StoredRow | undefined {
    const s = durable.tables[table]?.[pk];
    return s && this.live(s, table, now) ? s : undefined;
  }

  /** The rows a transaction sees: committed and unexpired, overlaid with its own writes. */
  view(durable: DatabaseDurable, writes: readonly TxWrite[], table: string, now: number): ReadonlyMap<string, Row> {
    const stored = durable.tables[table];
    let base: ReadonlyMap<string, Row> = NO_ROWS;
    if (stored !== undefined && this.spec(table).ttlTicks === undefined) {
      // Rows that never expire: the committed rows by key are the same for every reader of this
      // table version, so they are made once, and shared where the transaction wrote nothing here.
      const order = orderOf(stored);
      base = order.byPk ??= new Map(order.rows.map(([pk, s]) => [pk, s.row]));
    } else if (stored !== undefined) {
      const live = new Map<string, Row>();
      for (const [pk, s] of bySeq(stored)) if (this.live(s, table, now)) live.set(pk, s.row);
      base = live;
    }
    if (!writes.some((w) => w.table === table)) return base;
    const out = new Map(base);
    for (const w of writes) {
      if (w.table !== table) continue;
      if (w.row === null) out.delete(w.pk);
      else out.set(w.pk, w.row);
    }
    return out;
  }

  /**
   * The open transaction, other than `self`, that changed this row or locked it: a statement
   * that changes the row waits for it.
   */
  private rowHolder(txs: Readonly<Record<string, Tx>>, self: string, table: string, pk: string): string | undefined {
    const lock = lockName(table, pk);
    for (const key in txs) {
      if (key === self) continue;
      const t = txs[key]!;
      if (t.writes.some((w) => w.table === table && w.pk === pk) || t.locked?.includes(lock) || (t.holding?.existing && t.holding.table === table && t.holding.pk === pk)) return key;
    }
    return undefined;
  }

  /**
   * The open transaction, other than `self`, that wrote a version of a row carrying these key
   * values, or changed or deleted a committed row carrying them: a unique check waits for it,
   * since whether the key is taken depends on how that transaction ends. A row it only locked
   * does not count: its committed version stands either way.
   */
  private keyHolder(durable: DatabaseDurable, txs: Readonly<Record<string, Tx>>, self: string, table: string, cols: readonly string[], values: readonly Value[], now: number): string | undefined {
    for (const key in txs) {
      if (key === self) continue;
      const t = txs[key]!;
      for (const w of t.writes) {
        if (w.table !== table) continue;
        if (w.row !== null && sameValues(w.row, cols, values)) return key;
        const c = this.committed(durable, table, w.pk, now);
        if (c && sameValues(c.row, cols, values)) return key;
      }
      const h = t.holding;
      if (h?.table === table) {
        if (h.keys.includes(cols) && sameValues(h.row, cols, values)) return key;
        const c = h.existing ? this.committed(durable, table, h.pk, now) : undefined;
        if (c && sameValues(c.row, cols, values)) return key;
      }
    }
    return undefined;
  }

  /**
   * Checks a row's unique keys, in PostgreSQL's order (the primary key first), as its index
   * insertion does: a key value held by another open transaction means waiting for it (with the
   * keys checked before it, whose index entries exist by then); a live row in the view with the
   * value, other than the row itself (`pk`), is a conflict. `which` picks the keys to check,
   * `from` the first one.
   */
  private checkKeys(
    durable: DatabaseDurable,
    txs: Readonly<Record<string, Tx>>,
    self: string,
    view: ReadonlyMap<string, Row>,
    table: string,
    row: Row,
    pk: string,
    which: KeysChecked,
    now: number,
    from = 0,
  ): { wait: string; at: number; held: readonly (readonly string[])[] } | { conflict: string } | undefined {
    const spec = this.spec(table);
    const keys = [spec.key, ...(spec.unique ?? [])];
    for (let i = from; i < keys.length; i++) {
      const cols = keys[i]!;
      if (!checks(which, cols, spec.key, row)) continue;
      const values = keyValues(row, cols);
      if (values === undefined) continue;
      const holder = this.keyHolder(durable, txs, self, table, cols, values, now);
      if (holder !== undefined) return { wait: holder, at: i, held: keys.slice(0, i) };
      const taken =
        cols === spec.key
          ? pkOf(spec, row) !== pk && view.has(pkOf(spec, row))
          : [...view].some(([otherPk, other]) => otherPk !== pk && sameValues(other, cols, values));
      if (taken) return { conflict: `(${cols.join(', ')})` };
    }
    return undefined;
  }

  /** Runs one statement of transaction `self`. */
  step(durable: DatabaseDurable, txs: Readonly<Record<string, Tx>>, self: string, tx: Tx, op: DbOp, now: number, progress: Progress | undefined): StepOutcome {
    const spec = this.spec(op.table);
    const view = this.view(durable, tx.writes, op.table, now);
    const at: StatementAt = { durable, txs, self, tx, now, spec, view };
    switch (op.op) {
      case 'insert':
        return this.insert(at, op, progress);
      case 'upsert':
        return this.upsert(at, op);
      case 'update':
      case 'delete':
        return this.updateOrDelete(at, op, progress);
      case 'tail': {
        if (!spec.history) throw new InputError(`tail of ${op.table}, which keeps no history: declare it with history to stream its changes`);
        const log = historyOf(durable, op.table);
        return { kind: 'done', tx, result: { rows: log.slice(op.from, op.limit === undefined ? undefined : op.from + op.limit) } };
      }
      case 'select': {
        if (op.lock === undefined && op.limit === undefined && op.headsOf === undefined) return { kind: 'done', tx, result: { rows: [...view.values()].filter((r) => matches(r, op.where)) } };
        return this.claim(txs, self, tx, op, view);
      }
    }
  }

  /** An INSERT: a plain one fails on a taken key; ON CONFLICT DO NOTHING writes nothing then. */
  private insert({ durable, txs, self, tx, now, spec, view }: StatementAt, op: Extract<DbOp, { op: 'insert' }>, progress: Progress | undefined): StepOutcome {
    const row = spec.autoId ? { ...op.row, [spec.key[0]!]: `${durable.nextSeq}.${tx.writes.length}@${tx.id ?? tx.owner}` } : op.row;
    const pk = pkOf(spec, row);
    if (op.onConflict === 'error') {
      // A plain INSERT has written its row and the index entries before the key it waits on.
      const check = this.checkKeys(durable, txs, self, view, op.table, row, '', 'all', now);
      if (check && 'wait' in check) return { kind: 'wait', tx: withEntry(tx, 'holding', { table: op.table, pk, row, keys: check.held, existing: false }), on: check.wait };
      if (check) return { kind: 'failed', result: { inserted: false, conflict: check.conflict }, reason: `${op.table} ${check.conflict}` };
      return { kind: 'done', tx: withWrite(tx, op.table, pk, row, true), result: this.withLapsed({ inserted: true }, durable, op.table, row, now) };
    }
    // ON CONFLICT DO NOTHING checks every key before it writes anything. After a wait it
    // checks again from the key it waited on; if the rest pass, the insertion itself finds a
    // key someone took meanwhile and starts the checks over from the first key.
    const from = progress && 'keyFrom' in progress ? progress.keyFrom : 0;
    let check = this.checkKeys(durable, txs, self, view, op.table, row, '', 'all', now, from);
    if (check === undefined && from > 0) check = this.checkKeys(durable, txs, self, view, op.table, row, '', 'all', now);
    if (check && 'wait' in check) return { kind: 'wait', tx, on: check.wait, progress: { keyFrom: check.at } };
    if (check) return { kind: 'done', tx, result: { inserted: false, conflict: check.conflict } };
    return { kind: 'done', tx: withWrite(tx, op.table, pk, row, true), result: this.withLapsed({ inserted: true }, durable, op.table, row, now) };
  }

  /**
   * `result`, with the committed rows of a table with a time to live that are past it and share
   * a unique key (the primary key among them) with `row`: the rows a statement writing `row` would
   * have met while they lived. On any other table, or with none, `result` itself.
   */
  private withLapsed(result: OpResult, durable: DatabaseDurable, table: string, row: Row, now: number): OpResult {
    const spec = this.spec(table);
    const ttl = spec.ttlTicks;
    const stored = durable.tables[table];
    if (ttl === undefined || stored === undefined) return result;
    // The primary key as rows are stored under it; the other unique keys as their checks compare them.
    const pk = pkOf(spec, row);
    const keys: (readonly [readonly string[], readonly Value[]])[] = [];
    for (const cols of spec.unique ?? []) {
      const values = keyValues(row, cols);
      if (values !== undefined) keys.push([cols, values]);
    }
    const lapsed: LapsedRow[] = [];
    for (const [key, s] of bySeq(stored)) {
      if (!this.live(s, table, now) && (key === pk || keys.some(([cols, values]) => sameValues(s.row, cols, values)))) lapsed.push({ table, row: s.row, committedAt: s.at, ttlTicks: ttl });
    }
    return lapsed.length === 0 ? result : { ...result, lapsed };
  }

  /** An upsert on the primary key (ON CONFLICT DO UPDATE), with or without a version guard. */
  private upsert({ durable, txs, self, tx, now, spec, view }: StatementAt, op: Extract<DbOp, { op: 'upsert' }>): StepOutcome {
    const pk = pkOf(spec, op.row);
    // The conflict target is the primary key: whoever holds that value goes first.
    const keyHolder = owns(tx, op.table, pk, spec.key) ? undefined : this.keyHolder(durable, txs, self, op.table, spec.key, spec.key.map((k) => op.row[k] ?? null), now);
    if (keyHolder !== undefined) return { kind: 'wait', tx, on: keyHolder };
    const stored = view.get(pk);
    if (stored === undefined) {
      const check = this.checkKeys(durable, txs, self, view, op.table, op.row, pk, 'unique', now);
      if (check && 'wait' in check) return { kind: 'wait', tx: withEntry(tx, 'holding', { table: op.table, pk, row: op.row, keys: check.held, existing: false }), on: check.wait };
      if (check) return { kind: 'failed', result: { written: false, conflict: check.conflict }, reason: `${op.table} ${check.conflict}` };
      return { kind: 'done', tx: withWrite(tx, op.table, pk, op.row, true), result: this.withLapsed({ written: true }, durable, op.table, op.row, now) };
    }
    if (!owns(tx, op.table, pk, spec.key)) {
      const holder = this.rowHolder(txs, self, op.table, pk);
      if (holder !== undefined) return { kind: 'wait', tx, on: holder };
    }
    if (op.onlyNewerVersion && !sqlLess(stored['version'], op.row['version'])) {
      // ON CONFLICT DO UPDATE locks the row it found even when its WHERE leaves it unchanged.
      const locked = owns(tx, op.table, pk, spec.key) ? tx : withEntry(tx, 'locked', [...(tx.locked ?? []), lockName(op.table, pk)]);
      return { kind: 'done', tx: locked, result: { written: false } };
    }
    const next = { ...stored, ...op.row };
    const check = this.checkKeys(durable, txs, self, view, op.table, next, pk, { changedFrom: stored }, now);
    if (check && 'wait' in check) return { kind: 'wait', tx: withEntry(tx, 'holding', { table: op.table, pk, row: next, keys: check.held, existing: true }), on: check.wait };
    if (check) return { kind: 'failed', result: { written: false, conflict: check.conflict }, reason: `${op.table} ${check.conflict}` };
    return { kind: 'done', tx: withWrite(tx, op.table, pk, next, false), result: { written: true } };
  }

  /** An UPDATE or DELETE over the rows its WHERE picks, row by row, waiting on any another holds. */
  private updateOrDelete({ durable, txs, self, tx, now, spec, view }: StatementAt, op: Extract<DbOp, { op: 'update' | 'delete' }>, progress: Progress | undefined): StepOutcome {
    if (op.op === 'update') {
      for (const c of Object.keys(op.set)) if (spec.key.includes(c)) throw new Error(`update of ${op.table} sets key column ${c}: the model stores a row under its primary key`);
    }
    const p: RowsProgress = (progress && 'candidates' in progress ? progress : undefined) ?? {
      candidates: [...view]
        .filter(([pk, row]) => wanted(op, row) && (op.op === 'update' || op.olderThan === undefined || this.insertedBy(durable, tx, op.table, pk, now - op.olderThan)))
        .map(([pk]) => [pk, owns(tx, op.table, pk, spec.key) ? undefined : durable.tables[op.table]?.[pk]?.seq] as const),
      next: 0,
      count: 0,
    };
    let current = tx;
    let count = p.count;
    for (let i = p.next; i < p.candidates.length; i++) {
      const [pk, seq] = p.candidates[i]!;
      if (!owns(current, op.table, pk, spec.key)) {
        const holder = this.rowHolder(txs, self, op.table, pk);
        if (holder !== undefined) return { kind: 'wait', tx: current, on: holder, progress: { ...p, next: i, count } };
      }
      // The row as it is now: after a wait, another transaction may have changed or deleted it.
      const latest = this.view(durable, current.writes, op.table, now);
      const row = latest.get(pk);
      const sameRow = seq === undefined || durable.tables[op.table]?.[pk]?.seq === seq;
      if (row === undefined || !sameRow || !wanted(op, row)) continue;
      if (op.op === 'delete') {
        current = withWrite(current, op.table, pk, null, false);
        count++;
        continue;
      }
      const next = { ...row, ...op.set };
      const check = this.checkKeys(durable, txs, self, latest, op.table, next, pk, { changedFrom: row }, now);
      if (check && 'wait' in check) return { kind: 'wait', tx: withEntry(current, 'holding', { table: op.table, pk, row: next, keys: check.held, existing: true }), on: check.wait, progress: { ...p, next: i, count } };
      if (check) return { kind: 'failed', result: { updated: 0, conflict: check.conflict }, reason: `${op.table} ${check.conflict}` };
      current = withWrite(current, op.table, pk, next, false);
      count++;
    }
    return { kind: 'done', tx: current, result: op.op === 'update' ? { updated: count } : { deleted: count } };
  }

  /** Whether a row was inserted by tick `cutoff`: a committed row's insert time; a row its own transaction inserted is not. */
  private insertedBy(durable: DatabaseDurable, tx: Tx, table: string, pk: string, cutoff: number): boolean {
    if (tx.writes.some((w) => w.table === table && w.pk === pk && w.insert)) return false;
    const stored = durable.tables[table]?.[pk];
    return stored !== undefined && stored.at <= cutoff;
  }

  /** A select with a limit, heads only or a SKIP LOCKED lock: the rows it returns, locked where it locks them. */
  private claim(txs: Readonly<Record<string, Tx>>, self: string, tx: Tx, op: Extract<DbOp, { op: 'select' }>, view: ReadonlyMap<string, Row>): StepOutcome {
    const spec = this.spec(op.table);
    const heads = new Set<Value>();
    const rows: Row[] = [];
    let current = tx;
    for (const [pk, row] of view) {
      if (op.limit !== undefined && rows.length >= op.limit) break;
      if (!matches(row, op.where)) continue;
      if (op.headsOf !== undefined) {
        // A row behind an earlier one of its group is never a head, whoever holds that one.
        const group = row[op.headsOf] ?? null;
        if (heads.has(group)) continue;
        heads.add(group);
      }
      if (op.lock === 'skipLocked' && !owns(current, op.table, pk, spec.key)) {
        if (this.rowHolder(txs, self, op.table, pk) !== undefined) continue;
        current = withEntry(current, 'locked', [...(current.locked ?? []), lockName(op.table, pk)]);
      }
      rows.push(row);
    }
    return { kind: 'done', tx: current, result: { rows } };
  }

  /** Applies a transaction's writes atomically; a transaction whose statement failed can only roll back. */
  commit(durable: DatabaseDurable, tx: Tx, now: number, others: Readonly<Record<string, Tx>> = {}): { durable: DatabaseDurable; ok: boolean; conflict?: string; evicted?: readonly EvictedRow[]; deleted?: readonly DeletedRow[] } {
    if (tx.failed !== undefined) return { durable, ok: false, conflict: tx.failed };
    if (tx.writes.length === 0) return { durable, ok: true };
    const base = this.backups === undefined ? undefined : backedUp(durable, this.backups, now);
    const tables = Object.assign({}, durable.tables) as Record<string, Record<string, StoredRow>>;
    let seq = durable.nextSeq;
    let history = durable.history;
    let deleted: Map<string, { readonly pk: string; readonly row: DeletedRow }> | undefined;
    for (const w of tx.writes) {
      // Each table the transaction wrote is copied once, at its first write, never changed in place.
      let table = tables[w.table];
      if (table === undefined || table === durable.tables[w.table]) tables[w.table] = table = Object.assign({}, table);
      if (w.row === null) {
        // Only a row committed before, once: one this transaction inserted and deleted was never there.
        const gone = durable.tables[w.table]?.[w.pk];
        if (gone !== undefined) (deleted ??= new Map()).set(`${w.table}\u0000${w.pk}`, { pk: w.pk, row: { table: w.table, row: gone.row, committedAt: gone.at } });
        delete table[w.pk];
      } else table[w.pk] = { row: w.row, at: w.insert || !table[w.pk] ? now : table[w.pk]!.at, seq: table[w.pk]?.seq ?? seq++ };
      if (w.row !== null && this.spec(w.table).history) history = withEntry(history, w.table, [...(history[w.table] ?? []), w.row]);
    }
    const evicted = this.bounded ? this.evict(durable, tables, now, others) : NONE_EVICTED;
    // A key the transaction deleted and wrote again is still there at its commit: no row went.
    const removed = deleted === undefined ? [] : [...deleted.values()].filter((d) => tables[d.row.table]?.[d.pk] === undefined).map((d) => d.row);
    return { durable: base === undefined ? { tables, nextSeq: seq + 1, history } : { ...base, tables, nextSeq: seq + 1, history }, ok: true, ...(evicted.length === 0 ? {} : { evicted }), ...(removed.length === 0 ? {} : { deleted: removed }) };
  }

  /**
   * Drops the oldest live rows of each bounded table the transaction wrote, until it holds no
   * more than its capacity, from `tables` (the commit's own copies), and returns them. Oldest is
   * by first commit (`at`, which a row past its time to live and inserted again takes anew; then
   * commit order). Rows past their time to live are already gone to a reader, so they take no
   * room. Eviction stops at a row another open transaction changed or locked, as a trimming
   * job's delete would wait for it: the table stays over its bound until a later commit, rather
   * than losing a newer row first.
   */
  private evict(durable: DatabaseDurable, tables: Record<string, Record<string, StoredRow>>, now: number, others: Readonly<Record<string, Tx>>): EvictedRow[] {
    const evicted: EvictedRow[] = [];
    for (const name of Object.keys(tables)) {
      const capacity = this.spec(name).capacity;
      const table = tables[name]!;
      // A table the transaction did not write is the committed one itself, already within bounds.
      if (capacity === undefined || table === durable.tables[name]) continue;
      const live = Object.entries(table)
        .filter(([, s]) => this.live(s, name, now))
        .sort(([, a], [, b]) => a.at - b.at || a.seq - b.seq);
      let over = live.length - capacity;
      for (let i = 0; i < live.length && over > 0; i++) {
        const [pk, s] = live[i]!;
        if (this.rowHolder(others, '', name, pk) !== undefined) break;
        delete table[pk];
        evicted.push({ table: name, row: s.row, committedAt: s.at, capacity });
        over--;
      }
    }
    return evicted;
  }
}

const NONE_EVICTED: readonly EvictedRow[] = [];

/** Every committed version of a history table's rows, in commit order. */
export function historyOf(durable: DatabaseDurable | undefined, table: string): readonly Row[] {
  held(durable, table, 'historyOf');
  const kept = durable?.history[table];
  // Every write to a table that keeps a history adds to it, so a table with rows and no history
  // keeps none: read as empty, a claim's versions would never be checked, and every run hold.
  if (kept === undefined && durable !== undefined && Object.keys(durable.tables[table]!).length > 0) throw new NoHistory(table, Object.keys(durable.history));
  return kept ?? [];
}

/** A read of the history of a table that keeps none: as a misspelt table, one line of bad input once a run has rows in it. */
class NoHistory extends NotInDesign {
  constructor(table: string, kept: readonly string[]) {
    super('table history', table, kept, 'the database read');
    this.message = `reads the history of table ${table}, which keeps none: declare the table with history: true to read its versions${kept.length > 0 ? ` (tables with a history: ${kept.join(', ')})` : ''}`;
  }
}

/** Committed rows of one table, oldest first; for checkers, evidence and tests. */
export function rowsOf(durable: DatabaseDurable | undefined, table: string): Row[] {
  held(durable, table, 'rowsOf');
  return bySeq(durable?.tables[table]).map(([, s]) => s.row);
}

/**
 * Refuses a read of a table the database does not hold, or of a component that is no database:
 * an empty answer would be judged, and a claim reading a misspelt table would find every fact
 * lost (src/base/notInDesign.ts, src/base/notOfKind.ts).
 */
function held(durable: DatabaseDurable | undefined, table: string, reader: string): void {
  ofKind(durable, 'tables', reader, 'a database');
  if (durable !== undefined && !Object.hasOwn(durable.tables, table)) throw new NotInDesign('table', table, Object.keys(durable.tables), 'the database read');
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
  idleTxTicks: number;
  txs: Readonly<Record<string, Tx>>;
  /** Transactions the idle timeout rolled back: a commit for one still to come fails. */
  reaped: readonly string[];
  /**
   * The open transactions whose idle timer is set, each with the tick of its last statement.
   * One timer per transaction: when it fires early (the transaction spoke since), it is set again
   * for the rest, which costs far less than setting it anew at every statement.
   */
  idle: Readonly<Record<string, number>>;
  /** The idle timers the current step sets (with their delay) or cancels. */
  timers: readonly { readonly key: string; readonly delay?: number; readonly waitedSince?: number }[];
  /** Requests that cannot run yet, in arrival order. */
  waiting: readonly Request[];
  /** The replies of the current step, in the order they are sent. */
  replies: readonly Reply[];
  /** Set only after a crash: transactions on connections it broke, whose requests get no answer. */
  broken?: readonly string[];
};

/** The client sessions a crash breaks: every open or waiting transaction (autocommitted batches excepted, as a retry of one is a new request). */
/** A database with `tables` and nothing in them: what a fresh server starts from, and what a backup taken before the workload restores. */
export function emptyDatabase(tables: Readonly<Record<string, TableSpec>>): DatabaseDurable {
  const empty: Record<string, Table> = {};
  for (const name of Object.keys(tables)) empty[name] = {};
  return { tables: empty, nextSeq: 1, history: {} };
}

/**
 * What others may be waiting on besides the database's durable state: the transactions its idle
 * timeout rolled back. Such a rollback changes no row, yet it releases the locks a poller's
 * `SKIP LOCKED` claim was passing over, so it counts as a change for the quiet rule
 * (ComponentSpec.progressOf).
 */
export function databaseReleases(context: unknown): unknown {
  // Its length, so a step that leaves the list as it was (a copy of it included) is no change: a
  // step adds a key (the timeout's rollback) or removes some (a request on one, a peer's crash),
  // never both.
  return (context as Pick<Ctx, 'reaped'>).reaped.length;
}

export function databaseSessions(context: unknown): readonly string[] {
  const c = context as Pick<Ctx, 'txs' | 'waiting'>;
  const keys = new Set<string>();
  for (const [key, tx] of Object.entries(c.txs)) if (!tx.run) keys.add(key);
  for (const w of c.waiting) if (w.event.type !== 'db.run') keys.add(w.key);
  return [...keys];
}

/**
 * The window a step reached, from the replies it is about to send: a commit that wrote (or a
 * batch that did), else a statement answered inside an open transaction.
 */
function windowOf(replies: readonly Reply[]): (typeof DATABASE_WINDOWS)[number] | undefined {
  if (replies.some(wrote)) return 'afterCommit';
  if (replies.some((r) => r.event.type === 'db.result')) return 'afterStatement';
  return undefined;
}

/** Whether a reply reports a committed write: a commit, or a single-statement run that changed a row. Kept at module level, as it runs on every step a database takes. */
function wrote(r: Reply): boolean {
  return (
    (r.event.type === 'db.committed' && r.event['ok'] === true) ||
    (r.event.type === 'db.ran' && r.event['ok'] === true && (r.event['results'] as readonly OpResult[]).some((x) => x.inserted === true || x.written === true || (x.updated ?? 0) > 0 || (x.deleted ?? 0) > 0))
  );
}

/** Which transaction each waiting one waits for, by their keys (`from/tx`, `from/run ref`). */
export function waitingOf(context: { readonly waiting?: readonly Request[] }): ReadonlyMap<string, string> {
  const out = new Map<string, string>();
  for (const r of context.waiting ?? []) if (r.waitsFor !== undefined) out.set(r.key, r.waitsFor);
  return out;
}

/** What serving a request reads and changes: what is stored, the open transactions and the queue. */
type State = Pick<Ctx, 'durable' | 'txs' | 'waiting'>;

/**
 * A State, always made here rather than by spreading another: a spread copies the shape of its
 * source, so states made both ways would have different shapes and every spread of one would
 * take V8's slow path.
 */
function stateOf(durable: State['durable'], txs: State['txs'], waiting: State['waiting']): State {
  return { durable, txs, waiting };
}

/** The transaction a request belongs to. */
function keyOf(event: Request['event']): string {
  return event.type === 'db.run' ? `${event.from}/run ${event.ref}` : `${event.from}/${event.tx}`;
}

/**
 * Runs a request as far as it goes. It either finishes (its reply is returned) or waits again,
 * in which case the returned request says where it resumes.
 */
function attempt(engine: Engine, s: State, r: Request, now: number): { state: State; reply?: Reply; waiting?: Request } {
  const e = r.event;
  if (e.type === 'db.commit') {
    const tx = s.txs[r.key];
    const rest = withoutEntry(s.txs, r.key);
    const res: ReturnType<Engine['commit']> = tx ? engine.commit(s.durable, tx, e.at, rest) : { durable: s.durable, ok: true };
    const event = { type: 'db.committed', tx: e.tx, ok: res.ok, ...(res.conflict ? { conflict: res.conflict } : {}) };
    return { state: stateOf(res.durable, rest, s.waiting), reply: { to: e.from, event, ...(res.evicted === undefined ? {} : { evicted: res.evicted }), ...(res.deleted === undefined ? {} : { deleted: res.deleted }) } };
  }
  const run = e.type === 'db.run';
  let tx: Tx = s.txs[r.key] ?? (run ? { owner: e.from, id: `${e.from}/${e.ref}`, writes: [], run: true } : { owner: e.from, id: r.key, writes: [] });
  const stmt = e.type === 'db.exec' ? e.stmt : undefined;
  const earlier = stmt === undefined ? undefined : tx.done?.[stmt];
  // A duplicated statement is answered with its first result, less the rows past their time to
  // live that the first one met: this one met none, and the trace noted them once.
  if (e.type === 'db.exec' && earlier) return { state: s, reply: { to: e.from, event: { type: 'db.result', tx: e.tx, results: earlier.map(withoutLapsed), ...(stmt === undefined ? {} : { stmt }) } } };
  const results = [...r.results];
  let progress = r.progress;
  for (let i = results.length; i < e.ops.length; i++) {
    if (tx.failed !== undefined) {
      results.push({ error: 'aborted' });
      continue;
    }
    const holderBefore = r.waitsFor;
    const out = engine.step(s.durable, s.txs, r.key, tx, e.ops[i]!, now, progress);
    progress = undefined;
    if (out.kind === 'wait') {
      // Waiting for a transaction that waits, through others, for this one: a deadlock.
      if (out.on === holderBefore || !closesCycle(s.waiting, r.key, out.on)) {
        return { state: stateOf(s.durable, withEntry(s.txs, r.key, out.tx), s.waiting), waiting: { key: r.key, event: e, results, waitsFor: out.on, ...(out.progress ? { progress: out.progress } : {}) } };
      }
      tx = { owner: tx.owner, ...(tx.id === undefined ? {} : { id: tx.id }), writes: [], failed: 'deadlock', ...(tx.done ? { done: tx.done } : {}), ...(tx.run ? { run: tx.run } : {}) };
      results.push({ error: 'deadlock' });
      continue;
    }
    if (out.kind === 'failed') {
      // As PostgreSQL aborts a transaction on an error, its writes and locks go at once.
      tx = { owner: tx.owner, ...(tx.id === undefined ? {} : { id: tx.id }), writes: [], failed: out.reason, ...(tx.done ? { done: tx.done } : {}), ...(tx.run ? { run: tx.run } : {}) };
      results.push(out.result);
      continue;
    }
    tx = out.tx;
    results.push(out.result);
  }
  if (run) {
    const rest = withoutEntry(s.txs, r.key);
    const res = engine.commit(s.durable, tx, e.at, rest);
    const event = { type: 'db.ran', ref: e.ref, ok: res.ok, results, ...(res.conflict ? { conflict: res.conflict } : {}) };
    return { state: stateOf(res.durable, rest, s.waiting), reply: { to: e.from, event, ...(res.evicted === undefined ? {} : { evicted: res.evicted }), ...(res.deleted === undefined ? {} : { deleted: res.deleted }) } };
  }
  const done = stmt === undefined ? tx : withEntry(tx, 'done', withEntry(tx.done ?? {}, stmt, results));
  return { state: stateOf(s.durable, withEntry(s.txs, r.key, done), s.waiting), reply: { to: e.from, event: { type: 'db.result', tx: e.tx, results, ...(stmt === undefined ? {} : { stmt }) } } };
}

function withoutLapsed(result: OpResult): OpResult {
  if (result.lapsed === undefined) return result;
  const { lapsed: _met, ...rest } = result;
  return rest;
}

/** Whether `key` waiting for `holder` would close a cycle of waiting transactions. */
function closesCycle(waiting: readonly Request[], key: string, holder: string): boolean {
  const waitsFor = new Map<string, string>();
  for (const r of waiting) if (r.waitsFor !== undefined && r.key !== key) waitsFor.set(r.key, r.waitsFor);
  const seen = new Set<string>();
  for (let at: string | undefined = holder; at !== undefined && !seen.has(at); at = waitsFor.get(at)) {
    if (at === key) return true;
    seen.add(at);
  }
  return false;
}

/**
 * Takes a new request: it runs now unless its transaction already has one waiting, then every
 * waiting request whose holder has gone is tried again, oldest first, until none moves.
 */
function serve(engine: Engine, s: State, request: Request | undefined, now: number, ended: readonly string[] = []): State & { replies: readonly Reply[]; touched: readonly string[] } {
  const replies: Reply[] = [];
  const touched = [...ended];
  let state = s;
  if (request) touched.push(request.key);
  if (request) {
    if (state.waiting.some((w) => w.key === request.key)) state = stateOf(state.durable, state.txs, [...state.waiting, request]);
    else {
      const out = attempt(engine, state, request, now);
      state = out.waiting ? stateOf(out.state.durable, out.state.txs, [...out.state.waiting, out.waiting]) : out.state;
      if (out.reply) replies.push(out.reply);
    }
  }
  for (let moved = true; moved && state.waiting.length > 0; ) {
    moved = false;
    const ahead = new Set<string>();
    for (let i = 0; i < state.waiting.length; i++) {
      const r = state.waiting[i]!;
      // Only a transaction's first request may run; the rest queue behind it.
      if (ahead.has(r.key)) continue;
      ahead.add(r.key);
      if (r.waitsFor !== undefined && stillHeld(state, r)) continue;
      const others = state.waiting.filter((_, j) => j !== i);
      const out = attempt(engine, stateOf(state.durable, state.txs, others), r, now);
      if (out.waiting) {
        state = stateOf(out.state.durable, out.state.txs, state.waiting.map((w, j) => (j === i ? out.waiting! : w)));
        continue;
      }
      state = stateOf(out.state.durable, out.state.txs, others);
      if (out.reply) replies.push(out.reply);
      touched.push(r.key);
      moved = true;
      break;
    }
  }
  return { durable: state.durable, txs: state.txs, waiting: state.waiting, replies, touched };
}

/** Whether the transaction a request waits for still has the writes or locks that made it wait. */
function stillHeld(s: State, r: Request): boolean {
  const holder = s.txs[r.waitsFor!];
  return holder !== undefined && holder.failed === undefined;
}

/** Ends transactions (an abort, a dropped connection): their writes go, their waiting requests are dropped unanswered. */
function end(c: Ctx, gone: (key: string, tx: Tx | undefined) => boolean): { readonly state: State; readonly ended: readonly string[] } {
  return {
    state: stateOf(
      c.durable,
      Object.fromEntries(Object.entries(c.txs).filter(([key, tx]) => !gone(key, tx))),
      c.waiting.filter((w) => !gone(w.key, c.txs[w.key])),
    ),
    ended: Object.entries(c.txs)
      .filter(([key, tx]) => gone(key, tx))
      .map(([key]) => key),
  };
}

/**
 * The idle timers after a step: a transaction the step ran or woke counts its idle time from now
 * (and gets a timer if it has none); one the step ended loses its timer.
 */
function withTimers(context: Ctx, out: State & { replies: readonly Reply[]; touched: readonly string[] }, now: number) {
  const touched = out.touched;
  let idle = context.idle;
  const timers: { key: string; delay?: number }[] = [];
  for (const key of touched) {
    const tx = out.txs[key];
    const armed = idle[key] !== undefined;
    if (tx !== undefined && !tx.run) {
      idle = withEntry(idle, key, now);
      if (!armed) timers.push({ key, delay: context.idleTxTicks });
    } else if (armed) {
      idle = withoutEntry(idle, key);
      timers.push({ key });
    }
  }
  return { durable: out.durable, txs: out.txs, waiting: out.waiting, replies: out.replies, idle, timers };
}

/** A request on a connection the crash broke gets no answer, once: the caller has then met the closed connection. */
function refuseBroken(context: Ctx, key: string): Partial<Ctx> | undefined {
  if (!context.broken?.includes(key)) return undefined;
  return { replies: [], timers: [], broken: context.broken.filter((k) => k !== key) };
}

/**
 * Serves a request for a transaction. On one the idle timeout rolled back, the first request
 * fails: a commit answers `ok: false`, a statement gets no answer (the server closed that
 * session), as after a crash. Served as a new transaction instead, a statement would run with
 * its transaction's earlier statements missing, and a commit after it would report success.
 */
function serveRequest(context: Ctx, request: Request, now: number) {
  // A request on a connection the crash broke is never answered: the caller times out. Having
  // met the closed connection, the caller's next request under that name is a new one.
  const refused = refuseBroken(context, request.key);
  if (refused) return refused;
  if (!context.reaped.includes(request.key)) return withTimers(context, serve(context.engine, stateOf(context.durable, context.txs, context.waiting), request, now), now);
  const reaped = context.reaped.filter((k) => k !== request.key);
  const e = request.event;
  if (e.type !== 'db.commit') return { reaped, timers: [], replies: [] };
  return { reaped, timers: [], replies: [{ to: e.from, event: { type: 'db.committed', tx: e.tx, ok: false, conflict: 'idle in transaction timeout' } }] };
}

/** The idle timer of a transaction fired: roll it back if it has been idle long enough, else set the timer for the rest. */
function idleTimeout(context: Ctx, key: string, now: number) {
  const activeAt = context.idle[key];
  const idle = withoutEntry(context.idle, key);
  if (idleRolledBack(context, key, now) !== undefined) return rollBackIdle(context, key, idle, now);
  if (context.txs[key] === undefined || activeAt === undefined) return { idle, timers: [], replies: [] };
  // A statement still waiting is not idle: the timer starts over.
  if (context.waiting.some((w) => w.key === key)) return { idle: withEntry(idle, key, now), timers: [{ key, delay: context.idleTxTicks }], replies: [] };
  // Idle for less than the timeout: the timer is set for the rest.
  return { idle: context.idle, timers: [{ key, delay: activeAt + context.idleTxTicks - now, waitedSince: activeAt }], replies: [] };
}

/**
 * The transaction a fired idle timer rolls back, as `idleTimeout` decides it: open, with no
 * statement waiting, and idle for the whole timeout. Undefined when the timer rolls nothing back.
 */
function idleRolledBack(context: Ctx, key: string, now: number): Tx | undefined {
  const activeAt = context.idle[key];
  const tx = context.txs[key];
  if (tx === undefined || activeAt === undefined || context.waiting.some((w) => w.key === key)) return undefined;
  return activeAt + context.idleTxTicks - now > 0 ? undefined : tx;
}

function rollBackIdle(context: Ctx, key: string, idle: Ctx['idle'], now: number) {
  const { state, ended } = end(context, (k) => k === key);
  return { ...withTimers({ ...context, idle }, serve(context.engine, state, undefined, now, ended), now), reaped: [...context.reaped, key] };
}

/**
 * A note for each row past its time to live that a statement answered in these replies met
 * (OpResult.lapsed), each row a commit evicted from a bounded table, and each committed row a
 * commit deleted: a cleanup job's delete or an eviction leaves no trace in a real database, but it
 * is why a redelivered event's inbox insert succeeds or a record was never sent, so the trace says
 * when the row had been committed and what let it go.
 */
function droppedRowNotes(replies: readonly Reply[]): NoteEmitted[] {
  const notes: NoteEmitted[] = [];
  for (const r of replies) {
    const results = (r.event as { results?: readonly OpResult[] }).results;
    if (results !== undefined) for (const result of results) for (const l of result.lapsed ?? []) notes.push(note('lapsed', l));
    // Likewise a row a bounded table dropped: a store says nothing of a key it evicted, but it is
    // why a redelivered event's dedup insert succeeds.
    for (const v of r.evicted ?? []) notes.push(note('evicted', v));
    // And a row a transaction deleted: a sweep or a truncation names no key, but the rows it took
    // may be why a record was never published or a repeat got through.
    for (const v of r.deleted ?? []) notes.push(note('deleted', v));
  }
  return notes;
}

export const databaseMachine = setup({
  types: {
    context: {} as Ctx,
    input: {} as DatabaseInput,
    events: {} as DatabaseEvent | IdleTimeout,
    emitted: {} as Emitted,
  },
  actions: {
    reply: enqueueActions(({ context, enqueue }) => {
      // What the step did to stored rows is noted before the window is marked: a crash at the
      // mark drops everything after it, while the commit it notes has happened all the same.
      for (const n of droppedRowNotes(context.replies)) enqueue.emit(n);
      const reached = windowOf(context.replies);
      if (reached !== undefined) enqueue.emit(window(reached));
      for (const r of context.replies) enqueue.emit(send(r.to, r.event));
      for (const t of context.timers) {
        if (t.delay === undefined) enqueue.cancel(`idle ${t.key}`);
        else enqueue.raise({ type: 'db.idleTimeout', key: t.key, at: 0, ...(t.waitedSince === undefined ? {} : { waitedSince: t.waitedSince }) }, { id: `idle ${t.key}`, delay: t.delay });
      }
    }),
  },
}).createMachine({
  id: 'database',
  meta: { failureWindows: () => DATABASE_WINDOWS },
  context: ({ input }) => {
    return {
      durable: input.durable ?? emptyDatabase(input.tables),
      engine: new Engine(input.tables, input.backups),
      idleTxTicks: input.idleTxTicks ?? IDLE_TX_TICKS,
      txs: {},
      reaped: [],
      idle: {},
      waiting: [],
      replies: [],
      timers: [],
      ...(input.broken === undefined ? {} : { broken: input.broken }),
    };
  },
  initial: 'serving',
  states: {
    serving: {
      tags: ['idle'],
      on: {
        'db.exec': {
          actions: [assign(({ context, event }) => serveRequest(context, { key: keyOf(event), event, results: [] }, event.at)), 'reply'],
        },
        'db.commit': {
          actions: [assign(({ context, event }) => serveRequest(context, { key: keyOf(event), event, results: [] }, event.at)), 'reply'],
        },
        'db.run': {
          actions: [assign(({ context, event }) => serveRequest(context, { key: keyOf(event), event, results: [] }, event.at)), 'reply'],
        },
        'db.abort': {
          // A rollback, which also cancels the transaction's waiting statement.
          actions: [
            assign(({ context, event }) => {
              const key = `${event.from}/${event.tx}`;
              const refused = refuseBroken(context, key);
              if (refused) return refused;
              // Rolling back a transaction the idle timeout already rolled back ends it all the same.
              if (context.reaped.includes(key)) return { reaped: context.reaped.filter((k) => k !== key), timers: [], replies: [] };
              const { state, ended } = end(context, (k) => k === key);
              return withTimers(context, serve(context.engine, state, undefined, event.at, [key, ...ended]), event.at);
            }),
            'reply',
          ],
        },
        'sys.peerCrashed': {
          // A dropped connection rolls back every transaction it had open.
          actions: [
            assign(({ context, event }) => {
              const { state, ended } = end(context, (key, tx) => (tx?.owner ?? key.slice(0, key.indexOf('/'))) === event.peer);
              const served = withTimers(context, serve(context.engine, state, undefined, event.at, ended), event.at);
              // A restarted peer opens new connections: none of its names is broken or timed out any more.
              const mine = (k: string) => k.startsWith(`${event.peer}/`);
              const reaped = context.reaped.some(mine) ? { reaped: context.reaped.filter((k) => !mine(k)) } : {};
              return context.broken === undefined ? { ...served, ...reaped } : { ...served, ...reaped, broken: context.broken.filter((k) => !mine(k)) };
            }),
            'reply',
          ],
        },
        'db.idleTimeout': {
          actions: [
            // The rollback is the server's own, with no message to show it: a note says which
            // transaction it ended, and the rows it had written, which go with it.
            enqueueActions(({ context, event, enqueue }) => {
              const tx = idleRolledBack(context, event.key, event.at);
              if (tx !== undefined) enqueue.emit(note('idleRollback', { tx: event.key, idleTicks: context.idleTxTicks, rows: tx.writes.flatMap((w) => (w.row === null ? [] : [w.row])) }));
            }),
            assign(({ context, event }) => idleTimeout(context, event.key, event.at)),
            'reply',
          ],
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

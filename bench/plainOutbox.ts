// The Mercury outbox pipeline written the plain way: every component (client, source, the two
// databases, relay, broker, consumer) is a hand-written Stepper, a small reducer that switches
// on its state and the event type over plain objects, with no XState at run time. It is the
// baseline the benchmark holds the machine layer against.
//
// The steppers run inside the real World, so the loop, the phases, the quiet rule, crashes,
// restarts and fault striking are the World's own and are not repeated here. To be a fair
// baseline each reducer asks the World for exactly what its model asks for (models/client.ts,
// source.ts, database.ts, relay.ts, broker.ts, consumer.ts, as models/designs/orderPipeline.ts
// composes them for scenarios/mercury-outbox.ts): the same sends and notes in the same order,
// the same delayed timers with XState's ids (`xstate.after.<delay>.<machine>.<state>`) or the
// model's own (the database's `idle <tx>`) and cancels, the same state names and `idle` tags,
// and the same durable/volatile split, with a new durable object exactly when the model makes
// one (the World counts that as progress).
// test/bench/plainOutbox.test.ts checks that they give the compiled models' trace hashes, and
// holds the database reducer to the database model alone on generated sequences of statements.
//
// Each reducer implements the options the outbox design uses and no others: a component whose
// input asks for anything else (another source design, client retries, a relay marking before
// it sends, an inbox outside the effect's transaction, several partitions) is refused when the
// World makes its stepper, so a comparison can never run a protocol the baseline does not have.
import type { EventObject } from 'xstate';
import type { ExecutedAction } from '../src/kernel/compiledMachine.ts';
import { runScenario, type RunRecord, type RunSpec } from '../src/run/runScenario.ts';
import { timeScaleOf, type DesignComponent, type Scenario } from '../src/scenario/scenario.ts';
import type { MachineSnapshot, Stepper } from '../src/kernel/stepper.ts';
import mercuryOutbox from '../scenarios/mercury-outbox.ts';
import type { BrokerDurable, BrokerInput, LogRecord, Payload } from '../models/broker.ts';
import type { ClientDurable, ClientInput, Command } from '../models/client.ts';
import type { ConsumerInput } from '../models/consumer.ts';
import { IDLE_TX_TICKS, type DatabaseDurable, type DatabaseInput, type OpResult, type Row, type TableSpec, type Value } from '../models/database.ts';
import type { RelayInput } from '../models/relay.ts';
import type { SourceInput } from '../models/source.ts';

/** An event as it reaches a component: its type, its fields, and `from` and `at` from the World. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Ev = EventObject & Record<string, any>;

/** The snapshot the World reads: a state name, a context whose `durable` survives a crash, a tag. */
class Snapshot<C> implements MachineSnapshot {
  readonly status = 'active';
  constructor(
    readonly value: string,
    readonly context: C,
    private readonly idle: boolean,
  ) {}
  hasTag(tag: string): boolean {
    return this.idle && tag === 'idle';
  }
}

/** A state's `after` timer under XState's name for it, with its raise and cancel made once. */
interface Timer {
  readonly type: string;
  readonly raise: ExecutedAction;
  readonly cancel: ExecutedAction;
}

function timer(machine: string, state: string, delayName: string, ticks: number): Timer {
  const id = `xstate.after.${delayName}.${machine}.${state}`;
  return { type: id, raise: { type: 'xstate.raise', params: { event: { type: id }, id, delay: ticks } }, cancel: { type: 'xstate.cancel', params: { sendId: id } } };
}

/** A component's input, refused when it asks for an option this baseline does not implement. */
function refuse(component: string, what: string): never {
  throw new Error(`the plain outbox baseline does not implement ${component} with ${what}`);
}

/**
 * What every reducer shares: the actions of the step in progress, and leaving and entering a
 * state, which cancel and arm its timer as XState's exit and entry do (entry actions first).
 */
abstract class Reducer<C> implements Stepper {
  lastReentered = false;
  protected out: ExecutedAction[] = [];

  constructor(
    private readonly timers: Readonly<Record<string, Timer>>,
    private readonly idleState: string,
  ) {}

  abstract initial(input: Record<string, unknown> | undefined, actions: ExecutedAction[]): MachineSnapshot;
  abstract transition(snapshot: MachineSnapshot, event: EventObject, actions: ExecutedAction[]): MachineSnapshot;

  protected send(to: string, event: Ev): void {
    this.out.push({ type: 'xstate.emit', params: { event: { type: 'send', to, event } } });
  }

  protected note(kind: string, data: unknown): void {
    this.out.push({ type: 'xstate.emit', params: { event: { type: 'note', kind, data } } });
  }

  protected exit(state: string): void {
    const t = this.timers[state];
    if (t !== undefined) this.out.push(t.cancel);
  }

  /** Enters `state` (after its entry actions, which the caller has already asked for). */
  protected enter(state: string, context: C): Snapshot<C> {
    const t = this.timers[state];
    if (t !== undefined) this.out.push(t.raise);
    return new Snapshot(state, context, state === this.idleState);
  }

  /** Whether `event` is the timer of `state` firing. */
  protected fired(state: string, event: EventObject): boolean {
    return event.type === this.timers[state]?.type;
  }
}

// The client: one command at a time, a gap between them, a timeout on each reply.

interface ClientCtx {
  readonly durable: ClientDurable;
  readonly attempt: number;
  readonly ref: string;
}

class ClientReducer extends Reducer<ClientCtx> {
  private readonly target: string;
  private readonly commands: readonly Command[];

  constructor(input: ClientInput) {
    super(
      {
        pacing: timer('client', 'pacing', 'gap', input.gapTicks ?? 5),
        awaitingReply: timer('client', 'awaitingReply', 'timeout', input.timeoutTicks ?? 60),
      },
      'done',
    );
    if ((input.retry ?? 'none') !== 'none') refuse('client', `retry ${input.retry}`);
    if (input.keyed) refuse('client', 'idempotency keys');
    this.target = input.target;
    this.commands = input.commands;
  }

  initial(input: Record<string, unknown> | undefined, actions: ExecutedAction[]): MachineSnapshot {
    this.out = actions;
    const durable = (input?.['durable'] as ClientDurable | undefined) ?? { next: 0, replies: [], attempted: [] };
    return this.pacing({ durable, attempt: 0, ref: '' });
  }

  /** Pacing, left at once for `done` when every command has been sent. */
  private pacing(ctx: ClientCtx): Snapshot<ClientCtx> {
    const paced = this.enter('pacing', ctx);
    if (ctx.durable.next < this.commands.length) return paced;
    this.exit('pacing');
    return this.enter('done', ctx);
  }

  transition(snapshot: MachineSnapshot, e: Ev, actions: ExecutedAction[]): MachineSnapshot {
    this.out = actions;
    this.lastReentered = false;
    const ctx = snapshot.context as ClientCtx;
    switch (snapshot.value) {
      case 'pacing': {
        if (!this.fired('pacing', e)) return snapshot;
        this.exit('pacing');
        const command = this.commands[ctx.durable.next]!;
        const attempt = ctx.attempt + 1;
        const ref = `${command.intent}#${attempt}`;
        const attempted = ctx.durable.attempted.includes(command.intent) ? ctx.durable.attempted : [...ctx.durable.attempted, command.intent];
        this.send(this.target, { type: 'cmd', ref, command });
        return this.enter('awaitingReply', { ...ctx, attempt, ref, durable: { ...ctx.durable, attempted } });
      }
      case 'awaitingReply': {
        if (e.type === 'cmd.reply' && e.ref === ctx.ref) {
          this.exit('awaitingReply');
          const reply = { intent: this.commands[ctx.durable.next]!.intent, key: null, ok: e.ok, outcome: e.outcome, replayed: e.replayed ?? false };
          return this.pacing({ ...ctx, durable: { ...ctx.durable, next: ctx.durable.next + 1, replies: [...ctx.durable.replies, reply] }, attempt: 0 });
        }
        if (!this.fired('awaitingReply', e)) return snapshot;
        this.exit('awaitingReply');
        return this.pacing({ ...ctx, durable: { ...ctx.durable, next: ctx.durable.next + 1 }, attempt: 0 });
      }
      default:
        return snapshot;
    }
  }
}

// The source: the order and its outbox row in one transaction, committed, then the reply.

interface SourceCtx {
  readonly durable: Record<string, never>;
  readonly pending: { readonly cmd: Ev; readonly from: string; readonly n: number } | undefined;
  /** Commands that arrived while it was busy, taken in arrival order once it is idle. */
  readonly queued: readonly Ev[];
  readonly handled: number;
}

class SourceReducer extends Reducer<SourceCtx> {
  private readonly db: string;

  constructor(input: SourceInput) {
    const timeout = input.timeoutTicks ?? 20;
    super(
      {
        writingSource: timer('source', 'writingSource', 'timeout', timeout),
        beforeSourceCommit: timer('source', 'beforeSourceCommit', '1', 1),
        committing: timer('source', 'committing', 'timeout', timeout),
        afterSourceCommit: timer('source', 'afterSourceCommit', '1', 1),
      },
      'idle',
    );
    if (input.design !== 'outbox') refuse('source', `design ${input.design}`);
    if (input.checkoutKeys) refuse('source', 'checkout keys');
    if ((input.aggregateTable ?? 'orders') !== 'orders' || (input.outboxTable ?? 'outbox') !== 'outbox') refuse('source', 'other table names');
    this.db = input.db;
  }

  initial(input: Record<string, unknown> | undefined, actions: ExecutedAction[]): MachineSnapshot {
    this.out = actions;
    return this.enter('idle', { durable: (input?.['durable'] as Record<string, never> | undefined) ?? {}, pending: undefined, queued: [], handled: 0 });
  }

  private tx(ctx: SourceCtx): string {
    return `cmd-${ctx.pending?.n}`;
  }

  /** Back to idle with the reply to the client. */
  private reply(ctx: SourceCtx, ok: boolean): Snapshot<SourceCtx> {
    const p = ctx.pending!;
    this.send(p.from, { type: 'cmd.reply', ref: p.cmd['ref'], ok, outcome: ok ? p.cmd['command'].aggregate_id : 'failed' });
    // Idle takes the next command that waited its turn at once, as the model's `always` does.
    const [waiting, ...rest] = ctx.queued;
    if (waiting !== undefined) return this.accept({ ...ctx, queued: rest }, waiting);
    return this.enter('idle', ctx);
  }

  /** Takes a command: the order and its outbox row written in one transaction. */
  private accept(ctx: SourceCtx, e: Ev): Snapshot<SourceCtx> {
    const n = ctx.handled + 1;
    const next: SourceCtx = { ...ctx, pending: { cmd: e, from: e['from'], n }, handled: n };
    const c = e['command'] as Command;
    const fact = { event_id: `evt-${c.aggregate_id}-v${c.version}`, aggregate_id: c.aggregate_id, aggregate_version: c.version, event_type: c.event_type, status: c.status, ...(c.data ?? {}) };
    const state =
      c.version === 1
        ? { op: 'insert', table: 'orders', row: { order_id: c.aggregate_id, intent: c.intent, status: c.status, version: c.version }, onConflict: 'error' }
        : { op: 'update', table: 'orders', where: { order_id: c.aggregate_id }, set: { status: c.status, version: c.version }, ifVersion: c.version - 1 };
    this.send(this.db, { type: 'db.exec', tx: `cmd-${n}`, ops: [state, { op: 'insert', table: 'outbox', row: { ...fact, published: false }, onConflict: 'error' }] });
    return this.enter('writingSource', next);
  }

  transition(snapshot: MachineSnapshot, e: Ev, actions: ExecutedAction[]): MachineSnapshot {
    this.out = actions;
    this.lastReentered = false;
    const ctx = snapshot.context as SourceCtx;
    // A command that arrives while another is being handled waits its turn.
    if (e.type === 'cmd' && snapshot.value !== 'idle') return new Snapshot(snapshot.value as string, { ...ctx, queued: [...ctx.queued, e] }, false);
    switch (snapshot.value) {
      case 'idle': {
        if (e.type !== 'cmd') return snapshot;
        return this.accept(ctx, e);
      }
      case 'writingSource':
        if (e.type === 'db.result') {
          if (e['tx'] !== this.tx(ctx)) return snapshot;
          this.exit('writingSource');
          if ((e['results'] as OpResult[]).every((r) => r.inserted !== false && r.updated !== 0)) return this.enter('beforeSourceCommit', ctx);
          this.send(this.db, { type: 'db.abort', tx: this.tx(ctx) });
          return this.reply(ctx, false);
        }
        if (!this.fired('writingSource', e)) return snapshot;
        this.exit('writingSource');
        this.send(this.db, { type: 'db.abort', tx: this.tx(ctx) });
        return this.reply(ctx, false);
      case 'beforeSourceCommit':
        if (!this.fired('beforeSourceCommit', e)) return snapshot;
        this.exit('beforeSourceCommit');
        this.send(this.db, { type: 'db.commit', tx: this.tx(ctx) });
        return this.enter('committing', ctx);
      case 'committing':
        if (e.type === 'db.committed') {
          if (e['tx'] !== this.tx(ctx)) return snapshot;
          this.exit('committing');
          return e['ok'] ? this.enter('afterSourceCommit', ctx) : this.reply(ctx, false);
        }
        if (!this.fired('committing', e)) return snapshot;
        this.exit('committing');
        return this.reply(ctx, false);
      case 'afterSourceCommit':
        if (!this.fired('afterSourceCommit', e)) return snapshot;
        this.exit('afterSourceCommit');
        return this.reply(ctx, true);
      default:
        return snapshot;
    }
  }
}

// A database: committed rows per table and open transactions per (connection, tx), under READ
// COMMITTED with row locks, as models/database.ts serves the tables and statements the outbox
// design uses (a primary key only; insert, conditional update, select). A statement that needs a
// row or a key another open transaction wrote waits for it; when that transaction ends, the
// waiting requests are tried again one at a time in arrival order; a wait that would close a
// cycle fails as a deadlock; a transaction idle for `idleTxTicks` is rolled back by the
// database's own timer (`idle <tx>`), and a commit of it that still arrives fails. The durable
// part has the model's shape (tables of rows with their commit tick and sequence), so the claim
// and the evidence read it as they read the model's.

type Op =
  | { readonly op: 'insert'; readonly table: string; readonly row: Row; readonly onConflict?: 'nothing' | 'error' }
  | { readonly op: 'update'; readonly table: string; readonly where: Row; readonly set: Row; readonly ifVersion?: number }
  | { readonly op: 'select'; readonly table: string; readonly where?: Row };

interface Stored {
  readonly row: Row;
  readonly at: number;
  readonly seq: number;
}

type Table = Readonly<Record<string, Stored>>;

interface Write {
  readonly table: string;
  readonly pk: string;
  readonly row: Row;
  readonly insert: boolean;
}

interface Tx {
  readonly owner: string;
  /** Its writes, which are also its row locks. */
  readonly writes: readonly Write[];
  /** Why a statement of it failed (a conflict under `on conflict: error`, a deadlock): it can only roll back. */
  readonly failed?: string;
  /** Results of the statements run so far, by the caller's statement id. */
  readonly done?: Readonly<Record<string, readonly OpResult[]>>;
  /** An autocommitted batch (`db.run`), open only while it waits: it is never idle in a transaction. */
  readonly run?: true;
}

/** Where a waiting update resumes: the rows it matched when it started (primary key, committed seq), and how far it got. */
interface Progress {
  readonly candidates: readonly (readonly [string, number | undefined])[];
  readonly next: number;
  readonly count: number;
}

/** A request that cannot run yet: it waits for a lock, or behind its own transaction's waiting statement. */
interface Request {
  /** Its transaction: `from/tx`, or `from/run ref` for an autocommitted batch. */
  readonly key: string;
  readonly event: Ev;
  /** Results of its statements done so far. */
  readonly results: readonly OpResult[];
  readonly progress?: Progress;
  /** The transaction it waits for. */
  readonly waitsFor?: string;
}

interface DbCtx {
  readonly durable: DatabaseDurable;
  /** Open transactions by key, in the order they opened: a statement waits for the first that holds what it needs. */
  readonly txs: Readonly<Record<string, Tx>>;
  /** Requests that cannot run yet, in arrival order. */
  readonly waiting: readonly Request[];
  /** The open transactions whose idle timer is set, each with the tick of its last statement. */
  readonly idle: Readonly<Record<string, number>>;
  /** Transactions the idle timeout rolled back: a commit for one still to come fails. */
  readonly reaped: readonly string[];
}

/** Equality as a `where` means it: a column the row lacks is NULL, and `null` reads IS NULL. */
const matches = (row: Row, where: Row | undefined) => {
  if (where) for (const k in where) if ((row[k] ?? null) !== where[k]) return false;
  return true;
};

/** An update's rows: matching its where and its expected version. */
const wanted = (op: Extract<Op, { op: 'update' }>, row: Row) => matches(row, op.where) && (op.ifVersion === undefined || row['version'] === op.ifVersion);

/** Whether a transaction's writes include this row. */
function wrote(writes: readonly Write[], table: string, pk: string): boolean {
  for (const w of writes) if (w.table === table && w.pk === pk) return true;
  return false;
}

/** Whether two rows carry the same key values (neither has a NULL in them: the caller checked one). */
function sameKey(a: Row, b: Row, cols: readonly string[]): boolean {
  for (const c of cols) if (a[c] !== b[c]) return false;
  return true;
}

/** Whether a row has a NULL in its key: such a key never conflicts. */
function nullIn(row: Row, cols: readonly string[]): boolean {
  for (const c of cols) if ((row[c] ?? null) === null) return true;
  return false;
}

/** The transaction after a statement of it failed: its writes, and so its locks, go at once, as PostgreSQL aborts it. */
function failedTx(tx: Tx, failed: string): Tx {
  return { owner: tx.owner, writes: [], failed, ...(tx.done ? { done: tx.done } : {}), ...(tx.run ? { run: true as const } : {}) };
}

const INSERTED: OpResult = { inserted: true };
const ABORTED: OpResult = { error: 'aborted' };
const DEADLOCK: OpResult = { error: 'deadlock' };
const NO_RESULTS: readonly OpResult[] = [];

/** The database's idle timer for a transaction, under the model's id for it. */
/** The idle timer of a transaction; re-armed for the rest of a wait, it names when that wait began, as the model's does. */
const idleTimer = (key: string, delay: number, waitedSince?: number): ExecutedAction => ({ type: 'xstate.raise', params: { event: { type: 'db.idleTimeout', key, at: 0, ...(waitedSince === undefined ? {} : { waitedSince }) }, id: `idle ${key}`, delay } });
const idleCancel = (key: string): ExecutedAction => ({ type: 'xstate.cancel', params: { sendId: `idle ${key}` } });

class DatabaseReducer extends Reducer<DbCtx> {
  private readonly keys: Readonly<Record<string, readonly string[]>>;
  /** The conflict each table's key reports, `(order_id, reservation_version)`. */
  private readonly conflicts: Readonly<Record<string, string>>;
  private readonly idleTxTicks: number;
  // The step in progress works on its own copies of the context's transactions and waiting
  // requests, changes them in place, and leaves them in the next context.
  private durable!: DatabaseDurable;
  private txs!: Record<string, Tx>;
  private waiting!: Request[];
  /** Transactions the step ended, ran or woke, in order: their idle timers are set or cancelled after it. */
  private readonly touched: string[] = [];

  constructor(
    private readonly name: string,
    input: DatabaseInput,
  ) {
    super({}, 'serving');
    const keys: Record<string, readonly string[]> = {};
    const conflicts: Record<string, string> = {};
    for (const [table, spec] of Object.entries(input.tables) as [string, TableSpec][]) {
      if (spec.unique || spec.ttlTicks !== undefined || spec.autoId || spec.history) refuse(name, `table ${table}'s unique keys, time-to-live, surrogate id or history`);
      keys[table] = spec.key;
      conflicts[table] = `(${spec.key.join(', ')})`;
    }
    this.keys = keys;
    this.conflicts = conflicts;
    this.idleTxTicks = input.idleTxTicks ?? IDLE_TX_TICKS;
  }

  initial(input: Record<string, unknown> | undefined, actions: ExecutedAction[]): MachineSnapshot {
    this.out = actions;
    let durable = input?.['durable'] as DatabaseDurable | undefined;
    if (durable === undefined) {
      const tables: Record<string, Table> = {};
      for (const table of Object.keys(this.keys)) tables[table] = {};
      durable = { tables, nextSeq: 1, history: {} };
    }
    return this.enter('serving', { durable, txs: {}, waiting: [], idle: {}, reaped: [] });
  }

  private pk(cols: readonly string[], row: Row): string {
    let pk = String(row[cols[0]!]);
    for (let i = 1; i < cols.length; i++) pk += `|${String(row[cols[i]!])}`;
    return pk;
  }

  private committed(table: string): Table {
    return this.durable.tables[table] as Table;
  }

  /**
   * The rows a transaction sees, committed ones first in commit order, then its own writes. A
   * table's rows keep their commit order as object keys, since a commit only appends new keys
   * and none of these tables' keys looks like an array index.
   */
  private view(writes: readonly Write[], table: string): Map<string, Row> {
    const out = new Map<string, Row>();
    const committed = this.committed(table);
    for (const pk in committed) out.set(pk, committed[pk]!.row);
    for (const w of writes) if (w.table === table) out.set(w.pk, w.row);
    return out;
  }

  /** A row as a transaction sees it now: its own latest write, else the committed version. */
  private latest(writes: readonly Write[], table: string, pk: string): Row | undefined {
    for (let i = writes.length - 1; i >= 0; i--) {
      const w = writes[i]!;
      if (w.table === table && w.pk === pk) return w.row;
    }
    return this.committed(table)[pk]?.row;
  }

  /** The open transaction, other than `self`, that wrote this row: a statement that changes the row waits for it. */
  private rowHolder(self: string, table: string, pk: string): string | undefined {
    for (const key in this.txs) if (key !== self && wrote(this.txs[key]!.writes, table, pk)) return key;
    return undefined;
  }

  /**
   * The open transaction, other than `self`, that wrote a row carrying the key values of `row`,
   * or changed a committed row carrying them: an insert of them waits for it, since whether the
   * key is taken depends on how that transaction ends.
   */
  private keyHolder(self: string, table: string, cols: readonly string[], row: Row): string | undefined {
    const committed = this.committed(table);
    for (const key in this.txs) {
      if (key === self) continue;
      for (const w of this.txs[key]!.writes) {
        if (w.table !== table) continue;
        if (sameKey(w.row, row, cols)) return key;
        const c = committed[w.pk];
        if (c !== undefined && sameKey(c.row, row, cols)) return key;
      }
    }
    return undefined;
  }

  /** Whether transaction `key` waiting for `holder` would close a cycle of waiting transactions. */
  private closesCycle(key: string, holder: string): boolean {
    const waiting = this.waiting;
    // A walk longer than the waiting list has gone round a cycle without `key`.
    for (let at: string | undefined = holder, n = 0; at !== undefined && n <= waiting.length; n++) {
      if (at === key) return true;
      let next: string | undefined;
      for (const r of waiting) if (r.key === at && r.waitsFor !== undefined) next = r.waitsFor;
      at = next;
    }
    return false;
  }

  /** Whether a request of transaction `key` is among the first `n` waiting ones. */
  private queued(key: string, n: number): boolean {
    for (let i = 0; i < n; i++) if (this.waiting[i]!.key === key) return true;
    return false;
  }

  /** Applies a transaction's writes at `now`: the reason it cannot commit, or undefined once it has. */
  private commit(writes: readonly Write[], failed: string | undefined, now: number): string | undefined {
    if (failed !== undefined) return failed;
    if (writes.length === 0) return undefined;
    const before = this.durable.tables as Readonly<Record<string, Table>>;
    const tables = { ...before } as Record<string, Record<string, Stored>>;
    let seq = this.durable.nextSeq;
    for (const w of writes) {
      let table = tables[w.table]!;
      if (table === before[w.table]) tables[w.table] = table = { ...table };
      const was = table[w.pk];
      table[w.pk] = { row: w.row, at: w.insert || was === undefined ? now : was.at, seq: was?.seq ?? seq++ };
    }
    this.durable = { tables, nextSeq: seq + 1, history: this.durable.history };
    return undefined;
  }

  /**
   * Runs a request as far as it goes: it either finishes (its reply is sent) or waits again, and
   * then the returned request says where it resumes.
   */
  private attempt(r: Request, now: number): Request | undefined {
    const e = r.event;
    const from = e['from'] as string;
    if (e.type === 'db.commit') {
      const tx = this.txs[r.key];
      let failed: string | undefined;
      if (tx !== undefined) {
        delete this.txs[r.key];
        failed = this.commit(tx.writes, tx.failed, e['at']);
      }
      this.send(from, failed === undefined ? { type: 'db.committed', tx: e['tx'], ok: true } : { type: 'db.committed', tx: e['tx'], ok: false, conflict: failed });
      return undefined;
    }
    const run = e.type === 'db.run';
    let tx: Tx = this.txs[r.key] ?? (run ? { owner: from, writes: [], run: true } : { owner: from, writes: [] });
    const stmt = run ? undefined : (e['stmt'] as string | undefined);
    // A duplicated statement runs once and gets its first result again.
    const earlier = stmt === undefined ? undefined : tx.done?.[stmt];
    if (earlier !== undefined) {
      this.send(from, { type: 'db.result', tx: e['tx'], results: earlier, stmt });
      return undefined;
    }
    const ops = e['ops'] as readonly Op[];
    const results = r.results.slice();
    // The transaction's writes, copied on its first new write in this request.
    let writes = tx.writes as Write[];
    let copied = false;
    let progress = r.progress;
    for (let i = results.length; i < ops.length; i++) {
      if (tx.failed !== undefined) {
        results.push(ABORTED);
        continue;
      }
      const op = ops[i]!;
      const resumed = progress;
      progress = undefined;
      let holder: string;
      let resume: Progress | undefined;
      switch (op.op) {
        case 'insert': {
          const cols = this.keys[op.table]!;
          const pk = this.pk(cols, op.row);
          if (!nullIn(op.row, cols)) {
            const h = this.keyHolder(r.key, op.table, cols, op.row);
            if (h !== undefined) {
              holder = h;
              break;
            }
            if (this.committed(op.table)[pk] !== undefined || wrote(writes, op.table, pk)) {
              const conflict = this.conflicts[op.table]!;
              results.push({ inserted: false, conflict });
              if (op.onConflict === 'error') {
                tx = failedTx(tx, `${op.table} ${conflict}`);
                writes = tx.writes as Write[];
                copied = false;
              }
              continue;
            }
          }
          if (!copied) {
            writes = writes.slice();
            copied = true;
          }
          writes.push({ table: op.table, pk, row: op.row, insert: true });
          results.push(INSERTED);
          continue;
        }
        case 'update': {
          const cols = this.keys[op.table]!;
          for (const c in op.set) if (cols.includes(c)) throw new Error(`update of ${op.table} sets key column ${c}: the model stores a row under its primary key`);
          const committed = this.committed(op.table);
          let p = resumed;
          if (p === undefined) {
            const candidates: (readonly [string, number | undefined])[] = [];
            for (const [pk, row] of this.view(writes, op.table)) if (wanted(op, row)) candidates.push([pk, wrote(writes, op.table, pk) ? undefined : committed[pk]?.seq]);
            p = { candidates, next: 0, count: 0 };
          }
          let count = p.count;
          let h: string | undefined;
          let j = p.next;
          for (; j < p.candidates.length; j++) {
            const [pk, seq] = p.candidates[j]!;
            if (!wrote(writes, op.table, pk)) {
              h = this.rowHolder(r.key, op.table, pk);
              if (h !== undefined) break;
            }
            // The row as it is now: after a wait, the transaction that held it may have changed it.
            const row = this.latest(writes, op.table, pk);
            if (row === undefined || (seq !== undefined && committed[pk]?.seq !== seq) || !wanted(op, row)) continue;
            if (!copied) {
              writes = writes.slice();
              copied = true;
            }
            writes.push({ table: op.table, pk, row: { ...row, ...op.set }, insert: false });
            count++;
          }
          if (h === undefined) {
            results.push({ updated: count });
            continue;
          }
          holder = h;
          resume = { candidates: p.candidates, next: j, count };
          break;
        }
        case 'select': {
          const rows: Row[] = [];
          for (const row of this.view(writes, op.table).values()) if (matches(row, op.where)) rows.push(row);
          results.push({ rows });
          continue;
        }
        default:
          return refuse(this.name, `statement ${(op as { op: string }).op}`);
      }
      // Waiting for a transaction that waits, through others, for this one is a deadlock.
      if (holder === r.waitsFor || !this.closesCycle(r.key, holder)) {
        this.txs[r.key] = copied ? { ...tx, writes } : tx;
        return resume === undefined ? { key: r.key, event: e, results, waitsFor: holder } : { key: r.key, event: e, results, progress: resume, waitsFor: holder };
      }
      tx = failedTx(tx, 'deadlock');
      writes = tx.writes as Write[];
      copied = false;
      results.push(DEADLOCK);
    }
    if (run) {
      delete this.txs[r.key];
      const failed = this.commit(writes, tx.failed, e['at']);
      this.send(from, failed === undefined ? { type: 'db.ran', ref: e['ref'], ok: true, results } : { type: 'db.ran', ref: e['ref'], ok: false, results, conflict: failed });
      return undefined;
    }
    this.txs[r.key] = stmt === undefined ? (copied ? { ...tx, writes } : tx) : { ...tx, writes, done: { ...tx.done, [stmt]: results } };
    this.send(from, stmt === undefined ? { type: 'db.result', tx: e['tx'], results } : { type: 'db.result', tx: e['tx'], results, stmt });
    return undefined;
  }

  /**
   * Takes a new request: it runs now unless its transaction already has one waiting; then every
   * waiting request whose holder has gone is tried again, oldest first, until none moves.
   */
  private serve(request: Request | undefined, now: number): void {
    const waiting = this.waiting;
    if (request !== undefined) {
      this.touched.push(request.key);
      if (this.queued(request.key, waiting.length)) waiting.push(request);
      else {
        const again = this.attempt(request, now);
        if (again !== undefined) waiting.push(again);
      }
    }
    for (let moved = true; moved && waiting.length > 0; ) {
      moved = false;
      for (let i = 0; i < waiting.length; i++) {
        const r = waiting[i]!;
        // Only a transaction's first request may run; the rest queue behind it.
        if (this.queued(r.key, i)) continue;
        if (r.waitsFor !== undefined) {
          const holder = this.txs[r.waitsFor];
          if (holder !== undefined && holder.failed === undefined) continue;
        }
        waiting.splice(i, 1);
        const again = this.attempt(r, now);
        if (again !== undefined) {
          waiting.splice(i, 0, again);
          continue;
        }
        this.touched.push(r.key);
        moved = true;
        break;
      }
    }
  }

  /** Starts a step on copies of the context's transactions and waiting requests. */
  private load(ctx: DbCtx): void {
    this.durable = ctx.durable;
    this.txs = { ...ctx.txs };
    this.waiting = ctx.waiting.slice();
    this.touched.length = 0;
  }

  /**
   * Ends a step: a transaction it ran or woke counts its idle time from now (and gets a timer if
   * it has none); one it ended loses its timer.
   */
  private store(before: Readonly<Record<string, number>>, reaped: readonly string[], now: number): Snapshot<DbCtx> {
    let idle = before as Record<string, number>;
    for (const key of this.touched) {
      const tx = this.txs[key];
      const armed = idle[key] !== undefined;
      if (tx !== undefined && tx.run === undefined) {
        if (idle === before) idle = { ...before };
        idle[key] = now;
        if (!armed) this.out.push(idleTimer(key, this.idleTxTicks));
      } else if (armed) {
        if (idle === before) idle = { ...before };
        delete idle[key];
        this.out.push(idleCancel(key));
      }
    }
    return new Snapshot('serving', { durable: this.durable, txs: this.txs, waiting: this.waiting, idle, reaped }, true);
  }

  /** Drops the waiting requests of one transaction, or of every transaction of a peer. */
  private dropWaiting(key: string | undefined, peer?: string): void {
    const waiting = this.waiting;
    for (let i = waiting.length - 1; i >= 0; i--) if (waiting[i]!.key === key || waiting[i]!.event['from'] === peer) waiting.splice(i, 1);
  }

  transition(snapshot: MachineSnapshot, e: Ev, actions: ExecutedAction[]): MachineSnapshot {
    this.out = actions;
    const ctx = snapshot.context as DbCtx;
    const from = e['from'] as string;
    switch (e.type) {
      case 'db.exec':
      case 'db.commit':
      case 'db.run': {
        const key = e.type === 'db.run' ? `${from}/run ${e['ref']}` : `${from}/${e['tx']}`;
        let reaped = ctx.reaped;
        if (reaped.length > 0 && reaped.includes(key)) {
          reaped = reaped.filter((k) => k !== key);
          // The idle timeout rolled this transaction back: its commit, arriving at last, fails;
          // any other request gets no answer, as on a closed session.
          if (e.type === 'db.commit') this.send(from, { type: 'db.committed', tx: e['tx'], ok: false, conflict: 'idle in transaction timeout' });
          return new Snapshot('serving', { ...ctx, reaped }, true);
        }
        this.load(ctx);
        this.serve({ key, event: e, results: NO_RESULTS }, e['at']);
        return this.store(ctx.idle, reaped, e['at']);
      }
      case 'db.abort': {
        // A rollback, which also cancels the transaction's waiting statement.
        const key = `${from}/${e['tx']}`;
        if (ctx.reaped.includes(key)) return new Snapshot('serving', { ...ctx, reaped: ctx.reaped.filter((k) => k !== key) }, true);
        this.load(ctx);
        delete this.txs[key];
        this.dropWaiting(key);
        this.touched.push(key);
        this.serve(undefined, e['at']);
        return this.store(ctx.idle, ctx.reaped, e['at']);
      }
      case 'sys.peerCrashed': {
        // A dropped connection rolls back every transaction it had open.
        const peer = e['peer'] as string;
        this.load(ctx);
        for (const key in this.txs) {
          if (this.txs[key]!.owner !== peer) continue;
          delete this.txs[key];
          this.touched.push(key);
        }
        this.dropWaiting(undefined, peer);
        this.serve(undefined, e['at']);
        return this.store(ctx.idle, ctx.reaped.filter((k) => !k.startsWith(`${peer}/`)), e['at']);
      }
      case 'db.idleTimeout': {
        const key = e['key'] as string;
        const now = e['at'] as number;
        const activeAt = ctx.idle[key];
        if (activeAt === undefined) return snapshot;
        if (ctx.txs[key] === undefined) {
          const { [key]: _gone, ...idle } = ctx.idle;
          return new Snapshot('serving', { ...ctx, idle }, true);
        }
        // A statement still waiting is not idle: the timer starts over.
        for (const w of ctx.waiting) {
          if (w.key !== key) continue;
          this.out.push(idleTimer(key, this.idleTxTicks));
          return new Snapshot('serving', { ...ctx, idle: { ...ctx.idle, [key]: now } }, true);
        }
        // A timer that fires before the transaction has been idle long enough is set for the rest.
        const left = activeAt + this.idleTxTicks - now;
        if (left > 0) {
          this.out.push(idleTimer(key, left, activeAt));
          return snapshot;
        }
        // Idle past the timeout: it rolls back, noted with the rows it had written as the model
        // notes it, and what waited for it goes on.
        this.note('idleRollback', { tx: key, idleTicks: this.idleTxTicks, rows: ctx.txs[key].writes.map((w) => w.row) });
        this.load(ctx);
        delete this.txs[key];
        this.touched.push(key);
        this.serve(undefined, now);
        const { [key]: _gone, ...idle } = ctx.idle;
        return this.store(idle, [...ctx.reaped, key], now);
      }
      default:
        return snapshot;
    }
  }
}

// The relay: poll the unpublished outbox rows, publish one, wait for its ack, mark it
// published, then the next row or the next poll.

interface RelayCtx {
  readonly durable: Record<string, never>;
  readonly batch: readonly Row[];
  /** event_ids of the current batch still waiting for a broker ack. */
  readonly unacked: readonly string[];
  readonly polls: number;
}

class RelayReducer extends Reducer<RelayCtx> {
  private readonly db: string;
  private readonly broker: string;
  private readonly table: string;

  constructor(input: RelayInput) {
    const timeout = input.timeoutTicks ?? 20;
    super(
      {
        idle: timer('relay', 'idle', 'poll', input.pollTicks ?? 8),
        polling: timer('relay', 'polling', 'timeout', timeout),
        beforeRelaySend: timer('relay', 'beforeRelaySend', '1', 1),
        afterRelaySend: timer('relay', 'afterRelaySend', 'timeout', timeout),
        afterBrokerAccept: timer('relay', 'afterBrokerAccept', '1', 1),
        recordingProgress: timer('relay', 'recordingProgress', 'timeout', timeout),
        afterRelayProgress: timer('relay', 'afterRelayProgress', '1', 1),
      },
      'idle',
    );
    if ((input.mark ?? 'afterSend') !== 'afterSend') refuse('relay', `mark ${input.mark}`);
    if ((input.concurrency ?? 'perAggregate') !== 'perAggregate') refuse('relay', `concurrency ${input.concurrency}`);
    this.db = input.db;
    this.broker = input.broker;
    this.table = input.table ?? 'outbox';
  }

  initial(input: Record<string, unknown> | undefined, actions: ExecutedAction[]): MachineSnapshot {
    this.out = actions;
    return this.enter('idle', { durable: (input?.['durable'] as Record<string, never> | undefined) ?? {}, batch: [], unacked: [], polls: 0 });
  }

  private poll(ctx: RelayCtx): Snapshot<RelayCtx> {
    const polls = ctx.polls + 1;
    this.send(this.db, { type: 'db.run', ref: `poll-${polls}`, ops: [{ op: 'select', table: this.table, where: { published: false } }] });
    return this.enter('polling', { ...ctx, polls });
  }

  transition(snapshot: MachineSnapshot, e: Ev, actions: ExecutedAction[]): MachineSnapshot {
    this.out = actions;
    this.lastReentered = false;
    const ctx = snapshot.context as RelayCtx;
    switch (snapshot.value) {
      case 'idle':
        if (!this.fired('idle', e)) return snapshot;
        this.exit('idle');
        return this.poll(ctx);
      case 'polling': {
        // Only this poll's result ends the poll, as in the model: a reply to an earlier poll that
        // outlived its timeout answers nothing now.
        if (e.type === 'db.ran' && e['ref'] === `poll-${ctx.polls}`) {
          const rows = (e['results'][0]?.rows ?? []) as Row[];
          this.exit('polling');
          return rows.length === 0 ? this.enter('idle', ctx) : this.enter('beforeRelaySend', { ...ctx, batch: rows, unacked: [] });
        }
        if (!this.fired('polling', e)) return snapshot;
        this.exit('polling');
        return this.enter('idle', ctx);
      }
      case 'beforeRelaySend': {
        if (!this.fired('beforeRelaySend', e)) return snapshot;
        this.exit('beforeRelaySend');
        const { published: _p, ...payload } = ctx.batch[0]!;
        const id = String(payload['event_id']);
        this.send(this.broker, { type: 'broker.publish', ref: id, key: String(payload['aggregate_id']), payload });
        return this.enter('afterRelaySend', { ...ctx, unacked: [id] });
      }
      case 'afterRelaySend':
        if (e.type === 'broker.ack') {
          if (!ctx.unacked.includes(e['ref'])) return snapshot;
          const unacked = ctx.unacked.filter((id) => id !== e['ref']);
          if (ctx.unacked.length > 1) return new Snapshot('afterRelaySend', { ...ctx, unacked }, false);
          this.exit('afterRelaySend');
          return this.enter('afterBrokerAccept', { ...ctx, unacked });
        }
        if (!this.fired('afterRelaySend', e)) return snapshot;
        this.exit('afterRelaySend');
        return this.enter('beforeRelaySend', ctx);
      case 'afterBrokerAccept': {
        if (!this.fired('afterBrokerAccept', e)) return snapshot;
        this.exit('afterBrokerAccept');
        const id = String(ctx.batch[0]!['event_id']);
        this.send(this.db, { type: 'db.run', ref: `mark-${id}`, ops: [{ op: 'update', table: this.table, where: { event_id: id }, set: { published: true } }] });
        return this.enter('recordingProgress', ctx);
      }
      case 'recordingProgress':
        // As in the model, only the reply to this mark ends the wait; a refused mark marked nothing.
        if (e.type === 'db.ran' && e['ref'] === `mark-${String(ctx.batch[0]!['event_id'])}`) {
          this.exit('recordingProgress');
          return this.enter(e['ok'] === false ? 'idle' : 'afterRelayProgress', ctx);
        }
        if (!this.fired('recordingProgress', e)) return snapshot;
        this.exit('recordingProgress');
        return this.enter('idle', ctx);
      case 'afterRelayProgress': {
        if (!this.fired('afterRelayProgress', e)) return snapshot;
        this.exit('afterRelayProgress');
        const next = { ...ctx, batch: ctx.batch.slice(1) };
        return ctx.batch.length > 1 ? this.enter('beforeRelaySend', next) : this.poll(next);
      }
      default:
        return snapshot;
    }
  }
}

// The broker: one partition, an append-only log, committed offsets per group, a session per
// subscribed consumer that delivers from its position and redelivers what stays uncommitted.

interface Session {
  readonly group: string;
  /** The next offset to deliver. */
  readonly position: number;
  /** The delivery awaiting commit, and when it went out. */
  readonly inflight: { readonly offset: number; readonly at: number } | null;
}

interface BrokerCtx {
  readonly durable: BrokerDurable;
  readonly sessions: Readonly<Record<string, Session>>;
  /** The redelivery timers armed, by id: the tick the delivery each guards went out. */
  readonly armed: Readonly<Record<string, number>>;
}

class BrokerReducer extends Reducer<BrokerCtx> {
  private readonly redeliveryTicks: number;

  constructor(input: BrokerInput) {
    const redeliveryTicks = input.redeliveryTicks ?? 30;
    super({}, 'serving');
    if ((input.partitions ?? 1) !== 1) refuse('broker', `${input.partitions} partitions`);
    if (input.producerDedup) refuse('broker', 'producer dedup');
    if (input.retentionTicks !== undefined) refuse('broker', 'retention');
    this.redeliveryTicks = redeliveryTicks;
  }

  initial(input: Record<string, unknown> | undefined, actions: ExecutedAction[]): MachineSnapshot {
    this.out = actions;
    const durable = (input?.['durable'] as BrokerDurable | undefined) ?? { partitions: [[]], offsets: {} };
    return this.enter('serving', { durable, sessions: {}, armed: {} });
  }

  /** A timer due exactly the redelivery timeout after each delivery awaiting its commit, as the broker model arms them. */
  private arm(ctx: BrokerCtx, now: number): BrokerCtx {
    const want: Record<string, number> = {};
    for (const [name, s] of Object.entries(ctx.sessions)) if (s.inflight !== null) want[`redeliver ${name} 0`] = s.inflight.at;
    let changed = false;
    for (const id of Object.keys(ctx.armed)) {
      if (want[id] === ctx.armed[id]) continue;
      this.out.push({ type: 'xstate.cancel', params: { sendId: id } });
      changed = true;
    }
    for (const [id, at] of Object.entries(want)) {
      if (ctx.armed[id] === at) continue;
      this.out.push({ type: 'xstate.raise', params: { event: { type: 'broker.redeliveryDue', at: 0 }, id, delay: Math.max(1, at + this.redeliveryTicks - now) } });
      changed = true;
    }
    return changed ? { ...ctx, armed: want } : ctx;
  }

  /** Sends the next record to every session with nothing in flight; with `stale`, redelivers old ones. */
  private pump(ctx: BrokerCtx, now: number, stale: boolean): BrokerCtx {
    const log = ctx.durable.partitions[0]!;
    const sessions: Record<string, Session> = {};
    for (const name of Object.keys(ctx.sessions).sort()) {
      const s = ctx.sessions[name]!;
      const current = s.inflight;
      if (current && !(stale && now - current.at >= this.redeliveryTicks)) {
        sessions[name] = s;
        continue;
      }
      const offset = current ? current.offset : s.position;
      if (offset >= log.length) {
        sessions[name] = { group: s.group, position: offset, inflight: null };
        continue;
      }
      const r = log[offset]!;
      sessions[name] = { group: s.group, position: offset, inflight: { offset, at: now } };
      this.send(name, { type: 'broker.deliver', partition: 0, offset, key: r.key, payload: r.payload });
    }
    return { ...ctx, sessions };
  }

  transition(snapshot: MachineSnapshot, e: Ev, actions: ExecutedAction[]): MachineSnapshot {
    this.out = actions;
    this.lastReentered = false;
    const ctx = snapshot.context as BrokerCtx;
    const from = e['from'] as string;
    switch (e.type) {
      case 'broker.publish': {
        const log = ctx.durable.partitions[0]!;
        const record: LogRecord = { offset: log.length, key: e['key'], payload: e['payload'] as Payload, at: e['at'] };
        this.send(from, { type: 'broker.ack', ref: e['ref'], partition: 0, offset: record.offset });
        return new Snapshot('serving', this.arm(this.pump({ ...ctx, durable: { ...ctx.durable, partitions: [[...log, record]] } }, e['at'], false), e['at']), true);
      }
      case 'broker.subscribe': {
        const position = ctx.durable.offsets[e['group']]?.[0] ?? 0;
        const sessions = { ...ctx.sessions, [from]: { group: e['group'], position, inflight: null } };
        this.send(from, { type: 'broker.subscribed', group: e['group'] });
        return new Snapshot('serving', this.arm(this.pump({ ...ctx, sessions }, e['at'], false), e['at']), true);
      }
      case 'broker.commit': {
        const s = ctx.sessions[from];
        let next = ctx;
        if (s) {
          const offset = e['offset'] as number;
          const session: Session = { group: s.group, position: Math.max(s.position, offset), inflight: s.inflight && s.inflight.offset < offset ? null : s.inflight };
          next = { ...ctx, durable: { ...ctx.durable, offsets: { ...ctx.durable.offsets, [s.group]: [offset] } }, sessions: { ...ctx.sessions, [from]: session } };
        }
        return new Snapshot('serving', this.arm(this.pump(next, e['at'], false), e['at']), true);
      }
      case 'sys.peerCrashed': {
        const { [e['peer']]: _gone, ...sessions } = ctx.sessions;
        return new Snapshot('serving', this.arm({ ...ctx, sessions }, e['at']), true);
      }
      case 'broker.redeliveryDue':
        return new Snapshot('serving', this.arm(this.pump(ctx, e['at'], true), e['at']), true);
      default:
        return snapshot;
    }
  }
}

// The consumer: a delivered record is queued; in hand, its inbox row and its reservation go into
// one transaction, which commits before the offset moves past the record.

interface Delivery {
  readonly partition: number;
  readonly offset: number;
  readonly key: string;
  readonly payload: Payload;
}

interface ConsumerCtx {
  readonly durable: Record<string, never>;
  readonly queue: readonly Delivery[];
  readonly current: Delivery | undefined;
  readonly attempt: number;
  readonly wrote: boolean;
  /** Records taken by this incarnation: each take names its transactions anew, as the model does. */
  readonly takes: number;
}

class ConsumerReducer extends Reducer<ConsumerCtx> {
  private readonly broker: string;
  private readonly group: string;
  private readonly consumerName: string;
  private readonly db: string;
  private readonly effect: ConsumerInput['effect'];

  constructor(input: ConsumerInput) {
    const timeout = input.timeoutTicks ?? 20;
    const t = (state: string) => timer('consumer', state, 'timeout', timeout);
    const one = (state: string) => timer('consumer', state, '1', 1);
    super(
      {
        connecting: t('connecting'),
        received: one('received'),
        insertingInbox: t('insertingInbox'),
        afterInboxInsert: one('afterInboxInsert'),
        writingEffect: t('writingEffect'),
        committingEffect: t('committingEffect'),
        afterEffectCommit: one('afterEffectCommit'),
        duplicateSeen: one('duplicateSeen'),
        beforeTransportProgress: one('beforeTransportProgress'),
      },
      'idle',
    );
    if (input.inbox !== 'sameTx') refuse('consumer', `inbox ${input.inbox}`);
    if ((input.ack ?? 'afterCommit') !== 'afterCommit') refuse('consumer', `ack ${input.ack}`);
    if (input.effect.op !== 'insert') refuse('consumer', `an ${input.effect.op} effect`);
    this.broker = input.broker;
    this.group = input.group;
    this.consumerName = input.consumerName ?? input.group;
    this.db = input.db;
    this.effect = input.effect;
  }

  initial(input: Record<string, unknown> | undefined, actions: ExecutedAction[]): MachineSnapshot {
    this.out = actions;
    return this.connect({ durable: (input?.['durable'] as Record<string, never> | undefined) ?? {}, queue: [], current: undefined, attempt: 0, wrote: false, takes: 0 });
  }

  private connect(ctx: ConsumerCtx): Snapshot<ConsumerCtx> {
    this.send(this.broker, { type: 'broker.subscribe', group: this.group });
    return this.enter('connecting', ctx);
  }

  /** Idle, left at once for the next queued record when there is one. */
  private idle(ctx: ConsumerCtx): Snapshot<ConsumerCtx> {
    if (ctx.queue.length === 0) return this.enter('idle', ctx);
    return this.enter('received', { ...ctx, current: ctx.queue[0], queue: ctx.queue.slice(1), attempt: 1, wrote: false, takes: ctx.takes + 1 });
  }

  private tx(ctx: ConsumerCtx): string {
    return `d${ctx.current!.partition}.${ctx.current!.offset}.t${ctx.takes}.${ctx.attempt}`;
  }

  private effectRow(payload: Payload): Row {
    const row: Record<string, Value> = {};
    // The benchmark's pipeline has no `now` columns; they would read the handler's tick.
    for (const [col, src] of Object.entries(this.effect.columns)) row[col] = typeof src === 'string' ? (payload[src] ?? null) : 'const' in src ? src.const : null;
    return row;
  }

  /** A timed-out attempt: its transaction (if open) is rolled back and the record tried again. */
  private retry(ctx: ConsumerCtx, abort: boolean): Snapshot<ConsumerCtx> {
    if (abort) this.send(this.db, { type: 'db.abort', tx: this.tx(ctx) });
    return this.enter('received', { ...ctx, attempt: ctx.attempt + 1, wrote: false });
  }

  /** A reply for another attempt's transaction, or for the other statement of this one. */
  private ignored(ctx: ConsumerCtx, e: Ev, stmt: 'inbox' | 'effect' | undefined): boolean {
    return e['tx'] !== this.tx(ctx) || (stmt !== undefined && e['stmt'] !== undefined && e['stmt'] !== stmt);
  }

  transition(snapshot: MachineSnapshot, e: Ev, actions: ExecutedAction[]): MachineSnapshot {
    this.out = actions;
    this.lastReentered = false;
    const ctx = snapshot.context as ConsumerCtx;
    if (e.type === 'broker.deliver') {
      // In any state: a record not already queued or in hand joins the queue.
      const same = (d: Delivery | undefined) => d !== undefined && d.partition === e['partition'] && d.offset === e['offset'];
      if (same(ctx.current) || ctx.queue.some(same)) return snapshot;
      const next = { ...ctx, queue: [...ctx.queue, { partition: e['partition'], offset: e['offset'], key: e['key'], payload: e['payload'] }] };
      return snapshot.value === 'idle' ? this.idle(next) : new Snapshot(snapshot.value as string, next, false);
    }
    switch (snapshot.value) {
      case 'connecting':
        if (e.type === 'broker.subscribed') {
          this.exit('connecting');
          return this.idle(ctx);
        }
        if (!this.fired('connecting', e)) return snapshot;
        // A lost subscription is asked for again: the state is left and entered anew.
        this.lastReentered = true;
        this.exit('connecting');
        return this.connect(ctx);
      case 'received': {
        if (!this.fired('received', e)) return snapshot;
        this.exit('received');
        const row = { consumer_name: this.consumerName, event_id: String(ctx.current!.payload['event_id']) };
        this.send(this.db, { type: 'db.exec', tx: this.tx(ctx), ops: [{ op: 'insert', table: 'inbox', row, onConflict: 'nothing' }], stmt: 'inbox' });
        return this.enter('insertingInbox', ctx);
      }
      case 'insertingInbox':
        if (e.type === 'db.result') {
          if (this.ignored(ctx, e, 'inbox')) return snapshot;
          this.exit('insertingInbox');
          if (e['results'][0]?.inserted === true) return this.enter('afterInboxInsert', ctx);
          this.note('guard', { guard: 'inboxKey', event_id: ctx.current!.payload['event_id'] });
          this.send(this.db, { type: 'db.abort', tx: this.tx(ctx) });
          return this.enter('duplicateSeen', ctx);
        }
        if (!this.fired('insertingInbox', e)) return snapshot;
        this.exit('insertingInbox');
        return this.retry(ctx, true);
      case 'afterInboxInsert': {
        if (!this.fired('afterInboxInsert', e)) return snapshot;
        this.exit('afterInboxInsert');
        const op = { op: 'insert', table: this.effect.table, row: this.effectRow(ctx.current!.payload), onConflict: 'nothing' };
        this.send(this.db, { type: 'db.exec', tx: this.tx(ctx), ops: [op], stmt: 'effect' });
        return this.enter('writingEffect', ctx);
      }
      case 'writingEffect':
        if (e.type === 'db.result') {
          if (this.ignored(ctx, e, 'effect')) return snapshot;
          this.exit('writingEffect');
          const r = e['results'][0] as OpResult | undefined;
          const wrote = r?.inserted === true || r?.written === true;
          if (!wrote) this.note('guard', { guard: 'effectKey', event_id: ctx.current!.payload['event_id'] });
          this.send(this.db, { type: 'db.commit', tx: this.tx(ctx) });
          return this.enter('committingEffect', { ...ctx, wrote });
        }
        if (!this.fired('writingEffect', e)) return snapshot;
        this.exit('writingEffect');
        return this.retry(ctx, true);
      case 'committingEffect':
        if (e.type === 'db.committed') {
          if (this.ignored(ctx, e, undefined)) return snapshot;
          this.exit('committingEffect');
          if (!e['ok']) return this.enter('duplicateSeen', ctx);
          if (ctx.wrote) this.note('effect', { table: this.effect.table, row: this.effectRow(ctx.current!.payload) });
          return this.enter('afterEffectCommit', ctx);
        }
        if (!this.fired('committingEffect', e)) return snapshot;
        this.exit('committingEffect');
        return this.retry(ctx, false);
      case 'afterEffectCommit':
      case 'duplicateSeen':
        if (!this.fired(snapshot.value, e)) return snapshot;
        this.exit(snapshot.value as string);
        return this.enter('beforeTransportProgress', ctx);
      case 'beforeTransportProgress': {
        if (!this.fired('beforeTransportProgress', e)) return snapshot;
        this.exit('beforeTransportProgress');
        const d = ctx.current!;
        this.send(this.broker, { type: 'broker.commit', partition: d.partition, offset: d.offset + 1 });
        return this.idle({ ...ctx, current: undefined });
      }
      default:
        return snapshot;
    }
  }
}

// The design: mercury-outbox's own components, each stepped by its plain reducer.

/**
 * The plain stepper of a component of the outbox design, chosen by its model's machine id; it
 * throws, when made, for an input asking for an option the baseline does not implement.
 */
export function plainStepperFor(c: DesignComponent): () => Stepper {
  const input = c.input as never;
  switch (c.machine.id) {
    case 'client':
      return () => new ClientReducer(input);
    case 'source':
      return () => new SourceReducer(input);
    case 'database':
      return () => new DatabaseReducer(c.name, input);
    case 'relay':
      return () => new RelayReducer(input);
    case 'broker':
      return () => new BrokerReducer(input);
    case 'consumer':
      return () => new ConsumerReducer(input);
    default:
      return refuse(c.name, `machine ${c.machine.id}`);
  }
}

/**
 * mercury-outbox's components at a workload size, each with its plain stepper. The model machine
 * stays on each component: failure windows are read from its definition, and reports name it.
 */
export function plainOutboxComponents(size: number): DesignComponent[] {
  return mercuryOutbox.build({ size }, timeScaleOf(mercuryOutbox)).map((c) => ({ ...c, stepper: plainStepperFor(c) }));
}

/** The mercury-outbox scenario (its claim, workload and World options) with the plain components. */
export const plainOutboxScenario: Scenario = { ...mercuryOutbox, build: ({ size }) => plainOutboxComponents(size) };

/**
 * One run of the plain outbox through the real World and the scenario's claim: the same as
 * `runScenario(mercuryOutbox, spec)` with every component stepped by its reducer.
 */
export function runPlainOutbox(spec: RunSpec): RunRecord {
  return runScenario(plainOutboxScenario, spec);
}

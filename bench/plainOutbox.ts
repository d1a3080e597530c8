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
// the same delayed timers with XState's ids (`xstate.after.<delay>.<machine>.<state>`) and
// cancels, the same state names and `idle` tags, and the same durable/volatile split, with a
// new durable object exactly when the model makes one (the World counts that as progress).
// test/bench/plainOutbox.test.ts checks that they give the compiled models' trace hashes.
//
// Each reducer implements the options the outbox design uses and no others: a component whose
// input asks for anything else (another source design, client retries, a relay marking before
// it sends, an inbox outside the effect's transaction, several partitions) is refused when the
// World makes its stepper, so a comparison can never run a protocol the baseline does not have.
import type { EventObject } from 'xstate';
import type { ExecutedAction } from '../src/compiledMachine.ts';
import { runScenario, type RunRecord, type RunSpec } from '../src/runScenario.ts';
import { timeScaleOf, type DesignComponent, type Scenario } from '../src/scenario.ts';
import type { MachineSnapshot, Stepper } from '../src/stepper.ts';
import mercuryOutbox from '../scenarios/mercury-outbox.ts';
import type { BrokerDurable, BrokerInput, LogRecord, Payload } from '../models/broker.ts';
import type { ClientDurable, ClientInput, Command } from '../models/client.ts';
import type { ConsumerInput } from '../models/consumer.ts';
import type { DatabaseDurable, DatabaseInput, OpResult, Row, TableSpec, Value } from '../models/database.ts';
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
    return this.enter('idle', { durable: (input?.['durable'] as Record<string, never> | undefined) ?? {}, pending: undefined, handled: 0 });
  }

  private tx(ctx: SourceCtx): string {
    return `cmd-${ctx.pending?.n}`;
  }

  /** Back to idle with the reply to the client. */
  private reply(ctx: SourceCtx, ok: boolean): Snapshot<SourceCtx> {
    const p = ctx.pending!;
    this.send(p.from, { type: 'cmd.reply', ref: p.cmd['ref'], ok, outcome: ok ? p.cmd['command'].aggregate_id : 'failed' });
    return this.enter('idle', ctx);
  }

  transition(snapshot: MachineSnapshot, e: Ev, actions: ExecutedAction[]): MachineSnapshot {
    this.out = actions;
    this.lastReentered = false;
    const ctx = snapshot.context as SourceCtx;
    switch (snapshot.value) {
      case 'idle': {
        if (e.type !== 'cmd') return snapshot;
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

// A database: committed rows per table, open transactions per (connection, tx), first committer
// wins. The durable part has the model's shape (tables of rows with their commit tick and
// sequence), so the claim and the evidence read it as they read the model's.

type Op =
  | { readonly op: 'insert'; readonly table: string; readonly row: Row; readonly onConflict?: 'nothing' | 'error' }
  | { readonly op: 'update'; readonly table: string; readonly where: Row; readonly set: Row; readonly ifVersion?: number }
  | { readonly op: 'select'; readonly table: string; readonly where?: Row };

interface Stored {
  readonly row: Row;
  readonly at: number;
  readonly seq: number;
}

interface Write {
  readonly table: string;
  readonly pk: string;
  readonly row: Row;
  readonly insert: boolean;
}

interface Tx {
  readonly owner: string;
  readonly writes: readonly Write[];
  /** An `on conflict: error` insert failed: the transaction can only roll back. */
  readonly failed?: string;
  /** Results of the statements run so far, by the caller's statement id. */
  readonly done?: Readonly<Record<string, readonly OpResult[]>>;
}

interface DbCtx {
  readonly durable: DatabaseDurable;
  readonly txs: Readonly<Record<string, Tx>>;
}

/** The transactions without the one at `key`, or without every one `owner` had open. */
function without(txs: Readonly<Record<string, Tx>>, key: string | undefined, owner?: string): Record<string, Tx> {
  const out: Record<string, Tx> = {};
  for (const k in txs) if (k !== key && txs[k]!.owner !== owner) out[k] = txs[k]!;
  return out;
}

const matches = (row: Row, where: Row | undefined) => {
  if (where) for (const k in where) if (row[k] !== where[k]) return false;
  return true;
};

class DatabaseReducer extends Reducer<DbCtx> {
  private readonly keys: Readonly<Record<string, readonly string[]>>;
  /** The conflict each table's key reports, `(order_id, reservation_version)`. */
  private readonly conflicts: Readonly<Record<string, string>>;

  constructor(name: string, input: DatabaseInput) {
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
  }

  initial(input: Record<string, unknown> | undefined, actions: ExecutedAction[]): MachineSnapshot {
    this.out = actions;
    let durable = input?.['durable'] as DatabaseDurable | undefined;
    if (durable === undefined) {
      const tables: Record<string, Record<string, Stored>> = {};
      for (const table of Object.keys(this.keys)) tables[table] = {};
      durable = { tables, nextSeq: 1, history: {} };
    }
    return this.enter('serving', { durable, txs: {} });
  }

  private pk(table: string, row: Row): string {
    return this.keys[table]!.map((k) => String(row[k])).join('|');
  }

  /**
   * The rows a transaction sees, committed ones first in commit order, then its own writes. A
   * table's rows keep their commit order as object keys, since a commit only appends new keys
   * and none of these tables' keys looks like an array index.
   */
  private view(durable: DatabaseDurable, writes: readonly Write[], table: string): Map<string, Row> {
    const out = new Map<string, Row>();
    const committed = durable.tables[table] as Readonly<Record<string, Stored>>;
    for (const pk in committed) out.set(pk, committed[pk]!.row);
    for (const w of writes) if (w.table === table) out.set(w.pk, w.row);
    return out;
  }

  private exec(durable: DatabaseDurable, tx: Tx, ops: readonly Op[]): { tx: Tx; results: OpResult[] } {
    let writes = tx.writes;
    let failed = tx.failed;
    const results: OpResult[] = [];
    for (const op of ops) {
      if (op.op === 'insert') {
        const pk = this.pk(op.table, op.row);
        const taken = Object.hasOwn(durable.tables[op.table]!, pk) || writes.some((w) => w.table === op.table && w.pk === pk);
        if (taken) {
          const conflict = this.conflicts[op.table]!;
          results.push({ inserted: false, conflict });
          if (op.onConflict === 'error') failed ??= `${op.table} ${conflict}`;
        } else {
          writes = [...writes, { table: op.table, pk, row: op.row, insert: true }];
          results.push({ inserted: true });
        }
        continue;
      }
      const view = this.view(durable, writes, op.table);
      if (op.op === 'select') {
        results.push({ rows: [...view.values()].filter((r) => matches(r, op.where)) });
        continue;
      }
      let updated = 0;
      for (const [pk, row] of view) {
        if (!matches(row, op.where) || (op.ifVersion !== undefined && row['version'] !== op.ifVersion)) continue;
        writes = [...writes, { table: op.table, pk, row: { ...row, ...op.set }, insert: false }];
        updated++;
      }
      results.push({ updated });
    }
    return { tx: { ...tx, writes, ...(failed === undefined ? {} : { failed }) }, results };
  }

  /** Applies a transaction's writes at `now`, or refuses it: the same durable object when nothing changes. */
  private commit(durable: DatabaseDurable, tx: Tx, now: number): { durable: DatabaseDurable; ok: boolean; conflict?: string } {
    if (tx.failed !== undefined) return { durable, ok: false, conflict: tx.failed };
    for (const w of tx.writes) if (w.insert && Object.hasOwn(durable.tables[w.table]!, w.pk)) return { durable, ok: false, conflict: `${w.table} ${this.conflicts[w.table]}` };
    if (tx.writes.length === 0) return { durable, ok: true };
    const tables = { ...durable.tables } as Record<string, Record<string, Stored>>;
    let seq = durable.nextSeq;
    for (const w of tx.writes) {
      const table = { ...tables[w.table] };
      const old = table[w.pk];
      table[w.pk] = { row: w.row, at: w.insert || !old ? now : old.at, seq: old?.seq ?? seq++ };
      tables[w.table] = table;
    }
    return { durable: { tables, nextSeq: seq + 1, history: durable.history }, ok: true };
  }

  transition(snapshot: MachineSnapshot, e: Ev, actions: ExecutedAction[]): MachineSnapshot {
    this.out = actions;
    const ctx = snapshot.context as DbCtx;
    const from = e['from'] as string;
    switch (e.type) {
      case 'db.exec': {
        const key = `${from}/${e['tx']}`;
        const tx = ctx.txs[key] ?? { owner: from, writes: [] };
        const stmt = e['stmt'] as string | undefined;
        // A duplicated statement runs once and gets its first result again.
        const earlier = stmt === undefined ? undefined : tx.done?.[stmt];
        if (earlier) {
          this.send(from, { type: 'db.result', tx: e['tx'], results: earlier, stmt });
          return new Snapshot('serving', ctx, true);
        }
        const { tx: next, results } = this.exec(ctx.durable, tx, e['ops']);
        const done = stmt === undefined ? next : { ...next, done: { ...next.done, [stmt]: results } };
        this.send(from, stmt === undefined ? { type: 'db.result', tx: e['tx'], results } : { type: 'db.result', tx: e['tx'], results, stmt });
        return new Snapshot('serving', { ...ctx, txs: { ...ctx.txs, [key]: done } }, true);
      }
      case 'db.commit': {
        const key = `${from}/${e['tx']}`;
        const res = this.commit(ctx.durable, ctx.txs[key] ?? { owner: from, writes: [] }, e['at']);
        this.send(from, res.conflict === undefined ? { type: 'db.committed', tx: e['tx'], ok: res.ok } : { type: 'db.committed', tx: e['tx'], ok: res.ok, conflict: res.conflict });
        return new Snapshot('serving', { durable: res.durable, txs: without(ctx.txs, key) }, true);
      }
      case 'db.abort':
        return new Snapshot('serving', { ...ctx, txs: without(ctx.txs, `${from}/${e['tx']}`) }, true);
      case 'db.run': {
        const { tx, results } = this.exec(ctx.durable, { owner: from, writes: [] }, e['ops']);
        const res = this.commit(ctx.durable, tx, e['at']);
        const ran = { type: 'db.ran', ref: e['ref'], ok: res.ok, results };
        this.send(from, res.conflict === undefined ? ran : { ...ran, conflict: res.conflict });
        return new Snapshot('serving', { ...ctx, durable: res.durable }, true);
      }
      case 'sys.peerCrashed':
        // A dropped connection rolls back every transaction it had open.
        return new Snapshot('serving', { ...ctx, txs: without(ctx.txs, undefined, e['peer']) }, true);
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
        // Any query result ends the poll, as in the model: a late reply counts as this poll's.
        if (e.type === 'db.ran') {
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
        // As in the model, any query result is taken as the mark's.
        if (e.type === 'db.ran') {
          this.exit('recordingProgress');
          return this.enter('afterRelayProgress', ctx);
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
}

class BrokerReducer extends Reducer<BrokerCtx> {
  private readonly redeliveryTicks: number;

  constructor(input: BrokerInput) {
    const redeliveryTicks = input.redeliveryTicks ?? 30;
    super({ serving: timer('broker', 'serving', 'redelivery', redeliveryTicks) }, 'serving');
    if ((input.partitions ?? 1) !== 1) refuse('broker', `${input.partitions} partitions`);
    if (input.producerDedup) refuse('broker', 'producer dedup');
    if (input.retentionTicks !== undefined) refuse('broker', 'retention');
    this.redeliveryTicks = redeliveryTicks;
  }

  initial(input: Record<string, unknown> | undefined, actions: ExecutedAction[]): MachineSnapshot {
    this.out = actions;
    const durable = (input?.['durable'] as BrokerDurable | undefined) ?? { partitions: [[]], offsets: {} };
    return this.enter('serving', { durable, sessions: {} });
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
        return new Snapshot('serving', this.pump({ ...ctx, durable: { ...ctx.durable, partitions: [[...log, record]] } }, e['at'], false), true);
      }
      case 'broker.subscribe': {
        const position = ctx.durable.offsets[e['group']]?.[0] ?? 0;
        const sessions = { ...ctx.sessions, [from]: { group: e['group'], position, inflight: null } };
        this.send(from, { type: 'broker.subscribed', group: e['group'] });
        return new Snapshot('serving', this.pump({ ...ctx, sessions }, e['at'], false), true);
      }
      case 'broker.commit': {
        const s = ctx.sessions[from];
        let next = ctx;
        if (s) {
          const offset = e['offset'] as number;
          const session: Session = { group: s.group, position: Math.max(s.position, offset), inflight: s.inflight && s.inflight.offset < offset ? null : s.inflight };
          next = { durable: { ...ctx.durable, offsets: { ...ctx.durable.offsets, [s.group]: [offset] } }, sessions: { ...ctx.sessions, [from]: session } };
        }
        return new Snapshot('serving', this.pump(next, e['at'], false), true);
      }
      case 'sys.peerCrashed': {
        const { [e['peer']]: _gone, ...sessions } = ctx.sessions;
        return new Snapshot('serving', { ...ctx, sessions }, true);
      }
      default: {
        if (!this.fired('serving', e)) return snapshot;
        // The redelivery timer leaves `serving` and enters it again, armed anew.
        this.lastReentered = true;
        this.exit('serving');
        const next = this.pump(ctx, e['at'], true);
        return this.enter('serving', next);
      }
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
    return this.connect({ durable: (input?.['durable'] as Record<string, never> | undefined) ?? {}, queue: [], current: undefined, attempt: 0, wrote: false });
  }

  private connect(ctx: ConsumerCtx): Snapshot<ConsumerCtx> {
    this.send(this.broker, { type: 'broker.subscribe', group: this.group });
    return this.enter('connecting', ctx);
  }

  /** Idle, left at once for the next queued record when there is one. */
  private idle(ctx: ConsumerCtx): Snapshot<ConsumerCtx> {
    if (ctx.queue.length === 0) return this.enter('idle', ctx);
    return this.enter('received', { ...ctx, current: ctx.queue[0], queue: ctx.queue.slice(1), attempt: 1, wrote: false });
  }

  private tx(ctx: ConsumerCtx): string {
    return `d${ctx.current!.partition}.${ctx.current!.offset}.${ctx.attempt}`;
  }

  private effectRow(payload: Payload): Row {
    const row: Record<string, Value> = {};
    for (const [col, src] of Object.entries(this.effect.columns)) row[col] = typeof src === 'string' ? (payload[src] ?? null) : src.const;
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

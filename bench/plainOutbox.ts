// The Mercury outbox pipeline written the plain way, with no XState: every component is a
// small object with a hand-written reducer (a `switch` on its state and the message type), and
// a minimal loop stands in for the World. It is the baseline the benchmark holds the machine
// layer against, so it does the same protocol and the same kernel work:
//
//   client → source: insert order + outbox row in one ordersDb transaction, commit, reply
//   relay: poll unpublished outbox rows → publish to the broker → wait for the ack → mark the
//          row published → next row
//   broker: one partition, an append-only log, committed offsets per group, sessions that
//           deliver from the committed offset and redeliver what is not committed
//   consumer: inbox row + reservation in one inventoryDb transaction, commit, then commit the
//             offset
//
// It uses the kernel's Schedule, Network (latency draws and message faults) and Prng, the same
// World options (restart delay, safety/liveness bounds, quiet ticks, step bound), crash-at-entry
// of a named failure window (`relay.afterBrokerAccept`, …) and crash notices to peers, and it
// judges the end state with the scenario's own claim and checkers. Message types and component
// names are the models', so one fault plan means the same thing to both.
import { checkClaim } from '../src/checkers/compose.ts';
import type { RunOutcome } from '../src/checkers/finding.ts';
import type { CrashFault, FaultPlan, MessageFault } from '../src/faults.ts';
import { Network, type Envelope } from '../src/network.ts';
import { Prng } from '../src/prng.ts';
import { Schedule } from '../src/schedule.ts';
import { Trace } from '../src/trace.ts';
import { runOutcome } from '../src/verdict.ts';
import { DEFAULT_WORLD_OPTIONS, behaviourOf, type Ending, type Strike } from '../src/world.ts';

/** What the plain loop reports of a run. */
interface PlainResult {
  readonly ending: Ending;
  readonly ticks: number;
  readonly steps: number;
  readonly strikes: readonly Strike[];
  readonly traceHash: string;
}
import type { WorldView } from '../src/worldView.ts';
import { reservationClaim } from '../models/designs/orderPipeline.ts';
import type { DatabaseDurable, Row } from '../models/database.ts';

/** A message: a `type` and its fields (the shape the Network carries). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Msg = { readonly type: string } & Record<string, any>;

type Item =
  | { readonly kind: 'message'; readonly envelope: Envelope }
  | { readonly kind: 'timer'; readonly comp: Comp }
  | { readonly kind: 'restart'; readonly comp: Comp };

/** What a component can ask of the loop. */
interface Sim {
  readonly now: number;
  send(from: string, to: string, msg: Msg): void;
  /**
   * Enters a state: the old state's timer is cancelled, the new one armed. `reenter` marks a
   * transition that leaves a state and enters it again (a timeout that sends again), which
   * enters its failure window once more.
   */
  enter(comp: Comp, state: string, reenter?: boolean): void;
  /** A durable change: the world is not quiet yet. */
  progress(): void;
}

abstract class Comp {
  state = '';
  reentered = false;
  timer: number | undefined;
  down = false;
  constructor(
    readonly name: string,
    readonly process: boolean,
  ) {}
  /** Forgets everything volatile and enters the initial state. */
  abstract boot(sim: Sim): void;
  abstract receive(sim: Sim, from: string, msg: Msg): void;
  /** The current state's timer fired. */
  abstract timeout(sim: Sim): void;
  /** Ticks until the state's timer fires, or undefined for none. */
  abstract delay(state: string): number | undefined;
  abstract idle(): boolean;
  abstract durable(): unknown;
}

// Database: committed rows per table, open transactions per (owner, tx), first committer wins.

interface Stored {
  row: Row;
  seq: number;
  at: number;
}
interface Write {
  table: string;
  pk: string;
  row: Row;
  insert: boolean;
}
interface Tx {
  owner: string;
  writes: Write[];
  done: Map<string, unknown[]>;
  /** An `on conflict: error` insert failed: as in SQL, the transaction can only roll back. */
  failed?: boolean;
}
type Op =
  | { op: 'insert'; table: string; row: Row; onConflict?: 'error' | 'nothing' }
  | { op: 'select'; table: string; where: Row }
  | { op: 'update'; table: string; where: Row; set: Row };

class Db extends Comp {
  readonly tables = new Map<string, Map<string, Stored>>();
  private txs = new Map<string, Tx>();
  private nextSeq = 1;
  constructor(
    name: string,
    private readonly keys: Readonly<Record<string, readonly string[]>>,
  ) {
    super(name, false);
    for (const t of Object.keys(keys)) this.tables.set(t, new Map());
  }
  boot(sim: Sim): void {
    this.txs = new Map();
    sim.enter(this, 'serving');
  }
  delay(): undefined {
    return undefined;
  }
  idle(): boolean {
    return true;
  }
  timeout(): void {}
  durable(): DatabaseDurable {
    const tables: Record<string, Record<string, Stored>> = {};
    for (const [t, rows] of this.tables) tables[t] = Object.fromEntries(rows);
    return { tables, nextSeq: this.nextSeq, history: {} };
  }
  private pk(table: string, row: Row): string {
    const key = this.keys[table]!;
    return key.length === 1 ? String(row[key[0]!]) : key.map((k) => String(row[k])).join('|');
  }
  private find(tx: Tx, table: string, pk: string): Row | undefined {
    for (let i = tx.writes.length - 1; i >= 0; i--) {
      const w = tx.writes[i]!;
      if (w.table === table && w.pk === pk) return w.row;
    }
    return this.tables.get(table)!.get(pk)?.row;
  }
  private exec(tx: Tx, ops: readonly Op[]): unknown[] {
    const results: unknown[] = [];
    for (const op of ops) {
      if (op.op === 'insert') {
        const pk = this.pk(op.table, op.row);
        if (this.find(tx, op.table, pk) !== undefined) {
          results.push({ inserted: false });
          if (op.onConflict === 'error') tx.failed = true;
        } else {
          tx.writes.push({ table: op.table, pk, row: op.row, insert: true });
          results.push({ inserted: true });
        }
        continue;
      }
      // select and update scan the table as the transaction sees it, oldest row first
      const seen = new Map<string, Row>();
      for (const [pk, s] of this.tables.get(op.table)!) seen.set(pk, s.row);
      for (const w of tx.writes) if (w.table === op.table) seen.set(w.pk, w.row);
      const hits: [string, Row][] = [];
      for (const [pk, row] of seen) {
        let ok = true;
        for (const k in op.where) if (row[k] !== op.where[k]) ok = false;
        if (ok) hits.push([pk, row]);
      }
      if (op.op === 'select') {
        results.push({ rows: hits.map(([, r]) => r) });
      } else {
        for (const [pk, row] of hits) tx.writes.push({ table: op.table, pk, row: { ...row, ...op.set }, insert: false });
        results.push({ updated: hits.length });
      }
    }
    return results;
  }
  private commit(sim: Sim, tx: Tx): boolean {
    if (tx.failed) return false;
    for (const w of tx.writes) if (w.insert && this.tables.get(w.table)!.has(w.pk)) return false;
    for (const w of tx.writes) {
      const rows = this.tables.get(w.table)!;
      const old = rows.get(w.pk);
      rows.set(w.pk, { row: w.row, at: w.insert || !old ? sim.now : old.at, seq: old?.seq ?? this.nextSeq++ });
    }
    if (tx.writes.length > 0) {
      this.nextSeq++;
      sim.progress();
    }
    return true;
  }
  receive(sim: Sim, from: string, m: Msg): void {
    switch (m.type) {
      case 'db.exec': {
        const key = `${from}/${m.tx}`;
        let tx = this.txs.get(key);
        if (!tx) this.txs.set(key, (tx = { owner: from, writes: [], done: new Map() }));
        // A duplicated statement runs once and gets its first result again.
        let results = m.stmt === undefined ? undefined : tx.done.get(m.stmt);
        if (!results) {
          results = this.exec(tx, m.ops);
          if (m.stmt !== undefined) tx.done.set(m.stmt, results);
        }
        sim.send(this.name, from, m.stmt === undefined ? { type: 'db.result', tx: m.tx, results } : { type: 'db.result', tx: m.tx, results, stmt: m.stmt });
        return;
      }
      case 'db.commit': {
        const key = `${from}/${m.tx}`;
        const tx = this.txs.get(key) ?? { owner: from, writes: [], done: new Map() };
        this.txs.delete(key);
        sim.send(this.name, from, { type: 'db.committed', tx: m.tx, ok: this.commit(sim, tx) });
        return;
      }
      case 'db.abort':
        this.txs.delete(`${from}/${m.tx}`);
        return;
      case 'db.run': {
        const tx: Tx = { owner: from, writes: [], done: new Map() };
        const results = this.exec(tx, m.ops);
        sim.send(this.name, from, { type: 'db.ran', ref: m.ref, ok: this.commit(sim, tx), results });
        return;
      }
      case 'sys.peerCrashed':
        for (const [k, tx] of this.txs) if (tx.owner === m.peer) this.txs.delete(k);
        return;
    }
  }
}

// Broker: one partition, committed offsets per group, a session per subscribed consumer.

interface Session {
  group: string;
  position: number;
  inflight: { offset: number; at: number } | null;
}

class Broker extends Comp {
  readonly log: { offset: number; key: string; payload: Row; at: number }[] = [];
  readonly offsets = new Map<string, number>();
  private sessions = new Map<string, Session>();
  constructor() {
    super('broker', false);
  }
  boot(sim: Sim): void {
    this.sessions = new Map();
    sim.enter(this, 'serving');
  }
  delay(): number {
    return 30;
  }
  idle(): boolean {
    return true;
  }
  durable(): unknown {
    return { partitions: [this.log], offsets: Object.fromEntries([...this.offsets].map(([g, o]) => [g, [o]])) };
  }
  timeout(sim: Sim): void {
    this.pump(sim, true);
    sim.enter(this, 'serving', true);
  }
  /** Delivers the next record to every session with nothing in flight; redelivers stale ones. */
  private pump(sim: Sim, stale: boolean): void {
    for (const name of [...this.sessions.keys()].sort()) {
      const s = this.sessions.get(name)!;
      if (s.inflight && !(stale && sim.now - s.inflight.at >= 30)) continue;
      const offset = s.inflight ? s.inflight.offset : s.position;
      if (offset >= this.log.length) {
        s.inflight = null;
        s.position = offset;
        continue;
      }
      const r = this.log[offset]!;
      s.inflight = { offset, at: sim.now };
      s.position = offset;
      sim.send(this.name, name, { type: 'broker.deliver', partition: 0, offset, key: r.key, payload: r.payload });
    }
  }
  receive(sim: Sim, from: string, m: Msg): void {
    switch (m.type) {
      case 'broker.publish': {
        const offset = this.log.length;
        this.log.push({ offset, key: m.key, payload: m.payload, at: sim.now });
        sim.progress();
        sim.send(this.name, from, { type: 'broker.ack', ref: m.ref, partition: 0, offset });
        this.pump(sim, false);
        return;
      }
      case 'broker.subscribe':
        this.sessions.set(from, { group: m.group, position: this.offsets.get(m.group) ?? 0, inflight: null });
        sim.send(this.name, from, { type: 'broker.subscribed', group: m.group });
        this.pump(sim, false);
        return;
      case 'broker.commit': {
        const s = this.sessions.get(from);
        if (!s) return;
        this.offsets.set(s.group, m.offset);
        sim.progress();
        if (s.inflight && s.inflight.offset < m.offset) s.inflight = null;
        s.position = Math.max(s.position, m.offset);
        this.pump(sim, false);
        return;
      }
      case 'sys.peerCrashed':
        this.sessions.delete(m.peer);
        return;
    }
  }
}

// Client: sends one acceptance per order, waits for the reply (or a timeout), then the next.

interface Command {
  intent: string;
  order: string;
}

class Client extends Comp {
  readonly replies: { intent: string; ok: boolean; outcome: string }[] = [];
  private next = 0;
  private attempt = 0;
  private ref = '';
  constructor(private readonly commands: readonly Command[]) {
    super('client', false);
  }
  boot(sim: Sim): void {
    this.attempt = 0;
    this.ref = '';
    this.pace(sim);
  }
  private pace(sim: Sim): void {
    sim.enter(this, this.next >= this.commands.length ? 'done' : 'pacing');
  }
  delay(state: string): number | undefined {
    return state === 'pacing' ? 5 : state === 'awaitingReply' ? 60 : undefined;
  }
  idle(): boolean {
    return this.state === 'done';
  }
  durable(): unknown {
    return { next: this.next, replies: this.replies };
  }
  timeout(sim: Sim): void {
    if (this.state === 'pacing') {
      const c = this.commands[this.next]!;
      this.attempt++;
      this.ref = `${c.intent}#${this.attempt}`;
      sim.send(this.name, 'source', { type: 'cmd', ref: this.ref, order: c.order, intent: c.intent });
      sim.enter(this, 'awaitingReply');
    } else if (this.state === 'awaitingReply') {
      this.advance(sim);
    }
  }
  private advance(sim: Sim): void {
    this.next++;
    this.attempt = 0;
    sim.progress();
    this.pace(sim);
  }
  receive(sim: Sim, _from: string, m: Msg): void {
    if (this.state !== 'awaitingReply' || m.type !== 'cmd.reply' || m.ref !== this.ref) return;
    this.replies.push({ intent: this.commands[this.next]!.intent, ok: m.ok, outcome: m.outcome });
    this.advance(sim);
  }
}

// Source: the order and its outbox row in one transaction.

class Source extends Comp {
  private pending: { ref: string; from: string; order: string; intent: string; tx: string } | undefined;
  private handled = 0;
  constructor() {
    super('source', true);
  }
  boot(sim: Sim): void {
    this.pending = undefined;
    this.handled = 0;
    sim.enter(this, 'idle');
  }
  delay(state: string): number | undefined {
    switch (state) {
      case 'writingSource':
      case 'committing':
        return 20;
      case 'beforeSourceCommit':
      case 'afterSourceCommit':
        return 1;
      default:
        return undefined;
    }
  }
  idle(): boolean {
    return this.state === 'idle';
  }
  durable(): unknown {
    return {};
  }
  private reply(sim: Sim, ok: boolean): void {
    const p = this.pending!;
    sim.send(this.name, p.from, { type: 'cmd.reply', ref: p.ref, ok, outcome: ok ? p.order : 'failed' });
    sim.enter(this, 'idle');
  }
  timeout(sim: Sim): void {
    const p = this.pending!;
    switch (this.state) {
      case 'writingSource':
        sim.send(this.name, 'ordersDb', { type: 'db.abort', tx: p.tx });
        return this.reply(sim, false);
      case 'committing':
        return this.reply(sim, false);
      case 'beforeSourceCommit':
        sim.send(this.name, 'ordersDb', { type: 'db.commit', tx: p.tx });
        return sim.enter(this, 'committing');
      case 'afterSourceCommit':
        return this.reply(sim, true);
    }
  }
  receive(sim: Sim, from: string, m: Msg): void {
    switch (this.state) {
      case 'idle': {
        if (m.type !== 'cmd') return;
        this.handled++;
        const tx = `cmd-${this.handled}`;
        this.pending = { ref: m.ref, from, order: m.order, intent: m.intent, tx };
        const event_id = `evt-${m.order}-v1`;
        sim.send(this.name, 'ordersDb', {
          type: 'db.exec',
          tx,
          ops: [
            { op: 'insert', table: 'orders', row: { order_id: m.order, intent: m.intent, status: 'ACCEPTED', version: 1 }, onConflict: 'error' },
            {
              op: 'insert',
              table: 'outbox',
              row: { event_id, aggregate_id: m.order, aggregate_version: 1, event_type: 'OrderAccepted', status: 'ACCEPTED', order_id: m.order, reservation_version: 1, published: false },
              onConflict: 'error',
            },
          ],
        });
        return sim.enter(this, 'writingSource');
      }
      case 'writingSource':
        if (m.type !== 'db.result' || m.tx !== this.pending!.tx) return;
        if ((m.results as { inserted?: boolean }[]).every((r) => r.inserted !== false)) return sim.enter(this, 'beforeSourceCommit');
        sim.send(this.name, 'ordersDb', { type: 'db.abort', tx: this.pending!.tx });
        return this.reply(sim, false);
      case 'committing':
        if (m.type !== 'db.committed' || m.tx !== this.pending!.tx) return;
        if (m.ok) return sim.enter(this, 'afterSourceCommit');
        return this.reply(sim, false);
    }
  }
}

// Relay: poll, publish one row, wait for the ack, mark it published, next row.

class Relay extends Comp {
  private batch: Row[] = [];
  private polls = 0;
  constructor() {
    super('relay', true);
  }
  boot(sim: Sim): void {
    this.batch = [];
    this.polls = 0;
    sim.enter(this, 'idle');
  }
  delay(state: string): number | undefined {
    switch (state) {
      case 'idle':
        return 8;
      case 'polling':
      case 'afterRelaySend':
      case 'recordingProgress':
        return 20;
      case 'beforeRelaySend':
      case 'afterBrokerAccept':
      case 'afterRelayProgress':
        return 1;
      default:
        return undefined;
    }
  }
  idle(): boolean {
    return this.state === 'idle';
  }
  durable(): unknown {
    return {};
  }
  private poll(sim: Sim): void {
    this.polls++;
    sim.send(this.name, 'ordersDb', { type: 'db.run', ref: `poll-${this.polls}`, ops: [{ op: 'select', table: 'outbox', where: { published: false } }] });
    sim.enter(this, 'polling');
  }
  timeout(sim: Sim): void {
    switch (this.state) {
      case 'idle':
        return this.poll(sim);
      case 'polling':
      case 'recordingProgress':
        return sim.enter(this, 'idle');
      case 'beforeRelaySend': {
        const { published: _p, ...payload } = this.batch[0]!;
        sim.send(this.name, 'broker', { type: 'broker.publish', ref: String(payload['event_id']), key: String(payload['aggregate_id']), payload });
        return sim.enter(this, 'afterRelaySend');
      }
      case 'afterRelaySend':
        return sim.enter(this, 'beforeRelaySend');
      case 'afterBrokerAccept': {
        const id = String(this.batch[0]!['event_id']);
        sim.send(this.name, 'ordersDb', { type: 'db.run', ref: `mark-${id}`, ops: [{ op: 'update', table: 'outbox', where: { event_id: id }, set: { published: true } }] });
        return sim.enter(this, 'recordingProgress');
      }
      case 'afterRelayProgress':
        this.batch = this.batch.slice(1);
        return this.batch.length > 0 ? sim.enter(this, 'beforeRelaySend') : this.poll(sim);
    }
  }
  receive(sim: Sim, _from: string, m: Msg): void {
    switch (this.state) {
      case 'polling': {
        if (m.type !== 'db.ran' || m.ref !== `poll-${this.polls}`) return;
        const rows = (m.results[0]?.rows ?? []) as Row[];
        if (rows.length === 0) return sim.enter(this, 'idle');
        this.batch = rows;
        return sim.enter(this, 'beforeRelaySend');
      }
      case 'afterRelaySend':
        if (m.type === 'broker.ack' && m.ref === this.batch[0]!['event_id']) sim.enter(this, 'afterBrokerAccept');
        return;
      case 'recordingProgress':
        if (m.type === 'db.ran' && m.ref === `mark-${this.batch[0]!['event_id']}`) sim.enter(this, 'afterRelayProgress');
        return;
    }
  }
}

// Consumer: inbox row and reservation in one transaction, then the offset.

interface Delivery {
  offset: number;
  payload: Row;
}

class Consumer extends Comp {
  private queue: Delivery[] = [];
  private current: Delivery | undefined;
  private attempt = 0;
  constructor() {
    super('consumer', true);
  }
  boot(sim: Sim): void {
    this.queue = [];
    this.current = undefined;
    this.attempt = 0;
    this.connect(sim);
  }
  private connect(sim: Sim, reenter = false): void {
    sim.send(this.name, 'broker', { type: 'broker.subscribe', group: 'inventory' });
    sim.enter(this, 'connecting', reenter);
  }
  delay(state: string): number | undefined {
    switch (state) {
      case 'connecting':
      case 'insertingInbox':
      case 'writingEffect':
      case 'committingEffect':
        return 20;
      case 'received':
      case 'afterInboxInsert':
      case 'afterEffectCommit':
      case 'duplicateSeen':
      case 'beforeTransportProgress':
        return 1;
      default:
        return undefined;
    }
  }
  idle(): boolean {
    return this.state === 'idle';
  }
  durable(): unknown {
    return {};
  }
  private get tx(): string {
    return `d0.${this.current!.offset}.${this.attempt}`;
  }
  private goIdle(sim: Sim): void {
    const next = this.queue.shift();
    if (next === undefined) return sim.enter(this, 'idle');
    this.current = next;
    this.attempt = 1;
    sim.enter(this, 'received');
  }
  private exec(sim: Sim, stmt: 'inbox' | 'effect'): void {
    const p = this.current!.payload;
    const op =
      stmt === 'inbox'
        ? { op: 'insert', table: 'inbox', row: { consumer_name: 'inventory-reservation-v3', event_id: String(p['event_id']) }, onConflict: 'nothing' }
        : { op: 'insert', table: 'reservations', row: { order_id: p['aggregate_id'] ?? null, reservation_version: p['reservation_version'] ?? null, state: 'HELD' }, onConflict: 'nothing' };
    sim.send(this.name, 'inventoryDb', { type: 'db.exec', tx: this.tx, ops: [op], stmt });
    sim.enter(this, stmt === 'inbox' ? 'insertingInbox' : 'writingEffect');
  }
  private retry(sim: Sim, abort: boolean): void {
    if (abort) sim.send(this.name, 'inventoryDb', { type: 'db.abort', tx: this.tx });
    this.attempt++;
    sim.enter(this, 'received');
  }
  timeout(sim: Sim): void {
    switch (this.state) {
      case 'connecting':
        return this.connect(sim, true);
      case 'received':
        return this.exec(sim, 'inbox');
      case 'insertingInbox':
      case 'writingEffect':
        return this.retry(sim, true);
      case 'committingEffect':
        return this.retry(sim, false);
      case 'afterInboxInsert':
        return this.exec(sim, 'effect');
      case 'afterEffectCommit':
      case 'duplicateSeen':
        return sim.enter(this, 'beforeTransportProgress');
      case 'beforeTransportProgress':
        sim.send(this.name, 'broker', { type: 'broker.commit', partition: 0, offset: this.current!.offset + 1 });
        this.current = undefined;
        return this.goIdle(sim);
    }
  }
  receive(sim: Sim, _from: string, m: Msg): void {
    if (m.type === 'broker.deliver') {
      const same = (d: Delivery | undefined) => d !== undefined && d.offset === m.offset;
      if (!same(this.current) && !this.queue.some(same)) this.queue.push({ offset: m.offset, payload: m.payload });
      if (this.state === 'idle') this.goIdle(sim);
      return;
    }
    switch (this.state) {
      case 'connecting':
        if (m.type === 'broker.subscribed') this.goIdle(sim);
        return;
      case 'insertingInbox':
        if (m.type !== 'db.result' || m.tx !== this.tx || m.stmt !== 'inbox') return;
        if (m.results[0]?.inserted === true) return sim.enter(this, 'afterInboxInsert');
        sim.send(this.name, 'inventoryDb', { type: 'db.abort', tx: this.tx });
        return sim.enter(this, 'duplicateSeen');
      case 'writingEffect':
        if (m.type !== 'db.result' || m.tx !== this.tx || m.stmt !== 'effect') return;
        sim.send(this.name, 'inventoryDb', { type: 'db.commit', tx: this.tx });
        return sim.enter(this, 'committingEffect');
      case 'committingEffect':
        if (m.type !== 'db.committed' || m.tx !== this.tx) return;
        return sim.enter(this, m.ok ? 'afterEffectCommit' : 'duplicateSeen');
    }
  }
}

// The loop: the World's run, phases and fault rules, for plain components.

export interface PlainRun {
  readonly outcome: RunOutcome;
  readonly result: PlainResult;
  readonly windowCounts: ReadonlyMap<string, number>;
  readonly census: ReadonlyMap<string, number>;
}

export interface PlainOptions {
  readonly seed: number;
  readonly plan: FaultPlan;
  readonly size?: number;
  /** Also hash a trace of every delivery, timer and state change, as the World does. */
  readonly trace?: boolean;
}

export function runPlainOutbox(options: PlainOptions): PlainRun {
  const o = DEFAULT_WORLD_OPTIONS;
  const size = options.size ?? 2;
  const commands = Array.from({ length: size }, (_, i) => ({ intent: `accept o-${i + 1}`, order: `o-${i + 1}` }));
  const comps: Comp[] = [
    new Client(commands),
    new Source(),
    new Db('ordersDb', { orders: ['order_id'], outbox: ['event_id'] }),
    new Relay(),
    new Broker(),
    new Consumer(),
    new Db('inventoryDb', { reservations: ['order_id', 'reservation_version'], inbox: ['consumer_name', 'event_id'] }),
  ];
  const byName = new Map(comps.map((c) => [c.name, c]));
  const prng = new Prng(options.seed);
  const schedule = new Schedule<Item>();
  const trace = options.trace ? new Trace(false) : undefined;
  const crashFaults = new Map<string, CrashFault[]>();
  const messageFaults: MessageFault[] = [];
  for (const f of options.plan) {
    if (f.kind === 'crash') crashFaults.set(f.window, [...(crashFaults.get(f.window) ?? []), f]);
    else messageFaults.push(f);
  }
  const windowCounts = new Map<string, number>();
  const strikes: Strike[] = [];
  let now = 0;
  let inFlight = 0;
  let steps = 0;
  let lastProgressTick = 0;
  let healed = false;
  const network = new Network(prng.fork('network'), o, messageFaults, {
    schedule: (tick, envelope) => {
      inFlight++;
      schedule.push(tick, { kind: 'message', envelope });
    },
    record: (fault, envelope) => {
      trace?.add(now, envelope.from, fault.kind, { to: envelope.to, event: envelope.event });
      strikes.push({ fault, tick: now, durable: {}, inFlight: [] });
    },
  });
  const sim: Sim = {
    get now() {
      return now;
    },
    send: (from, to, msg) => network.send(now, from, to, msg),
    enter(comp, state, reenter = false) {
      if (comp.timer !== undefined) schedule.cancel(comp.timer);
      comp.timer = undefined;
      comp.reentered = reenter && state === comp.state;
      comp.state = state;
      const d = comp.delay(state);
      if (d === undefined) return;
      comp.timer = schedule.push(now + d, { kind: 'timer', comp });
    },
    progress() {
      lastProgressTick = now;
    },
  };
  // After each step the component's resting state is its failure window; a crash strikes there.
  const observed = new Map<Comp, string>();
  const settle = (comp: Comp) => {
    const state = comp.state;
    const reentered = comp.reentered;
    comp.reentered = false;
    if (observed.get(comp) === state && !reentered) return;
    observed.set(comp, state);
    trace?.add(now, comp.name, 'state', state);
    if (!comp.process) return;
    const window = `${comp.name}.${state}`;
    const n = (windowCounts.get(window) ?? 0) + 1;
    windowCounts.set(window, n);
    if (healed) return;
    const fault = crashFaults.get(window)?.find((f) => f.occurrence === n);
    if (fault) {
      strikes.push({ fault, tick: now, durable: {}, inFlight: [] });
      crash(comp);
    }
  };
  const boot = (comp: Comp) => {
    observed.delete(comp);
    comp.timer = undefined;
    comp.boot(sim);
    lastProgressTick = now;
    settle(comp);
  };
  const crash = (comp: Comp) => {
    comp.down = true;
    trace?.add(now, comp.name, 'crash');
    if (comp.timer !== undefined) schedule.cancel(comp.timer);
    comp.timer = undefined;
    for (const e of network.dropHeldFrom(comp.name)) trace?.add(now, e.to, 'drop', { from: comp.name, event: e.event, reason: 'sender crashed' });
    for (const peer of comps) if (peer !== comp) network.send(now, comp.name, peer.name, { type: 'sys.peerCrashed', peer: comp.name } as Msg, false, true);
    schedule.push(now + o.restartDelayTicks, { kind: 'restart', comp });
  };
  // The World's rule: nobody down or busy, nobody outside an idle state waiting on its own timer,
  // and no durable change for longer than the longest timer still pending.
  const quiet = () => {
    if (inFlight > 0 || network.holding) return false;
    let longest = 0;
    for (const c of comps) {
      if (c.down) return false;
      const idle = c.idle();
      if (!idle && (c.process || c.timer !== undefined)) return false;
      if (c.timer !== undefined) longest = Math.max(longest, c.delay(c.state) ?? 0);
    }
    return now - lastProgressTick >= Math.max(o.quietTicks, longest + 1);
  };
  const step = () => {
    const next = schedule.pop()!;
    steps++;
    now = next.tick;
    const item = next.item;
    if (item.kind === 'message') {
      inFlight--;
      const { envelope } = item;
      const comp = byName.get(envelope.to)!;
      if (comp.down) {
        trace?.add(now, envelope.to, 'drop', { from: envelope.from, event: envelope.event });
        return;
      }
      trace?.add(now, envelope.to, 'deliver', { from: envelope.from, event: envelope.event });
      comp.receive(sim, envelope.from, envelope.event as Msg);
      settle(comp);
    } else if (item.kind === 'timer') {
      const comp = item.comp;
      comp.timer = undefined;
      trace?.add(now, comp.name, 'timer', comp.state);
      comp.timeout(sim);
      settle(comp);
    } else if (item.comp.down) {
      item.comp.down = false;
      trace?.add(now, item.comp.name, 'restart');
      boot(item.comp);
    }
  };
  const phase = (untilTick: number): 'quiet' | 'silent' | 'bound' | 'steps' => {
    for (;;) {
      if (quiet()) return 'quiet';
      const next = schedule.peek();
      if (!next) return 'silent';
      if (next.tick > untilTick) {
        now = untilTick;
        return 'bound';
      }
      if (steps >= o.stepsMax) return 'steps';
      step();
    }
  };
  trace?.add(0, 'world', 'start', { seed: String(options.seed), plan: options.plan, options: behaviourOf({ ...o, seed: options.seed, plan: options.plan }) });
  for (const c of comps) boot(c);
  let ending: Ending = { kind: 'stuck', reason: { kind: 'no quiescence', ticks: o.livenessTicksMax } };
  if (phase(o.safetyTicksMax) !== 'steps') {
    healed = true;
    network.heal(now);
    schedule.removeWhere((item) => item.kind === 'restart');
    for (const c of comps) {
      if (!c.down) continue;
      c.down = false;
      boot(c);
    }
    const end = phase(now + o.livenessTicksMax);
    if (end === 'quiet' || (end === 'silent' && comps.every((c) => !c.process || c.idle()))) ending = { kind: 'quiescent' };
  }
  const result: PlainResult = { ending, ticks: now, steps, strikes, traceHash: trace?.hash() ?? '' };
  const view: WorldView = { durable: <T>(name: string) => byName.get(name)!.durable() as T, result, notes: [] };
  const verdict = checkClaim(reservationClaim, view);
  return { outcome: runOutcome(verdict.findings, verdict.outcome === 'unknown'), result, windowCounts, census: network.census() };
}


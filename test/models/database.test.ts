// The database model, one behaviour at a time. Most tests drive `databaseMachine` directly with
// XState's pure `transition`: each event carries `from` (the connection) and `at` (the tick), as
// the World would deliver it, and the replies are read from the `send` actions the step emitted.
// One test runs the order pipeline in a World to show the ambiguity of a lost commit reply. That
// these behaviours are PostgreSQL's is held by test/models/databasePostgres.test.ts.
import { SECONDS } from '../../src/base/duration.ts';
import { initialTransition, transition, type AnyMachineSnapshot } from 'xstate';
import { describe, expect, it } from 'vitest';
import type { Emitted, SendEmitted } from '../../src/kernel/emitted.ts';
import { World } from '../../src/run/world.ts';
import { InputError } from '../../src/base/inputError.ts';
import type { ClientDurable } from '../../models/client.ts';
import { databaseMachine, historyOf, IDLE_TX_TICKS, rowsOf, waitingOf, type DatabaseDurable, type DeletedRow, type DbOp, type OpResult, type Row, type TableSpec } from '../../models/database.ts';
import { orderPipeline, reservationClaim } from '../../models/designs/orderPipeline.ts';
import { defineScenario } from '../../src/scenario/scenario.ts';
import { runScenario } from '../../src/run/runScenario.ts';

type Reply = { type: string; ok?: boolean; conflict?: string; results?: readonly OpResult[] };
type Sent = { to: string; event: Reply };

/** A database and the connections that talk to it; every call returns the reply it sent. */
function database(tables: Record<string, TableSpec>, durable?: DatabaseDurable) {
  let snapshot: AnyMachineSnapshot = initialTransition(databaseMachine, { tables, ...(durable ? { durable } : {}) })[0];
  let sent: Sent[] = [];
  let timers: string[] = [];
  let notes: { kind: string; data: unknown }[] = [];
  const step = (event: Record<string, unknown>): Reply | undefined => {
    const [next, actions] = transition(databaseMachine, snapshot as never, event as never);
    snapshot = next;
    const all = actions as readonly { type: string; params?: unknown }[];
    sent = all
      .filter((a) => a.type === 'xstate.emit')
      .map((a) => (a.params as { event: Emitted }).event)
      .filter((e): e is SendEmitted => e.type === 'send')
      .map((e) => ({ to: e.to, event: e.event as Reply }));
    notes = all
      .filter((a) => a.type === 'xstate.emit')
      .map((a) => (a.params as { event: Emitted }).event)
      .flatMap((e) => (e.type === 'note' ? [{ kind: e.kind, data: e.data }] : []));
    timers = all
      .filter((a) => a.type === 'xstate.raise' || a.type === 'xstate.cancel')
      .map((a) => {
        const p = a.params as { sendId?: string; id?: string; delay?: number; event?: { type: string; key?: string } };
        return a.type === 'xstate.cancel' ? `cancel ${p.sendId}` : `raise ${p.event?.type} ${p.event?.key} as ${p.id} in ${p.delay}`;
      });
    // The reply to the sender, if it got one now; a statement that waits for a lock gets none yet.
    return sent.find((s) => s.to === event['from'])?.event;
  };
  return {
    exec: (from: string, tx: string, ops: readonly DbOp[], at = 0, stmt?: string) => step({ type: 'db.exec', tx, ops, from, at, ...(stmt === undefined ? {} : { stmt }) })?.results,
    commit: (from: string, tx: string, at = 0) => step({ type: 'db.commit', tx, from, at })!,
    abort: (from: string, tx: string, at = 0) => step({ type: 'db.abort', tx, from, at }),
    /** One statement in its own transaction (autocommit). */
    run: (from: string, ops: readonly DbOp[], at = 0) => step({ type: 'db.run', ref: 'r', ops, from, at })!,
    peerCrashed: (peer: string, at = 0) => step({ type: 'sys.peerCrashed', peer, at }),
    /** The database's own idle-in-transaction timer for a transaction firing. */
    idleTimeout: (key: string, at = 0) => step({ type: 'db.idleTimeout', key, at }),
    select: (from: string, table: string, where?: Row, at = 0) => step({ type: 'db.run', ref: 's', ops: [{ op: 'select', table, ...(where ? { where } : {}) }], from, at })!.results![0]!.rows!,
    /** Every reply the last step sent, to any connection. */
    get sent(): readonly Sent[] {
      return sent;
    },
    /** The notes the last step wrote for the trace, in order. */
    get notes(): readonly { kind: string; data: unknown }[] {
      return notes;
    },
    /** The timers the last step cancelled or set, in order. */
    get timers(): readonly string[] {
      return timers;
    },
    get durable(): DatabaseDurable {
      return snapshot.context.durable as DatabaseDurable;
    },
    get openTxs(): string[] {
      return Object.keys(snapshot.context.txs as object).sort();
    },
    get waiting(): Record<string, string> {
      return Object.fromEntries(waitingOf(snapshot.context));
    },
  };
}

describe('database: keys', () => {
  const tables = { users: { key: ['id'], unique: [['email']] } };

  it('refuses a second row with the same primary key, or with the same unique key, and reports which', () => {
    const db = database(tables);
    expect(db.run('app', [{ op: 'insert', table: 'users', row: { id: 1, email: 'a@x' } }]).ok).toBe(true);
    const [samePk, sameEmail, neither] = db.exec('app', 't1', [
      { op: 'insert', table: 'users', row: { id: 1, email: 'b@x' } },
      { op: 'insert', table: 'users', row: { id: 2, email: 'a@x' } },
      { op: 'insert', table: 'users', row: { id: 3, email: 'c@x' } },
    ])!;
    expect(samePk).toEqual({ inserted: false, conflict: '(id)' });
    expect(sameEmail).toEqual({ inserted: false, conflict: '(email)' });
    expect(neither).toEqual({ inserted: true });
    expect(db.commit('app', 't1').ok).toBe(true);
    expect(rowsOf(db.durable, 'users')).toEqual([
      { id: 1, email: 'a@x' },
      { id: 3, email: 'c@x' },
    ]);
  });

  it("insert … onConflict: 'nothing' reports inserted:false, keeps the stored row and lets the rest of the transaction commit", () => {
    const db = database(tables);
    db.run('app', [{ op: 'insert', table: 'users', row: { id: 1, email: 'a@x', name: 'first' } }]);
    const [repeat, other] = db.exec('app', 't1', [
      { op: 'insert', table: 'users', row: { id: 1, email: 'a@x', name: 'second' }, onConflict: 'nothing' },
      { op: 'insert', table: 'users', row: { id: 2, email: 'b@x', name: 'other' }, onConflict: 'nothing' },
    ])!;
    expect(repeat!.inserted).toBe(false);
    expect(other!.inserted).toBe(true);
    expect(db.commit('app', 't1').ok).toBe(true);
    expect(rowsOf(db.durable, 'users')).toEqual([
      { id: 1, email: 'a@x', name: 'first' },
      { id: 2, email: 'b@x', name: 'other' },
    ]);
    // An upsert of the same row does overwrite: the insert's "nothing" is what kept 'first'.
    db.run('app', [{ op: 'upsert', table: 'users', row: { id: 1, email: 'a@x', name: 'second' } }]);
    expect(rowsOf(db.durable, 'users')[0]).toEqual({ id: 1, email: 'a@x', name: 'second' });
  });
});

describe('database: transactions', () => {
  const tables = { t: { key: ['id'] } };

  it('writes are visible to their own transaction, invisible to others until commit, and vanish on abort', () => {
    const db = database(tables);
    db.exec('a', 'tx', [{ op: 'insert', table: 't', row: { id: 1, v: 'a' } }]);
    // Its own statements see the write...
    expect(db.exec('a', 'tx', [{ op: 'select', table: 't' }])![0]!.rows).toEqual([{ id: 1, v: 'a' }]);
    // ...another connection (and another transaction of the same connection) does not.
    expect(db.select('b', 't')).toEqual([]);
    expect(db.exec('a', 'other', [{ op: 'select', table: 't' }])![0]!.rows).toEqual([]);
    expect(rowsOf(db.durable, 't')).toEqual([]);
    expect(db.commit('a', 'tx').ok).toBe(true);
    expect(db.select('b', 't')).toEqual([{ id: 1, v: 'a' }]);

    db.exec('a', 'tx2', [
      { op: 'insert', table: 't', row: { id: 2, v: 'b' } },
      { op: 'delete', table: 't', where: { id: 1 } },
    ]);
    expect(db.exec('a', 'tx2', [{ op: 'select', table: 't' }])![0]!.rows).toEqual([{ id: 2, v: 'b' }]);
    db.abort('a', 'tx2');
    expect(db.openTxs).not.toContain('a/tx2');
    // Committing the aborted transaction's name afterwards commits nothing.
    expect(db.commit('a', 'tx2').ok).toBe(true);
    expect(rowsOf(db.durable, 't')).toEqual([{ id: 1, v: 'a' }]);
  });

  it('conditional update by version changes the row only when the stored version matches', () => {
    const db = database(tables);
    db.run('app', [{ op: 'insert', table: 't', row: { id: 1, status: 'ACCEPTED', version: 1 } }]);
    const stale = db.run('app', [{ op: 'update', table: 't', where: { id: 1 }, set: { status: 'DELIVERED', version: 3 }, ifVersion: 2 }]);
    expect(stale.results![0]).toEqual({ updated: 0 });
    expect(rowsOf(db.durable, 't')).toEqual([{ id: 1, status: 'ACCEPTED', version: 1 }]);
    const current = db.run('app', [{ op: 'update', table: 't', where: { id: 1 }, set: { status: 'PACKED', version: 2 }, ifVersion: 1 }]);
    expect(current.results![0]).toEqual({ updated: 1 });
    expect(rowsOf(db.durable, 't')).toEqual([{ id: 1, status: 'PACKED', version: 2 }]);
  });

  it('an upsert with onlyNewerVersion refuses an older or equal version; without it the older version overwrites', () => {
    const db = database(tables);
    db.run('app', [{ op: 'upsert', table: 't', row: { id: 1, status: 'DELIVERED', version: 3 } }]);
    for (const version of [2, 3]) {
      const r = db.run('app', [{ op: 'upsert', table: 't', row: { id: 1, status: 'PACKED', version }, onlyNewerVersion: true }]);
      expect(r.results![0]).toEqual({ written: false });
    }
    expect(rowsOf(db.durable, 't')).toEqual([{ id: 1, status: 'DELIVERED', version: 3 }]);
    expect(db.run('app', [{ op: 'upsert', table: 't', row: { id: 1, status: 'RETURNED', version: 4 }, onlyNewerVersion: true }]).results![0]).toEqual({ written: true });
    expect(db.run('app', [{ op: 'upsert', table: 't', row: { id: 1, status: 'PACKED', version: 2 } }]).results![0]).toEqual({ written: true });
    expect(rowsOf(db.durable, 't')).toEqual([{ id: 1, status: 'PACKED', version: 2 }]);
  });

  it('a second insert of a key another open transaction inserted waits for it: not inserted after its commit, inserted after its abort', () => {
    const db = database(tables);
    expect(db.exec('a', 'tx', [{ op: 'insert', table: 't', row: { id: 7, by: 'a' } }])).toEqual([{ inserted: true }]);
    expect(db.exec('b', 'tx', [{ op: 'insert', table: 't', row: { id: 7, by: 'b' }, onConflict: 'nothing' }])).toBeUndefined();
    expect(db.waiting).toEqual({ 'b/tx': 'a/tx' });
    // a's commit answers a, and b's waiting insert with it.
    expect(db.commit('a', 'tx')).toMatchObject({ type: 'db.committed', ok: true });
    expect(db.sent.map((s) => [s.to, s.event.type, s.event.results ?? s.event.ok])).toEqual([
      ['a', 'db.committed', true],
      ['b', 'db.result', [{ inserted: false, conflict: '(id)' }]],
    ]);
    expect(db.commit('b', 'tx').ok).toBe(true);
    expect(rowsOf(db.durable, 't')).toEqual([{ id: 7, by: 'a' }]);

    db.exec('a', 'tx2', [{ op: 'insert', table: 't', row: { id: 8, by: 'a' } }]);
    expect(db.exec('b', 'tx2', [{ op: 'insert', table: 't', row: { id: 8, by: 'b' } }])).toBeUndefined();
    db.abort('a', 'tx2');
    expect(db.sent).toEqual([{ to: 'b', event: expect.objectContaining({ type: 'db.result', results: [{ inserted: true }] }) }]);
    expect(db.commit('b', 'tx2').ok).toBe(true);
    expect(rowsOf(db.durable, 't')).toEqual([{ id: 7, by: 'a' }, { id: 8, by: 'b' }]);
  });

  it('a conditional update of a row another transaction holds waits, then matches the row as that one committed it', () => {
    const db = database(tables);
    db.run('app', [{ op: 'insert', table: 't', row: { id: 1, status: 'ACCEPTED', version: 1 } }]);
    const bump = (status: string): DbOp => ({ op: 'update', table: 't', where: { id: 1 }, set: { status, version: 2 }, ifVersion: 1 });
    expect(db.exec('a', 'tx', [bump('PACKED')])).toEqual([{ updated: 1 }]);
    expect(db.exec('b', 'tx', [bump('SHIPPED')])).toBeUndefined();
    db.commit('a', 'tx');
    // The row is at version 2 now: b's update matches nothing, so a's change is not lost.
    expect(db.sent[1]).toEqual({ to: 'b', event: expect.objectContaining({ results: [{ updated: 0 }] }) });
    db.commit('b', 'tx');
    expect(rowsOf(db.durable, 't')).toEqual([{ id: 1, status: 'PACKED', version: 2 }]);
  });

  it('an upsert that keeps the stored row (its version is not newer) still locks it until its transaction ends', () => {
    const db = database(tables);
    db.run('app', [{ op: 'upsert', table: 't', row: { id: 1, version: 3 } }]);
    expect(db.exec('a', 'tx', [{ op: 'upsert', table: 't', row: { id: 1, version: 2 }, onlyNewerVersion: true }])).toEqual([{ written: false }]);
    expect(db.exec('b', 'tx', [{ op: 'delete', table: 't', where: { id: 1 } }])).toBeUndefined();
    expect(db.waiting).toEqual({ 'b/tx': 'a/tx' });
    db.commit('a', 'tx');
    expect(db.sent[1]).toEqual({ to: 'b', event: expect.objectContaining({ results: [{ deleted: 1 }] }) });
  });

  it('a statement that would close a cycle of waiting transactions fails as a deadlock; the other goes on', () => {
    const db = database(tables);
    db.exec('a', 'tx', [{ op: 'insert', table: 't', row: { id: 1 } }]);
    db.exec('b', 'tx', [{ op: 'insert', table: 't', row: { id: 2 } }]);
    expect(db.exec('a', 'tx', [{ op: 'upsert', table: 't', row: { id: 2, by: 'a' } }])).toBeUndefined();
    // b now waits for a, which waits for b: b's statement fails, and with it b's transaction.
    expect(db.exec('b', 'tx', [{ op: 'upsert', table: 't', row: { id: 1, by: 'b' } }, { op: 'select', table: 't' }])).toEqual([{ error: 'deadlock' }, { error: 'aborted' }]);
    expect(db.sent.map((s) => s.to)).toEqual(['b', 'a']);
    expect(db.commit('b', 'tx')).toMatchObject({ ok: false, conflict: 'deadlock' });
    expect(db.commit('a', 'tx').ok).toBe(true);
    expect(rowsOf(db.durable, 't')).toEqual([{ id: 1 }, { id: 2, by: 'a' }]);
  });

  it('an abort, or a crash, of the transaction a statement waits for lets it go on; an abort also cancels its own waiting statement', () => {
    const db = database(tables);
    db.exec('a', 'tx', [{ op: 'insert', table: 't', row: { id: 1 } }]);
    expect(db.exec('b', 'tx', [{ op: 'insert', table: 't', row: { id: 1 } }])).toBeUndefined();
    expect(db.run('c', [{ op: 'insert', table: 't', row: { id: 1 }, onConflict: 'nothing' }])).toBeUndefined();
    // b gives up: its waiting insert is cancelled, unanswered.
    expect(db.abort('b', 'tx')).toBeUndefined();
    expect(db.waiting).toEqual({ 'c/run r': 'a/tx' });
    expect(db.peerCrashed('a')).toBeUndefined();
    expect(db.sent).toEqual([{ to: 'c', event: expect.objectContaining({ type: 'db.ran', ok: true, results: [{ inserted: true }] }) }]);
    expect(db.openTxs).toEqual([]);
  });
  it("sys.peerCrashed aborts the crashed peer's open transactions only; committed rows stay", () => {
    const db = database(tables);
    db.run('a', [{ op: 'insert', table: 't', row: { id: 0, by: 'a' } }]);
    db.exec('a', 'tx1', [{ op: 'insert', table: 't', row: { id: 1, by: 'a' } }]);
    db.exec('a', 'tx2', [{ op: 'insert', table: 't', row: { id: 2, by: 'a' } }]);
    db.exec('b', 'tx1', [{ op: 'insert', table: 't', row: { id: 3, by: 'b' } }]);
    expect(db.openTxs).toEqual(['a/tx1', 'a/tx2', 'b/tx1']);
    expect(db.peerCrashed('a')).toBeUndefined();
    expect(db.openTxs).toEqual(['b/tx1']);
    // The restarted peer's commit of the old name finds nothing to commit; b's commit lands.
    expect(db.commit('a', 'tx1').ok).toBe(true);
    expect(db.commit('b', 'tx1').ok).toBe(true);
    expect(rowsOf(db.durable, 't').map((r) => r['id'])).toEqual([0, 3]);
  });
});

describe('database: a committed table read by many statements', () => {
  const tables = { t: { key: ['id'] } };
  const filled = () => {
    const db = database(tables);
    db.run('a', [{ op: 'insert', table: 't', row: { id: 2, v: 'b' } }]);
    db.run('a', [{ op: 'insert', table: 't', row: { id: 1, v: 'a' } }]);
    return db;
  };

  it('what reading works out once is kept out of the table as data: its keys, its JSON, its copies and its clones hold only its rows', () => {
    const db = filled();
    // Reads in and out of a transaction, so the table's commit order and rows by key are made.
    expect(db.select('b', 't').map((r) => r['id'])).toEqual([2, 1]);
    expect(db.exec('b', 'tx', [{ op: 'select', table: 't', where: { id: 1 } }])![0]!.rows).toEqual([{ id: 1, v: 'a' }]);
    const table = db.durable.tables['t']!;
    expect(Object.keys(table)).toEqual(['1', '2']);
    expect(JSON.parse(JSON.stringify(table))).toEqual({ '1': { row: { id: 1, v: 'a' }, at: 0, seq: 3 }, '2': { row: { id: 2, v: 'b' }, at: 0, seq: 1 } });
    for (const copy of [Object.assign({}, table), { ...table }, structuredClone(table)]) expect(Reflect.ownKeys(copy)).toEqual(['1', '2']);
  });

  it('a database started from a frozen durable state reads and commits as one started from the same state unfrozen', () => {
    const deepFreeze = <T>(v: T): T => {
      if (typeof v === 'object' && v !== null) for (const x of Object.values(v)) deepFreeze(x);
      return Object.freeze(v);
    };
    const state = filled().durable;
    const frozen = database(tables, deepFreeze(structuredClone(state)));
    const plain = database(tables, structuredClone(state));
    for (const db of [frozen, plain]) {
      expect(db.select('b', 't')).toEqual([{ id: 2, v: 'b' }, { id: 1, v: 'a' }]);
      db.exec('b', 'tx', [{ op: 'update', table: 't', set: { v: 'c' }, where: { id: 1 } }]);
      expect(db.commit('b', 'tx').ok).toBe(true);
    }
    expect(frozen.durable).toEqual(plain.durable);
    expect(rowsOf(frozen.durable, 't')).toEqual([{ id: 2, v: 'b' }, { id: 1, v: 'c' }]);
  });
});

describe('database: claims with SKIP LOCKED', () => {
  const tables = { outbox: { key: ['event_id'] } };
  const pending = (db: ReturnType<typeof database>, rows: readonly Row[]) => db.run('app', rows.map((row) => ({ op: 'insert' as const, table: 'outbox', row })));
  const claim = (extra: Partial<Extract<DbOp, { op: 'select' }>> = {}): DbOp => ({ op: 'select', table: 'outbox', where: { published: false }, lock: 'skipLocked', ...extra });
  const ids = (results: readonly OpResult[] | undefined) => (results?.[0]?.rows ?? []).map((r) => r['event_id']);
  const rows = [
    { event_id: 'e1', aggregate_id: 'o-1', published: false },
    { event_id: 'e2', aggregate_id: 'o-1', published: false },
    { event_id: 'e3', aggregate_id: 'o-2', published: false },
  ];

  it('a second claimant passes over the rows the first one holds and takes the next, in commit order', () => {
    const db = database(tables);
    pending(db, rows);
    expect(ids(db.exec('r1', 'c1', [claim({ limit: 1 })]))).toEqual(['e1']);
    expect(ids(db.exec('r2', 'c2', [claim({ limit: 1 })]))).toEqual(['e2']);
    expect(ids(db.exec('r3', 'c3', [claim()]))).toEqual(['e3']);
    // A plain select reads every committed row, locked or not, and takes no lock.
    expect(db.select('r4', 'outbox', { published: false }).map((r) => r['event_id'])).toEqual(['e1', 'e2', 'e3']);
  });

  it('a claimed row is locked until its transaction ends: an update of it waits, and an abort hands it to the next claimant', () => {
    const db = database(tables);
    pending(db, rows.slice(0, 1));
    expect(ids(db.exec('r1', 'c1', [claim()]))).toEqual(['e1']);
    expect(db.exec('r2', 'u', [{ op: 'update', table: 'outbox', where: { event_id: 'e1' }, set: { published: true } }])).toBeUndefined();
    expect(db.waiting).toEqual({ 'r2/u': 'r1/c1' });
    db.abort('r2', 'u');
    expect(ids(db.exec('r2', 'c2', [claim()]))).toEqual([]);
    db.abort('r1', 'c1');
    expect(ids(db.exec('r2', 'c3', [claim()]))).toEqual(['e1']);
  });

  it('a claimant that marks its rows and commits leaves nothing for the next one; a crash leaves them all', () => {
    const db = database(tables);
    pending(db, rows);
    expect(ids(db.exec('r1', 'c1', [claim()]))).toEqual(['e1', 'e2', 'e3']);
    db.exec('r1', 'c1', [{ op: 'update', table: 'outbox', where: { event_id: 'e1' }, set: { published: true } }]);
    db.peerCrashed('r1');
    expect(ids(db.exec('r2', 'c2', [claim({ limit: 2 })]))).toEqual(['e1', 'e2']);
    db.exec('r2', 'c2', [{ op: 'update', table: 'outbox', where: { event_id: 'e1' }, set: { published: true } }, { op: 'update', table: 'outbox', where: { event_id: 'e2' }, set: { published: true } }]);
    expect(db.commit('r2', 'c2').ok).toBe(true);
    expect(ids(db.exec('r3', 'c3', [claim()]))).toEqual(['e3']);
  });

  it('headsOf: only the earliest pending row of each aggregate is a candidate, so a held head keeps its followers from everyone', () => {
    const db = database(tables);
    pending(db, rows);
    expect(ids(db.exec('r1', 'c1', [claim({ headsOf: 'aggregate_id' })]))).toEqual(['e1', 'e3']);
    // Without heads only, the second claimant would take e2 and could publish it before e1.
    expect(ids(db.exec('r2', 'c2', [claim({ headsOf: 'aggregate_id' })]))).toEqual([]);
    expect(ids(db.exec('r3', 'c3', [claim()]))).toEqual(['e2']);
    db.abort('r3', 'c3');
    db.exec('r1', 'c1', [{ op: 'update', table: 'outbox', where: { event_id: 'e1' }, set: { published: true } }]);
    expect(db.commit('r1', 'c1').ok).toBe(true);
    expect(ids(db.exec('r2', 'c4', [claim({ headsOf: 'aggregate_id', limit: 5 })]))).toEqual(['e2', 'e3']);
  });

  it('a limit without a lock reads the first rows in commit order and locks nothing', () => {
    const db = database(tables);
    pending(db, rows);
    expect(ids(db.exec('r1', 'c1', [{ op: 'select', table: 'outbox', limit: 2 }]))).toEqual(['e1', 'e2']);
    expect(ids(db.exec('r2', 'c2', [claim({ limit: 2 })]))).toEqual(['e1', 'e2']);
  });
});

describe('database: deleting by age', () => {
  it('olderThan deletes only rows inserted at least that long ago; an update does not make a row younger', () => {
    const db = database({ outbox: { key: ['event_id'] } });
    db.run('app', [{ op: 'insert', table: 'outbox', row: { event_id: 'e1', published: false } }], 10);
    db.run('app', [{ op: 'insert', table: 'outbox', row: { event_id: 'e2', published: false } }], 50);
    db.run('relay', [{ op: 'update', table: 'outbox', where: { event_id: 'e1' }, set: { published: true } }], 60);
    const clean = (at: number, where?: Row) => db.run('cleaner', [{ op: 'delete', table: 'outbox', olderThan: 40, ...(where ? { where } : {}) }], at).results![0]!.deleted;
    expect(clean(49)).toBe(0);
    expect(clean(70, { published: true })).toBe(1);
    expect(clean(89)).toBe(0);
    expect(clean(90)).toBe(1);
    expect(db.select('app', 'outbox')).toEqual([]);
  });

  it('a row inserted by the deleting transaction itself is never old enough', () => {
    const db = database({ outbox: { key: ['event_id'] } });
    const [, del] = db.exec('app', 't', [{ op: 'insert', table: 'outbox', row: { event_id: 'e1' } }, { op: 'delete', table: 'outbox', olderThan: 0 }], 5)!;
    expect(del).toEqual({ deleted: 0 });
  });
});

describe('database: the commit log a CDC connector tails', () => {
  it('tail returns a history table\'s committed versions from a position on, in commit order; uncommitted ones are not there', () => {
    const db = database({ outbox: { key: ['event_id'], history: true }, plain: { key: ['id'] } });
    db.run('app', [{ op: 'insert', table: 'outbox', row: { event_id: 'e1' } }]);
    db.exec('app', 'open', [{ op: 'insert', table: 'outbox', row: { event_id: 'e3' } }]);
    db.run('app', [{ op: 'insert', table: 'outbox', row: { event_id: 'e2' } }]);
    const tail = (from: number, limit?: number) => db.run('connector', [{ op: 'tail', table: 'outbox', from, ...(limit === undefined ? {} : { limit }) }]).results![0]!.rows!.map((r) => r['event_id']);
    expect(tail(0)).toEqual(['e1', 'e2']);
    expect(tail(1)).toEqual(['e2']);
    expect(tail(0, 1)).toEqual(['e1']);
    db.commit('app', 'open');
    expect(tail(2)).toEqual(['e3']);
    expect(() => db.run('connector', [{ op: 'tail', table: 'plain', from: 0 }])).toThrow(new InputError('tail of plain, which keeps no history: declare it with history to stream its changes'));
  });
});

describe('database: reading a history', () => {
  it('refuses the history of a table that keeps none once it has rows, as a misspelt table is refused', () => {
    const durable: DatabaseDurable = { tables: { ratings: { r1: { row: { id: 'r1', version: 2 }, seq: 1 } } as never, empty: {} }, nextSeq: 2, history: {} };
    expect(() => historyOf(durable, 'ratings')).toThrow(expect.objectContaining({ name: 'NotInDesign', message: 'reads the history of table ratings, which keeps none: declare the table with history: true to read its versions' }));
    // With no row yet, no history is what a table that keeps one has too.
    expect(historyOf(durable, 'empty')).toEqual([]);
    expect(historyOf({ ...durable, history: { ratings: [{ id: 'r1', version: 2 }] } }, 'ratings')).toEqual([{ id: 'r1', version: 2 }]);
  });
});

describe('database: table options', () => {
  it('ttlTicks: a row is gone once its horizon has passed, and the key is free again', () => {
    const db = database({ dedup: { key: ['k'], ttlTicks: 10 }, forever: { key: ['k'] } });
    db.run('app', [
      { op: 'insert', table: 'dedup', row: { k: 'x' } },
      { op: 'insert', table: 'forever', row: { k: 'x' } },
    ], 100);
    expect(db.select('app', 'dedup', undefined, 109)).toEqual([{ k: 'x' }]);
    expect(db.run('app', [{ op: 'insert', table: 'dedup', row: { k: 'x' }, onConflict: 'nothing' }], 109).results![0]!.inserted).toBe(false);
    expect(db.select('app', 'dedup', undefined, 110)).toEqual([]);
    expect(db.select('app', 'forever', undefined, 110)).toEqual([{ k: 'x' }]);
    const [dedup, forever] = db.run('app', [
      { op: 'insert', table: 'dedup', row: { k: 'x' }, onConflict: 'nothing' },
      { op: 'insert', table: 'forever', row: { k: 'x' }, onConflict: 'nothing' },
    ], 110).results!;
    expect(dedup!.inserted).toBe(true);
    expect(forever!.inserted).toBe(false);
  });

  it('ttlTicks: an insert or upsert that takes the key of a row past its time to live says so, and the database notes it', () => {
    const db = database({ dedup: { key: ['k'], unique: [['email']], ttlTicks: 10 }, forever: { key: ['k'] } });
    db.run('app', [{ op: 'insert', table: 'dedup', row: { k: 'x', email: 'e' } }, { op: 'insert', table: 'dedup', row: { k: 'y', email: 'f' } }], 100);
    expect(db.notes).toEqual([]);
    // While the rows live, a repeat is stopped and nothing lapsed.
    const [stopped] = db.run('app', [{ op: 'insert', table: 'dedup', row: { k: 'x', email: 'e' }, onConflict: 'nothing' }], 105).results!;
    expect(stopped).toEqual({ inserted: false, conflict: '(k)' });
    // Past it: the primary key of one row, and the unique email of the other, are taken again.
    const [insert, upsert] = db.run('app', [
      { op: 'insert', table: 'dedup', row: { k: 'x', email: 'g' }, onConflict: 'nothing' },
      { op: 'upsert', table: 'dedup', row: { k: 'z', email: 'f' } },
    ], 112).results!;
    const lapsedX = { table: 'dedup', row: { k: 'x', email: 'e' }, committedAt: 100, ttlTicks: 10 };
    const lapsedY = { table: 'dedup', row: { k: 'y', email: 'f' }, committedAt: 100, ttlTicks: 10 };
    expect(insert).toEqual({ inserted: true, lapsed: [lapsedX] });
    expect(upsert).toEqual({ written: true, lapsed: [lapsedY] });
    expect(db.notes).toEqual([{ kind: 'lapsed', data: lapsedX }, { kind: 'lapsed', data: lapsedY }]);
    // A duplicated statement is answered with its first result, but met no row of its own.
    expect(db.exec('app', 't', [{ op: 'insert', table: 'dedup', row: { k: 'y', email: 'i' }, onConflict: 'nothing' }], 113, 'once')).toEqual([{ inserted: true, lapsed: [lapsedY] }]);
    expect(db.notes).toEqual([{ kind: 'lapsed', data: lapsedY }]);
    expect(db.exec('app', 't', [{ op: 'insert', table: 'dedup', row: { k: 'y', email: 'i' }, onConflict: 'nothing' }], 114, 'once')).toEqual([{ inserted: true }]);
    expect(db.notes).toEqual([]);
    db.abort('app', 't', 115);
    // A table with no time to live never reports a lapse, nor does a key no row ever held.
    db.run('app', [{ op: 'insert', table: 'forever', row: { k: 'x' } }, { op: 'insert', table: 'dedup', row: { k: 'w', email: 'h' } }], 500);
    expect(db.notes).toEqual([]);
  });

  it('notes each committed row a transaction deleted, at its commit, and nothing for a delete rolled back or of its own insert', () => {
    const db = database({ outbox: { key: ['k'] } });
    db.run('app', [{ op: 'insert', table: 'outbox', row: { k: 'a' } }, { op: 'insert', table: 'outbox', row: { k: 'b' } }], 10);
    expect(db.notes).toEqual([]);
    // Deleted in a transaction: nothing is noted until it commits, and the reply says nothing of it.
    db.exec('app', 't', [{ op: 'delete', table: 'outbox', where: { k: 'a' } }], 20);
    expect(db.notes).toEqual([]);
    db.commit('app', 't', 21);
    expect(db.notes).toEqual([{ kind: 'deleted', data: { table: 'outbox', row: { k: 'a' }, committedAt: 10 } }]);
    expect(db.sent).toEqual([{ to: 'app', event: { type: 'db.committed', tx: 't', ok: true } }]);
    // A delete rolled back removed nothing; a row inserted and deleted in one transaction was never committed.
    db.exec('app', 'u', [{ op: 'delete', table: 'outbox' }], 30);
    db.abort('app', 'u', 31);
    db.run('app', [{ op: 'insert', table: 'outbox', row: { k: 'c' } }, { op: 'delete', table: 'outbox', where: { k: 'c' } }], 40);
    expect(db.notes).toEqual([]);
    expect(rowsOf(db.durable, 'outbox')).toEqual([{ k: 'b' }]);
    // A row deleted twice in one transaction is noted once; one deleted and written again did not go.
    db.run('app', [{ op: 'delete', table: 'outbox', where: { k: 'b' } }, { op: 'insert', table: 'outbox', row: { k: 'b', v: 2 } }, { op: 'delete', table: 'outbox', where: { k: 'b' } }], 50);
    expect(db.notes).toEqual([{ kind: 'deleted', data: { table: 'outbox', row: { k: 'b' }, committedAt: 10 } }]);
    db.run('app', [{ op: 'insert', table: 'outbox', row: { k: 'd' } }], 60);
    db.run('app', [{ op: 'delete', table: 'outbox', where: { k: 'd' } }, { op: 'insert', table: 'outbox', row: { k: 'd', v: 2 } }], 70);
    expect(db.notes).toEqual([]);
  });

  it('notes a commit’s deleted rows before its window, so a crash right after the commit keeps them', () => {
    const sweeping = defineScenario({
      name: 'cleanup-then-database-crash',
      title: 'A sweep that deletes unpublished rows, its database crashing right after the commit',
      source: 'test',
      lesson: 'The rows a commit deleted are gone whether or not the database lived to answer.',
      build: orderPipeline({ design: 'outbox', relay: { restartAfter: '4d' }, cleanup: { retention: '3d', every: '1h', rows: 'all' }, crashes: ['ordersDb'] }),
      tick: '1h',
      workload: { size: 2 },
      claims: [reservationClaim],
      expect: { verdict: 'violated', violations: ['lost effect'] },
    });
    const relayDown = { kind: 'crash', window: 'relay.beforeRelaySend', occurrence: 1 } as const;
    const run = runScenario(sweeping, { seed: 1, plan: [relayDown, { kind: 'crash', window: 'ordersDb.afterCommit', occurrence: 3 }], keepTrace: true });
    const trace = run.report.trace!;
    const crash = trace.find((e) => e.kind === 'crash' && e.component === 'ordersDb')!;
    const deleted = trace.filter((e) => e.kind === 'note' && (e.data as { kind: string }).kind === 'deleted').map((e) => ({ tick: e.tick, event: (e.data as { data: DeletedRow }).data.row['event_id'] }));
    // The sweep whose commit the crash followed deleted the first order's row.
    expect(deleted).toContainEqual({ tick: crash.tick, event: 'evt-o-1-v1' });
    expect(deleted.map((d) => d.event).sort()).toEqual(['evt-o-1-v1', 'evt-o-2-v1']);
  });

  it('capacity: a commit that leaves a bounded table too full evicts its oldest rows, notes each, and lets their keys in again', () => {
    const db = database({ dedup: { key: ['k'], capacity: 2 }, forever: { key: ['k'] } });
    const row = (k: string) => ({ op: 'insert' as const, table: 'dedup', row: { k }, onConflict: 'nothing' as const });
    db.run('app', [row('a')], 10);
    db.run('app', [row('b')], 20);
    expect(db.notes).toEqual([]);
    // Updating a row it holds takes no more room, and keeps the row's place in the eviction order.
    db.run('app', [{ op: 'upsert', table: 'dedup', row: { k: 'a', n: 1 } }], 25);
    expect(db.notes).toEqual([]);
    // The third key pushes the oldest out, noted on the commit's step: not the one just written.
    db.exec('app', 't', [row('c')], 30);
    expect(db.notes).toEqual([]);
    expect(db.commit('app', 't', 31)).toMatchObject({ type: 'db.committed', ok: true });
    const evictedA = { table: 'dedup', row: { k: 'a', n: 1 }, committedAt: 10, capacity: 2 };
    expect(db.notes).toEqual([{ kind: 'evicted', data: evictedA }]);
    // The reply the client gets says nothing of it, as a real store's does not.
    expect(db.sent).toEqual([{ to: 'app', event: { type: 'db.committed', tx: 't', ok: true } }]);
    expect(rowsOf(db.durable, 'dedup')).toEqual([{ k: 'b' }, { k: 'c' }]);
    // So a repeat of the evicted key gets in, and pushes out the next oldest.
    expect(db.run('app', [row('a')], 40).results).toEqual([{ inserted: true }]);
    expect(db.notes).toEqual([{ kind: 'evicted', data: { table: 'dedup', row: { k: 'b' }, committedAt: 20, capacity: 2 } }]);
    // One transaction writing past the bound evicts in commit order too, its own first rows included.
    db.run('app', [row('d'), row('e'), row('f')], 50);
    expect(db.notes.map((n) => (n.data as { row: Row }).row['k'])).toEqual(['c', 'a', 'd']);
    expect(rowsOf(db.durable, 'dedup')).toEqual([{ k: 'e' }, { k: 'f' }]);
    // A table with no bound keeps every row.
    db.run('app', [{ op: 'insert', table: 'forever', row: { k: 'x' } }, { op: 'insert', table: 'forever', row: { k: 'y' } }, { op: 'insert', table: 'forever', row: { k: 'z' } }], 60);
    expect(db.notes).toEqual([]);
    expect(rowsOf(db.durable, 'forever')).toHaveLength(3);
  });

  it('capacity with ttlTicks: a key inserted again after its row lapsed is as new as its insert, not as old as the lapsed row', () => {
    const db = database({ dedup: { key: ['k'], capacity: 2, ttlTicks: 10 } });
    const insert = (k: string, at: number) => db.run('app', [{ op: 'insert', table: 'dedup', row: { k }, onConflict: 'nothing' }], at);
    insert('a', 0);
    insert('b', 5);
    // a has lapsed by t=12 and is inserted again; b is now the oldest live row.
    expect(insert('a', 12).results).toMatchObject([{ inserted: true }]);
    insert('c', 13);
    expect(db.notes).toEqual([{ kind: 'evicted', data: { table: 'dedup', row: { k: 'b' }, committedAt: 5, capacity: 2 } }]);
    expect(insert('a', 14).results).toMatchObject([{ inserted: false }]);
  });

  it('capacity: eviction waits for a row another open transaction changed or locked, as a trimming job would', () => {
    const db = database({ dedup: { key: ['k'], capacity: 1 } });
    db.run('app', [{ op: 'insert', table: 'dedup', row: { k: 'a', n: 0 } }], 1);
    db.exec('app', 'held', [{ op: 'update', table: 'dedup', where: { k: 'a' }, set: { n: 1 } }], 2);
    // The insert's commit would push a out, but an open transaction holds it: nothing goes yet,
    // not even the newer row, and the table stays over its bound for now.
    db.run('other', [{ op: 'insert', table: 'dedup', row: { k: 'b' } }], 3);
    expect(db.notes).toEqual([]);
    expect(rowsOf(db.durable, 'dedup')).toEqual([{ k: 'a', n: 0 }, { k: 'b' }]);
    // Once it commits, its update lands and the oldest row goes, the table back within its bound.
    expect(db.commit('app', 'held', 4)).toMatchObject({ ok: true });
    expect(db.notes).toEqual([{ kind: 'evicted', data: { table: 'dedup', row: { k: 'a', n: 1 }, committedAt: 1, capacity: 1 } }]);
    expect(rowsOf(db.durable, 'dedup')).toEqual([{ k: 'b' }]);
  });

  it('capacity with ttlTicks: rows past their time to live take no room', () => {
    const db = database({ dedup: { key: ['k'], capacity: 2, ttlTicks: 10 } });
    db.run('app', [{ op: 'insert', table: 'dedup', row: { k: 'a' } }], 0);
    db.run('app', [{ op: 'insert', table: 'dedup', row: { k: 'b' } }], 8);
    db.run('app', [{ op: 'insert', table: 'dedup', row: { k: 'c' } }], 12);
    expect(db.notes).toEqual([]);
    db.run('app', [{ op: 'insert', table: 'dedup', row: { k: 'd' } }], 13);
    expect(db.notes).toEqual([{ kind: 'evicted', data: { table: 'dedup', row: { k: 'b' }, committedAt: 8, capacity: 2 } }]);
  });

  it('autoId: the database assigns the key, so a repeat of the same row inserts another row', () => {
    const db = database({ surrogate: { key: ['id'], autoId: true }, semantic: { key: ['order_id'] } });
    const row = { order_id: 'o-1', state: 'HELD' };
    for (let i = 0; i < 2; i++) {
      const [s, k] = db.run('consumer', [
        { op: 'insert', table: 'surrogate', row, onConflict: 'nothing' },
        { op: 'insert', table: 'semantic', row, onConflict: 'nothing' },
      ]).results!;
      expect(s!.inserted).toBe(true);
      expect(k!.inserted).toBe(i === 0);
    }
    const surrogate = rowsOf(db.durable, 'surrogate');
    expect(surrogate.map((r) => r['order_id'])).toEqual(['o-1', 'o-1']);
    expect(new Set(surrogate.map((r) => r['id'])).size).toBe(2);
    expect(rowsOf(db.durable, 'semantic')).toEqual([row]);
  });

  it('history keeps every committed version in commit order; without it only the current row is kept', () => {
    const db = database({ projection: { key: ['order_id'], history: true }, plain: { key: ['order_id'] } });
    for (const version of [1, 3, 2]) {
      db.exec('c', `tx${version}`, [
        { op: 'upsert', table: 'projection', row: { order_id: 'o-1', version } },
        { op: 'upsert', table: 'plain', row: { order_id: 'o-1', version } },
      ]);
      db.commit('c', `tx${version}`);
    }
    // An aborted version never enters the history.
    db.exec('c', 'tx9', [{ op: 'upsert', table: 'projection', row: { order_id: 'o-1', version: 9 } }]);
    db.abort('c', 'tx9');
    expect(historyOf(db.durable, 'projection').map((r) => r['version'])).toEqual([1, 3, 2]);
    expect(rowsOf(db.durable, 'projection')).toEqual([{ order_id: 'o-1', version: 2 }]);
    // A table without one has none to read: asked for it, the read is refused.
    expect(db.durable.history['plain']).toBeUndefined();
    expect(() => historyOf(db.durable, 'plain')).toThrow(/reads the history of table plain, which keeps none/);
  });
});

describe('database: a commit whose response is lost', () => {
  it('the order commits, the source reports failure to the client: the caller cannot tell commit from failure', () => {
    const world = new World(orderPipeline({ design: 'outbox' })({ size: 1 }, SECONDS), { seed: 1, plan: [{ kind: 'lose', point: 'ordersDb->source:db.committed', occurrence: 1 }] });
    const result = world.run();
    expect(result.ending).toEqual({ kind: 'quiescent' });
    expect(result.strikes.map((s) => s.fault.kind)).toEqual(['lose']);
    // When the reply was lost the order and its outbox row were already durable.
    const atLoss = result.strikes[0]!.durable['ordersDb'] as DatabaseDurable;
    expect(rowsOf(atLoss, 'orders')).toEqual([{ order_id: 'o-1', intent: 'accept o-1', status: 'ACCEPTED', version: 1 }]);
    expect(rowsOf(atLoss, 'outbox').map((r) => r['event_id'])).toEqual(['evt-o-1-v1']);
    // The source timed out and told the client the command failed.
    const replies = world.durable<ClientDurable>('client').replies;
    expect(replies).toEqual([{ intent: 'accept o-1', key: null, ok: false, outcome: 'failed', replayed: false }]);
    // Yet the order stands, and the relay published it: downstream reserved stock for it.
    expect(rowsOf(world.durable<DatabaseDurable>('ordersDb'), 'orders').map((r) => r['order_id'])).toEqual(['o-1']);
    expect(rowsOf(world.durable<DatabaseDurable>('inventoryDb'), 'reservations').map((r) => r['order_id'])).toEqual(['o-1']);
  });

  it('without the loss the same run tells the client the order was accepted', () => {
    const world = new World(orderPipeline({ design: 'outbox' })({ size: 1 }, SECONDS), { seed: 1, plan: [] });
    world.run();
    expect(world.durable<ClientDurable>('client').replies).toEqual([{ intent: 'accept o-1', key: null, ok: true, outcome: 'o-1', replayed: false }]);
  });
});

describe('database: failed inserts and surrogate ids', () => {
  it("dooms a transaction whose 'on conflict error' insert failed, as SQL does: later statements do not run", () => {
    const db = database({ orders: { key: ['id'] }, outbox: { key: ['event_id'] } });
    db.run('app', [{ op: 'insert', table: 'orders', row: { id: 1 } }]);
    const [dup, outbox] = db.exec('app', 't', [
      { op: 'insert', table: 'orders', row: { id: 1 }, onConflict: 'error' },
      { op: 'insert', table: 'outbox', row: { event_id: 'e1' } },
    ])!;
    expect(dup).toEqual({ inserted: false, conflict: '(id)' });
    expect(outbox).toEqual({ error: 'aborted' });
    expect(db.exec('app', 't', [{ op: 'select', table: 'orders' }])).toEqual([{ error: 'aborted' }]);
    const commit = db.commit('app', 't');
    expect(commit.ok).toBe(false);
    expect(commit.conflict).toBe('orders (id)');
    expect(rowsOf(db.durable, 'outbox')).toEqual([]); // nothing of the doomed transaction landed
  });

  it("lets 'on conflict do nothing' commit the rest of its transaction", () => {
    const db = database({ orders: { key: ['id'] }, outbox: { key: ['event_id'] } });
    db.run('app', [{ op: 'insert', table: 'orders', row: { id: 1 } }]);
    db.exec('app', 't', [
      { op: 'insert', table: 'orders', row: { id: 1 }, onConflict: 'nothing' },
      { op: 'insert', table: 'outbox', row: { event_id: 'e1' } },
    ]);
    expect(db.commit('app', 't').ok).toBe(true);
    expect(rowsOf(db.durable, 'outbox')).toEqual([{ event_id: 'e1' }]);
  });

  it('gives surrogate ids that differ between two open transactions of one connection', () => {
    const db = database({ notes: { key: ['id'], autoId: true } });
    db.exec('app', 't1', [{ op: 'insert', table: 'notes', row: { text: 'a' } }]);
    db.exec('app', 't2', [{ op: 'insert', table: 'notes', row: { text: 'b' } }]);
    expect(db.commit('app', 't1').ok).toBe(true);
    expect(db.commit('app', 't2').ok).toBe(true);
    expect(rowsOf(db.durable, 'notes').map((r) => r['text'])).toEqual(['a', 'b']);
  });
});

describe('database: idle transactions', () => {
  const tables = { t: { key: ['id'] } };

  it('sets one idle timer per open transaction, cancelled when the transaction ends', () => {
    const db = database(tables);
    db.exec('a', 'tx', [{ op: 'insert', table: 't', row: { id: 1 } }]);
    expect(db.timers).toEqual([`raise db.idleTimeout a/tx as idle a/tx in ${IDLE_TX_TICKS}`]);
    // A second statement only moves the start of the idle time; the timer stays as it is.
    db.exec('a', 'tx', [{ op: 'select', table: 't' }], 30);
    expect(db.timers).toEqual([]);
    db.commit('a', 'tx', 31);
    expect(db.timers).toEqual(['cancel idle a/tx']);
    // An autocommitted batch is never idle in a transaction.
    db.run('a', [{ op: 'select', table: 't' }]);
    expect(db.timers).toEqual([]);
  });

  it('a timer that fires before the transaction has been idle long enough is set again for the rest', () => {
    const db = database(tables);
    db.exec('a', 'tx', [{ op: 'insert', table: 't', row: { id: 1 } }], 0);
    db.exec('a', 'tx', [{ op: 'select', table: 't' }], 30);
    db.idleTimeout('a/tx', IDLE_TX_TICKS);
    expect(db.timers).toEqual(['raise db.idleTimeout a/tx as idle a/tx in 30']);
    expect(db.openTxs).toEqual(['a/tx']);
    expect(db.notes).toEqual([]);
    db.idleTimeout('a/tx', IDLE_TX_TICKS + 30);
    expect(db.openTxs).toEqual([]);
    // The rollback has no message of its own, so the database notes it, with the rows it undid.
    expect(db.notes).toEqual([{ kind: 'idleRollback', data: { tx: 'a/tx', idleTicks: IDLE_TX_TICKS, rows: [{ id: 1 }] } }]);
  });

  it('rolls back a transaction idle past the timeout, frees what waits for it, and fails its late commit', () => {
    const db = database(tables);
    db.exec('a', 'tx', [{ op: 'insert', table: 't', row: { id: 1, by: 'a' } }]);
    expect(db.exec('b', 'tx', [{ op: 'insert', table: 't', row: { id: 1, by: 'b' } }])).toBeUndefined();
    // A statement that waits is not idle: when b's timer fires, it starts over.
    db.idleTimeout('b/tx', IDLE_TX_TICKS);
    expect(db.timers).toEqual([`raise db.idleTimeout b/tx as idle b/tx in ${IDLE_TX_TICKS}`]);
    db.idleTimeout('a/tx', IDLE_TX_TICKS);
    expect(db.sent).toEqual([{ to: 'b', event: expect.objectContaining({ type: 'db.result', results: [{ inserted: true }] }) }]);
    expect(db.commit('a', 'tx', IDLE_TX_TICKS + 40)).toMatchObject({ ok: false, conflict: 'idle in transaction timeout' });
    expect(db.commit('b', 'tx').ok).toBe(true);
    expect(rowsOf(db.durable, 't')).toEqual([{ id: 1, by: 'b' }]);
    // The name is free again: a new transaction under it runs as any other.
    expect(db.exec('a', 'tx', [{ op: 'select', table: 't' }])).toEqual([{ rows: [{ id: 1, by: 'b' }] }]);
  });

  it('answers nothing to a statement on a transaction the idle timeout rolled back, so no commit can report half of it', () => {
    const db = database(tables);
    db.exec('a', 'tx', [{ op: 'insert', table: 't', row: { id: 1, by: 'a' } }]);
    db.idleTimeout('a/tx', IDLE_TX_TICKS);
    expect(db.openTxs).toEqual([]);
    // Served as a new transaction, this insert would commit below without the first one.
    expect(db.exec('a', 'tx', [{ op: 'insert', table: 't', row: { id: 2, by: 'a' } }], IDLE_TX_TICKS + 5)).toBeUndefined();
    expect(db.sent).toEqual([]);
    expect(db.openTxs).toEqual([]);
    expect(rowsOf(db.durable, 't')).toEqual([]);
    // Having met the closed session, the caller's next request under the name is a new transaction.
    expect(db.exec('a', 'tx', [{ op: 'insert', table: 't', row: { id: 3, by: 'a' } }], IDLE_TX_TICKS + 30)).toEqual([{ inserted: true }]);
    expect(db.commit('a', 'tx', IDLE_TX_TICKS + 31).ok).toBe(true);
    expect(rowsOf(db.durable, 't')).toEqual([{ id: 3, by: 'a' }]);
  });

  it('a rollback of a transaction the idle timeout rolled back ends it: the name is free again', () => {
    const db = database(tables);
    db.exec('a', 'tx', [{ op: 'insert', table: 't', row: { id: 1, by: 'a' } }]);
    db.idleTimeout('a/tx', IDLE_TX_TICKS);
    db.abort('a', 'tx', IDLE_TX_TICKS + 1);
    expect(db.sent).toEqual([]);
    expect(db.exec('a', 'tx', [{ op: 'insert', table: 't', row: { id: 2, by: 'a' } }], IDLE_TX_TICKS + 2)).toEqual([{ inserted: true }]);
  });

  it('a peer that crashed and came back opens new sessions: its timed-out names are free again', () => {
    const db = database(tables);
    db.exec('a', 'tx', [{ op: 'insert', table: 't', row: { id: 1, by: 'a' } }]);
    db.exec('b', 'tx', [{ op: 'insert', table: 't', row: { id: 2, by: 'b' } }]);
    db.idleTimeout('a/tx', IDLE_TX_TICKS);
    db.idleTimeout('b/tx', IDLE_TX_TICKS);
    db.peerCrashed('a', IDLE_TX_TICKS + 1);
    expect(db.exec('a', 'tx', [{ op: 'insert', table: 't', row: { id: 3, by: 'a' } }], IDLE_TX_TICKS + 2)).toEqual([{ inserted: true }]);
    // b did not crash: its name is still the one the timeout closed.
    expect(db.exec('b', 'tx', [{ op: 'insert', table: 't', row: { id: 4, by: 'b' } }], IDLE_TX_TICKS + 2)).toBeUndefined();
  });
});

describe('database: SQL details', () => {
  it('lets NULLs in a unique key repeat, as SQL unique constraints do', () => {
    const db = database({ users: { key: ['id'], unique: [['email']] } });
    const [first, second] = db.run('app', [
      { op: 'insert', table: 'users', row: { id: 1, email: null } },
      { op: 'insert', table: 'users', row: { id: 2, email: null } },
    ]).results!;
    expect([first, second]).toEqual([{ inserted: true }, { inserted: true }]);
  });

  it('fails an upsert or an update that would duplicate a further unique key', () => {
    const db = database({ users: { key: ['id'], unique: [['email']] } });
    db.run('app', [
      { op: 'insert', table: 'users', row: { id: 1, email: 'a@x' } },
      { op: 'insert', table: 'users', row: { id: 2, email: 'b@x' } },
    ]);
    expect(db.run('app', [{ op: 'upsert', table: 'users', row: { id: 3, email: 'a@x' } }])).toMatchObject({ ok: false, results: [{ written: false, conflict: '(email)' }] });
    expect(db.run('app', [{ op: 'update', table: 'users', where: { id: 2 }, set: { email: 'a@x' } }])).toMatchObject({ ok: false, results: [{ updated: 0, conflict: '(email)' }] });
    expect(rowsOf(db.durable, 'users').map((r) => r['email'])).toEqual(['a@x', 'b@x']);
  });

  it("an upsert's update sets only the columns it names; a where on NULL matches a column the row never named", () => {
    const db = database({ t: { key: ['id'] } });
    db.run('app', [{ op: 'insert', table: 't', row: { id: 1, note: 'kept', version: 1 } }, { op: 'insert', table: 't', row: { id: 2 } }]);
    db.run('app', [{ op: 'upsert', table: 't', row: { id: 1, version: 2 } }]);
    expect(rowsOf(db.durable, 't')[0]).toEqual({ id: 1, note: 'kept', version: 2 });
    expect(db.select('app', 't', { note: null })).toEqual([{ id: 2 }]);
  });

  it('lets a transaction that deleted a key insert it again and commit', () => {
    const db = database({ t: { key: ['id'] } });
    db.run('app', [{ op: 'insert', table: 't', row: { id: 1, v: 'old' } }]);
    db.exec('app', 'tx', [
      { op: 'delete', table: 't', where: { id: 1 } },
      { op: 'insert', table: 't', row: { id: 1, v: 'new' } },
    ]);
    expect(db.commit('app', 'tx').ok).toBe(true);
    expect(rowsOf(db.durable, 't')).toEqual([{ id: 1, v: 'new' }]);
  });
});

// Servers crashing at their own windows: which windows a design offers, what a crash keeps and
// loses, how the restarted database treats a connection its crash broke, what a power failure of
// a broker that acknowledges before it syncs takes with it, and that the options are checked.
import { initialTransition, transition, type AnyMachineSnapshot } from 'xstate';
import { describe, expect, it } from 'vitest';
import { SECONDS } from '../../src/base/duration.ts';
import type { Emitted } from '../../src/kernel/emitted.ts';
import { failureWindows } from '../../src/run/failureWindows.ts';
import { InputError } from '../../src/base/inputError.ts';
import { World } from '../../src/run/world.ts';
import { broker, recordsOf, type BrokerDurable } from '../../models/broker.ts';
import type { ClientDurable } from '../../models/client.ts';
import { databaseMachine, rowsOf, type DatabaseDurable } from '../../models/database.ts';
import { orderPipeline } from '../../models/designs/orderPipeline.ts';

const design = (options: Parameters<typeof orderPipeline>[0]) => orderPipeline(options)({ size: 1 }, SECONDS);

describe('server failure windows', () => {
  it('a server offers its declared windows only where the design lets it crash, and a broker that syncs first has no moment before a sync', () => {
    const quiet = failureWindows(design({ design: 'outbox' }));
    expect(quiet.filter((w) => /^(ordersDb|inventoryDb|broker)\./.test(w))).toEqual([]);
    const crashing = failureWindows(design({ design: 'outbox', crashes: ['ordersDb', 'broker'] }));
    expect(crashing.filter((w) => /^(ordersDb|inventoryDb|broker)\./.test(w))).toEqual(['ordersDb.afterStatement', 'ordersDb.afterCommit', 'broker.beforeAppend', 'broker.afterAppend']);
    const unsynced = failureWindows(design({ design: 'outbox', crashes: ['broker'], broker: { syncBeforeAck: false } }));
    expect(unsynced.filter((w) => w.startsWith('broker.'))).toEqual(['broker.beforeAppend', 'broker.afterAppend', 'broker.beforeSync']);
  });

  it('a database crash after commit keeps the order, never sends the reply, and the service answers "failed"', () => {
    const world = new World(design({ design: 'outbox', crashes: ['ordersDb'] }), { seed: 1, plan: [{ kind: 'crash', window: 'ordersDb.afterCommit', occurrence: 1 }] });
    const result = world.run();
    expect(result.ending).toEqual({ kind: 'quiescent' });
    expect(result.strikes.map((s) => s.fault)).toEqual([{ kind: 'crash', window: 'ordersDb.afterCommit', occurrence: 1 }]);
    // The commit was durable when the crash struck.
    expect(rowsOf(result.strikes[0]!.durable['ordersDb'] as DatabaseDurable, 'orders').map((r) => r['order_id'])).toEqual(['o-1']);
    const events = result.trace!;
    const crashAt = events.findIndex((e) => e.component === 'ordersDb' && e.kind === 'crash');
    const restartAt = events.findIndex((e) => e.component === 'ordersDb' && e.kind === 'restart');
    expect(crashAt).toBeGreaterThan(0);
    expect(restartAt).toBeGreaterThan(crashAt);
    // No db.committed ever reached the source.
    expect(events.some((e) => e.component === 'source' && e.kind === 'deliver' && (e.data as { event: { type: string } }).event.type === 'db.committed')).toBe(false);
    expect(world.durable<ClientDurable>('client').replies).toEqual([{ intent: 'accept o-1', key: null, ok: false, outcome: 'failed', replayed: false }]);
    // The committed order and its outbox row survived: the relay published it, stock is reserved.
    expect(rowsOf(world.durable<DatabaseDurable>('inventoryDb'), 'reservations').map((r) => r['order_id'])).toEqual(['o-1']);
  });

  it('a database crash in the middle of a transaction rolls it back: no order, no outbox row', () => {
    const world = new World(design({ design: 'outbox', crashes: ['ordersDb'] }), { seed: 1, plan: [{ kind: 'crash', window: 'ordersDb.afterStatement', occurrence: 1 }] });
    const result = world.run();
    expect(result.strikes).toHaveLength(1);
    expect(rowsOf(result.strikes[0]!.durable['ordersDb'] as DatabaseDurable, 'orders')).toEqual([]);
    expect(rowsOf(world.durable<DatabaseDurable>('ordersDb'), 'orders')).toEqual([]);
    expect(rowsOf(world.durable<DatabaseDurable>('inventoryDb'), 'reservations')).toEqual([]);
  });

  it('a broker crash after append keeps the record and the producer appends it again, unless the producer is idempotent', () => {
    const plan = [{ kind: 'crash', window: 'broker.afterAppend', occurrence: 1 }] as const;
    const plain = new World(design({ design: 'outbox', crashes: ['broker'] }), { seed: 1, plan });
    plain.run();
    expect(recordsOf(plain.durable<BrokerDurable>('broker')).map((r) => r.payload['event_id'])).toEqual(['evt-o-1-v1', 'evt-o-1-v1']);
    // The consumer subscribed again and the inbox took the repeat: one reservation.
    expect(rowsOf(plain.durable<DatabaseDurable>('inventoryDb'), 'reservations')).toHaveLength(1);
    const dedup = new World(design({ design: 'outbox', crashes: ['broker'], broker: { producerDedup: true } }), { seed: 1, plan });
    dedup.run();
    expect(recordsOf(dedup.durable<BrokerDurable>('broker')).map((r) => r.payload['event_id'])).toEqual(['evt-o-1-v1']);
  });

  it('a broker crash before append loses the record, and the producer sends it again', () => {
    const world = new World(design({ design: 'outbox', crashes: ['broker'] }), { seed: 1, plan: [{ kind: 'crash', window: 'broker.beforeAppend', occurrence: 1 }] });
    const result = world.run();
    expect(recordsOf(result.strikes[0]!.durable['broker'] as BrokerDurable)).toEqual([]);
    expect(recordsOf(world.durable<BrokerDurable>('broker')).map((r) => r.payload['event_id'])).toEqual(['evt-o-1-v1']);
  });

  it('a broker that acknowledges before it syncs loses an acknowledged record to a power failure before the flush', () => {
    const world = new World(design({ design: 'outbox', crashes: ['broker'], broker: { syncBeforeAck: false } }), { seed: 1, plan: [{ kind: 'crash', window: 'broker.beforeSync', occurrence: 1 }] });
    const result = world.run();
    expect(result.ending).toEqual({ kind: 'quiescent' });
    // The record was in the log, acknowledged, when the power went.
    expect(recordsOf(result.strikes[0]!.durable['broker'] as BrokerDurable)).toHaveLength(1);
    expect(recordsOf(world.durable<BrokerDurable>('broker'))).toEqual([]);
    // The relay marked it published, so nobody sends it again: the reservation never happens.
    expect(rowsOf(world.durable<DatabaseDurable>('ordersDb'), 'outbox').map((r) => r['published'])).toEqual([true]);
    expect(rowsOf(world.durable<DatabaseDurable>('inventoryDb'), 'reservations')).toEqual([]);
  });
});

describe('a restarted database and the connections its crash broke', () => {
  const tables = { t: { key: ['id'] } };
  const sends = (actions: readonly unknown[]) =>
    (actions as readonly { type: string; params?: { event: Emitted } }[]).filter((a) => a.type === 'xstate.emit' && a.params!.event.type === 'send').map((a) => a.params!.event);
  const restarted = (): AnyMachineSnapshot => initialTransition(databaseMachine, { tables, durable: { tables: { t: {} }, nextSeq: 1, history: {} }, broken: ['app/tx-1', 'other/tx-1'] })[0];
  const step = (s: AnyMachineSnapshot, event: Record<string, unknown>) => transition(databaseMachine, s as never, { at: 50, ...event } as never);

  it('answers nothing to the first request on a broken transaction, then takes the name as a new transaction', () => {
    const [afterCommit, commitActions] = step(restarted(), { type: 'db.commit', tx: 'tx-1', from: 'app' });
    expect(sends(commitActions)).toEqual([]);
    const [afterExec, execActions] = step(afterCommit, { type: 'db.exec', tx: 'tx-1', from: 'app', ops: [{ op: 'insert', table: 't', row: { id: 1 } }] });
    expect(sends(execActions)).toEqual([{ type: 'send', to: 'app', event: { type: 'db.result', tx: 'tx-1', results: [{ inserted: true }] } }]);
    const [, okActions] = step(afterExec, { type: 'db.commit', tx: 'tx-1', from: 'app' });
    expect(sends(okActions)).toEqual([{ type: 'send', to: 'app', event: { type: 'db.committed', tx: 'tx-1', ok: true } }]);
  });

  it('forgets the broken names of a peer that crashed since: it opens new connections', () => {
    const [cleared] = step(restarted(), { type: 'sys.peerCrashed', peer: 'other' });
    const [, actions] = step(cleared, { type: 'db.exec', tx: 'tx-1', from: 'other', ops: [{ op: 'select', table: 't' }] });
    expect(sends(actions)).toHaveLength(1);
  });
});

describe('server options are checked when the design is drawn', () => {
  it('refuses a flush interval for a broker that syncs before it acks, and names the nearest server', () => {
    expect(() => broker({ syncAfter: '2s' })({ time: SECONDS } as never)).toThrow(new InputError('broker option syncAfter needs syncBeforeAck: false'));
    expect(() => orderPipeline({ design: 'outbox', crashes: ['ordersDB' as 'ordersDb'] })).toThrow(/did you mean "ordersDb"|ordersDb/);
    expect(() => orderPipeline({ design: 'outbox', crashes: ['ordersDB' as 'ordersDb'] })).toThrow(InputError);
  });
});

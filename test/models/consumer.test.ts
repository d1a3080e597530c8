// The consumer model, one design option at a time: each test runs the Mercury pipeline with one
// option changed and one fault, and shows the durable difference the option makes. The
// pipeline is the outbox design, so duplicates and reorders come from the places the seeds name
// (a relay republishing, a crash before transport progress), not from a broken source.
import { SECONDS } from '../../src/base/duration.ts';
import { describe, expect, it } from 'vitest';
import type { FaultPlan } from '../../src/faults/faults.ts';
import { World } from '../../src/run/world.ts';
import type { BrokerDurable } from '../../models/broker.ts';
import { historyOf, rowsOf, type DatabaseDurable } from '../../models/database.ts';
import { orderLifecycle, orderPipeline, type OrderPipelineOptions } from '../../models/designs/orderPipeline.ts';
import { consumerMachine, consumerMachineFor, featuresOf, type ConsumerInput } from '../../models/consumer.ts';
import { MachineDriver } from './machineDriver.ts';
import { broker } from '../../models/broker.ts';
import { consumer } from '../../models/consumer.ts';
import { database } from '../../models/designs/databaseComponent.ts';
import { publisher } from '../../models/publisher.ts';
import { compose } from '../../src/index.ts';

function run(options: Partial<OrderPipelineOptions>, plan: FaultPlan, size = 1) {
  const world = new World(orderPipeline({ design: 'outbox', ...options })({ size }, SECONDS), { seed: 1, plan });
  const result = world.run();
  const inventory = world.durable<DatabaseDurable>('inventoryDb');
  const guards = result.notes.filter((n) => n.kind === 'guard').map((n) => (n.data as { guard?: string } | undefined)?.guard);
  return { world, result, inventory, broker: world.durable<BrokerDurable>('broker'), guards };
}

const logIds = (b: BrokerDurable) => b.partitions.flat().map((r) => r.payload['event_id']);
const reservations = (db: DatabaseDurable) => rowsOf(db, 'reservations').map((r) => `${r['order_id']}/${r['reservation_version']}`);

describe('consumer: the same event delivered twice', () => {
  // The relay's publish is duplicated on the wire: the broker appends evt-o-1-v1 at two offsets,
  // and the consumer receives and executes it twice.
  const republish: FaultPlan = [{ kind: 'duplicate', point: 'relay->broker:broker.publish', occurrence: 1 }];

  it('with the reservation keyed by (order_id, reservation_version) and no inbox: one reservation, the key absorbs the repeat', () => {
    const { result, inventory, broker, guards } = run({ consumer: { inbox: 'none' }, effectKey: 'semantic' }, republish);
    expect(result.ending).toEqual({ kind: 'quiescent' });
    expect(logIds(broker)).toEqual(['evt-o-1-v1', 'evt-o-1-v1']);
    expect(reservations(inventory)).toEqual(['o-1/1']);
    expect(guards).toEqual(['effectKey']);
  });

  it('with a surrogate id and no inbox: two reservations', () => {
    const { inventory, broker, guards } = run({ consumer: { inbox: 'none' }, effectKey: 'none' }, republish);
    expect(logIds(broker)).toEqual(['evt-o-1-v1', 'evt-o-1-v1']);
    expect(reservations(inventory)).toEqual(['o-1/1', 'o-1/1']);
    expect(guards).toEqual([]);
  });

  it('with a surrogate id and an inbox in the same transaction: one reservation, the inbox absorbs the repeat', () => {
    const { inventory, guards } = run({ consumer: { inbox: 'sameTx' }, effectKey: 'none' }, republish);
    expect(reservations(inventory)).toEqual(['o-1/1']);
    expect(rowsOf(inventory, 'inbox').map((r) => r['event_id'])).toEqual(['evt-o-1-v1']);
    expect(guards).toEqual(['inboxKey']);
  });

  it('a duplicated delivery message of one offset is one delivery: the session drops the copy before any guard', () => {
    const { result, inventory, guards } = run({ consumer: { inbox: 'none' }, effectKey: 'none' }, [{ kind: 'duplicate', point: 'broker->consumer:broker.deliver', occurrence: 1 }]);
    expect(result.strikes).toHaveLength(1);
    expect(reservations(inventory)).toEqual(['o-1/1']);
    expect(guards).toEqual([]);
  });
});

describe('consumer: version check against a reordered aggregate', () => {
  // The broker's ack of v1 is lost, so the relay publishes v1 again and falls behind; its next
  // poll returns v2 and v3 together and the concurrent relay sends them on separate
  // connections: the broker appends v3 before v2.
  const plan: FaultPlan = [{ kind: 'lose', point: 'broker->relay:broker.ack', occurrence: 1 }];
  const options = (versionCheck: boolean): Partial<OrderPipelineOptions> => ({
    effect: 'projection',
    relay: { concurrency: 'concurrent' },
    consumer: { inbox: 'sameTx', versionCheck },
    commands: orderLifecycle,
  });
  const versions = (b: BrokerDurable) => b.partitions.flat().map((r) => r.payload['aggregate_version']);

  it('without a check the projection applies log order and moves from DELIVERED back to PACKED', () => {
    const { broker, inventory } = run(options(false), plan);
    expect(versions(broker)).toEqual([1, 1, 3, 2]);
    expect(historyOf(inventory, 'order_status').map((r) => r['version'])).toEqual([1, 3, 2]);
    expect(rowsOf(inventory, 'order_status')).toEqual([{ order_id: 'o-1', status: 'PACKED', version: 2 }]);
  });

  it('with the check the stale PACKED is rejected and the projection stays DELIVERED', () => {
    const { broker, inventory, guards } = run(options(true), plan);
    expect(versions(broker)).toEqual([1, 1, 3, 2]);
    expect(historyOf(inventory, 'order_status').map((r) => r['version'])).toEqual([1, 3]);
    expect(rowsOf(inventory, 'order_status')).toEqual([{ order_id: 'o-1', status: 'DELIVERED', version: 3 }]);
    expect(guards).toContain('versionCheck');
  });
});

describe('consumer: transport progress before or after the effect', () => {
  const crash: FaultPlan = [{ kind: 'crash', window: 'consumer.afterTransportProgress', occurrence: 1 }];

  it('acknowledging before commit loses the reservation on a crash after the ack', () => {
    const { result, inventory, broker } = run({ consumer: { inbox: 'sameTx', ack: 'beforeCommit' } }, crash);
    expect(result.strikes).toHaveLength(1);
    // The offset commit is already on the wire and nothing is written yet; it lands, and the
    // broker has no reason to deliver the record again.
    expect(rowsOf(result.strikes[0]!.durable['inventoryDb'] as DatabaseDurable, 'reservations')).toEqual([]);
    expect(broker.offsets['inventory']).toEqual([1]);
    expect(reservations(inventory)).toEqual([]);
  });

  it('acknowledging after commit never enters that window and keeps the reservation', () => {
    const { result, inventory } = run({ consumer: { inbox: 'sameTx', ack: 'afterCommit' } }, crash);
    expect(result.strikes).toEqual([]);
    expect(result.windowCounts.get('consumer.afterTransportProgress')).toBeUndefined();
    expect(reservations(inventory)).toEqual(['o-1/1']);
  });
});

describe('consumer: what a crash keeps and what it rolls back', () => {
  it('a crash with the inbox row in an open transaction leaves no inbox row; the redelivery then commits both', () => {
    const { world, result, inventory, guards } = run({ consumer: { inbox: 'sameTx' } }, [{ kind: 'crash', window: 'consumer.afterInboxInsert', occurrence: 1 }]);
    const atCrash = result.strikes[0]!.durable['inventoryDb'] as DatabaseDurable;
    expect(rowsOf(atCrash, 'inbox')).toEqual([]);
    expect(rowsOf(atCrash, 'reservations')).toEqual([]);
    // The connection drop aborted the open transaction: nothing of it is left in the database.
    expect(Object.values(world.context<{ txs: Record<string, { owner: string }> }>('inventoryDb').txs).filter((t) => t.owner === 'consumer')).toEqual([]);
    expect(rowsOf(inventory, 'inbox').map((r) => r['event_id'])).toEqual(['evt-o-1-v1']);
    expect(reservations(inventory)).toEqual(['o-1/1']);
    expect(guards).toEqual([]);
  });

  it('with the inbox in a separate transaction the same crash keeps the inbox row and the effect is lost', () => {
    const { result, world, inventory, guards } = run({ consumer: { inbox: 'separateTx' } }, [{ kind: 'crash', window: 'consumer.afterInboxInsert', occurrence: 1 }]);
    const inboxAtCrash = result.strikes[0]!.durable['inboxDb'] as DatabaseDurable;
    expect(rowsOf(inboxAtCrash, 'inbox').map((r) => r['event_id'])).toEqual(['evt-o-1-v1']);
    expect(rowsOf(world.durable<DatabaseDurable>('inboxDb'), 'inbox').map((r) => r['event_id'])).toEqual(['evt-o-1-v1']);
    expect(reservations(inventory)).toEqual([]);
    expect(guards).toEqual(['inboxKey']);
  });

  it('a crash after the commit keeps the committed rows and the broker log; the offset had not moved, so the record returns and is suppressed', () => {
    const { result, inventory, broker, guards } = run({ consumer: { inbox: 'sameTx' } }, [{ kind: 'crash', window: 'consumer.beforeTransportProgress', occurrence: 1 }]);
    const atCrash = result.strikes[0]!.durable;
    expect(reservations(atCrash['inventoryDb'] as DatabaseDurable)).toEqual(['o-1/1']);
    expect(logIds(atCrash['broker'] as BrokerDurable)).toEqual(['evt-o-1-v1']);
    // No offset committed yet for the group.
    expect((atCrash['broker'] as BrokerDurable).offsets['inventory']).toBeUndefined();
    expect(reservations(inventory)).toEqual(['o-1/1']);
    expect(broker.offsets['inventory']).toEqual([1]);
    expect(guards).toEqual(['inboxKey']);
  });

  it('a crash keeps committed offsets: work acknowledged before it is not delivered again', () => {
    // Second record in hand: o-1 is committed and acknowledged, o-2 is not yet written.
    const { result, inventory, broker, guards } = run({ consumer: { inbox: 'sameTx' } }, [{ kind: 'crash', window: 'consumer.received', occurrence: 2 }], 2);
    const atCrash = result.strikes[0]!.durable;
    expect((atCrash['broker'] as BrokerDurable).offsets['inventory']).toEqual([1]);
    expect(reservations(atCrash['inventoryDb'] as DatabaseDurable)).toEqual(['o-1/1']);
    expect(reservations(inventory)).toEqual(['o-1/1', 'o-2/1']);
    expect(broker.offsets['inventory']).toEqual([2]);
    // Nothing was redelivered that the inbox had to suppress.
    expect(guards).toEqual([]);
  });
});

describe('consumer: each wait moves on for the reply of its own attempt only', () => {
  const input = (inbox: ConsumerInput['inbox']): ConsumerInput => ({
    broker: 'broker',
    group: 'inventory',
    db: 'db',
    inbox,
    effect: { op: 'insert', table: 'reservations', columns: { order_id: 'order_id' } },
  });
  const payload = { event_id: 'e-1', order_id: 'o-1' };

  /** A consumer whose first attempt at the record timed out: its second attempt has just begun. */
  function secondAttempt(inbox: ConsumerInput['inbox']): MachineDriver {
    const d = new MachineDriver(consumerMachine, { ...input(inbox) });
    d.receive({ type: 'broker.subscribed', group: 'inventory' }, 'broker');
    d.receive({ type: 'broker.deliver', partition: 0, offset: 0, key: 'o-1', payload }, 'broker');
    d.advance(1);
    d.advance(20);
    expect(d.state).toBe('received');
    d.advance(1);
    return d;
  }

  it('in one transaction: ignores the first attempt\'s late statement and commit replies', () => {
    const d = secondAttempt('sameTx');
    expect(d.state).toBe('insertingInbox');
    d.receive({ type: 'db.result', tx: 'd0.0.t1.1', stmt: 'inbox', results: [{ inserted: true }] }, 'db');
    expect(d.state).toBe('insertingInbox');
    d.receive({ type: 'db.result', tx: 'd0.0.t1.2', stmt: 'inbox', results: [{ inserted: true }] }, 'db');
    d.advance(1);
    d.receive({ type: 'db.result', tx: 'd0.0.t1.2', stmt: 'effect', results: [{ inserted: true }] }, 'db');
    expect(d.state).toBe('committingEffect');
    d.receive({ type: 'db.committed', tx: 'd0.0.t1.1', ok: true }, 'db');
    expect(d.state).toBe('committingEffect');
    d.receive({ type: 'db.committed', tx: 'd0.0.t1.2', ok: true }, 'db');
    expect(d.state).toBe('afterEffectCommit');
  });

  it('with a separate inbox: ignores the first attempt\'s late inbox insert', () => {
    const d = secondAttempt('separateTx');
    expect(d.state).toBe('insertingInbox');
    d.receive({ type: 'db.ran', ref: 'd0.0.t1.1', ok: true, results: [{ inserted: true }] }, 'db');
    expect(d.state).toBe('insertingInbox');
    d.receive({ type: 'db.ran', ref: 'd0.0.t1.2', ok: true, results: [{ inserted: true }] }, 'db');
    expect(d.state).toBe('afterInboxInsert');
  });

  it('without an inbox: ignores the first attempt\'s late effect write', () => {
    const d = secondAttempt('none');
    expect(d.state).toBe('committingEffect');
    d.receive({ type: 'db.ran', ref: 'd0.0.t1.1', ok: true, results: [{ inserted: true }] }, 'db');
    expect(d.state).toBe('committingEffect');
    d.receive({ type: 'db.ran', ref: 'd0.0.t1.2', ok: true, results: [{ inserted: true }] }, 'db');
    expect(d.state).toBe('afterEffectCommit');
  });

  it('in one transaction: ignores a repeated answer to the inbox statement while the effect statement waits', () => {
    // A duplicated inbox statement is answered twice (the database repeats its first answer), and
    // the repeat can arrive after the effect statement went out: it says nothing about the effect.
    const d = secondAttempt('sameTx');
    d.receive({ type: 'db.result', tx: 'd0.0.t1.2', stmt: 'inbox', results: [{ inserted: true }] }, 'db');
    d.advance(1);
    expect(d.state).toBe('writingEffect');
    const before = d.sent.length;
    d.receive({ type: 'db.result', tx: 'd0.0.t1.2', stmt: 'inbox', results: [{ inserted: true }] }, 'db');
    expect(d.state).toBe('writingEffect');
    expect(d.sentSince(before)).toEqual([]);
    d.receive({ type: 'db.result', tx: 'd0.0.t1.2', stmt: 'effect', results: [{ inserted: false }] }, 'db');
    expect(d.state).toBe('committingEffect');
    expect(d.sentSince(before).map((s) => s.event.type)).toEqual(['db.commit']);
    expect(d.notes.filter((n) => n.kind === 'guard').map((n) => n.data?.['guard'])).toEqual(['effectKey']);
  });

  it('counts a commit the database refused as no effect: nothing committed, nothing noted', () => {
    const d = secondAttempt('sameTx');
    d.receive({ type: 'db.result', tx: 'd0.0.t1.2', stmt: 'inbox', results: [{ inserted: true }] }, 'db');
    d.advance(1);
    d.receive({ type: 'db.result', tx: 'd0.0.t1.2', stmt: 'effect', results: [{ inserted: true }] }, 'db');
    d.receive({ type: 'db.committed', tx: 'd0.0.t1.2', ok: false, conflict: 'inbox (inventory, e-1)' }, 'db');
    expect(d.state).toBe('duplicateSeen');
    expect(d.notes.filter((n) => n.kind === 'effect')).toEqual([]);
  });
});

describe('consumer: a deadlock or the idle timeout is an error it handles again, not a duplicate', () => {
  // A real handler meets SQLSTATE 40P01 or a connection its transaction was rolled back on as an
  // error: it rolls back and handles the record again, and the offset does not move. Taking either
  // for a repeat would acknowledge a record whose effect was never written.
  const input = (inbox: ConsumerInput['inbox'], handler?: 'checkThenInsert'): ConsumerInput => ({
    broker: 'broker',
    group: 'inventory',
    db: 'db',
    inbox,
    ...(handler ? { handler } : {}),
    effect: { op: 'insert', table: 'reservations', columns: { order_id: 'order_id' } },
  });
  const payload = { event_id: 'e-1', order_id: 'o-1' };

  /** A consumer that has taken the record and sent its first statement. */
  function firstAttempt(i: ConsumerInput): MachineDriver {
    const d = new MachineDriver(consumerMachineFor(featuresOf(i)), { ...i });
    d.receive({ type: 'broker.subscribed', group: 'inventory' }, 'broker');
    d.receive({ type: 'broker.deliver', partition: 0, offset: 0, key: 'o-1', payload }, 'broker');
    d.advance(1);
    return d;
  }

  /** It went back to the record in hand, sent no acknowledgement and noted no guard, then tried again under a new attempt. */
  function triesAgain(d: MachineDriver, before: number, rolledBack: boolean): void {
    expect(d.state).toBe('received');
    expect(d.sentSince(before).map((s) => `${s.event.type} ${String(s.event['tx'] ?? '')}`)).toEqual(rolledBack ? ['db.abort d0.0.t1.1'] : []);
    expect(d.notes.filter((n) => n.kind === 'guard')).toEqual([]);
    d.advance(1);
    const again = d.sentSince(before).filter((s) => s.event.type !== 'db.abort');
    expect(again.map((s) => String(s.event['tx'] ?? s.event['ref']))).toEqual(['d0.0.t1.2']);
    expect(d.sent.filter((s) => s.to === 'broker' && s.event.type !== 'broker.subscribe')).toEqual([]);
  }

  it('in one transaction: the inbox statement chosen as a deadlock victim', () => {
    const d = firstAttempt(input('sameTx'));
    expect(d.state).toBe('insertingInbox');
    const before = d.sent.length;
    d.receive({ type: 'db.result', tx: 'd0.0.t1.1', stmt: 'inbox', results: [{ error: 'deadlock' }] }, 'db');
    triesAgain(d, before, true);
  });

  it('in one transaction: the effect statement chosen as a deadlock victim', () => {
    const d = firstAttempt(input('sameTx'));
    d.receive({ type: 'db.result', tx: 'd0.0.t1.1', stmt: 'inbox', results: [{ inserted: true }] }, 'db');
    d.advance(1);
    expect(d.state).toBe('writingEffect');
    const before = d.sent.length;
    d.receive({ type: 'db.result', tx: 'd0.0.t1.1', stmt: 'effect', results: [{ error: 'deadlock' }] }, 'db');
    triesAgain(d, before, true);
  });

  it('in one transaction: a commit the idle timeout refused', () => {
    const d = firstAttempt(input('sameTx'));
    d.receive({ type: 'db.result', tx: 'd0.0.t1.1', stmt: 'inbox', results: [{ inserted: true }] }, 'db');
    d.advance(1);
    d.receive({ type: 'db.result', tx: 'd0.0.t1.1', stmt: 'effect', results: [{ inserted: true }] }, 'db');
    expect(d.state).toBe('committingEffect');
    const before = d.sent.length;
    d.receive({ type: 'db.committed', tx: 'd0.0.t1.1', ok: false, conflict: 'idle in transaction timeout' }, 'db');
    triesAgain(d, before, false);
    expect(d.notes.filter((n) => n.kind === 'effect')).toEqual([]);
  });

  it('with a separate inbox: the inbox insert chosen as a deadlock victim', () => {
    const d = firstAttempt(input('separateTx'));
    expect(d.state).toBe('insertingInbox');
    const before = d.sent.length;
    d.receive({ type: 'db.ran', ref: 'd0.0.t1.1', ok: false, conflict: 'deadlock', results: [{ error: 'deadlock' }] }, 'db');
    triesAgain(d, before, false);
  });

  it('without an inbox: the effect write chosen as a deadlock victim', () => {
    const d = firstAttempt(input('none'));
    expect(d.state).toBe('committingEffect');
    const before = d.sent.length;
    d.receive({ type: 'db.ran', ref: 'd0.0.t1.1', ok: false, conflict: 'deadlock', results: [{ error: 'deadlock' }] }, 'db');
    triesAgain(d, before, false);
  });

  it('check then insert: the lookup chosen as a deadlock victim', () => {
    const d = firstAttempt(input('none', 'checkThenInsert'));
    expect(d.state).toBe('checkingEffect');
    const before = d.sent.length;
    const tx = String(d.sent.at(-1)!.event['tx']);
    d.receive({ type: 'db.result', tx, stmt: 'check', results: [{ error: 'deadlock' }] }, 'db');
    expect(d.state).toBe('received');
    expect(d.sentSince(before).map((s) => s.event.type)).toEqual(['db.abort']);
    expect(d.notes.filter((n) => n.kind === 'guard')).toEqual([]);
  });

  it('names a later take of the same record anew, so it never joins a transaction an earlier take abandoned', () => {
    // The first take finds the inbox row and aborts; that abort may be lost, leaving its transaction
    // open on the database, where a redelivery's statements under the same name would land in it.
    const d = firstAttempt(input('sameTx'));
    d.receive({ type: 'db.result', tx: 'd0.0.t1.1', stmt: 'inbox', results: [{ inserted: false }] }, 'db');
    expect(d.sent.filter((x) => x.event.type === 'db.abort').map((x) => x.event['tx'])).toEqual(['d0.0.t1.1']);
    d.advance(5);
    const before = d.sent.length;
    d.receive({ type: 'broker.deliver', partition: 0, offset: 0, key: 'o-1', payload }, 'broker');
    d.advance(1);
    const again = d.sentSince(before).filter((x) => x.event.type === 'db.exec').map((x) => x.event['tx']);
    expect(again).toEqual(['d0.0.t2.1']);
  });

  it('a repeat is still a repeat: an inbox row already there, a refused commit naming the inbox key', () => {
    const d = firstAttempt(input('sameTx'));
    d.receive({ type: 'db.result', tx: 'd0.0.t1.1', stmt: 'inbox', results: [{ inserted: false }] }, 'db');
    expect(d.state).toBe('duplicateSeen');
    expect(d.notes.filter((n) => n.kind === 'guard').map((n) => n.data?.['guard'])).toEqual(['inboxKey']);
    const e = firstAttempt(input('separateTx'));
    e.receive({ type: 'db.ran', ref: 'd0.0.t1.1', ok: true, results: [{ inserted: false }] }, 'db');
    expect(e.state).toBe('duplicateSeen');
  });
});

describe('consumer with a retry topic and parked keys: each wait moves on for its own answer only', () => {
  // A main consumer that parks a key behind an earlier record of it and forwards the record to
  // the retry topic. A late or repeated answer to another of its requests (a duplicated lookup,
  // the ack of an earlier hand-over) must not move a wait that is for a different one.
  const input: ConsumerInput = {
    broker: 'broker',
    group: 'inventory',
    db: 'db',
    inbox: 'sameTx',
    effect: { op: 'insert', table: 'reservations', columns: { order_id: 'order_id' } },
    retry: { mode: 'retryTopic', backoffTicks: [5], topic: 'retries', parkKeys: true },
  };
  const tx = 'd0.0.t1.1';
  const parked = [{ rows: [{ park_key: 'o-1', event_id: 'e-0', origin_offset: 0 }] }];

  /** The consumer with record e-1 of key o-1 in hand, asking whether o-1 is parked. */
  function lookingUp(): MachineDriver {
    const d = new MachineDriver(consumerMachineFor(featuresOf(input)), { ...input });
    d.receive({ type: 'broker.subscribed', group: 'inventory' }, 'broker');
    d.receive({ type: 'broker.deliver', partition: 0, offset: 0, key: 'o-1', payload: { event_id: 'e-1', order_id: 'o-1' } }, 'broker');
    d.advance(1);
    expect(d.state).toBe('checkingParked');
    expect(d.sent.at(-1)!.event).toMatchObject({ type: 'db.run', ref: `${tx}.park` });
    return d;
  }

  it('the parked-key lookup waits for its own answer: another statement\'s answer naming a parked row is not it', () => {
    const d = lookingUp();
    d.receive({ type: 'db.ran', ref: `${tx}.parking`, ok: true, results: parked }, 'db');
    expect(d.state).toBe('checkingParked');
    d.receive({ type: 'db.ran', ref: `${tx}.park`, ok: true, results: [{ rows: [] }] }, 'db');
    expect(d.state).toBe('insertingInbox');
  });

  it('the parking row\'s write waits for its own answer, and the forward waits for its own ack', () => {
    const d = lookingUp();
    d.receive({ type: 'db.ran', ref: `${tx}.park`, ok: true, results: parked }, 'db');
    expect(d.state).toBe('parking');
    // The lookup's answer again (a duplicated statement answered twice) says nothing of the write.
    d.receive({ type: 'db.ran', ref: `${tx}.park`, ok: true, results: parked }, 'db');
    expect(d.state).toBe('parking');
    d.receive({ type: 'db.ran', ref: `${tx}.parking`, ok: true, results: [{ inserted: true }] }, 'db');
    expect(d.state).toBe('handingOver');
    expect(d.sent.at(-1)).toMatchObject({ to: 'retries', event: { type: 'broker.publish', ref: `${tx}.forward` } });
    // An ack of something else this consumer published is not the forward's.
    d.receive({ type: 'broker.ack', ref: `${tx}.retry`, partition: 0, offset: 3 }, 'retries');
    expect(d.state).toBe('handingOver');
    d.receive({ type: 'broker.ack', ref: `${tx}.forward`, partition: 0, offset: 4 }, 'retries');
    expect(d.state).toBe('afterHandOver');
  });
});

describe('consumer: the note of a committed effect', () => {
  it.each(['sameTx', 'none'] as const)('shows the row as written, its time column the tick the statement ran at, not the tick of the commit (inbox %s)', (inbox) => {
    const design = compose(
      publisher({ records: (size) => Array.from({ length: size }, (_, i) => ({ event_id: `evt-${i + 1}`, order_id: `o-${i + 1}` })), keyField: 'order_id' }),
      broker({}),
      consumer({ name: 'analytics', broker: 'broker', group: 'analytics', db: 'analyticsDb', inbox, effect: { op: 'insert', table: 'views', columns: { order_id: 'order_id', seen_at: { now: true } } } }),
      database({ name: 'analyticsDb', tables: { views: { key: ['order_id'] }, inbox: { key: ['consumer_name', 'event_id'] } } }),
    );
    const world = new World(design({ size: 2 }, SECONDS), { seed: 1, plan: [], keepTrace: true });
    const result = world.run();
    const noted = result.notes.filter((n) => n.kind === 'effect').map((n) => (n.data as { row: unknown }).row);
    const rows = rowsOf(world.durable<DatabaseDurable>('analyticsDb'), 'views');
    expect(noted).toEqual(rows);
    // The commit comes ticks after the insert ran, so a note that read the time again would differ.
    const commits = world.trace.events!.filter((e) => e.kind === 'deliver' && e.component === 'analytics' && ['db.committed', 'db.ran'].includes((e.data as { event?: { type?: string } }).event?.type ?? '')).map((e) => e.tick);
    expect(commits.length).toBe(2);
    expect(commits).not.toContain(rows[0]!['seen_at']);
  });
});

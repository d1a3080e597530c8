// The source service's designs under one crash each: the same failure window gives a lost fact
// (commit then publish), a phantom fact (publish then commit) or nothing wrong (outbox). Then the
// checkout key: a repeat of the same key gets the recorded outcome and creates nothing.
import { SECONDS } from '../../src/base/duration.ts';
import { describe, expect, it } from 'vitest';
import type { FaultPlan } from '../../src/faults/faults.ts';
import { World } from '../../src/run/world.ts';
import { recordsOf, type BrokerDurable } from '../../models/broker.ts';
import type { ClientDurable } from '../../models/client.ts';
import { rowsOf, type DatabaseDurable } from '../../models/database.ts';
import { checkouts, orderPipeline, type OrderPipelineOptions } from '../../models/designs/orderPipeline.ts';
import { sourceMachine, type SourceDesign } from '../../models/source.ts';
import { MachineDriver } from './machineDriver.ts';

function run(options: OrderPipelineOptions, plan: FaultPlan) {
  const world = new World(orderPipeline(options)({ size: 1 }, SECONDS), { seed: 1, plan });
  const result = world.run();
  const ordersDb = world.durable<DatabaseDurable>('ordersDb');
  return {
    world,
    result,
    ordersDb,
    orders: rowsOf(ordersDb, 'orders').map((r) => String(r['order_id'])),
    log: recordsOf(world.durable<BrokerDurable>('broker')).map((r) => String(r.key)),
    reservations: rowsOf(world.durable<DatabaseDurable>('inventoryDb'), 'reservations').map((r) => String(r['order_id'])),
    replies: world.durable<ClientDurable>('client').replies,
    guards: result.notes.filter((n) => n.kind === 'guard').map((n) => (n.data as { guard?: string } | undefined)?.guard),
  };
}

const crashAt = (window: string): FaultPlan => [{ kind: 'crash', window, occurrence: 1 }];

/** What a run left behind: a committed order nobody heard of, a published order that never committed, or neither. */
function outcome(r: ReturnType<typeof run>): string {
  if (r.result.strikes.length === 0) return 'window never entered';
  const lost = r.orders.filter((o) => !r.log.includes(o));
  const phantom = r.log.filter((o) => !r.orders.includes(o));
  if (lost.length > 0) return 'lost';
  if (phantom.length > 0) return 'phantom';
  return 'nothing wrong';
}

describe('source: dual write commit-first, dual write publish-first, outbox', () => {
  it('dualWriteCommitFirst, crash at source.afterSourceCommit: the order is committed and never published (lost)', () => {
    const r = run({ design: 'dualWriteCommitFirst' }, crashAt('source.afterSourceCommit'));
    expect(r.result.strikes).toHaveLength(1);
    expect(rowsOf(r.result.strikes[0]!.durable['ordersDb'] as DatabaseDurable, 'orders').map((o) => o['order_id'])).toEqual(['o-1']);
    expect(r.orders).toEqual(['o-1']);
    expect(r.log).toEqual([]);
    expect(r.reservations).toEqual([]);
    // No outbox row either: the intent to publish lived only in the crashed process.
    expect(rowsOf(r.ordersDb, 'outbox')).toEqual([]);
  });

  it('dualWritePublishFirst, crash at source.afterBrokerAccept: the event is published, the order never commits (phantom)', () => {
    const r = run({ design: 'dualWritePublishFirst' }, crashAt('source.afterBrokerAccept'));
    expect(r.result.strikes).toHaveLength(1);
    expect(recordsOf(r.result.strikes[0]!.durable['broker'] as BrokerDurable).map((x) => x.payload['event_id'])).toEqual(['evt-o-1-v1']);
    expect(r.orders).toEqual([]);
    expect(r.log).toEqual(['o-1']);
    // Downstream acted on it: inventory holds stock for an order that does not exist.
    expect(r.reservations).toEqual(['o-1']);
  });

  it('dualWritePublishFirst, crash at source.afterPublishSend: the publish already on the wire lands, the order never commits (phantom)', () => {
    const r = run({ design: 'dualWritePublishFirst' }, crashAt('source.afterPublishSend'));
    expect(r.result.strikes).toHaveLength(1);
    expect(r.orders).toEqual([]);
    expect(r.log).toEqual(['o-1']);
    expect(r.reservations).toEqual(['o-1']);
  });

  it('outbox, crash at source.afterSourceCommit: the outbox row committed with the order, the relay publishes it (nothing wrong)', () => {
    const r = run({ design: 'outbox' }, crashAt('source.afterSourceCommit'));
    expect(r.result.strikes).toHaveLength(1);
    const atCrash = r.result.strikes[0]!.durable['ordersDb'] as DatabaseDurable;
    expect(rowsOf(atCrash, 'orders').map((o) => o['order_id'])).toEqual(['o-1']);
    expect(rowsOf(atCrash, 'outbox').map((o) => [o['event_id'], o['published']])).toEqual([['evt-o-1-v1', false]]);
    expect(r.orders).toEqual(['o-1']);
    expect(r.log).toEqual(['o-1']);
    expect(r.reservations).toEqual(['o-1']);
    expect(rowsOf(r.ordersDb, 'outbox').map((o) => o['published'])).toEqual([true]);
    // The client never heard back (the crash came before the reply), yet nothing is lost.
    expect(r.replies).toEqual([]);
  });

  it('the same three crashes across the three designs', () => {
    const designs: SourceDesign[] = ['dualWriteCommitFirst', 'dualWritePublishFirst', 'outbox'];
    const windows = ['source.afterSourceCommit', 'source.afterBrokerAccept', 'source.afterPublishSend'];
    const table = Object.fromEntries(designs.map((d) => [d, windows.map((w) => outcome(run({ design: d }, crashAt(w))))]));
    expect(table).toEqual({
      // After the commit the publish is still to come; once it is sent it lands.
      dualWriteCommitFirst: ['lost', 'nothing wrong', 'nothing wrong'],
      // Before the commit the publish is already out; after it, both are done.
      dualWritePublishFirst: ['nothing wrong', 'phantom', 'phantom'],
      // The source never publishes itself: the relay does, from the committed outbox.
      outbox: ['nothing wrong', 'window never entered', 'window never entered'],
    });
  });

  it('without a crash every design commits and publishes the order', () => {
    for (const design of ['dualWriteCommitFirst', 'dualWritePublishFirst', 'outbox'] as const) {
      const r = run({ design }, []);
      expect([r.orders, r.log, r.reservations]).toEqual([['o-1'], ['o-1'], ['o-1']]);
      expect(r.replies.map((x) => x.ok)).toEqual([true]);
    }
  });
});

describe('source: checkout keys', () => {
  // The reply to the first attempt is lost; the client retries with the same key.
  const lostReply: FaultPlan = [{ kind: 'lose', point: 'source->client:cmd.reply', occurrence: 1 }];
  const key = 'customer-84/cart-19/attempt-1';
  const options = (checkoutKeys: boolean): OrderPipelineOptions => ({ design: 'outbox', checkoutKeys, client: { keyed: true, retry: 'stableKey' }, commands: checkouts });

  it('with checkoutKeys a repeat of the same key returns the recorded order (replayed) and creates no second order', () => {
    const r = run(options(true), lostReply);
    expect(r.result.strikes.map((s) => s.fault.kind)).toEqual(['lose']);
    expect(r.world.census().get('client->source:cmd')).toBe(2);
    expect(r.replies).toEqual([{ intent: key, key, ok: true, outcome: `o@${key}`, replayed: true }]);
    expect(r.orders).toEqual([`o@${key}`]);
    expect(rowsOf(r.ordersDb, 'checkout_keys')).toEqual([{ checkout_key: key, intent: key, order_id: `o@${key}` }]);
    expect(r.guards).toContain('checkoutKey');
  });

  it('without checkoutKeys the repeat collides with the existing order and is reported as a failure', () => {
    const r = run(options(false), lostReply);
    expect(r.orders).toEqual([`o@${key}`]);
    expect(rowsOf(r.ordersDb, 'checkout_keys')).toEqual([]);
    expect(r.replies.length).toBeGreaterThan(0);
    expect(r.replies.every((x) => !x.ok && !x.replayed && x.outcome === 'failed')).toBe(true);
    expect(r.guards).not.toContain('checkoutKey');
  });
});

describe('source: publish first waits for the ack of its own publication', () => {
  it('ignores an ack for another publication and moves on at its own', () => {
    const d = new MachineDriver(sourceMachine, { design: 'dualWritePublishFirst', db: 'ordersDb', broker: 'broker' });
    const command = { intent: 'i-1', aggregate_id: 'o-1', version: 1, status: 'PLACED', event_type: 'OrderPlaced' };
    d.receive({ type: 'cmd', ref: 'i-1#1', command }, 'client');
    expect(d.state).toBe('afterPublishSend');
    expect(d.sent.map((s) => s.event['ref'])).toEqual(['pub-1']);
    d.receive({ type: 'broker.ack', ref: 'pub-7', partition: 0, offset: 0 }, 'broker');
    expect(d.state).toBe('afterPublishSend');
    d.receive({ type: 'broker.ack', ref: 'pub-1', partition: 0, offset: 0 }, 'broker');
    expect(d.state).toBe('afterBrokerAccept');
  });
});

describe('source: checkout keys claim only a key the command carries', () => {
  it('writes a keyless command at once, with no key claimed, though the design records keys', () => {
    const d = new MachineDriver(sourceMachine, { design: 'outbox', db: 'ordersDb', broker: 'broker', checkoutKeys: true });
    const command = { intent: 'i-1', aggregate_id: 'o-1', version: 1, status: 'PLACED', event_type: 'OrderPlaced' };
    d.receive({ type: 'cmd', ref: 'i-1#1', command }, 'client');
    expect(d.state).toBe('writingSource');
    const ops = (d.sent.at(-1)!.event['ops'] as { table: string }[]).map((o) => o.table);
    expect(ops).not.toContain('checkout_keys');
  });

  it('claims the key a keyed command carries first', () => {
    const d = new MachineDriver(sourceMachine, { design: 'outbox', db: 'ordersDb', broker: 'broker', checkoutKeys: true });
    const command = { intent: 'i-1', aggregate_id: 'o-1', version: 1, status: 'PLACED', event_type: 'OrderPlaced' };
    d.receive({ type: 'cmd', ref: 'i-1#1', key: 'k-1', command }, 'client');
    expect(d.state).toBe('claimingKey');
    expect((d.sent.at(-1)!.event['ops'] as { table: string }[]).map((o) => o.table)).toEqual(['checkout_keys', 'checkout_keys']);
  });
});

describe('source: a key claim the database did not run is a failed request, not a conflict or a replay', () => {
  // The claim is the first statement of a new transaction, so today's designs cannot deadlock it;
  // a service whose claim did fail would answer with an error, and its client would ask again.
  it.each([true, 'intentBound', 'honoured'] as const)('with checkoutKeys %s', (checkoutKeys) => {
    const d = new MachineDriver(sourceMachine, { design: 'outbox', db: 'ordersDb', broker: 'broker', checkoutKeys });
    const command = { intent: 'i-1', aggregate_id: 'o-1', version: 1, status: 'PLACED', event_type: 'OrderPlaced' };
    d.receive({ type: 'cmd', ref: 'i-1#1', key: 'k-1', command }, 'client');
    expect(d.state).toBe('claimingKey');
    const before = d.sent.length;
    d.receive({ type: 'db.result', tx: 'cmd-1', results: [{ error: 'deadlock' }, { error: 'aborted' }] }, 'ordersDb');
    expect(d.state).toBe('idle');
    const sent = d.sentSince(before);
    expect(sent.map((s) => `${s.to} ${s.event.type}`)).toEqual(['ordersDb db.abort', 'client cmd.reply']);
    expect(sent[1]!.event).toMatchObject({ ok: false });
    expect(sent[1]!.event['outcome']).not.toBe('conflict');
    expect(sent[1]!.event['replayed'] ?? false).toBe(false);
    expect(d.notes.filter((n) => n.kind === 'guard')).toEqual([]);
  });
});

describe('source: each wait takes the reply of its own command\'s transaction', () => {
  it('a late commit reply of an earlier command, which timed out, is not this command\'s', () => {
    const d = new MachineDriver(sourceMachine, { design: 'outbox', db: 'ordersDb', broker: 'broker', timeoutTicks: 20 });
    const command = (n: number) => ({ intent: `i-${n}`, aggregate_id: `o-${n}`, version: 1, status: 'PLACED', event_type: 'OrderPlaced' });
    const writeAndCommit = (n: number) => {
      d.receive({ type: 'cmd', ref: `i-${n}#1`, command: command(n) }, 'client');
      d.receive({ type: 'db.result', tx: `cmd-${n}`, results: [{ inserted: true }, { inserted: true }] }, 'ordersDb');
      d.advance(1);
      expect(d.state).toBe('committing');
    };
    writeAndCommit(1);
    d.advance(20);
    expect(d.state).toBe('idle');
    writeAndCommit(2);
    d.receive({ type: 'db.committed', tx: 'cmd-1', ok: true }, 'ordersDb');
    expect(d.state).toBe('committing');
    d.receive({ type: 'db.committed', tx: 'cmd-2', ok: true }, 'ordersDb');
    expect(d.state).toBe('afterSourceCommit');
  });

  it('a late statement reply of an earlier command, which timed out, is not this command\'s', () => {
    const d = new MachineDriver(sourceMachine, { design: 'outbox', db: 'ordersDb', broker: 'broker', timeoutTicks: 20 });
    const command = (n: number) => ({ intent: `i-${n}`, aggregate_id: `o-${n}`, version: 1, status: 'PLACED', event_type: 'OrderPlaced' });
    d.receive({ type: 'cmd', ref: 'i-1#1', command: command(1) }, 'client');
    d.advance(20);
    expect(d.state).toBe('idle');
    d.receive({ type: 'cmd', ref: 'i-2#1', command: command(2) }, 'client');
    expect(d.state).toBe('writingSource');
    d.receive({ type: 'db.result', tx: 'cmd-1', results: [{ inserted: true }, { inserted: true }] }, 'ordersDb');
    expect(d.state).toBe('writingSource');
    d.receive({ type: 'db.result', tx: 'cmd-2', results: [{ inserted: true }, { inserted: true }] }, 'ordersDb');
    expect(d.state).toBe('beforeSourceCommit');
  });

  it.each([
    ['one of its inserts found its row already there', [{ inserted: true }, { inserted: false }]],
    ['its update found no row to change', [{ updated: 0 }, { inserted: true }]],
  ])('a write whose statement did not take effect whole is answered as a failure, never committed: %s', (_, results) => {
    const d = new MachineDriver(sourceMachine, { design: 'outbox', db: 'ordersDb', broker: 'broker', timeoutTicks: 20 });
    d.receive({ type: 'cmd', ref: 'i-1#1', command: { intent: 'i-1', aggregate_id: 'o-1', version: 1, status: 'PLACED', event_type: 'OrderPlaced' } }, 'client');
    const before = d.sent.length;
    d.receive({ type: 'db.result', tx: 'cmd-1', results }, 'ordersDb');
    expect(d.state).toBe('idle');
    expect(d.sentSince(before).map((s) => `${s.to} ${s.event.type} ${String(s.event['ok'] ?? '')}`)).toEqual(['ordersDb db.abort ', 'client cmd.reply false']);
  });

  it('a commit the database refused (the idle timeout rolled the transaction back) is answered as a failure', () => {
    const d = new MachineDriver(sourceMachine, { design: 'outbox', db: 'ordersDb', broker: 'broker', timeoutTicks: 20 });
    d.receive({ type: 'cmd', ref: 'i-1#1', command: { intent: 'i-1', aggregate_id: 'o-1', version: 1, status: 'PLACED', event_type: 'OrderPlaced' } }, 'client');
    d.receive({ type: 'db.result', tx: 'cmd-1', results: [{ inserted: true }, { inserted: true }] }, 'ordersDb');
    d.advance(1);
    expect(d.state).toBe('committing');
    d.receive({ type: 'db.committed', tx: 'cmd-1', ok: false, conflict: 'idle in transaction timeout' }, 'ordersDb');
    expect(d.state).toBe('idle');
    expect(d.sent.at(-1)).toMatchObject({ to: 'client', event: { type: 'cmd.reply', ok: false } });
  });
});

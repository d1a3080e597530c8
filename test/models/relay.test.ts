// The outbox relay's two design options, each shown by running the Mercury outbox pipeline twice
// under one fault, once per setting: where progress is recorded (after or before the send) and
// how many publishes are in flight (one per aggregate, or a whole batch at once).
import { SECONDS } from '../../src/base/duration.ts';
import { describe, expect, it } from 'vitest';
import type { FaultPlan } from '../../src/faults/faults.ts';
import { World } from '../../src/run/world.ts';
import { recordsOf, type BrokerDurable } from '../../models/broker.ts';
import { historyOf, rowsOf, type DatabaseDurable } from '../../models/database.ts';
import { orderLifecycle, orderPipeline, type OrderPipelineOptions } from '../../models/designs/orderPipeline.ts';
import { relay, type RelayInput } from '../../models/relay.ts';
import { broker } from '../../models/broker.ts';
import { consumer } from '../../models/consumer.ts';
import { database } from '../../models/designs/databaseComponent.ts';
import { publisher } from '../../models/publisher.ts';
import { compose } from '../../src/index.ts';

function run(options: Partial<OrderPipelineOptions>, plan: FaultPlan, seed = 1) {
  const world = new World(orderPipeline({ design: 'outbox', ...options })({ size: 1 }, SECONDS), { seed, plan });
  const result = world.run();
  const broker = world.durable<BrokerDurable>('broker');
  return {
    world,
    result,
    log: recordsOf(broker).map((r) => r.payload['event_id']),
    versions: recordsOf(broker).map((r) => r.payload['aggregate_version']),
    outbox: rowsOf(world.durable<DatabaseDurable>('ordersDb'), 'outbox').map((r) => [r['event_id'], r['published']]),
    inventory: world.durable<DatabaseDurable>('inventoryDb'),
  };
}

const crashAt = (window: string): FaultPlan => [{ kind: 'crash', window, occurrence: 1 }];
const reservations = (db: DatabaseDurable) => rowsOf(db, 'reservations').map((r) => `${r['order_id']}/${r['reservation_version']}`);
const mark = (m: RelayInput['mark']): Partial<OrderPipelineOptions> => ({ relay: { mark: m } });

describe('relay: progress recorded after the send (at-least-once) or before it (at-most-once)', () => {
  it('afterSend: a crash after the broker accepted, before the mark, publishes the same event_id again', () => {
    const { result, world, log, outbox, inventory } = run(mark('afterSend'), crashAt('relay.afterBrokerAccept'));
    expect(result.strikes).toHaveLength(1);
    // At the crash the broker had the record and the outbox row still said unpublished.
    const atCrash = result.strikes[0]!.durable;
    expect(recordsOf(atCrash['broker'] as BrokerDurable).map((r) => r.payload['event_id'])).toEqual(['evt-o-1-v1']);
    expect(rowsOf(atCrash['ordersDb'] as DatabaseDurable, 'outbox').map((r) => r['published'])).toEqual([false]);
    expect(world.census().get('relay->broker:broker.publish')).toBe(2);
    expect(log).toEqual(['evt-o-1-v1', 'evt-o-1-v1']);
    expect(outbox).toEqual([['evt-o-1-v1', true]]);
    expect(reservations(inventory)).toEqual(['o-1/1']);
  });

  it('beforeSend: the same crash comes after the mark, so nothing is published twice', () => {
    const { result, world, log, outbox } = run(mark('beforeSend'), crashAt('relay.afterBrokerAccept'));
    expect(result.strikes).toHaveLength(1);
    expect(world.census().get('relay->broker:broker.publish')).toBe(1);
    expect(log).toEqual(['evt-o-1-v1']);
    expect(outbox).toEqual([['evt-o-1-v1', true]]);
  });

  it('beforeSend: a crash after the mark, before the send, loses the event: no broker record, the row marked published', () => {
    const { result, world, log, outbox, inventory } = run(mark('beforeSend'), crashAt('relay.afterRelayProgress'));
    expect(result.strikes).toHaveLength(1);
    expect(rowsOf(result.strikes[0]!.durable['ordersDb'] as DatabaseDurable, 'outbox').map((r) => r['published'])).toEqual([true]);
    expect(world.census().get('relay->broker:broker.publish')).toBeUndefined();
    expect(log).toEqual([]);
    expect(outbox).toEqual([['evt-o-1-v1', true]]);
    expect(reservations(inventory)).toEqual([]);
  });

  it('afterSend: the same window comes after the broker accepted, so the event is published once', () => {
    const { result, log, outbox, inventory } = run(mark('afterSend'), crashAt('relay.afterRelayProgress'));
    expect(result.strikes).toHaveLength(1);
    expect(log).toEqual(['evt-o-1-v1']);
    expect(outbox).toEqual([['evt-o-1-v1', true]]);
    expect(reservations(inventory)).toEqual(['o-1/1']);
  });
});

describe('relay: one publish in flight per aggregate, or a batch at once', () => {
  // Order o-1 moves through v1, v2, v3; the projection has no version check, so it applies log
  // order. A fault that puts the relay behind leaves several versions pending; its next poll
  // returns them together (see scenarios/ordering-concurrent-relay-no-version-check.ts).
  const options = (concurrency: RelayInput['concurrency']): Partial<OrderPipelineOptions> => ({
    relay: { concurrency },
    effect: 'projection',
    consumer: { inbox: 'sameTx', versionCheck: false },
    commands: orderLifecycle,
  });
  const inOrder = (vs: readonly unknown[]) => vs.every((v, i) => i === 0 || Number(v) >= Number(vs[i - 1]));
  const cases: { name: string; plan: FaultPlan; seed: number; concurrent: number[] }[] = [
    // The held first publish makes the relay time out and fall behind; v2 and v3 go out as one batch.
    { name: 'a reorder of the first publish (seed 4)', plan: [{ kind: 'reorder', point: 'relay->broker:broker.publish', occurrence: 1 }], seed: 4, concurrent: [1, 1, 3, 2] },
    // A crash during the second poll: after the restart the first poll returns v1, v2, v3 together.
    { name: 'a crash while the relay polls (seed 1)', plan: crashAt('relay.polling').map((f) => ({ ...f, occurrence: 2 })), seed: 1, concurrent: [2, 1, 3] },
  ];

  for (const c of cases) {
    it(`${c.name}: concurrent appends o-1's versions out of order and the projection moves backwards`, () => {
      const { result, versions, inventory } = run(options('concurrent'), c.plan, c.seed);
      expect(result.strikes).toHaveLength(1);
      expect(versions).toEqual(c.concurrent);
      expect(inOrder(versions)).toBe(false);
      // The projection applies log order: some committed version is older than the one before it.
      expect(inOrder(historyOf(inventory, 'order_status').map((r) => r['version']))).toBe(false);
    });

    it(`${c.name}: perAggregate keeps o-1's versions in order and the projection never moves backwards`, () => {
      const { result, versions, inventory } = run(options('perAggregate'), c.plan, c.seed);
      expect(result.strikes).toHaveLength(1);
      expect(inOrder(versions)).toBe(true);
      expect([...new Set(versions)]).toEqual([1, 2, 3]);
      expect(inOrder(historyOf(inventory, 'order_status').map((r) => r['version']))).toBe(true);
      expect(rowsOf(inventory, 'order_status')).toEqual([{ order_id: 'o-1', status: 'DELIVERED', version: 3 }]);
    });
  }

  it('without a fault both keep up, publishing one row per poll, and stay in order', () => {
    for (const concurrency of ['concurrent', 'perAggregate'] as const) {
      expect(run(options(concurrency), []).versions).toEqual([1, 2, 3]);
    }
  });
});

describe('relay workers: several polling one outbox, with or without SKIP LOCKED claims', () => {
  const workers = (claim: 'read' | 'skipLocked', heads = false): Partial<OrderPipelineOptions> => ({ effect: 'projection', commands: orderLifecycle, relay: { workers: 2, claim, ...(heads ? { heads } : {}) } });
  const publishers = (world: World) => [...world.census().keys()].filter((p) => p.endsWith(':broker.publish')).sort();

  it('two workers reading without a claim both publish the rows they both found; claiming, each row is published once', () => {
    const read = run(workers('read'), []);
    expect(publishers(read.world)).toEqual(['relay->broker:broker.publish', 'relay2->broker:broker.publish']);
    expect(read.log.length).toBeGreaterThan(new Set(read.log).size);
    const claimed = run(workers('skipLocked'), []);
    expect(claimed.log).toEqual(['evt-o-1-v1', 'evt-o-1-v2', 'evt-o-1-v3']);
    expect(claimed.outbox.every(([, published]) => published === true)).toBe(true);
  });

  it('a worker whose claim reply is lost holds v1 in its open round; the other skips it and publishes v2 first, unless it claims heads only', () => {
    const plan: FaultPlan = [{ kind: 'lose', point: 'ordersDb->relay2:db.result', occurrence: 2 }];
    const skipped = run(workers('skipLocked'), plan);
    expect(skipped.result.strikes).toHaveLength(1);
    const first = (versions: readonly unknown[], v: number) => versions.indexOf(v);
    expect(first(skipped.versions, 2)).toBeLessThan(first(skipped.versions, 1));
    const heads = run(workers('skipLocked', true), plan);
    expect(heads.result.strikes).toHaveLength(1);
    expect(heads.versions.filter((v, i) => i === 0 || v !== heads.versions[i - 1])).toEqual([1, 2, 3]);
  });

  it('a worker that crashes after marking, before its commit, rolls the mark back: the row is published again by the next claim', () => {
    // In the fault-free run relay2's claim reaches the database first and takes the row.
    const clean = run({ relay: { workers: 2, claim: 'skipLocked' } }, []);
    expect(clean.result.windowCounts.get('relay2.afterRelayProgress')).toBe(1);
    expect(clean.result.windowCounts.get('relay.afterRelayProgress') ?? 0).toBe(0);
    const { result, log, outbox } = run({ relay: { workers: 2, claim: 'skipLocked' } }, crashAt('relay2.afterRelayProgress'));
    expect(result.strikes).toHaveLength(1);
    expect(log).toEqual(['evt-o-1-v1', 'evt-o-1-v1']);
    expect(outbox).toEqual([['evt-o-1-v1', true]]);
  });

  it('refuses options that need a claim, and an at-most-once mark with one', () => {
    expect(() => orderPipeline({ design: 'outbox', relay: { heads: true } })).toThrow(/option heads needs claim 'skipLocked'/);
    expect(() => orderPipeline({ design: 'outbox', relay: { claim: 'skipLocked', mark: 'beforeSend' } })).toThrow(/cannot go with claim 'skipLocked'/);
    expect(() => orderPipeline({ design: 'outbox', relay: { type: 'cdc', workers: 2 } })).toThrow(/relay\.workers is a polling publisher's option/);
    expect(() => orderPipeline({ design: 'outbox', relay: { offsetCommit: 'beforeAck' } })).toThrow(/relay\.offsetCommit is a CDC connector's option/);
  });
});

describe('relay: outbox rows whose event_id is a number', () => {
  // A hop that writes its outbox rows with a numeric event_id (here the order's amount): the mark
  // must find each row by its id as stored, or no row is ever marked and the relay publishes the
  // same rows for ever.
  const hop = (claim: 'read' | 'skipLocked') =>
    compose(
      publisher({ records: (size) => Array.from({ length: size }, (_, i) => ({ event_id: `evt-${i + 1}`, order_id: `o-${i + 1}`, amount: 10 * (i + 1) })), keyField: 'order_id', broker: 'brokerA' }),
      broker({ name: 'brokerA', partitions: 1 }),
      consumer({ name: 'enrich', broker: 'brokerA', group: 'enrich', db: 'enrichDb', inbox: 'sameTx', effect: { op: 'insert', table: 'outbox', columns: { event_id: 'amount', aggregate_id: 'order_id', published: { const: false } } } }),
      database({ name: 'enrichDb', tables: { outbox: { key: ['event_id'] }, inbox: { key: ['consumer_name', 'event_id'] } } }),
      relay({ db: 'enrichDb', broker: 'brokerB', claim }),
      broker({ name: 'brokerB', partitions: 1 }),
    );
  for (const claim of ['read', 'skipLocked'] as const) {
    it(`marks them published and goes quiet (claim '${claim}')`, () => {
      const world = new World(hop(claim)({ size: 2 }, SECONDS), { seed: 1, plan: [] });
      const result = world.run();
      expect(result.ending).toEqual({ kind: 'quiescent' });
      expect(rowsOf(world.durable<DatabaseDurable>('enrichDb'), 'outbox').map((r) => [r['event_id'], r['published']])).toEqual([
        [10, true],
        [20, true],
      ]);
      expect(recordsOf(world.durable<BrokerDurable>('brokerB')).map((r) => r.payload['event_id'])).toEqual([10, 20]);
    });
  }
});

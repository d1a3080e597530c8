// The broker model: partitioning by key (driven directly with XState's pure `transition`), and
// producer acks, committed offsets, redelivery and retention shown in the Mercury outbox
// pipeline, each with the fault that makes the option matter.
import { SECONDS } from '../../src/base/duration.ts';
import { initialTransition, transition, type AnyMachineSnapshot } from 'xstate';
import { describe, expect, it } from 'vitest';
import type { FaultPlan } from '../../src/faults/faults.ts';
import type { TraceEvent } from '../../src/kernel/trace.ts';
import { World } from '../../src/run/world.ts';
import { type ComponentSpec } from '../../src/kernel/componentSpec.ts';
import { type WorldOptions } from '../../src/kernel/worldOptions.ts';
import { brokerMachine, partitionOf, recordsOf, type BrokerDurable, type BrokerInput } from '../../models/broker.ts';
import { rowsOf, type DatabaseDurable } from '../../models/database.ts';
import { orderPipeline, type OrderPipelineOptions } from '../../models/designs/orderPipeline.ts';
import { MachineDriver } from './machineDriver.ts';

/** The pipeline with the broker's input overridden (redelivery and retention are not pipeline options). */
function run(options: Partial<OrderPipelineOptions>, plan: FaultPlan, size = 1, broker: BrokerInput = {}, world: Partial<WorldOptions> = {}) {
  const specs: ComponentSpec[] = orderPipeline({ design: 'outbox', ...options })({ size }, SECONDS).map((c) => (c.name === 'broker' ? { ...c, input: { ...c.input, ...broker } } : c));
  const w = new World(specs, { seed: 1, plan, ...world });
  const result = w.run();
  return { world: w, result, broker: w.durable<BrokerDurable>('broker'), inventory: w.durable<DatabaseDurable>('inventoryDb'), notes: result.notes.map((n) => ({ kind: n.kind, data: n.data as Record<string, unknown> | undefined })) };
}

const logIds = (b: BrokerDurable) => recordsOf(b).map((r) => r.payload['event_id']);
const reservations = (db: DatabaseDurable) => rowsOf(db, 'reservations').map((r) => `${r['order_id']}/${r['reservation_version']}`);

/** Every `broker.deliver` the consumer received, as [tick, partition, offset]. */
function deliveries(events: readonly TraceEvent[]): [number, number, number][] {
  return events
    .filter((e) => e.kind === 'deliver' && e.component === 'consumer')
    .map((e) => ({ tick: e.tick, event: (e.data as { event: { type: string; partition: number; offset: number } }).event }))
    .filter((d) => d.event.type === 'broker.deliver')
    .map((d) => [d.tick, d.event.partition, d.event.offset]);
}

describe('broker: a partitioned log keyed by aggregate id', () => {
  function publishAll(partitions: number | undefined, keys: readonly string[]) {
    let snapshot: AnyMachineSnapshot = initialTransition(brokerMachine, partitions === undefined ? {} : { partitions })[0];
    const acks: { key: string; partition: number; offset: number }[] = [];
    keys.forEach((key, i) => {
      const [next, actions] = transition(brokerMachine, snapshot as never, { type: 'broker.publish', ref: `r${i}`, key, payload: { event_id: `e${i}`, seq: i }, from: 'producer', at: i } as never);
      snapshot = next;
      const ack = (actions as readonly { type: string; params?: unknown }[])
        .filter((a) => a.type === 'xstate.emit' && (a.params as { event: { type: string } }).event.type === 'send')
        .map((a) => (a.params as { event: { event: { type: string; partition: number; offset: number } } }).event.event)[0]!;
      expect(ack.type).toBe('broker.ack');
      acks.push({ key, partition: ack.partition, offset: ack.offset });
    });
    return { durable: snapshot.context.durable as BrokerDurable, acks };
  }
  const interleaved = [0, 1, 2].flatMap(() => ['o-1', 'o-2', 'o-3', 'o-4']);

  it('with four partitions a key always lands in partitionOf(key), keeping its records in publish order, and different keys spread', () => {
    const { durable, acks } = publishAll(4, interleaved);
    for (const a of acks) expect(a.partition).toBe(partitionOf(a.key, 4));
    durable.partitions.forEach((log, p) => {
      expect(new Set(log.map((r) => r.key)).size).toBeLessThanOrEqual(1);
      for (const r of log) expect(partitionOf(r.key, 4)).toBe(p);
      // One key's records keep the order they were published in, at offsets 0, 1, 2.
      expect(log.map((r) => r.offset)).toEqual(log.map((_, i) => i));
      const seqs = log.map((r) => Number(r.payload['seq']));
      expect(seqs.every((s, i) => i === 0 || s > seqs[i - 1]!)).toBe(true);
    });
    expect(durable.partitions.filter((log) => log.length > 0)).toHaveLength(4);
    expect(durable.partitions.map((log) => log.length)).toEqual([3, 3, 3, 3]);
  });

  it('with the default single partition every key shares one log, in arrival order', () => {
    const { durable, acks } = publishAll(undefined, interleaved);
    expect(durable.partitions).toHaveLength(1);
    expect(acks.map((a) => a.partition)).toEqual(interleaved.map(() => 0));
    expect(durable.partitions[0]!.map((r) => r.key)).toEqual(interleaved);
  });

  it('in the pipeline the consumer group commits an offset per partition', () => {
    const { broker, inventory } = run({ broker: { partitions: 4 } }, [], 4);
    expect(broker.partitions.map((log) => log.map((r) => r.key))).toEqual([['o-1'], ['o-2'], ['o-3'], ['o-4']]);
    expect(broker.offsets['inventory']).toEqual([1, 1, 1, 1]);
    expect(reservations(inventory)).toEqual(['o-1/1', 'o-2/1', 'o-3/1', 'o-4/1']);
  });
});

describe('broker: producer acks that can be lost', () => {
  const lostAck: FaultPlan = [{ kind: 'lose', point: 'broker->relay:broker.ack', occurrence: 1 }];

  it('a lost ack makes the at-least-once relay publish again: two records with one event_id', () => {
    const { world, result, broker, notes } = run({}, lostAck);
    expect(result.strikes.map((s) => s.fault.kind)).toEqual(['lose']);
    expect(world.census().get('relay->broker:broker.publish')).toBe(2);
    expect(logIds(broker)).toEqual(['evt-o-1-v1', 'evt-o-1-v1']);
    expect(recordsOf(broker).map((r) => r.offset)).toEqual([0, 1]);
    expect(notes.filter((n) => n.kind === 'guard' && n.data?.['guard'] === 'producerDedup')).toEqual([]);
  });

  it('with producerDedup the second publish is acknowledged with the first offset and appends nothing', () => {
    const { world, broker, notes } = run({ broker: { producerDedup: true } }, lostAck);
    expect(world.census().get('relay->broker:broker.publish')).toBe(2);
    expect(logIds(broker)).toEqual(['evt-o-1-v1']);
    expect(notes.filter((n) => n.kind === 'guard').map((n) => n.data)).toEqual([{ guard: 'producerDedup', event_id: 'evt-o-1-v1' }]);
    expect(world.trace.events.filter((e) => e.kind === 'deliver' && e.component === 'relay' && (e.data as { event: { type: string } }).event.type === 'broker.ack').map((e) => (e.data as { event: { offset: number } }).event.offset)).toEqual([0]);
  });
});

describe('broker: producer dedup tells records apart by event_id only', () => {
  const publish = (ref: string, payload: Record<string, string>) => ({ type: 'broker.publish', ref, key: 'o-1', payload });

  it('appends two records with different event_ids, and two records that carry none', () => {
    const d = new MachineDriver(brokerMachine, { producerDedup: true });
    d.receive(publish('a', { event_id: 'evt-1' }), 'relay');
    d.receive(publish('b', { event_id: 'evt-2' }), 'relay');
    d.receive(publish('c', { order_id: 'o-1' }), 'relay');
    d.receive(publish('d', { order_id: 'o-1' }), 'relay');
    d.receive(publish('e', { event_id: 'evt-1' }), 'relay');
    expect(recordsOf(d.context['durable'] as BrokerDurable).map((r) => r.payload['event_id'] ?? r.payload['order_id'])).toEqual(['evt-1', 'evt-2', 'o-1', 'o-1']);
    expect(d.sent.map((s) => [s.event['ref'], s.event['offset']])).toEqual([['a', 0], ['b', 1], ['c', 2], ['d', 3], ['e', 0]]);
  });
});

describe("broker: producerDedup 'session', Kafka's idempotent producer", () => {
  const publish = (ref: string, payload: Record<string, string>) => ({ type: 'broker.publish', ref, key: 'o-1', payload });
  const ids = (d: MachineDriver) => recordsOf(d.context['durable'] as BrokerDurable).map((r) => r.payload['event_id']);

  it('takes a retry by the same producer in the same session for a repeat, and a restarted or another producer\'s send for a new record', () => {
    const d = new MachineDriver(brokerMachine, { producerDedup: 'session' });
    d.receive(publish('a', { event_id: 'evt-1' }), 'relay');
    // The same producer's retry (its ack was lost): acknowledged with the first offset.
    d.receive(publish('a', { event_id: 'evt-1' }), 'relay');
    expect(ids(d)).toEqual(['evt-1']);
    expect(d.sent.map((s) => [s.to, s.event['offset']])).toEqual([['relay', 0], ['relay', 0]]);
    // Another producer is another session: its send of the same event is appended.
    d.receive(publish('x', { event_id: 'evt-1' }), 'relay2');
    expect(ids(d)).toEqual(['evt-1', 'evt-1']);
    // The relay crashed and came back: a new session, so its republish is appended too, and a
    // retry within the new session is a repeat again.
    d.receive({ type: 'sys.peerCrashed', peer: 'relay' }, 'relay');
    d.receive(publish('b', { event_id: 'evt-1' }), 'relay');
    d.receive(publish('b', { event_id: 'evt-1' }), 'relay');
    expect(ids(d)).toEqual(['evt-1', 'evt-1', 'evt-1']);
    expect((d.context['durable'] as BrokerDurable).producerSessions).toEqual({ relay: 1 });
  });

  it('in the pipeline: a broker crash after the append is absorbed, a relay crash after the broker accepted is not', () => {
    const afterAppend: FaultPlan = [{ kind: 'crash', window: 'broker.afterAppend', occurrence: 1 }];
    const afterAccept: FaultPlan = [{ kind: 'crash', window: 'relay.afterBrokerAccept', occurrence: 1 }];
    const options = { crashes: ['broker' as const], broker: { producerDedup: 'session' as const } };
    expect(logIds(run(options, afterAppend).broker)).toEqual(['evt-o-1-v1']);
    expect(logIds(run(options, afterAccept).broker)).toEqual(['evt-o-1-v1', 'evt-o-1-v1']);
    // The broker's own duplicate detection keeps one record either way.
    expect(logIds(run({ ...options, broker: { producerDedup: true } }, afterAccept).broker)).toEqual(['evt-o-1-v1']);
  });
});

describe('broker: consumer-group offsets and redelivery', () => {
  it('committed offsets survive a consumer crash, and the restarted consumer is redelivered from the committed offset', () => {
    // Crash after the second reservation commits, before its offset is committed: o-1's offset
    // is committed, o-2's is not.
    const { world, result, broker, inventory, notes } = run({}, [{ kind: 'crash', window: 'consumer.afterEffectCommit', occurrence: 2 }], 2);
    expect(result.strikes).toHaveLength(1);
    const atCrash = result.strikes[0]!.durable['broker'] as BrokerDurable;
    expect(atCrash.offsets['inventory']).toEqual([1]);
    expect(reservations(result.strikes[0]!.durable['inventoryDb'] as DatabaseDurable)).toEqual(['o-1/1', 'o-2/1']);
    const offsets = deliveries(world.trace.events).map(([, , offset]) => offset);
    // Offset 0 was committed before the crash and never comes back; offset 1 is delivered again.
    expect(offsets).toEqual([0, 1, 1]);
    const crashTick = world.trace.events.find((e) => e.kind === 'crash' && e.component === 'consumer')!.tick;
    expect(deliveries(world.trace.events)[2]![0]).toBeGreaterThan(crashTick);
    // One reservation per order: the inbox suppressed the redelivered o-2.
    expect(reservations(inventory)).toEqual(['o-1/1', 'o-2/1']);
    expect(notes.filter((n) => n.kind === 'guard').map((n) => n.data?.['guard'])).toEqual(['inboxKey']);
    expect(broker.offsets['inventory']).toEqual([2]);
  });

  it('a delivery whose commit is lost is redelivered once redeliveryTicks have passed', () => {
    const lostCommit: FaultPlan = [{ kind: 'lose', point: 'consumer->broker:broker.commit', occurrence: 1 }];
    const gap = (redeliveryTicks: number) => {
      const { world, broker, inventory } = run({}, lostCommit, 1, { redeliveryTicks }, { quietTicks: 3 * redeliveryTicks });
      const d = deliveries(world.trace.events);
      expect(d.map(([, , offset]) => offset)).toEqual([0, 0]);
      expect(broker.offsets['inventory']).toEqual([1]);
      expect(reservations(inventory)).toEqual(['o-1/1']);
      return d[1]![0] - d[0]![0];
    };
    // Exactly the redelivery period after the first went out, give or take the two trips' latencies (1 to 3 ticks each).
    expect(Math.abs(gap(30) - 30)).toBeLessThanOrEqual(2);
    expect(Math.abs(gap(100) - 100)).toBeLessThanOrEqual(2);
  });

  it('redelivers a delivery left uncommitted exactly redeliveryTicks after it went out, to the tick, and never one committed in time', () => {
    const broker = new MachineDriver(brokerMachine, { redeliveryTicks: 48 });
    broker.receive({ type: 'broker.publish', ref: 'r1', key: 'o-1', payload: { event_id: 'e1' } }, 'relay');
    // The record goes out at t=9, to a member that subscribed then.
    broker.advance(9).receive({ type: 'broker.subscribe', group: 'g' }, 'consumer');
    const delivered = () => broker.sent.filter((m) => m.to === 'consumer' && m.event.type === 'broker.deliver').length;
    expect(delivered()).toBe(1);
    broker.advance(47);
    expect(delivered()).toBe(1);
    broker.advance(1);
    expect([broker.now, delivered()]).toEqual([57, 2]);
    // Committed one tick before its next deadline, it is not sent again.
    broker.advance(47).receive({ type: 'broker.commit', partition: 0, offset: 1 }, 'consumer');
    broker.advance(500);
    expect(delivered()).toBe(2);
  });

  it('without a lost commit nothing is redelivered', () => {
    const { world } = run({}, []);
    expect(deliveries(world.trace.events).map(([, , offset]) => offset)).toEqual([0]);
  });
});

describe('broker: retention', () => {
  // The consumer crashes with the record in hand; it resubscribes restartDelayTicks (10) later.
  const crash: FaultPlan = [{ kind: 'crash', window: 'consumer.received', occurrence: 1 }];

  it('a record older than retentionTicks when it is due again is skipped: the reservation is never made', () => {
    const { world, broker, inventory, notes } = run({}, crash, 1, { retentionTicks: 5 });
    expect(logIds(broker)).toEqual(['evt-o-1-v1']);
    expect(deliveries(world.trace.events).map(([, , offset]) => offset)).toEqual([0]);
    expect(notes.filter((n) => n.kind === 'broker.retentionSkip').map((n) => n.data)).toEqual([{ records: 1 }]);
    expect(reservations(inventory)).toEqual([]);
  });

  it('with the default retention the same crash is followed by a redelivery and the reservation', () => {
    const { world, inventory, notes } = run({}, crash);
    expect(deliveries(world.trace.events).map(([, , offset]) => offset)).toEqual([0, 0]);
    expect(notes.filter((n) => n.kind === 'broker.retentionSkip')).toEqual([]);
    expect(reservations(inventory)).toEqual(['o-1/1']);
  });
});

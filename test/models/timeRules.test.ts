// The models' rules of time, each held to its boundary to the tick, and each shown to decide a
// verdict by one tick: a provider forgets a key exactly at its retention, and its status lookup
// with it; a row with a time to live is gone exactly at it; a transaction idle for its timeout is
// rolled back exactly then; a broker skips a record exactly at its retention (its redelivery is
// held to the tick in test/models/broker.test.ts). A model that moved one of these by a tick, or
// ignored one (a lookup that outlived its key), fails here.
import { describe, expect, it } from 'vitest';
import { emit, setup } from 'xstate';
import { send, type Emitted } from '../../src/kernel/emitted.ts';
import { brokerMachine } from '../../models/broker.ts';
import { CALLER_TABLES, callerMachine, type CallerInput } from '../../models/caller.ts';
import { databaseMachine } from '../../models/database.ts';
import { operationsOf, providerMachine, type ProviderDurable } from '../../models/provider.ts';
import type { FaultPlan } from '../../src/faults/faults.ts';
import { World } from '../../src/run/world.ts';
import { type ComponentSpec } from '../../src/kernel/componentSpec.ts';
import { MachineDriver } from './machineDriver.ts';

const call = (ref: string, key = 'o1/1', intent = 'A') => ({ type: 'provider.call', ref, key, intent });

describe('a provider key’s retention', () => {
  const provider = (statusLookup: 'none' | 'byKey') => new MachineDriver(providerMachine, { idempotency: 'honoured', statusLookup, keyRetentionTicks: 100 });
  const responses = (p: MachineDriver) => p.sent.filter((m) => m.event.type === 'provider.response').map((m) => m.event['status']);

  it('replays a call under the key one tick before it, and makes a new operation at it', () => {
    for (const [wait, second] of [
      [99, 'replayed'],
      [100, 'created'],
    ] as const) {
      const p = provider('none');
      p.receive(call('c1'), 'caller').advance(wait).receive(call('c2'), 'caller').advance(1);
      expect(responses(p), `after ${wait} ticks`).toEqual(['created', second]);
    }
  });

  it('finds the operation by key one tick before it, and nothing at it: the lookup forgets with the key', () => {
    for (const [wait, found] of [
      [99, true],
      [100, false],
    ] as const) {
      const p = provider('byKey');
      p.receive(call('c1'), 'caller').advance(wait).receive({ type: 'provider.status', ref: 's1', key: 'o1/1' }, 'caller');
      const answer = p.sent.find((m) => m.event.type === 'provider.statusResult')!.event;
      expect(answer['op_id'] !== null, `after ${wait} ticks`).toBe(found);
    }
  });
});

describe('a row’s time to live', () => {
  const exec = (tx: string, ops: unknown[]) => ({ type: 'db.exec', tx, ops });
  const db = () => new MachineDriver(databaseMachine, { tables: { inbox: { key: ['event_id'], ttlTicks: 50 } } });
  const inserted = (d: MachineDriver) => d.sent.filter((m) => m.event.type === 'db.result').map((m) => (m.event['results'] as { inserted?: boolean }[] | undefined)?.[0]?.inserted);

  it('keeps a row one tick before it and has forgotten it at it: the same key inserts again', () => {
    for (const [wait, again] of [
      [49, false],
      [50, true],
    ] as const) {
      const d = db();
      d.receive(exec('t1', [{ op: 'insert', table: 'inbox', row: { event_id: 'e1' }, onConflict: 'nothing' }]), 'consumer').receive({ type: 'db.commit', tx: 't1' }, 'consumer');
      d.advance(wait).receive(exec('t2', [{ op: 'insert', table: 'inbox', row: { event_id: 'e1' }, onConflict: 'nothing' }]), 'consumer');
      expect(inserted(d), `after ${wait} ticks`).toEqual([true, again]);
    }
  });
});

describe('an idle transaction’s timeout', () => {
  const exec = { type: 'db.exec', tx: 't1', ops: [{ op: 'insert', table: 'orders', row: { order_id: 'o1' } }] };
  const db = () => new MachineDriver(databaseMachine, { tables: { orders: { key: ['order_id'] } }, idleTxTicks: 30 });
  const committed = (d: MachineDriver) => d.sent.find((m) => m.event.type === 'db.committed')!.event['ok'];

  it('commits a transaction idle one tick less than it, and refuses the commit of one idle for it', () => {
    for (const [wait, ok] of [
      [29, true],
      [30, false],
    ] as const) {
      const d = db();
      d.receive(exec, 'client').advance(wait).receive({ type: 'db.commit', tx: 't1' }, 'client').advance(1);
      expect(committed(d), `after ${wait} ticks`).toBe(ok);
    }
  });
});

describe('a broker record’s retention', () => {
  it('delivers a record one tick before it to a member that subscribes then, and skips it at it', () => {
    for (const [wait, delivered] of [
      [59, 1],
      [60, 0],
    ] as const) {
      const b = new MachineDriver(brokerMachine, { retentionTicks: 60 });
      b.receive({ type: 'broker.publish', ref: 'r1', key: 'o-1', payload: { event_id: 'e1' } }, 'relay');
      b.advance(wait).receive({ type: 'broker.subscribe', group: 'g' }, 'consumer');
      expect(b.sent.filter((m) => m.event.type === 'broker.deliver').length, `after ${wait} ticks`).toBe(delivered);
    }
  });
});

/** Publishes one pickup request at start, and ignores its ack. */
const publisher = setup({ types: { emitted: {} as Emitted } }).createMachine({
  id: 'publisher',
  context: { durable: {} },
  initial: 'done',
  states: {
    done: {
      tags: ['idle'],
      entry: emit(() => send('broker', { type: 'broker.publish', ref: 'p0', key: 'o1', payload: { event_id: 'e1', order_id: 'o1', pickup_version: 1, address: 'A' } })),
    },
  },
});

describe('a verdict decided by one tick of key retention', () => {
  // A caller that sends its key and retries a call whose response was lost, against a provider
  // that honours the key for `keyRetentionTicks`: kept until the retry arrives, the retry is
  // replayed (one operation); forgotten one tick sooner, the retry is a second operation.
  const LOSE_RESPONSE: FaultPlan = [{ kind: 'lose', point: 'provider->caller:provider.response', occurrence: 1 }];
  const operations = (keyRetentionTicks: number) => {
    const caller: CallerInput = { broker: 'broker', group: 'fulfillment', db: 'db', provider: 'provider', effectKey: ['order_id', 'pickup_version'], sendKey: true, statusLookup: false, recordIntent: false, timeoutTicks: 20 };
    const components: ComponentSpec[] = [
      { name: 'publisher', machine: publisher, input: {}, process: false },
      { name: 'broker', machine: brokerMachine, input: {}, process: false },
      { name: 'db', machine: databaseMachine, input: { tables: CALLER_TABLES }, process: false },
      { name: 'caller', machine: callerMachine, input: { ...caller }, process: true },
      { name: 'provider', machine: providerMachine, input: { idempotency: 'honoured', statusLookup: 'none', keyRetentionTicks }, process: true },
    ];
    const world = new World(components, { seed: 1, plan: LOSE_RESPONSE, latencyTicksMin: 2, latencyTicksMax: 2 });
    world.run();
    return operationsOf(world.durable<ProviderDurable>('provider'));
  };

  it('holds with the key kept until the retry arrives, and breaks with it kept one tick less', () => {
    // With a long retention the retry is replayed: the gap between the call and its retry is the margin.
    const generous = operations(1_000);
    expect(generous).toHaveLength(1);
    const calls = (ops: ReturnType<typeof operations>) => ops.map((o) => o.at);
    const two = operations(1);
    expect(two).toHaveLength(2);
    const margin = calls(two)[1]! - calls(two)[0]!;
    expect(operations(margin + 1)).toHaveLength(1);
    expect(operations(margin)).toHaveLength(2);
  });
});

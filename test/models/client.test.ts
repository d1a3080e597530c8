// The client's retry option after a lost reply: give up, retry with the same key, or retry with a
// fresh key. The keys are read from the `cmd` deliveries in the trace, so the test sees what the
// order service actually received.
import { SECONDS } from '../../src/base/duration.ts';
import { describe, expect, it } from 'vitest';
import type { FaultPlan } from '../../src/faults/faults.ts';
import { World } from '../../src/run/world.ts';
import type { ClientDurable, ClientInput } from '../../models/client.ts';
import { rowsOf, type DatabaseDurable } from '../../models/database.ts';
import { checkouts, orderPipeline } from '../../models/designs/orderPipeline.ts';
import { clientMachine, type Command } from '../../models/client.ts';
import { MachineDriver } from './machineDriver.ts';

const intent = 'customer-84/cart-19/attempt-1';
const lostReply: FaultPlan = [{ kind: 'lose', point: 'source->client:cmd.reply', occurrence: 1 }];

function run(client: Pick<ClientInput, 'retry' | 'keyed' | 'maxAttempts'>, plan: FaultPlan, checkoutKeys = true) {
  const world = new World(orderPipeline({ design: 'outbox', checkoutKeys, client, commands: checkouts })({ size: 1 }, SECONDS), { seed: 1, plan });
  const result = world.run();
  const commands = world.trace.events
    .filter((e) => e.kind === 'deliver' && e.component === 'source')
    .map((e) => (e.data as { event: { type: string; ref: string; key?: string } }).event)
    .filter((e) => e.type === 'cmd');
  return {
    world,
    result,
    keys: commands.map((c) => c.key),
    refs: commands.map((c) => c.ref),
    client: world.durable<ClientDurable>('client'),
    orders: rowsOf(world.durable<DatabaseDurable>('ordersDb'), 'orders').map((r) => r['order_id']),
  };
}

describe('client: retry after a lost reply', () => {
  it("'none' sends once and gives up: no reply recorded, the client moves on", () => {
    const r = run({ keyed: true, retry: 'none' }, lostReply);
    expect(r.result.strikes.map((s) => s.fault.kind)).toEqual(['lose']);
    expect(r.keys).toEqual([intent]);
    expect(r.client).toEqual({ next: 1, replies: [], attempted: [intent] });
    expect(r.world.stateOf('client')).toBe('done');
    expect(r.orders).toEqual([`o@${intent}`]);
  });

  it("'stableKey' sends the same key again; the server recognises it and there is one order", () => {
    const r = run({ keyed: true, retry: 'stableKey' }, lostReply);
    expect(r.refs).toEqual([`${intent}#1`, `${intent}#2`]);
    expect(r.keys).toEqual([intent, intent]);
    expect(r.client.replies).toEqual([{ intent, key: intent, ok: true, outcome: `o@${intent}`, replayed: true }]);
    expect(r.orders).toEqual([`o@${intent}`]);
  });

  it("'freshKey' sends a new key with every attempt; the server sees two checkouts and creates two orders", () => {
    const r = run({ keyed: true, retry: 'freshKey' }, lostReply);
    expect(r.keys).toEqual([`${intent}#1`, `${intent}#2`]);
    expect(r.client.replies).toEqual([{ intent, key: `${intent}#2`, ok: true, outcome: `o@${intent}#2`, replayed: false }]);
    expect(r.orders).toEqual([`o@${intent}#1`, `o@${intent}#2`]);
  });

  it('without a lost reply no retry option sends twice', () => {
    for (const retry of ['none', 'stableKey', 'freshKey'] as const) {
      const r = run({ keyed: true, retry }, []);
      expect(r.keys).toHaveLength(1);
      expect(r.client.replies.map((x) => x.ok)).toEqual([true]);
    }
  });

  it('an unkeyed client sends no key at all: the server cannot recognise the retry and refuses it as a new order on an existing id', () => {
    const r = run({ keyed: false, retry: 'stableKey' }, lostReply);
    expect(r.keys).toEqual([undefined, undefined, undefined]);
    expect(r.orders).toEqual(['o']);
    expect(r.client.replies.map((x) => [x.key, x.ok, x.replayed])).toEqual([
      [null, false, false],
      [null, false, false],
    ]);
  });

  it('maxAttempts bounds the retries when every attempt is refused', () => {
    // Without checkout keys each retry collides with the order the first attempt created.
    const attempts = (maxAttempts: number) => run({ keyed: true, retry: 'stableKey', maxAttempts }, lostReply, false).keys.length;
    expect(attempts(3)).toBe(3);
    expect(attempts(2)).toBe(2);
  });
});

describe('a client waiting on its own timer', () => {
  it('keeps the world from going quiet until its timeout has fired', () => {
    // The first command is lost; the client (not a process machine) waits 60 ticks for a reply.
    // The world must not be judged quiescent while that timer is pending.
    const world = new World(orderPipeline({ design: 'outbox' })({ size: 2 }, SECONDS), {
      seed: 1,
      plan: [{ kind: 'lose', point: 'client->source:cmd', occurrence: 1 }],
    });
    const result = world.run();
    expect(result.ending).toEqual({ kind: 'quiescent' });
    expect(world.durable<ClientDurable>('client').next).toBe(2); // gave up on o-1, then sent o-2
    expect(world.stateOf('client')).toBe('done');
    expect(rowsOf(world.durable<DatabaseDurable>('ordersDb'), 'orders').map((r) => r['order_id'])).toEqual(['o-2']);
  });
});

describe('client: a reply to an earlier attempt is not the answer to this one', () => {
  it('keeps waiting when the first attempt\'s reply arrives during the retry, and takes the retry\'s own', () => {
    const command: Command = { intent: 'i-1', aggregate_id: 'o-1', version: 1, status: 'PLACED', event_type: 'OrderPlaced' };
    const d = new MachineDriver(clientMachine, { target: 'source', commands: [command], retry: 'stableKey', keyed: true });
    d.advance(5);
    expect(d.sent.map((s) => s.event['ref'])).toEqual(['i-1#1']);
    d.advance(60);
    d.advance(1);
    expect(d.state).toBe('awaitingReply');
    expect(d.sent.map((s) => s.event['ref'])).toEqual(['i-1#1', 'i-1#2']);
    d.receive({ type: 'cmd.reply', ref: 'i-1#1', ok: true, outcome: 'o-1@i-1' }, 'source');
    expect(d.state).toBe('awaitingReply');
    expect(d.context['durable']).toMatchObject({ next: 0, replies: [] });
    d.receive({ type: 'cmd.reply', ref: 'i-1#2', ok: true, outcome: 'o-1@i-1' }, 'source');
    expect(d.state).toBe('done');
    expect(d.context['durable']).toMatchObject({ next: 1, replies: [{ intent: 'i-1', ok: true, outcome: 'o-1@i-1' }] });
  });
});

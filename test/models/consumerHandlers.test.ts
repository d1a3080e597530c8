// The consumer's handler and dedup options, one at a time, each with the fault that makes it
// matter: a check-then-insert handler against a sequential repeat and against two members at
// once, and a process-local dedup cache against a republished record, a restart and a second
// member. Also the factory's refusals of options that do not fit together.
import { groupMember } from '../../models/subscription.ts';
import { linkFaults } from '../../src/faults/linkFaults.ts';
import { describe, expect, it } from 'vitest';
import { SECONDS } from '../../src/base/duration.ts';
import type { FaultPlan } from '../../src/faults/faults.ts';
import { World } from '../../src/run/world.ts';
import { consumer, consumerGroup, effectLookup, effectRow, type EffectSpec } from '../../models/consumer.ts';
import { rowsOf, type DatabaseDurable } from '../../models/database.ts';
import { groupPipeline, type GroupPipelineOptions } from '../../models/designs/groupPipeline.ts';

function run(options: GroupPipelineOptions, plan: FaultPlan, size = 2) {
  const world = new World(groupPipeline(options)({ size }, SECONDS), { seed: 1, plan });
  const result = world.run();
  const reservations = rowsOf(world.durable<DatabaseDurable>('inventoryDb'), 'reservations').map((r) => String(r['order_id'])).sort();
  const guards = result.notes.filter((n) => n.kind === 'guard').map((n) => (n.data as { guard: string }).guard);
  const entered = (state: string) => world.trace.events.filter((e) => e.kind === 'state' && e.data === state).map((e) => e.component);
  return { world, result, reservations, guards, entered };
}

const republish: FaultPlan = [{ kind: 'duplicate', point: 'publisher->broker:broker.publish', occurrence: 1 }];
const rebalance: FaultPlan = [{ kind: 'rebalance', point: 'broker->consumer1:broker.deliver', occurrence: 1 }];

describe('handler: checkThenInsert', () => {
  it('one member: a republished record is looked up, found and skipped', () => {
    const { reservations, result } = run({ consumers: 1, inbox: 'none', handler: 'checkThenInsert', effectKey: 'none' }, republish);
    expect(reservations).toEqual(['o-1', 'o-2']);
    // The republished o-1 is found and skipped (as is any record the broker redelivers because
    // the member held it past the redelivery timeout while busy with the one before).
    const checked = result.notes.filter((n) => n.kind === 'guard').map((n) => (n.data as { guard: string; event_id: string }));
    expect(checked.filter((g) => g.event_id === 'evt-o-1')).toEqual([{ guard: 'effectCheck', event_id: 'evt-o-1' }]);
  });

  it('the same republish with an atomic insert and no unique key reserves twice: the lookup was the only guard', () => {
    const { reservations, guards } = run({ consumers: 1, inbox: 'none', handler: 'atomic', effectKey: 'none' }, republish);
    expect(reservations).toEqual(['o-1', 'o-1', 'o-2']);
    expect(guards).toEqual([]);
  });

  it('two members after a rebalance: both read "absent", both insert', () => {
    const { reservations, entered } = run({ consumers: 2, inbox: 'none', handler: 'checkThenInsert', effectKey: 'none' }, rebalance);
    expect(entered('afterEffectCheck').filter((c) => c === 'consumer1')).toHaveLength(1);
    expect(entered('afterEffectCheck').filter((c) => c === 'consumer2').length).toBeGreaterThanOrEqual(2);
    expect(reservations).toEqual(['o-1', 'o-1', 'o-2']);
  });

  it('two members after a rebalance, against a unique reservation key: the second insert waits for the first and finds its key', () => {
    const { reservations, guards, world } = run({ consumers: 2, inbox: 'none', handler: 'checkThenInsert', effectKey: 'semantic' }, rebalance);
    expect(reservations).toEqual(['o-1', 'o-2']);
    // Both read "absent"; the later insert meets the key the earlier one holds in its open
    // transaction, waits for that commit and then finds the row, as PostgreSQL's unique index does.
    type Reply = { tx: string; stmt?: string; ok?: boolean; results?: { inserted?: boolean; conflict?: string }[] };
    const replies = world.trace.events
      .filter((e) => e.kind === 'deliver' && (e.data as { from: string }).from === 'inventoryDb')
      .map((e) => ({ tick: e.tick, to: e.component, event: (e.data as { event: Reply & { type: string } }).event }));
    const o1Inserts = replies.filter((r) => r.event.type === 'db.result' && r.event.stmt === 'effect' && r.event.results?.[0]?.inserted !== undefined).slice(0, 2);
    expect(o1Inserts.map((r) => r.event.results?.[0])).toEqual([{ inserted: true }, { inserted: false, conflict: '(order_id, reservation_version)' }]);
    const [first, second] = o1Inserts;
    const firstCommit = replies.find((r) => r.event.type === 'db.committed' && r.to === first!.to && r.event.tx === first!.event.tx);
    expect(firstCommit?.event.ok).toBe(true);
    expect(second!.tick).toBeGreaterThanOrEqual(firstCommit!.tick);
    expect(guards).toEqual(['effectKey']);
    expect(replies.filter((r) => r.event.type === 'db.committed' && r.event.ok === false)).toEqual([]);
  });

  it('looks the effect up by the columns that come from the record, not by constants or the tick', () => {
    const spec: EffectSpec = { op: 'insert', table: 't', columns: { order_id: 'order_id', state: { const: 'HELD' }, at: { now: true } } };
    expect(effectLookup(spec, { order_id: 'o-1', extra: 1 })).toEqual({ order_id: 'o-1' });
    expect(effectRow(spec, { order_id: 'o-1' }, 42)).toEqual({ order_id: 'o-1', state: 'HELD', at: 42 });
  });
});

describe('dedup: a process-local cache', () => {
  it('recognises a republished record while the process lives', () => {
    const { reservations, guards } = run({ consumers: 1, inbox: 'localCache', effectKey: 'none' }, republish);
    expect(reservations).toEqual(['o-1', 'o-2']);
    expect(guards).toEqual(['localCache']);
  });

  it('is emptied by a crash after the effect and before the offset: the redelivery reserves again', () => {
    const { reservations, guards, result } = run({ consumers: 1, inbox: 'localCache', effectKey: 'none' }, [{ kind: 'crash', window: 'consumer1.afterEffectCommit', occurrence: 1 }]);
    expect(result.strikes).toHaveLength(1);
    expect(reservations).toEqual(['o-1', 'o-1', 'o-2']);
    expect(guards).toEqual([]);
  });

  it('where the durable inbox in the same transaction survives that crash and suppresses the redelivery', () => {
    const { reservations, guards } = run({ consumers: 1, inbox: 'sameTx', effectKey: 'none' }, [{ kind: 'crash', window: 'consumer1.afterEffectCommit', occurrence: 1 }]);
    expect(reservations).toEqual(['o-1', 'o-2']);
    expect(guards).toEqual(['inboxKey']);
  });

  it('is one per member: after a rebalance the other member has never seen the record', () => {
    const { reservations, guards } = run({ consumers: 2, inbox: 'localCache', effectKey: 'none' }, rebalance);
    expect(reservations).toEqual(['o-1', 'o-1', 'o-2']);
    expect(guards).toEqual([]);
  });
});

describe('consumer options that do not fit together', () => {
  const base = { group: 'g', db: 'db', inbox: 'none' as const, effect: { op: 'insert' as const, table: 't', columns: { id: 'id' } } };
  const build = (o: Parameters<typeof consumer>[0]) => () => consumer(o)({ size: 1, time: SECONDS });

  it.each<[Parameters<typeof consumer>[0], string]>([
    [{ ...base, handler: 'checkThenInsert', effect: { ...base.effect, op: 'upsert' } }, 'consumer option handler: checkThenInsert looks up an inserted effect; the effect is an upsert'],
    [{ ...base, ack: 'beforeCommit', retry: { mode: 'blocking', backoff: ['1s'] } }, 'consumer option retry: a consumer that acknowledges before its effect has nothing left to retry'],
    [{ ...base, reads: 'retries', retry: { mode: 'blocking', backoff: ['1s'] } }, "consumer option reads: a retry topic's consumer needs retry: { mode: 'retryTopic', … }"],
    [{ ...base, retry: { mode: 'retryTopic', backoff: ['1s'] } }, "consumer option retry: mode retryTopic needs a topic (the retry topic's broker)"],
    [{ ...base, retry: { mode: 'blocking', backoff: ['1s'], parkKeys: true } }, 'consumer option retry: a blocking retry has no retry topic and parks no keys'],
    [{ ...base, retry: { mode: 'blocking', backoff: ['1.5s'] } }, 'consumer option retry.backoff[0] is 1.5s, which is not a whole number of ticks of 1 s'],
    [{ ...base, versionCheck: true }, 'consumer option versionCheck: a version check guards an upsert; the effect is an insert'],
    [{ ...base, versionCheck: true, effect: { ...base.effect, op: 'upsert', columns: { id: 'id', status: 'status' } } }, "consumer option versionCheck: the upsert compares the rows' version column, and the effect writes none (its columns: id, status); add version: '<the payload field holding it>'"],
  ])('refuses %#', (o, message) => {
    expect(build(o)).toThrow(message);
  });

  it('refuses an inbox kind it does not know, naming the valid ones', () => {
    expect(() => consumer({ ...base, inbox: 'locaCache' as never })).toThrow('consumer option inbox has no value "locaCache" (did you mean localCache?)');
  });
});

describe('consumerGroup', () => {
  const options = { group: 'g', db: 'db', inbox: 'sameTx' as const, effect: { op: 'insert' as const, table: 't', columns: { id: 'id' } } };

  it('names its members after the group name, and its deliveries to them may be rebalanced only with two or more', () => {
    const two = [consumerGroup({ ...options, consumers: 2 })({ size: 1, time: SECONDS })].flat();
    expect(two.map((c) => c.name)).toEqual(['consumer1', 'consumer2']);
    expect(two.map((c) => c.subscribes)).toEqual([groupMember('broker', options.group), groupMember('broker', options.group)]);
    for (const c of two) expect(linkFaults(two, 'broker', c.name, 'broker.deliver')).toContain('rebalance');
    const one = [consumerGroup({ ...options, consumers: 1, name: 'inv' })({ size: 1, time: SECONDS })].flat();
    expect(one.map((c) => c.name)).toEqual(['inv1']);
    expect(linkFaults(one, 'broker', 'inv1', 'broker.deliver')).not.toContain('rebalance');
    // A member of another group, or of the same group at another broker, shares nothing with it.
    const apart = [...one, { ...one[0]!, name: 'other', subscribes: groupMember('broker', 'elsewhere') }, { ...one[0]!, name: 'far', subscribes: groupMember('broker2', options.group) }];
    expect(linkFaults(apart, 'broker', 'inv1', 'broker.deliver')).not.toContain('rebalance');
  });

  it('gives a consumer with the catalogue’s options the catalogue’s machine, and one with new options a machine with their states', () => {
    const [plain] = [consumer(options)({ size: 1, time: SECONDS })].flat();
    const [checking] = [consumer({ ...options, handler: 'checkThenInsert' })({ size: 1, time: SECONDS })].flat();
    const states = (c: typeof plain) => Object.keys(c!.machine.config.states ?? {});
    expect(states(plain)).not.toContain('checkingEffect');
    expect(states(checking)).toEqual(expect.arrayContaining(['checkingEffect', 'afterEffectCheck']));
    expect(states(checking)).not.toContain('handlerFailed');
  });
});

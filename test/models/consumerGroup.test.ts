// A consumer group on the broker: partitions shared among live members round-robin by name, a
// crashed member's partitions taken up by the others from the committed offset, a rejoining
// member given its partitions back once their current owner has finished its record, and the
// rebalance fault handing a partition to another member while a record is on its way. The
// broker is driven directly with XState's pure `transition` where its answer to one event is the
// point, and in a World where the consumers' behaviour is.
import { initialTransition, transition, type AnyMachineSnapshot } from 'xstate';
import { describe, expect, it } from 'vitest';
import { SECONDS } from '../../src/base/duration.ts';
import type { FaultPlan } from '../../src/faults/faults.ts';
import { World } from '../../src/run/world.ts';
import { brokerMachine, partitionOf, type BrokerDurable, type BrokerInput } from '../../models/broker.ts';
import { rowsOf, type DatabaseDurable } from '../../models/database.ts';
import { groupPipeline, type GroupPipelineOptions } from '../../models/designs/groupPipeline.ts';

type Sent = { to: string; event: { type: string; partition?: number; offset?: number; generation?: number } };

/** A broker stepped by hand: each event returns what the broker sent and noted. */
function broker(input: BrokerInput) {
  let snapshot: AnyMachineSnapshot = initialTransition(brokerMachine, input)[0];
  const step = (event: Record<string, unknown>) => {
    const [next, actions] = transition(brokerMachine, snapshot as never, event as never);
    snapshot = next;
    const emitted = (actions as readonly { type: string; params?: unknown }[]).filter((a) => a.type === 'xstate.emit').map((a) => (a.params as { event: { type: string } & Record<string, unknown> }).event);
    return {
      sent: emitted.filter((e) => e.type === 'send').map((e) => ({ to: e['to'], event: e['event'] }) as Sent),
      notes: emitted.filter((e) => e.type === 'note').map((e) => ({ kind: e['kind'], data: e['data'] })),
    };
  };
  return { step, durable: () => snapshot.context.durable as BrokerDurable };
}

const deliveries = (sent: readonly Sent[]) => sent.filter((s) => s.event.type === 'broker.deliver').map((s) => `${s.to}:${s.event.partition}@${s.event.offset}`);

describe('broker: a group shares its partitions among its live members', () => {
  it('delivers each partition to one member, round-robin by name, and a second group reads the same log on its own', () => {
    const b = broker({ partitions: 2 });
    b.step({ type: 'broker.subscribe', group: 'g', from: 'c2', at: 0 });
    b.step({ type: 'broker.subscribe', group: 'g', from: 'c1', at: 0 });
    b.step({ type: 'broker.subscribe', group: 'audit', from: 'a1', at: 0 });
    const keys = ['k0', 'k1', 'k2', 'k3'].filter((k, i, all) => all.findIndex((x) => partitionOf(x, 2) === partitionOf(k, 2)) === i);
    expect(keys.map((k) => partitionOf(k, 2)).sort()).toEqual([0, 1]);
    const sent = keys.flatMap((key, i) => b.step({ type: 'broker.publish', ref: `r${i}`, key, payload: { event_id: key }, from: 'p', at: 1 }).sent);
    expect(deliveries(sent).sort()).toEqual(['a1:0@0', 'a1:1@0', 'c1:0@0', 'c2:1@0']);
  });

  it("gives a crashed member's partition to the other member from the committed offset, and back to it once it rejoins and the other has committed", () => {
    const b = broker({ partitions: 2 });
    b.step({ type: 'broker.subscribe', group: 'g', from: 'c1', at: 0 });
    b.step({ type: 'broker.subscribe', group: 'g', from: 'c2', at: 0 });
    const p1Key = ['a', 'b', 'c', 'd'].find((k) => partitionOf(k, 2) === 1)!;
    expect(deliveries(b.step({ type: 'broker.publish', ref: 'r1', key: p1Key, payload: { event_id: 'e1' }, from: 'p', at: 1 }).sent)).toEqual(['c2:1@0']);
    // c2 crashes with the record in hand: c1 takes partition 1 up from the committed offset, 0.
    expect(deliveries(b.step({ type: 'sys.peerCrashed', peer: 'c2', at: 2 }).sent)).toEqual(['c1:1@0']);
    // c2 rejoins while c1 holds that record: c1 keeps the partition until it has committed.
    expect(deliveries(b.step({ type: 'broker.subscribe', group: 'g', from: 'c2', at: 3 }).sent)).toEqual([]);
    b.step({ type: 'broker.publish', ref: 'r2', key: p1Key, payload: { event_id: 'e2' }, from: 'p', at: 4 });
    const after = b.step({ type: 'broker.commit', partition: 1, offset: 1, from: 'c1', at: 5 });
    expect(deliveries(after.sent)).toEqual(['c2:1@1']);
    expect(b.durable().offsets['g']).toEqual([0, 1]);
  });

  it('a group of one gets every partition, as before groups were shared', () => {
    const b = broker({ partitions: 3 });
    b.step({ type: 'broker.subscribe', group: 'g', from: 'c1', at: 0 });
    const sent = ['x', 'y', 'z', 'w', 'v'].flatMap((key, i) => b.step({ type: 'broker.publish', ref: `r${i}`, key, payload: { event_id: key }, from: 'p', at: 1 }).sent);
    expect(deliveries(sent).every((d) => d.startsWith('c1:'))).toBe(true);
    expect(sent.filter((s) => s.event.type === 'broker.deliver').every((s) => s.event.generation === undefined)).toBe(true);
  });
});

describe('broker: a rebalance while a record is on its way, and the old owner’s late commit', () => {
  function rebalanced(commits: 'naive' | 'fenced') {
    const b = broker({ partitions: 1, commits });
    b.step({ type: 'broker.subscribe', group: 'g', from: 'c1', at: 0 });
    b.step({ type: 'broker.subscribe', group: 'g', from: 'c2', at: 0 });
    const first = b.step({ type: 'broker.publish', ref: 'r0', key: 'k', payload: { event_id: 'e0' }, from: 'p', at: 1 }).sent.find((s) => s.event.type === 'broker.deliver')!;
    b.step({ type: 'broker.publish', ref: 'r1', key: 'k', payload: { event_id: 'e1' }, from: 'p', at: 1 });
    expect(first.to).toBe('c1');
    const moved = b.step({ type: 'sys.rebalance', peer: 'c1', event: first.event, from: 'c1', at: 2 });
    return { b, first, moved };
  }

  it('moves the partition to the next member, which is delivered the same record from the committed offset', () => {
    const { moved } = rebalanced('naive');
    expect(deliveries(moved.sent)).toEqual(['c2:0@0']);
    expect(moved.notes).toEqual([{ kind: 'broker.rebalance', data: { group: 'g', partition: 0, from: 'c1', to: 'c2', generation: 3 } }]);
  });

  it('naive: the old owner’s late commit is accepted and moves the offset backwards', () => {
    const { b } = rebalanced('naive');
    b.step({ type: 'broker.commit', partition: 0, offset: 1, from: 'c2', at: 3 });
    b.step({ type: 'broker.commit', partition: 0, offset: 2, from: 'c2', at: 4 });
    expect(b.durable().offsets['g']).toEqual([2]);
    const late = b.step({ type: 'broker.commit', partition: 0, offset: 1, from: 'c1', at: 5 });
    expect(late.notes).toEqual([{ kind: 'broker.staleCommit', data: { member: 'c1', partition: 0, offset: 1, committed: 2, accepted: true } }]);
    expect(b.durable().offsets['g']).toEqual([1]);
  });

  it('fenced: deliveries carry their generation, and a commit of the old generation changes nothing', () => {
    const { b, first, moved } = rebalanced('fenced');
    // c1 was handed the partition in generation 1; c2's joining (generation 2) left it with c1.
    expect(first.event.generation).toBe(1);
    expect(moved.sent.find((s) => s.event.type === 'broker.deliver')!.event.generation).toBe(3);
    b.step({ type: 'broker.commit', partition: 0, offset: 2, generation: 3, from: 'c2', at: 4 });
    const late = b.step({ type: 'broker.commit', partition: 0, offset: 1, generation: 1, from: 'c1', at: 5 });
    expect(late.notes).toEqual([{ kind: 'broker.staleCommit', data: { member: 'c1', partition: 0, offset: 1, committed: 2, accepted: false } }]);
    expect(b.durable().offsets['g']).toEqual([2]);
  });

  it('a rebalance notice for a group of one, or a partition the member no longer owns, moves nothing', () => {
    const b = broker({ partitions: 1 });
    b.step({ type: 'broker.subscribe', group: 'g', from: 'c1', at: 0 });
    const d = b.step({ type: 'broker.publish', ref: 'r0', key: 'k', payload: { event_id: 'e0' }, from: 'p', at: 1 }).sent.find((s) => s.event.type === 'broker.deliver')!;
    expect(b.step({ type: 'sys.rebalance', peer: 'c1', event: d.event, from: 'c1', at: 2 })).toEqual({ sent: [], notes: [] });
  });
});

describe('a consumer group in a World', () => {
  function run(options: Partial<GroupPipelineOptions>, plan: FaultPlan, size = 4) {
    const world = new World(groupPipeline({ consumers: 2, inbox: 'none', effectKey: 'none', ...options })({ size }, SECONDS), { seed: 1, plan });
    const result = world.run();
    const received = (member: string) =>
      world.trace.events
        .filter((e) => e.kind === 'deliver' && e.component === member && (e.data as { event: { type: string } }).event.type === 'broker.deliver')
        .map((e) => {
          const ev = (e.data as { event: { partition: number; offset: number } }).event;
          return `${ev.partition}@${ev.offset}`;
        });
    const reservations = rowsOf(world.durable<DatabaseDurable>('inventoryDb'), 'reservations').map((r) => String(r['order_id'])).sort();
    return { world, result, received, reservations };
  }

  it('without faults each member works its own partition, and every order is reserved once', () => {
    const { received, reservations } = run({}, []);
    expect(received('consumer1').every((d) => d.startsWith('0@'))).toBe(true);
    expect(received('consumer2').every((d) => d.startsWith('1@'))).toBe(true);
    expect(received('consumer1').length + received('consumer2').length).toBe(4);
    expect(reservations).toEqual(['o-1', 'o-2', 'o-3', 'o-4']);
  });

  it('a rebalance of the first record delivered to consumer1 delivers it to consumer2 as well, and both reserve it', () => {
    const { result, received, reservations } = run({}, [{ kind: 'rebalance', point: 'broker->consumer1:broker.deliver', occurrence: 1 }]);
    expect(result.strikes.map((s) => s.fault.kind)).toEqual(['rebalance']);
    expect(received('consumer1')).toEqual(['0@0']);
    expect(received('consumer2')).toContain('0@0');
    expect(reservations).toEqual(['o-1', 'o-1', 'o-2', 'o-3', 'o-4']);
  });

  it('the same rebalance against a unique reservation key leaves one reservation per order', () => {
    const { received, reservations, result } = run({ effectKey: 'semantic' }, [{ kind: 'rebalance', point: 'broker->consumer1:broker.deliver', occurrence: 1 }]);
    expect(received('consumer2')).toContain('0@0');
    expect(reservations).toEqual(['o-1', 'o-2', 'o-3', 'o-4']);
    expect(result.notes.filter((n) => n.kind === 'guard').map((n) => (n.data as { guard: string }).guard)).toEqual(['effectKey']);
  });

  it('a crash of consumer2 hands its partition to consumer1, which reserves what consumer2 had not committed', () => {
    const { received, reservations, result } = run({ effectKey: 'semantic' }, [{ kind: 'crash', window: 'consumer2.received', occurrence: 1 }]);
    expect(result.strikes).toHaveLength(1);
    expect(received('consumer1').some((d) => d.startsWith('1@'))).toBe(true);
    expect(reservations).toEqual(['o-1', 'o-2', 'o-3', 'o-4']);
  });
});

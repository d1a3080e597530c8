// The kernel proven on the sender/receiver example: each network fault and each crash leaves a
// mark that would be missing if the fault were silently not applied.
import { describe, expect, it } from 'vitest';
import type { FaultPlan } from '../../src/faults/faults.ts';
import { World } from '../../src/run/world.ts';
import { type WorldOptions } from '../../src/kernel/worldOptions.ts';
import { senderReceiver } from '../example/senderReceiver.ts';
import { loadScenario } from '../../src/scenario/catalogue.ts';
import { runScenario } from '../../src/run/runScenario.ts';

type Received = { received: number[] };
type Acked = { acked: number[] };

function run(plan: FaultPlan, opts: { total?: number; pipeline?: boolean; seed?: number } & Partial<WorldOptions> = {}) {
  const { total = 3, pipeline = false, seed = 1, ...rest } = opts;
  const world = new World(senderReceiver(total, pipeline), { seed, plan, ...rest });
  const result = world.run();
  return { world, result, received: world.durable<Received>('receiver').received, acked: world.durable<Acked>('sender').acked };
}

describe('World with the sender/receiver example', () => {
  it('delivers every message once without faults and ends quiescent', () => {
    const { result, received, acked } = run([]);
    expect(result.ending).toEqual({ kind: 'quiescent' });
    expect(received).toEqual([1, 2, 3]);
    expect(acked).toEqual([1, 2, 3]);
    expect(result.strikes).toHaveLength(0);
  });

  it('counts every failure window and message point it passed through', () => {
    const { result } = run([]);
    expect(result.windowCounts.get('sender.sending')).toBe(3);
    expect(result.windowCounts.get('receiver.got')).toBe(3);
    expect(result.census.get('sender->receiver:msg')).toBe(3);
    expect(result.census.get('receiver->sender:ack')).toBe(3);
  });

  it('loses a message: the receiver never sees the first copy and the sender retries', () => {
    const { world, result, received } = run([{ kind: 'lose', point: 'sender->receiver:msg', occurrence: 2 }]);
    expect(result.strikes.map((s) => s.fault.kind)).toEqual(['lose']);
    expect(received).toEqual([1, 2, 3]); // retried, still once each
    expect(world.census().get('sender->receiver:msg')).toBe(4); // one extra send
    expect(world.trace.events.some((e) => e.kind === 'lose')).toBe(true);
  });

  it('loses an ack: the receiver gets the retry as a duplicate', () => {
    const { received } = run([{ kind: 'lose', point: 'receiver->sender:ack', occurrence: 1 }]);
    expect(received).toEqual([1, 1, 2, 3]);
  });

  it('duplicates a message: the receiver logs it twice', () => {
    const { received } = run([{ kind: 'duplicate', point: 'sender->receiver:msg', occurrence: 3 }]);
    expect(received).toEqual([1, 2, 3, 3]);
  });

  it('delays a message by the configured ticks', () => {
    const arrival = (plan: FaultPlan) => {
      const { world } = run(plan, { delayFaultTicks: 15, latencyTicksMin: 2, latencyTicksMax: 2 });
      return world.trace.events.find((e) => e.kind === 'deliver' && e.component === 'receiver')!.tick;
    };
    expect(arrival([{ kind: 'delay', point: 'sender->receiver:msg', occurrence: 1 }]) - arrival([])).toBe(15);
  });

  it('reorders a message behind the next one on its link', () => {
    const clean = run([], { pipeline: true, total: 3 });
    expect(clean.received).toEqual([1, 2, 3]);
    const { received } = run([{ kind: 'reorder', point: 'sender->receiver:msg', occurrence: 1 }], { pipeline: true, total: 3 });
    expect(received).toEqual([2, 1, 3]);
  });

  it('crashes a component at a window: durable state survives, volatile state and timers do not', () => {
    // The receiver crashes after recording message 2 durably but before acking it.
    const { world, result, received, acked } = run([{ kind: 'crash', window: 'receiver.got', occurrence: 2 }]);
    expect(result.strikes[0]?.fault).toEqual({ kind: 'crash', window: 'receiver.got', occurrence: 2 });
    const kinds = world.trace.events.filter((e) => e.component === 'receiver').map((e) => e.kind);
    expect(kinds).toContain('crash');
    expect(kinds).toContain('restart');
    expect(received).toEqual([1, 2, 2, 3]); // kept across the crash, then the retry duplicates it
    expect(acked).toEqual([1, 2, 3]);
    // The evidence recorded at the crash shows what was durable at that moment.
    expect((result.strikes[0]!.durable['receiver'] as Received).received).toEqual([1, 2]);
  });

  it('restarts a crashed sender from its durable progress, not from the beginning', () => {
    const { world, acked } = run([{ kind: 'crash', window: 'sender.acked', occurrence: 2 }]);
    expect(acked).toEqual([1, 2, 3]);
    const restart = world.trace.events.findIndex((e) => e.kind === 'restart' && e.component === 'sender');
    const nextSend = world.trace.events.slice(restart).find((e) => e.kind === 'deliver' && e.component === 'receiver');
    expect((nextSend!.data as { event: { n: number } }).event.n).toBe(3);
    // The retry timer the sender had set before the crash must not fire while it is down.
    const crash = world.trace.events.findIndex((e) => e.kind === 'crash' && e.component === 'sender');
    expect(crash).toBeGreaterThan(0);
    expect(world.trace.events.slice(crash, restart).filter((e) => e.component === 'sender' && e.kind === 'timer')).toEqual([]);
  });

  it('counts a state re-entered by a retry as another entry of its window', () => {
    // The lost message makes the sender time out and re-enter `sending` (reenter: true).
    const { result: lost } = run([{ kind: 'lose', point: 'sender->receiver:msg', occurrence: 1 }]);
    expect(lost.windowCounts.get('sender.sending')).toBe(4);
    // So a crash planned for that fourth entry strikes.
    const { result } = run([
      { kind: 'lose', point: 'sender->receiver:msg', occurrence: 1 },
      { kind: 'crash', window: 'sender.sending', occurrence: 2 },
    ]);
    expect(result.strikes.map((s) => s.fault.kind)).toEqual(['lose', 'crash']);
  });

  it('counts re-entries the same way on XState\'s own driver', () => {
    const { result } = run([{ kind: 'lose', point: 'sender->receiver:msg', occurrence: 1 }], { driver: 'xstate' });
    expect(result.windowCounts.get('sender.sending')).toBe(4);
  });

  it('applies one fault per message: the plan\'s first for that point and occurrence', () => {
    const { result, received } = run([
      { kind: 'duplicate', point: 'sender->receiver:msg', occurrence: 3 },
      { kind: 'lose', point: 'sender->receiver:msg', occurrence: 1 },
      { kind: 'lose', point: 'sender->receiver:msg', occurrence: 3 }, // same message as the duplicate: not applied
    ]);
    // Strikes record the fault that matched, with its own occurrence.
    expect(result.strikes.map((s) => `${s.fault.kind}#${s.fault.occurrence}`)).toEqual(['lose#1', 'duplicate#3']);
    expect(received).toEqual([1, 2, 2, 3]);
  });

  it('drops a message held back by a reorder when its sender crashes', () => {
    // Message 1 is held; the sender crashes at once. Released after the restart, the held copy
    // would reach the receiver as if the new incarnation had sent it: a second delivery of 1.
    const { world, received } = run([
      { kind: 'reorder', point: 'sender->receiver:msg', occurrence: 1 },
      { kind: 'crash', window: 'sender.sending', occurrence: 1 },
    ]);
    expect(received).toEqual([1, 2, 3]);
    const drop = world.trace.events.find((e) => e.kind === 'drop' && (e.data as { reason?: string }).reason === 'sender crashed');
    expect(drop?.component).toBe('receiver');
  });

  it('drops what is on its way to a component when it crashes, so a late reply never reaches the restarted one', () => {
    // The ack of message 1 is delayed past the sender's restart. Delivered then, it would answer
    // a message the new incarnation never sent, as a connection that died with the crash cannot.
    const plan: FaultPlan = [
      { kind: 'delay', point: 'receiver->sender:ack', occurrence: 1 },
      { kind: 'crash', window: 'sender.sending', occurrence: 2 },
    ];
    const { world, result, acked } = run(plan, { delayFaultTicks: 40 });
    expect(result.strikes.map((s) => s.fault.kind)).toEqual(['delay', 'crash']);
    const events = world.trace.events;
    const crash = events.findIndex((e) => e.kind === 'crash' && e.component === 'sender');
    const restart = events.findIndex((e) => e.kind === 'restart' && e.component === 'sender');
    const dropped = events.findIndex((e) => e.kind === 'drop' && e.component === 'sender' && (e.data as { reason?: string }).reason === 'receiver crashed');
    expect(dropped).toBeGreaterThan(crash);
    expect(dropped).toBeLessThan(restart);
    // The copy of message 1 the old incarnation sent lands while the sender is down; its ack
    // lands while the sender is still down too (not held behind the delayed ack, whose connection
    // the crash closed) and is dropped there.
    const whileDown = events.filter((e, i) => i > crash && i < restart && e.kind === 'drop' && (e.data as { reason?: string }).reason === undefined);
    expect(whileDown.map((e) => e.data)).toMatchObject([{ from: 'receiver', event: { type: 'ack', n: 1 } }]);
    // Every copy of message 1 the receiver got is acked; every ack arrives but those two.
    const delivered = (to: string, type: string) => events.filter((e) => e.component === to && e.kind === 'deliver' && (e.data as { event: { type: string; n?: number } }).event.type === type && (e.data as { event: { n?: number } }).event.n === 1).length;
    expect(delivered('sender', 'ack')).toBe(delivered('receiver', 'msg') - 2);
    expect(acked).toEqual([1, 2, 3]);
  });

  it('never hands a restarted component what was sent to it while it was down, even delayed past the restart', () => {
    // The sender crashes with message 2 on its way; the receiver's ack of it is sent while the
    // sender is down and delayed 40 ticks, past the restart 10 ticks on. It is dropped as the
    // sender restarts: no connection to the sender existed when it was sent.
    const { world, result, acked } = run(
      [
        { kind: 'crash', window: 'sender.sending', occurrence: 2 },
        { kind: 'delay', point: 'receiver->sender:ack', occurrence: 2 },
      ],
      { delayFaultTicks: 40 },
    );
    expect(result.strikes.map((s) => s.fault.kind)).toEqual(['crash', 'delay']);
    const events = world.trace.events;
    const restart = events.findIndex((e) => e.kind === 'restart' && e.component === 'sender');
    const dropped = events.findIndex((e) => e.kind === 'drop' && (e.data as { reason?: string }).reason === 'receiver down when sent');
    expect(dropped).toBe(restart + 1);
    expect(events[dropped]!.data).toMatchObject({ from: 'receiver', event: { type: 'ack', n: 2 } });
    expect(events.filter((e) => e.component === 'sender' && e.kind === 'deliver' && (e.data as { event: { type: string; n?: number } }).event.n === 2)).toHaveLength(1);
    expect(acked).toEqual([1, 2, 3]);
  });

  it('reports a fault whose window is never reached as not struck', () => {
    const { result } = run([{ kind: 'crash', window: 'receiver.got', occurrence: 9 }]);
    expect(result.strikes).toHaveLength(0);
  });
});

describe('the trace of a fault-free run of the outbox design', () => {
  // A delivery that leaves a component in its state (a server answering, a process ignoring a
  // stale reply) is no state change: the trace records a state only when it changes or is
  // entered again by a transition that says so, and the window counts follow the same rule.
  it('records a state line only when the state changes: no component has the same state twice in a row', async () => {
    const { scenario } = await loadScenario('mercury-outbox');
    const { report } = runScenario(scenario, { seed: 1, plan: [], keepTrace: true });
    const last = new Map<string, unknown>();
    const repeats: string[] = [];
    for (const e of report.trace!) {
      if (e.kind !== 'state') continue;
      if (last.get(e.component) === e.data) repeats.push(`${e.component} ${String(e.data)} at #${e.seq}`);
      last.set(e.component, e.data);
    }
    expect(repeats).toEqual([]);
    expect(last.size).toBeGreaterThan(3);
  });
});

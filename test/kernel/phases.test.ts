// The World's two phases and its quiet rule, each on the smallest world that shows it: the safety
// phase strikes faults until the world is quiet or hits its bound; the heal restarts whoever is
// still down and strikes nothing more; the liveness phase gives every timer one full turn after
// the heal and ends quiescent, or stuck with the reason as data.
import { assign, emit, setup } from 'xstate';
import { describe, expect, it } from 'vitest';
import { send, type Emitted } from '../../src/kernel/emitted.ts';
import type { FaultPlan } from '../../src/faults/faults.ts';
import { World } from '../../src/run/world.ts';
import { type ComponentSpec } from '../../src/kernel/componentSpec.ts';
import { type WorldOptions } from '../../src/kernel/worldOptions.ts';
import { receiverMachine, senderReceiver } from '../example/senderReceiver.ts';

type PollerDurable = { readonly fired: boolean };

/** Idle between polls; a poll at or after `dueAt` finds its work and does it, once. */
const pollerMachine = setup({
  types: {
    context: {} as { durable: PollerDurable; dueAt: number; every: number },
    input: {} as { dueAt: number; every: number; durable?: PollerDurable },
  },
  delays: { every: ({ context }) => context.every },
}).createMachine({
  id: 'poller',
  context: ({ input }) => ({ durable: input.durable ?? { fired: false }, dueAt: input.dueAt, every: input.every }),
  initial: 'waiting',
  states: {
    waiting: {
      tags: ['idle'],
      after: {
        every: {
          target: 'waiting',
          reenter: true,
          actions: assign(({ context, event }) => (!context.durable.fired && (event as unknown as { at: number }).at >= context.dueAt ? { durable: { fired: true } } : {})),
        },
      },
    },
  },
});

/** A process that waits for a reply that never comes: not idle, and nothing left to wake it. */
const blockedMachine = setup({}).createMachine({ id: 'blocked', initial: 'awaitingReply', states: { awaitingReply: {} } });

/** A server in the middle of something, with nothing scheduled: servers are not processes. */
const busyServerMachine = setup({}).createMachine({ id: 'server', initial: 'serving', states: { serving: {} } });

/** Changes durable state on every tick, forever: a livelock. */
const churnMachine = setup({ types: { context: {} as { durable: { n: number } } } }).createMachine({
  id: 'churn',
  context: { durable: { n: 0 } },
  initial: 'spinning',
  states: { spinning: { tags: ['idle'], after: { 1: { target: 'spinning', reenter: true, actions: assign(({ context }) => ({ durable: { n: context.durable.n + 1 } })) } } } },
});

const poller = (every: number, dueAt: number, name = 'poller'): ComponentSpec => ({ name, machine: pollerMachine, input: { every, dueAt }, process: true });

function run(components: ComponentSpec[], options: Partial<WorldOptions> & { plan?: FaultPlan } = {}) {
  const world = new World(components, { seed: 1, plan: [], ...options });
  const result = world.run();
  const events = world.trace.events;
  const healTick = events.find((e) => e.kind === 'phase')?.tick;
  return { world, result, events, healTick };
}

describe('the heal', () => {
  it('restarts a component still down when the safety phase hits its bound, and only that one', () => {
    // The receiver's restart delay outlasts the safety phase: only the heal brings it back.
    const { world, result, events, healTick } = run(senderReceiver(3), { plan: [{ kind: 'crash', window: 'receiver.got', occurrence: 1 }], restartDelayTicks: 5_000, safetyTicksMax: 2_000 });
    expect(healTick).toBe(2_000);
    expect(events.filter((e) => e.kind === 'restart').map((e) => [e.component, e.tick])).toEqual([['receiver', 2_000]]);
    expect(result.ending).toEqual({ kind: 'quiescent' });
    expect(world.durable<{ received: number[] }>('receiver').received).toEqual([1, 1, 2, 3]);
    expect(world.durable<{ acked: number[] }>('sender').acked).toEqual([1, 2, 3]);
  });

  it('forgets the restart a crash had scheduled, so a stuck run still says what it waits for', () => {
    // The client crashes on boot and would restart long after both phases; the heal restarts it
    // instead, and it then waits for a reply forever. Nothing is left to happen: stuck waiting.
    const plan: FaultPlan = [{ kind: 'crash', window: 'client.awaitingReply', occurrence: 1 }];
    const { result, events } = run([{ name: 'client', machine: blockedMachine, process: true }], { plan, restartDelayTicks: 100_000 });
    expect(events.filter((e) => e.kind === 'restart').map((e) => e.tick)).toEqual([2_000]);
    expect(result.ending).toEqual({ kind: 'stuck', reason: { kind: 'waiting', components: ['client.awaitingReply'] } });
    expect(result.ticks).toBe(2_000);
  });

  it('marks the start of the liveness phase in the trace', () => {
    const { events } = run(senderReceiver(1));
    expect(events.filter((e) => e.kind === 'phase').map((e) => [e.component, e.data])).toEqual([['world', 'liveness']]);
  });

  it('strikes no crash once faults are healed: a window first reached in the liveness phase is not struck', () => {
    // With no safety phase at all, every window is entered after the heal.
    const plan: FaultPlan = [{ kind: 'crash', window: 'receiver.got', occurrence: 1 }];
    const { result, events } = run(senderReceiver(2), { plan, safetyTicksMax: 0 });
    expect(result.strikes).toEqual([]);
    expect(result.unstruck).toEqual(plan);
    expect(events.some((e) => e.kind === 'crash')).toBe(false);
    expect(result.windowCounts.get('receiver.got')).toBe(2);
  });
});

describe('the safety phase', () => {
  it('is not quiet while a component is down: it waits out the restart delay', () => {
    // Everything is done when the sender crashes, and the world would be still for longer than
    // `quietTicks` before the restart; the restart still comes first, then the heal.
    const plan: FaultPlan = [{ kind: 'crash', window: 'sender.done', occurrence: 1 }];
    const { events, healTick } = run(senderReceiver(1), { plan, restartDelayTicks: 200, quietTicks: 60 });
    const crash = events.find((e) => e.kind === 'crash')!;
    const restart = events.find((e) => e.kind === 'restart')!;
    expect(restart.tick).toBe(crash.tick + 200);
    expect(healTick).toBeGreaterThanOrEqual(restart.tick);
  });
});

describe('the quiet rule', () => {
  it('gives every timer one full turn after the heal, however long the world had been still before it', () => {
    // Still since tick 0, the world is quiet once the slow sweep first wakes (tick 500), which
    // ends the safety phase; a fast poll keeps the clock moving. The sweep's work is due at 800:
    // only a sweep after the heal can find it.
    const { world, result, healTick } = run([poller(50, Infinity, 'relay'), poller(500, 800, 'sweeper')]);
    expect(healTick).toBe(500);
    expect(result.ending).toEqual({ kind: 'quiescent' });
    expect(world.durable<PollerDurable>('sweeper').fired).toBe(true);
    expect(result.ticks).toBe(1_500);
  });

  it('waits for a timer as long as the liveness phase, which fires at the phase\'s last tick', () => {
    // Quiet at the sweep's first wake (tick 1000), the world still lets it sweep once more
    // after the heal, at the very bound of the liveness phase, before it counts as quiet.
    const { result, events, healTick } = run([poller(50, Infinity, 'relay'), poller(1_000, Infinity, 'sweeper')], { livenessTicksMax: 1_000 });
    expect(healTick).toBe(1_000);
    expect(events.filter((e) => e.kind === 'timer' && e.component === 'sweeper' && e.tick > healTick!).map((e) => e.tick)).toEqual([2_000]);
    expect(result.ending).toEqual({ kind: 'quiescent' });
    expect(result.ticks).toBe(2_000);
  });

  it('waits for a timer however long it is: a short poll that changes nothing costs the liveness phase nothing', () => {
    // A redelivery after 10,000 ticks, beside a poll every 50 that keeps the clock moving: the
    // liveness phase of 1,000 ticks counts only time in which the world changes or a process is
    // busy, so the run reaches the redelivery and ends quiet after it.
    const { world, result } = run([poller(50, 0, 'relay'), poller(10_000, 0, 'broker')], { livenessTicksMax: 1_000 });
    expect(result.ending).toEqual({ kind: 'quiescent' });
    expect(world.durable<PollerDurable>('broker').fired).toBe(true);
    expect(result.ticks).toBeGreaterThanOrEqual(10_000);
  });

  it('jumps a wait in which nothing happens, however far past the liveness phase the timer lies', () => {
    const { world, result, healTick } = run([poller(10_000, 0)], { livenessTicksMax: 1_000 });
    expect(healTick).toBe(2_000);
    expect(result.ending).toEqual({ kind: 'quiescent' });
    expect(world.durable<PollerDurable>('poller').fired).toBe(true);
    // Fired at 10,000 (a change), it waits one more period to see that the next firing changes nothing.
    expect(result.ticks).toBe(20_000);
  });

  it('is never reached while a process is not idle, even when nothing else happens', () => {
    const { result } = run([{ name: 'client', machine: blockedMachine, process: true }, poller(50, 0)], { livenessTicksMax: 1_000 });
    expect(result.ending).toEqual({ kind: 'stuck', reason: { kind: 'no quiescence', ticks: 1_000 } });
  });
});

describe('how a run ends', () => {
  it('ends quiescent when nothing is left to happen and every process is idle, a busy server notwithstanding', () => {
    const { result } = run([{ name: 'db', machine: busyServerMachine, process: false }, poller(1, 0)]);
    expect(result.ending).toEqual({ kind: 'quiescent' });
  });

  it('ends stuck, naming the windows, when nothing is left to happen but a process is not idle', () => {
    const { result } = run([{ name: 'client', machine: blockedMachine, process: true }, { name: 'db', machine: busyServerMachine, process: false }]);
    expect(result.ending).toEqual({ kind: 'stuck', reason: { kind: 'waiting', components: ['client.awaitingReply'] } });
  });

  it('ends stuck after the whole liveness phase when durable state never stops changing', () => {
    const { result, healTick } = run([{ name: 'churn', machine: churnMachine, process: true }], { safetyTicksMax: 100, livenessTicksMax: 300 });
    expect(healTick).toBe(100);
    expect(result.ending).toEqual({ kind: 'stuck', reason: { kind: 'no quiescence', ticks: 300 } });
    expect(result.ticks).toBe(400);
  });

  it('ends stuck at the step bound, in the phase that reached it, after exactly that many steps', () => {
    const safety = run(senderReceiver(3), { stepsMax: 3 }).result;
    expect(safety.ending).toEqual({ kind: 'stuck', reason: { kind: 'steps', bound: 3, phase: 'safety' } });
    expect(safety.steps).toBe(3);
    const liveness = run(senderReceiver(3), { stepsMax: 3, safetyTicksMax: 0 }).result;
    expect(liveness.ending).toEqual({ kind: 'stuck', reason: { kind: 'steps', bound: 3, phase: 'liveness' } });
    expect(liveness.steps).toBe(3);
  });
});

/** Sends one message on boot and is idle at once: it awaits no reply and sets no timer. */
const fireAndForgetMachine = setup({ types: { emitted: {} as Emitted } }).createMachine({
  id: 'notifier',
  initial: 'sent',
  states: { sent: { tags: ['idle'], entry: emit(() => send('receiver', { type: 'msg', n: 1 })) } },
});

describe('the quiet rule and messages in flight', () => {
  it('is never reached while a message is in flight, though every process is idle and nothing else waits for it', () => {
    // The message takes 1,000 ticks; the poll keeps the clock moving and the world is otherwise
    // still from tick 0. Only the message in flight keeps the run from ending before it lands.
    const { world, result } = run(
      [{ name: 'notifier', machine: fireAndForgetMachine, process: true }, { name: 'receiver', machine: receiverMachine, input: {}, process: true }, poller(50, Infinity)],
      { latencyTicksMin: 1_000, latencyTicksMax: 1_000 },
    );
    expect(result.ending).toEqual({ kind: 'quiescent' });
    expect(world.durable<{ received: number[] }>('receiver').received).toEqual([1]);
    expect(result.ticks).toBeGreaterThan(1_000);
  });
});

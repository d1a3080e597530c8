// The two declared window faults on the sender/receiver example: a restore sets a component back
// to the snapshot it declares and restarts it from there, a skew tells a component its clock
// jumped. Each leaves a mark that would be missing if the fault were not applied, and neither
// strikes a component that does not declare it.
import { describe, expect, it } from 'vitest';
import { assign, setup } from 'xstate';
import { sameFault, type FaultPlan } from '../../src/faults/faults.ts';
import { Kernel } from '../../src/kernel/kernel.ts';
import { World } from '../../src/run/world.ts';
import { type ClockSkewed } from '../../src/kernel/runReport.ts';
import { type ComponentSpec } from '../../src/kernel/componentSpec.ts';
import { senderReceiver } from '../example/senderReceiver.ts';

type Received = { received: number[] };

/** The example with the receiver's log restorable to an empty snapshot. */
function restorableDesign(total = 3): ComponentSpec[] {
  return senderReceiver(total, false).map((c) => (c.name === 'receiver' ? { ...c, restore: () => ({ received: [] }) } : c));
}

// A clock that only counts the skews it was told of, so a test can see them arrive.
const clockMachine = setup({
  types: { context: {} as { durable: { skew: number } }, input: {} as { durable?: { skew: number } }, events: {} as ClockSkewed },
}).createMachine({
  context: ({ input }) => ({ durable: input.durable ?? { skew: 0 } }),
  on: { 'sys.clockSkew': { actions: assign(({ context, event }) => ({ durable: { skew: context.durable.skew + event.ticks } })) } },
  initial: 'ticking',
  states: { ticking: { after: { 5: 'done' } }, done: { tags: ['idle'] } },
});

describe('a restore fault', () => {
  it('sets the component back to its snapshot, restarts it, and the sender delivers again what it had not finished', () => {
    const plan: FaultPlan = [{ kind: 'restore', component: 'receiver', window: 'sender.acked', occurrence: 2 }];
    const world = new World(restorableDesign(), { seed: 1, plan });
    const result = world.run();
    expect(result.strikes.map((s) => s.fault)).toEqual(plan);
    // Messages 1 and 2 were received before the restore and are gone from the restored log;
    // only message 3 is delivered after it.
    expect(world.durable<Received>('receiver').received).toEqual([3]);
    const kinds = world.trace.events.filter((e) => e.component === 'receiver').map((e) => e.kind);
    expect(kinds).toEqual(expect.arrayContaining(['restore', 'crash', 'restart']));
    expect(result.ending).toEqual({ kind: 'quiescent' });
  });

  it('is not a crash: a crash of the same component keeps its log, and the sender\'s retry repeats a message', () => {
    const crashOnly = new World(senderReceiver(3, false), { seed: 1, plan: [{ kind: 'crash', window: 'receiver.got', occurrence: 2 }] });
    crashOnly.run();
    expect(crashOnly.durable<Received>('receiver').received).toEqual([1, 2, 2, 3]);
  });

  it('does not strike a component that has not started yet (the World boots in design order)', () => {
    const plan: FaultPlan = [{ kind: 'restore', component: 'receiver', window: 'sender.choosing', occurrence: 1 }];
    const result = new World(restorableDesign(), { seed: 1, plan }).run();
    expect(result.strikes).toEqual([]);
    expect(result.unstruck).toEqual(plan);
  });

  it('refuses a component that declares no snapshot', () => {
    const world = new World(senderReceiver(3, false), { seed: 1, plan: [{ kind: 'restore', component: 'receiver', window: 'sender.acked', occurrence: 1 }] });
    expect(() => world.run()).toThrow(/receiver declares no snapshot to restore/);
  });

  it('is told the tick it strikes at, so a snapshot can be chosen by its age, in the World and in check mode alike', () => {
    const told: number[] = [];
    const stamped = senderReceiver(3, false).map((c) =>
      c.name === 'receiver'
        ? {
            ...c,
            restore: (_: unknown, now: number) => {
              told.push(now);
              return { received: [], restoredAt: now };
            },
          }
        : c,
    );
    const world = new World(stamped, { seed: 1, plan: [{ kind: 'restore', component: 'receiver', window: 'sender.acked', occurrence: 2 }] });
    world.run();
    const at = world.trace.events.find((e) => e.kind === 'restore')!.tick;
    expect(at).toBeGreaterThan(0);
    expect(told).toEqual([at]);
    const options = { latencyTicksMin: 0, latencyTicksMax: 0, delayFaultTicks: 40, restartDelayTicks: 10, livenessTicksMax: 4000, quietTicks: 60, windowFaults: ['restore'], messageFaults: [], driver: 'compiled' } as const;
    const check = new Kernel(stamped, { ...options, exact: false, faults: 1 });
    const later = check.apply(check.initial(), { kind: 'advance', to: 7 });
    const restored = check.apply(later, check.choices(later).find((c) => c.kind === 'restore')!);
    const receiver = stamped.findIndex((c) => c.name === 'receiver');
    expect(restored.comps[receiver]!.restoreTo).toEqual({ received: [], restoredAt: 7 });
  });

  it('is a different fault for a different component at the same window', () => {
    const a = { kind: 'restore', component: 'receiver', window: 'sender.acked', occurrence: 1 } as const;
    expect(sameFault(a, { ...a })).toBe(true);
    expect(sameFault(a, { ...a, component: 'sender' })).toBe(false);
    expect(sameFault(a, { kind: 'crash', window: 'sender.acked', occurrence: 1 })).toBe(false);
  });

  it('is a choice of check mode for a restorable component only, at each resting process\'s window, with the same effect', () => {
    const components = restorableDesign(2).map((c) => ({ ...c }));
    const options = { latencyTicksMin: 0, latencyTicksMax: 0, delayFaultTicks: 40, restartDelayTicks: 10, livenessTicksMax: 4000, quietTicks: 60, windowFaults: ['crash', 'restore', 'skew'], messageFaults: [], driver: 'compiled' } as const;
    const world = new Kernel(components, { ...options, exact: false, faults: 2 });
    const s0 = world.initial();
    const receiver = components.findIndex((c) => c.name === 'receiver');
    const restores = world.choices(s0).filter((c) => c.kind === 'restore');
    // One choice per process resting at that moment: sender and receiver are both processes.
    expect(restores).toEqual(components.map((_, p) => ({ kind: 'restore', comp: receiver, at: p })));
    const after = world.apply(s0, restores[0]!);
    expect(after.faults).toBe(1);
    expect(after.comps[receiver]!.down).toBe(true);
    // A component already down is restored too: it restarts from the snapshot when its restart comes.
    const crashed = world.apply(s0, { kind: 'crash', comp: receiver });
    const again = world.apply(crashed, world.choices(crashed).find((c) => c.kind === 'restore')!);
    expect(again.comps[receiver]!.restoreTo).toEqual({ received: [] });
    expect(new Kernel(components, { ...options, exact: false, faults: 1 }).choices(after).some((c) => c.kind === 'restore')).toBe(false);
  });
});

describe('a restore of several components at once', () => {
  /** The receiver restorable to an empty log together with the sender's acknowledgements: one consistent snapshot of both. */
  function restoredTogether(total = 3): ComponentSpec[] {
    return senderReceiver(total, false).map((c) =>
      c.name === 'receiver' ? { ...c, restore: () => ({ received: [] }), restoresWith: ['sender'] } : { ...c, restore: () => ({ acked: [] }) },
    );
  }

  it('sets the named components back with it as one fault: the sender sends everything again, and the receiver holds each message once', () => {
    const plan: FaultPlan = [{ kind: 'restore', component: 'receiver', window: 'sender.acked', occurrence: 2 }];
    const world = new World(restoredTogether(), { seed: 1, plan });
    const result = world.run();
    expect(result.strikes.map((s) => s.fault)).toEqual(plan);
    expect(world.trace.events.filter((e) => e.kind === 'restore').map((e) => e.component)).toEqual(['receiver', 'sender']);
    // Restored alone, the receiver lost messages 1 and 2 (see above); restored with the sender's
    // acknowledgements, both are sent again and nothing is lost or repeated.
    expect(world.durable<Received>('receiver').received).toEqual([1, 2, 3]);
    expect(result.ending).toEqual({ kind: 'quiescent' });
  });

  it('is one choice of check mode that sets back every named component and counts one fault', () => {
    const components = restoredTogether(2);
    const options = { latencyTicksMin: 0, latencyTicksMax: 0, delayFaultTicks: 40, restartDelayTicks: 10, livenessTicksMax: 4000, quietTicks: 60, windowFaults: ['restore'], messageFaults: [], driver: 'compiled' } as const;
    const world = new Kernel(components, { ...options, exact: false, faults: 1 });
    const s0 = world.initial();
    const receiver = components.findIndex((c) => c.name === 'receiver');
    const sender = components.findIndex((c) => c.name === 'sender');
    const after = world.apply(s0, world.choices(s0).find((c) => c.kind === 'restore' && c.comp === receiver)!);
    expect(after.faults).toBe(1);
    expect([after.comps[receiver]!.down, after.comps[sender]!.down]).toEqual([true, true]);
    expect([after.comps[receiver]!.restoreTo, after.comps[sender]!.restoreTo]).toEqual([{ received: [] }, { acked: [] }]);
    // The sender alone names nobody: its restore leaves the receiver up and as it was.
    const alone = world.apply(s0, world.choices(s0).find((c) => c.kind === 'restore' && c.comp === sender)!);
    expect([alone.comps[receiver]!.down, alone.comps[receiver]!.restoreTo]).toEqual([false, undefined]);
  });
});

describe('a skew fault', () => {
  it("tells the component its clock jumped by the skew it declares, at the window's moment", () => {
    const spec: ComponentSpec = { name: 'clock', machine: clockMachine, input: {}, process: true, skewTicks: 7 };
    const world = new World([spec], { seed: 1, plan: [{ kind: 'skew', window: 'clock.ticking', occurrence: 1 }] });
    const result = world.run();
    expect(world.durable<{ skew: number }>('clock').skew).toBe(7);
    expect(result.strikes.map((s) => s.fault.kind)).toEqual(['skew']);
    expect(world.trace.events.some((e) => e.kind === 'skew' && e.component === 'clock')).toBe(true);
  });

  it('refuses a component whose clock cannot jump', () => {
    const world = new World([{ name: 'clock', machine: clockMachine, input: {}, process: true }], { seed: 1, plan: [{ kind: 'skew', window: 'clock.ticking', occurrence: 1 }] });
    expect(() => world.run()).toThrow(/clock declares no clock skew/);
  });
});

// The World's bounds and refusals: a run that exhausts its step budget ends stuck and says in
// which phase; a run with nothing left to happen while a process still waits ends stuck and
// names it; two components with one name, a send to nobody, a malformed send and an action the
// World cannot perform are harness errors with a message, never a silent no-op.
import { assign, emit, setup } from 'xstate';
import { describe, expect, it } from 'vitest';
import { send, type Emitted } from '../../src/kernel/emitted.ts';
import { World, stateKey } from '../../src/run/world.ts';
import { type ComponentSpec } from '../../src/kernel/componentSpec.ts';
import { senderReceiver } from '../example/senderReceiver.ts';

/** A process that sends one event on entry and then waits forever for a reply that never comes. */
const waiter = (emitted: Emitted | undefined) =>
  setup({ types: { context: {} as { durable: object }, emitted: {} as Emitted } }).createMachine({
    id: 'waiter',
    context: { durable: {} },
    initial: 'asking',
    states: { asking: { ...(emitted === undefined ? {} : { entry: emit(() => emitted) }) } },
  });

/** A process that changes its durable state every 5 ticks, for ever: the world is never quiet. */
const pinger = setup({ types: { context: {} as { durable: { n: number } }, emitted: {} as Emitted }, delays: { tick: 5 } }).createMachine({
  id: 'pinger',
  context: { durable: { n: 0 } },
  initial: 'busy',
  states: { busy: { after: { tick: { target: 'busy', reenter: true, actions: assign({ durable: ({ context }) => ({ n: context.durable.n + 1 }) }) } } } },
});

const run = (components: ComponentSpec[], options: Partial<ConstructorParameters<typeof World>[1]> = {}) => new World(components, { seed: 1, plan: [], ...options }).run();

describe('the World’s bounds', () => {
  it('ends stuck at its step bound, naming the safety phase when the bound fell there', () => {
    const early = run(senderReceiver(3), { stepsMax: 5 });
    expect(early.ending).toEqual({ kind: 'stuck', reason: { kind: 'steps', bound: 5, phase: 'safety' } });
    expect(early.steps).toBe(5);
  });

  it('ends stuck in the liveness phase when the bound fell there', () => {
    // The safety phase ends at its tick bound after 4 steps; the liveness phase runs out of steps.
    const r = run([{ name: 'pinger', machine: pinger, input: {}, process: true }], { safetyTicksMax: 20, stepsMax: 10 });
    expect(r.ending).toEqual({ kind: 'stuck', reason: { kind: 'steps', bound: 10, phase: 'liveness' } });
  });

  it('ends stuck and names the process still waiting when nothing is left to happen', () => {
    const r = run([{ name: 'asker', machine: waiter(undefined), input: {}, process: true }]);
    expect(r.ending).toEqual({ kind: 'stuck', reason: { kind: 'waiting', components: ['asker.asking'] } });
  });

  it('ends stuck when the liveness phase never quiets down', () => {
    const r = run([{ name: 'pinger', machine: pinger, input: {}, process: true }], { safetyTicksMax: 20, livenessTicksMax: 50 });
    expect(r.ending).toEqual({ kind: 'stuck', reason: { kind: 'no quiescence', ticks: 50 } });
  });
});

describe('the World’s refusals', () => {
  it('refuses two components with one name', () => {
    const [a] = senderReceiver(1);
    expect(() => new World([a!, a!], { seed: 1, plan: [] })).toThrow('two components are named sender');
  });

  it('refuses to read a component it does not have', () => {
    const w = new World(senderReceiver(1), { seed: 1, plan: [] });
    expect(() => w.durable('nobody')).toThrow('no component named nobody');
  });

  it('refuses a send to an unknown component, and a send without its event', () => {
    expect(() => run([{ name: 'asker', machine: waiter(send('nobody', { type: 'hello' })), input: {}, process: true }])).toThrow('asker sent hello to unknown component nobody');
    expect(() => run([{ name: 'asker', machine: waiter({ type: 'send', to: 'asker' } as unknown as Emitted), input: {}, process: true }])).toThrow("asker emitted a send without 'to' or 'event'");
  });

  it('refuses an action it cannot perform rather than doing nothing', () => {
    const spawner = setup({ actions: { custom: () => undefined } }).createMachine({ id: 'custom', context: { durable: {} }, initial: 'a', states: { a: { entry: 'custom' } } });
    expect(() => run([{ name: 'custom', machine: spawner, input: {}, process: true }], { driver: 'xstate' })).toThrow(/custom asked for action .*, which the World does not perform/);
  });
});

describe('stateKey', () => {
  it('names a nested state by its path, and a parallel state by each region', () => {
    expect(stateKey('idle')).toBe('idle');
    expect(stateKey({ processing: 'applying' })).toBe('processing.applying');
    expect(stateKey({ processing: { applying: 'row' } })).toBe('processing.applying.row');
    expect(stateKey({ processing: {} })).toBe('processing');
  });
});

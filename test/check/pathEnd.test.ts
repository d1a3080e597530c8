// Where a search's path ends, and how (Kernel.end): quiet, where the claims are judged; stuck
// with no quiescence, when something keeps happening past the liveness bound; or stuck waiting,
// when nothing but a fault could move the world on and some process is not idle, named there;
// never with a message a reorder still holds back. And a crash beside such a message drops
// only what the crashed component held back.
// A checker reads the reason, so each is asked for whole.
import { describe, expect, it } from 'vitest';
import { assign, enqueueActions, setup } from 'xstate';
import { send, type Emitted } from '../../src/kernel/emitted.ts';
import type { ComponentSpec } from '../../src/kernel/componentSpec.ts';
import { Kernel, isFault, type Choice, type PathEnd } from '../../src/kernel/kernel.ts';

const options = { latencyTicksMin: 0, latencyTicksMax: 0, delayFaultTicks: 40, restartDelayTicks: 10, livenessTicksMax: 400, quietTicks: 60, windowFaults: [], messageFaults: [], driver: 'compiled', exact: false, faults: 0 } as const;

/** A process that counts every five ticks, for ever: its durable state never stops changing. */
const ticker = setup({ types: { context: {} as { durable: { n: number } } } }).createMachine({
  id: 'ticker',
  context: { durable: { n: 0 } },
  initial: 'counting',
  states: { counting: { tags: ['idle'], after: { 5: { target: 'counting', reenter: true, actions: assign(({ context }) => ({ durable: { n: context.durable.n + 1 } })) } } } },
});

/** A server that counts the questions it takes and never answers. */
const mute = setup({ types: { context: {} as { durable: { asked: number } } } }).createMachine({
  id: 'mute',
  context: { durable: { asked: 0 } },
  initial: 'serving',
  states: { serving: { tags: ['idle'], on: { question: { actions: assign(({ context }) => ({ durable: { asked: context.durable.asked + 1 } })) } } } },
});

/** A process that asks once as it boots and waits for the answer, with no timer: only the answer moves it on. */
const asker = setup({ types: { context: {} as { durable: Record<string, never> }, emitted: {} as Emitted } }).createMachine({
  id: 'asker',
  context: { durable: {} },
  initial: 'waiting',
  states: { waiting: { entry: enqueueActions(({ enqueue }) => enqueue.emit(send('mute', { type: 'question' }))), on: { answer: 'done' } }, done: { tags: ['idle'] } },
});

/** A process that tells the mute server something as it boots, and rests at once. */
const teller = setup({ types: { context: {} as { durable: Record<string, never> }, emitted: {} as Emitted } }).createMachine({
  id: 'teller',
  context: { durable: {} },
  initial: 'told',
  states: { told: { tags: ['idle'], entry: enqueueActions(({ enqueue }) => enqueue.emit(send('mute', { type: 'question' }))) } },
});

/** A process that looks every 100 ticks and finds nothing to do: its durable state never changes. */
const poller = setup({ types: { context: {} as { durable: Record<string, never> } } }).createMachine({
  id: 'poller',
  context: { durable: {} },
  initial: 'resting',
  states: { resting: { tags: ['idle'], after: { 100: { target: 'resting', reenter: true } } } },
});

/**
 * Follows the first choice at every state until the path ends, or, with `prefer`, the first
 * choice of that kind where there is one (a search's fault budget of one is then spent on it).
 */
function endOf(components: readonly ComponentSpec[], prefer?: 'reorder'): { end: PathEnd; now: number; durable: Readonly<Record<string, unknown>>; taken: string[] } {
  const kernel = new Kernel(components, prefer === undefined ? options : { ...options, messageFaults: [prefer], faults: 1 });
  let s = kernel.initial();
  const taken: string[] = [];
  for (let step = 0; step < 100_000; step++) {
    const choices = kernel.choices(s);
    const end = kernel.end(s, choices);
    if (end !== undefined) return { end, now: s.now, durable: kernel.durable(s), taken };
    const choice = choices.find((c) => c.kind === prefer) ?? choices[0]!;
    taken.push(choice.kind);
    s = kernel.apply(s, choice);
  }
  throw new Error('the path did not end');
}

describe('the end of a path', () => {
  it('is stuck with no quiescence, naming the bound, when the world still changes past the liveness bound', () => {
    const { end, now } = endOf([{ name: 'ticker', machine: ticker, process: true }]);
    expect(end).toEqual({ kind: 'stuck', reason: { kind: 'no quiescence', ticks: 400 } });
    expect(now).toBeGreaterThan(400);
  });

  it('is stuck waiting, naming the process and the state it waits in, when only a fault could move the world on', () => {
    const { end, durable } = endOf([
      { name: 'asker', machine: asker, process: true },
      { name: 'mute', machine: mute, process: false },
    ]);
    expect(durable['mute']).toEqual({ asked: 1 });
    expect(end).toEqual({ kind: 'stuck', reason: { kind: 'waiting', components: ['asker.waiting'] } });
  });

  it('is never reached with a message a reorder holds back: once nothing else can happen, the message is released and lands', () => {
    // The reorder holds the only message sent, and nothing is left to come: no timer, no other
    // message. The World releases it at its heal; a search releases it there too.
    const told = endOf(
      [
        { name: 'teller', machine: teller, process: true },
        { name: 'mute', machine: mute, process: false },
      ],
      'reorder',
    );
    expect(told.taken).toEqual(['reorder', 'release', 'deliver']);
    expect(told.durable['mute']).toEqual({ asked: 1 });
    expect(told.end).toEqual({ kind: 'quiet' });
    // The same with a process waiting on the answer: the question lands, and the asker is stuck
    // waiting for an answer the mute server never gives, not for the question held back.
    const asked = endOf(
      [
        { name: 'asker', machine: asker, process: true },
        { name: 'mute', machine: mute, process: false },
      ],
      'reorder',
    );
    expect(asked.taken).toEqual(['reorder', 'release', 'deliver']);
    expect(asked.durable['mute']).toEqual({ asked: 1 });
    expect(asked.end).toEqual({ kind: 'stuck', reason: { kind: 'waiting', components: ['asker.waiting'] } });

    // And where time runs on (a poller's timer) until only the held message keeps the world from
    // quiet: the path is not quiet there, the message is released and lands first.
    const polled = endOf(
      [
        { name: 'teller', machine: teller, process: true },
        { name: 'poller', machine: poller, process: true },
        { name: 'mute', machine: mute, process: false },
      ],
      'reorder',
    );
    expect(polled.taken.slice(0, 1)).toEqual(['reorder']);
    expect(polled.taken).toContain('release');
    expect(polled.durable['mute']).toEqual({ asked: 1 });
    expect(polled.end).toEqual({ kind: 'quiet' });
  });
});

/**
 * Follows a path to its end taking, in turn, the first choice each of `wanted` names (where one
 * is offered), and otherwise the first choice that is no fault.
 */
function follow(kernel: Kernel, wanted: ((c: Choice) => boolean)[]): { s: ReturnType<Kernel['initial']>; taken: string[] } {
  let s = kernel.initial();
  const taken: string[] = [];
  for (let step = 0; step < 10_000 && kernel.end(s, kernel.choices(s)) === undefined; step++) {
    const choices = kernel.choices(s);
    const choice = (wanted.length > 0 ? choices.find(wanted[0]!) : undefined) ?? choices.find((c) => !isFault(c))!;
    if (wanted.length > 0 && wanted[0]!(choice)) wanted.shift();
    taken.push(choice.kind);
    s = kernel.apply(s, choice);
  }
  return { s, taken };
}

describe('a crash beside a message a reorder holds back', () => {
  it("drops only what the crashed component held back: another sender's held message is released and lands", () => {
    const components: ComponentSpec[] = [
      { name: 'teller', machine: teller, process: true },
      { name: 'poller', machine: poller, process: true },
      { name: 'mute', machine: mute, process: false },
    ];
    const kernel = new Kernel(components, { ...options, windowFaults: ['crash'], messageFaults: ['reorder'], faults: 2 });
    // The teller's question is held back, then the poller crashes; nothing else is a fault.
    const { s, taken } = follow(kernel, [(c) => c.kind === 'reorder', (c) => c.kind === 'crash' && c.comp === 1]);
    expect(taken.slice(0, 2)).toEqual(['reorder', 'crash']);
    expect(taken).toContain('release');
    expect(kernel.durable(s)['mute']).toEqual({ asked: 1 });
  });
  it('drops a held message meant for the component that crashed, or sent by it: it is on a connection that died with it', () => {
    // The teller's question is held back on its way to a listening process, and then one of the
    // two crashes: the listener never hears it.
    const listener = setup({ types: { context: {} as { durable: { heard: number } }, input: {} as { durable?: { heard: number } } | undefined } }).createMachine({
      id: 'listener',
      context: ({ input }) => ({ durable: input?.durable ?? { heard: 0 } }),
      initial: 'listening',
      states: { listening: { tags: ['idle'], on: { question: { actions: assign(({ context }) => ({ durable: { heard: context.durable.heard + 1 } })) } } } },
    });
    const told = (crashed?: number) => {
      // It tells once: restarted, it remembers it already has, and tells nothing again.
      const tellsListener = setup({ types: { context: {} as { durable: { told: boolean } }, input: {} as { durable?: { told: boolean } } | undefined, emitted: {} as Emitted } }).createMachine({
        id: 'teller',
        context: ({ input }) => ({ durable: input?.durable ?? { told: false } }),
        initial: 'starting',
        states: {
          starting: {
            always: [
              { guard: ({ context }) => context.durable.told, target: 'told' },
              {
                target: 'told',
                actions: enqueueActions(({ enqueue }) => {
                  enqueue.assign({ durable: { told: true } });
                  enqueue.emit(send('listener', { type: 'question' }));
                }),
              },
            ],
          },
          told: { tags: ['idle'] },
        },
      });
      const kernel = new Kernel(
        [
          { name: 'teller', machine: tellsListener, process: true },
          { name: 'listener', machine: listener, process: true },
        ],
        { ...options, windowFaults: ['crash'], messageFaults: ['reorder'], faults: 2 },
      );
      const { s } = follow(kernel, [(c) => c.kind === 'reorder', ...(crashed === undefined ? [] : [(c: Choice) => c.kind === 'crash' && c.comp === crashed])]);
      return kernel.durable(s)['listener'];
    };
    expect(told()).toEqual({ heard: 1 });
    expect(told(1)).toEqual({ heard: 0 });
    expect(told(0)).toEqual({ heard: 0 });
  });
});

// A crashing server's step, struck at one of its window marks (Kernel.serverWindow): what the step
// did before that mark happens, what it would have done after it does not, and a mark that is not
// `undone` keeps the step's own change. The catalogue's servers (the database, the broker) send
// nothing before their first mark, so their scenarios cannot tell a crash at a step's second mark
// from one at its first, nor a send before the mark kept from one dropped: a server of a user's
// design may, and these machines do.
import { describe, expect, it } from 'vitest';
import { assign, enqueueActions, setup } from 'xstate';
import { send, window, type Emitted } from '../../src/kernel/emitted.ts';
import type { ComponentSpec } from '../../src/kernel/componentSpec.ts';
import { Kernel, type Choice } from '../../src/kernel/kernel.ts';

const options = { latencyTicksMin: 0, latencyTicksMax: 0, delayFaultTicks: 40, restartDelayTicks: 10, livenessTicksMax: 400, quietTicks: 60, windowFaults: ['crash'], messageFaults: [], driver: 'compiled', exact: false, faults: 1 } as const;

/** A process that asks the server once as it boots and rests once answered. */
const client = setup({ types: { context: {} as { durable: { answered: boolean } }, emitted: {} as Emitted } }).createMachine({
  id: 'client',
  context: { durable: { answered: false } },
  initial: 'asking',
  states: {
    asking: { entry: enqueueActions(({ enqueue }) => enqueue.emit(send('server', { type: 'question' }))), on: { answer: { target: 'done', actions: assign({ durable: { answered: true } }) } } },
    done: { tags: ['idle'] },
  },
});

/**
 * A server that, for a question, counts it, notes it to the audit log, reaches its first mark,
 * notes it again, reaches its second mark, and answers.
 */
const server = setup({ types: { context: {} as { durable: { questions: number } }, input: {} as { durable?: { questions: number } } | undefined, emitted: {} as Emitted } }).createMachine({
  id: 'server',
  // Restarted after a crash, it is given what it had made durable.
  context: ({ input }) => ({ durable: input?.durable ?? { questions: 0 } }),
  initial: 'serving',
  states: {
    serving: {
      tags: ['idle'],
      on: {
        question: {
          actions: enqueueActions(({ context, enqueue }) => {
            enqueue.assign({ durable: { questions: context.durable.questions + 1 } });
            enqueue.emit(send('audit', { type: 'noted', n: 1 }));
            enqueue.emit(window('afterFirstNote'));
            enqueue.emit(send('audit', { type: 'noted', n: 2 }));
            enqueue.emit(window('afterSecondNote'));
            enqueue.emit(send('client', { type: 'answer' }));
          }),
        },
      },
    },
  },
});

/** A server that keeps every note it is sent. */
const audit = setup({ types: { context: {} as { durable: { notes: number[] } }, input: {} as { durable?: { notes: number[] } } | undefined } }).createMachine({
  id: 'audit',
  context: ({ input }) => ({ durable: input?.durable ?? { notes: [] } }),
  initial: 'serving',
  states: { serving: { tags: ['idle'], on: { noted: { actions: assign(({ context, event }) => ({ durable: { notes: [...context.durable.notes, (event as unknown as { n: number }).n] } })) } } } },
});

const components: readonly ComponentSpec[] = [
  { name: 'client', machine: client, process: true },
  { name: 'server', machine: server, process: false, crashes: true },
  { name: 'audit', machine: audit, process: false },
];

/** Follows the first choice that is no fault, after taking the first one `pick` names (if any), to the path's end. */
function crashedAt(pick?: (c: Choice) => boolean): Readonly<Record<string, unknown>> {
  const kernel = new Kernel(components, options);
  let s = kernel.initial();
  let struck = false;
  for (let step = 0; step < 10_000; step++) {
    const choices = kernel.choices(s);
    if (kernel.end(s, choices) !== undefined) {
      expect(struck, 'the crash was offered').toBe(pick !== undefined);
      return kernel.durable(s);
    }
    const fault = struck || pick === undefined ? undefined : choices.find(pick);
    if (fault !== undefined) struck = true;
    s = kernel.apply(s, fault ?? choices.find((c) => c.kind !== 'crash')!);
  }
  throw new Error('the path did not end');
}

const atMark = (window: string) => (c: Choice) => c.kind === 'crash' && c.at !== undefined && c.at.window === window;

describe("a crashing server's step struck at a window mark", () => {
  it('offers a crash at each mark the step reaches, in order', () => {
    const kernel = new Kernel(components, options);
    let s = kernel.initial();
    // Boot: the client's question is on its way to the server.
    while (!kernel.choices(s).some((c) => c.kind === 'crash' && c.at !== undefined)) s = kernel.apply(s, kernel.choices(s).find((c) => c.kind !== 'crash')!);
    const marks = kernel.choices(s).flatMap((c) => (c.kind === 'crash' && c.at !== undefined ? [[c.at.mark, c.at.window, c.at.nth]] : []));
    expect(marks).toEqual([
      [0, 'server.afterFirstNote', 1],
      [1, 'server.afterSecondNote', 1],
    ]);
  });

  it('at its first mark: what it sent before the mark goes out, what it would send after does not, and its own change stays', () => {
    const durable = crashedAt(atMark('server.afterFirstNote'));
    expect(durable['audit']).toEqual({ notes: [1] });
    expect(durable['server']).toEqual({ questions: 1 });
    expect(durable['client']).toEqual({ answered: false });
  });

  it('at its second mark: both notes go out, the answer does not', () => {
    const durable = crashedAt(atMark('server.afterSecondNote'));
    expect(durable['audit']).toEqual({ notes: [1, 2] });
    expect(durable['server']).toEqual({ questions: 1 });
    expect(durable['client']).toEqual({ answered: false });
  });

  it('with no crash, the step runs whole', () => {
    const durable = crashedAt();
    expect(durable['audit']).toEqual({ notes: [1, 2] });
    expect(durable['server']).toEqual({ questions: 1 });
    expect(durable['client']).toEqual({ answered: true });
  });
});

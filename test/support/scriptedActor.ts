// A component that follows a script of sends: at given ticks it sends numbered messages (some on
// connections of their own) and records every message it gets, so a test of the network can say
// what was sent, when, and what arrived where.
import { enqueueActions, setup } from 'xstate';
import { send, type Emitted } from '../../src/kernel/emitted.ts';

export interface Send {
  readonly at: number;
  readonly from: string;
  readonly to: string;
  readonly type: string;
  readonly unordered: boolean;
  /** Its number: the message's payload, unique in the script. */
  readonly n: number;
}

export type Received = { readonly n: number; readonly from: string; readonly at: number };

/** A component that sends its part of the script at the ticks it names and records what it gets. */
export const actor = setup({
  types: {
    context: {} as { durable: { received: readonly Received[] }; script: readonly Send[]; next: number },
    input: {} as { script: readonly Send[] },
    events: {} as { type: 'actor.next'; at: number } | { type: 'm' | 'n'; n: number; from: string; at: number },
    emitted: {} as Emitted,
  },
  actions: {
    record: enqueueActions(({ context, event, enqueue }) => {
      if (event.type === 'actor.next') return;
      enqueue.assign({ durable: { received: [...context.durable.received, { n: event.n, from: event.from, at: event.at }] } });
    }),
    sendDue: enqueueActions(({ context, event, enqueue }) => {
      const now = event.type === 'actor.next' ? event.at : 0;
      let next = context.next;
      while (next < context.script.length && context.script[next]!.at <= now) {
        const s = context.script[next++]!;
        enqueue.emit(send(s.to, { type: s.type, n: s.n }, s.unordered));
      }
      enqueue.assign({ next });
      if (next < context.script.length) enqueue.raise({ type: 'actor.next', at: 0 }, { id: 'next', delay: context.script[next]!.at - now });
    }),
  },
  guards: { done: ({ context }) => context.next >= context.script.length },
}).createMachine({
  id: 'actor',
  context: ({ input }) => ({ durable: { received: [] }, script: input.script, next: 0 }),
  initial: 'sending',
  states: {
    sending: {
      entry: 'sendDue',
      always: { guard: 'done', target: 'done' },
      on: { 'actor.next': { actions: 'sendDue', target: 'sending', reenter: true }, m: { actions: 'record' }, n: { actions: 'record' } },
    },
    done: { tags: ['idle'], on: { m: { actions: 'record' }, n: { actions: 'record' } } },
  },
});

// A minimal two-machine protocol that exercises every kernel feature before the real models
// arrive: a sender delivers numbered messages at least once (retry on a timer until acked) and a
// receiver records every delivery durably and acks it. Duplicates, losses, reordering and
// crashes all leave visible marks in the receiver's durable log.
import { assign, emit, enqueueActions, setup } from 'xstate';
import { send, type Emitted, type FromPeer, type PeerCrashed } from '../../src/kernel/emitted.ts';
import type { ComponentSpec } from '../../src/kernel/componentSpec.ts';

type SenderDurable = { readonly acked: readonly number[] };

export const senderMachine = setup({
  types: {
    context: {} as { durable: SenderDurable; total: number; pipeline: boolean; current: number; attempts: number },
    input: {} as { total: number; pipeline?: boolean; durable?: SenderDurable },
    events: {} as ({ type: 'ack'; n: number } & FromPeer) | PeerCrashed,
    emitted: {} as Emitted,
  },
  delays: { retry: 25 },
}).createMachine({
  id: 'sender',
  context: ({ input }) => ({ durable: input.durable ?? { acked: [] }, total: input.total, pipeline: input.pipeline ?? false, current: 0, attempts: 0 }),
  initial: 'choosing',
  states: {
    choosing: {
      always: [
        { guard: ({ context }) => context.durable.acked.length >= context.total, target: 'done' },
        { guard: ({ context }) => context.pipeline, target: 'pipelining' },
        { target: 'sending' },
      ],
    },
    // Pipelined mode sends every unacked message at once, so the link carries several messages
    // back to back and a reorder fault has something to overtake.
    pipelining: { always: { target: 'burst' } },
    burst: {
      entry: enqueueActions(({ context, enqueue }) => {
        for (let n = 1; n <= context.total; n++) if (!context.durable.acked.includes(n)) enqueue.emit(send('receiver', { type: 'msg', n }));
      }),
      on: {
        ack: { actions: assign({ durable: ({ context, event }) => (context.durable.acked.includes(event.n) ? context.durable : { acked: [...context.durable.acked, event.n] }) }) },
      },
      always: { guard: ({ context }) => context.durable.acked.length >= context.total, target: 'done' },
      after: { retry: { target: 'burst', reenter: true } },
    },
    sending: {
      entry: [
        assign({
          current: ({ context }) => {
            for (let n = 1; n <= context.total; n++) if (!context.durable.acked.includes(n)) return n;
            return 0;
          },
          attempts: ({ context }) => context.attempts + 1,
        }),
        emit(({ context }) => send('receiver', { type: 'msg', n: context.current })),
      ],
      on: {
        ack: {
          guard: ({ context, event }) => event.n === context.current,
          target: 'acked',
          actions: assign({ durable: ({ context, event }) => ({ acked: [...context.durable.acked, event.n] }) }),
        },
      },
      after: { retry: { target: 'sending', reenter: true } },
    },
    acked: { after: { 1: 'choosing' } },
    done: { tags: ['idle'] },
  },
});

type ReceiverDurable = { readonly received: readonly number[] };

export const receiverMachine = setup({
  types: {
    context: {} as { durable: ReceiverDurable; pending: readonly { n: number; to: string }[] },
    input: {} as { durable?: ReceiverDurable },
    events: {} as ({ type: 'msg'; n: number } & FromPeer) | PeerCrashed,
    emitted: {} as Emitted,
  },
  actions: {
    record: assign(({ context, event }) =>
      event.type === 'msg' ? { durable: { received: [...context.durable.received, event.n] }, pending: [...context.pending, { n: event.n, to: event.from }] } : {},
    ),
  },
}).createMachine({
  id: 'receiver',
  context: ({ input }) => ({ durable: input.durable ?? { received: [] }, pending: [] }),
  initial: 'idle',
  states: {
    idle: { tags: ['idle'], on: { msg: { target: 'got', actions: 'record' } } },
    // Deliveries are durable here and not yet acked: a crash in this window makes the sender
    // retry, and the receiver's log shows the duplicate.
    got: {
      on: { msg: { actions: 'record' } },
      after: {
        1: {
          target: 'idle',
          actions: [
            enqueueActions(({ context, enqueue }) => {
              for (const p of context.pending) enqueue.emit(send(p.to, { type: 'ack', n: p.n }));
            }),
            assign({ pending: [] }),
          ],
        },
      },
    },
  },
});

export function senderReceiver(total: number, pipeline = false): ComponentSpec[] {
  return [
    { name: 'sender', machine: senderMachine, input: { total, pipeline }, process: true },
    { name: 'receiver', machine: receiverMachine, input: {}, process: true },
  ];
}

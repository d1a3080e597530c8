// A receipt job whose resume step sends again once the job is complete, under a new key.
//
// Reasoned before it was run: a job sends order o-1's receipt through an email provider that
// honours idempotency keys, keyed `<order>/<n>` where n is the receipts the provider acknowledged
// (the job's durable checkpoint) plus one. Its last step, on the acknowledgement, writes
// `{ acked: 1, completed: true }` and the job rests in `receipt.done` for good. On boot, a job
// whose checkpoint says `completed` sends the receipt again ("make sure the customer got it"),
// and since the completion write bumped the counter, under key `o-1/2`: a second receipt the
// provider cannot fold into the first. A crash in any earlier window reboots the job with
// `completed: false, acked: 0`, so it sends `o-1/1` again and the provider replays the first
// operation; a lost, repeated or delayed message is absorbed the same way. Only the crash in
// `receipt.done`, entered by the run's very last step, reboots it as completed: windows finds the
// duplicate there and nowhere else, and so must check, which once ended the path at that last
// step without trying the crash and said "holds".
import { assign, enqueueActions, setup } from 'xstate';
import { compose, defineScenario, send, type Claim, type SendEmitted } from 'faultline';
import { operationsOf, provider, type ProviderDurable, type ProviderReply } from 'faultline/models/provider.ts';

type Checkpoint = { readonly acked: number; readonly completed: boolean };
type Input = { readonly order: string; readonly provider: string; readonly timeoutTicks: number; readonly durable?: Checkpoint };

const receiptJob = setup({
  types: { context: {} as { durable: Checkpoint; order: string; provider: string; timeoutTicks: number }, input: {} as Input, events: {} as ProviderReply, emitted: {} as SendEmitted },
  delays: { timeout: ({ context }) => context.timeoutTicks },
  guards: {
    completed: ({ context }) => context.durable.completed,
    ack: ({ event }) => event.type === 'provider.response' && event.status !== 'conflict',
  },
  actions: {
    // The receipt, keyed by the number of the message: those acknowledged so far, plus one.
    sendReceipt: enqueueActions(({ context, enqueue }) =>
      enqueue.emit(send(context.provider, { type: 'provider.call', ref: 'receipt', key: `${context.order}/${context.durable.acked + 1}`, intent: `order_id=${context.order}&kind=receipt` })),
    ),
    // The last step: the acknowledgement counted and the job marked complete, in one durable write.
    complete: assign(({ context }) => ({ durable: { acked: context.durable.acked + 1, completed: true } })),
  },
}).createMachine({
  id: 'receipt',
  context: ({ input }) => ({ durable: input.durable ?? { acked: 0, completed: false }, order: input.order, provider: input.provider, timeoutTicks: input.timeoutTicks }),
  initial: 'booting',
  states: {
    // A fresh job sends; a resumed one sends again. The bug is the first branch, which should go
    // straight to `done`.
    booting: {
      always: [
        { guard: 'completed', target: 'awaitingAck', actions: 'sendReceipt' },
        { target: 'awaitingAck', actions: 'sendReceipt' },
      ],
    },
    // Sent, not yet acknowledged: on a timeout, send again under the same key.
    awaitingAck: {
      on: { 'provider.response': { guard: 'ack', target: 'done', actions: 'complete' } },
      after: { timeout: { target: 'awaitingAck', reenter: true, actions: 'sendReceipt' } },
    },
    done: { tags: ['idle'] },
  },
});

const receiptClaim: Claim = {
  effect: 'receipt',
  key: ['order_id'],
  authority: "the provider's idempotency key",
  lifetime: 'the order',
  outcomes: (v) => operationsOf(v.durable<ProviderDurable>('emailProvider')).map((op) => ({ key: new URLSearchParams(op.intent).get('order_id') ?? '?', intent: op.intent })),
  facts: () => ['o-1'],
};

export default defineScenario({
  name: 'heldout-receipt-resume-after-completion',
  title: 'A receipt job sends again on resume once it is complete, under a new key',
  source: 'held out: a crash in the window the run ends in',
  lesson: 'A resume step must take "completed" as done: only a crash after the last write boots into it.',
  build: compose(
    ({ time }) => ({
      name: 'receipt',
      machine: receiptJob,
      input: { order: 'o-1', provider: 'emailProvider', timeoutTicks: time.ticks('receipt timeout', '10s') },
      process: true,
      peers: ['emailProvider'],
    }),
    provider({ name: 'emailProvider', idempotency: 'honoured', statusLookup: 'none' }),
  ),
  workload: { size: 1 },
  claims: [receiptClaim],
  expect: { verdict: 'violated', violations: ['duplicate effect'] },
});

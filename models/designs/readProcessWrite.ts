// A stream processor between two topics of one broker cluster (seed 004, section 6, "Exactly-once:
// limits", the boundary "broker topic to broker topic with transactional read-process-write"):
// it reads a record of topic `in`, writes its result to topic `out` and moves the group's offset
// on `in` past it. Kafka keeps the offset in the same cluster (its offsets topic), which is what
// lets a producer transaction hold both. Design option `commit`:
// - `transactional`: one transaction writes the result and commits the offset; both happen or
//   neither does, so a repeat of the record after a crash finds its offset already moved.
// - `separate`: the result is produced, and the offset committed after its acknowledgement in a
//   second request, as a plain consumer does; a crash or a lost commit between the two reads the
//   record again and writes its result a second time.
//
// The cluster is a server that only answers: `topics.poll` returns the record at the group's
// offset (or that none is left), `topics.produce` appends to `out`, `topics.commit` sets the
// offset, and `topics.transact` does both at once when the offset it starts from is the group's
// offset. That check stands in for the producer id, epoch and sequence numbers with which a Kafka
// broker drops a repeated or fenced transaction: a transaction whose input the group has already
// moved past changes nothing (guard `transactionFence`). The cluster does not crash here (its
// log and offsets are taken as durable, as broker scenarios measure elsewhere); the processor
// crashes at every state it rests in, and every message between them can be lost, duplicated,
// delayed or overtaken. The processor keeps nothing durable: a restart polls again from the
// group's offset. It retries a request with no answer after `timeout`.
//
// The boundary ends at the cluster. With `email`, the processor also sends a confirmation email
// for each record (to `mailer`, a mail gateway that keeps every message it is handed and answers
// nothing) as it takes the record up, before its transaction: the email is not in the
// transaction, so a repeat of the record after a crash sends it again and a lost request loses
// it, while the result on `out` is still written once.
import { assign, enqueueActions, setup } from 'xstate';
import type { Claim, TableView } from '../../src/checkers/claims.ts';
import { common, componentFields, design, given, ticksOf, type ComponentBuilder, type DesignBuild } from '../../src/scenario/design.ts';
import { note, send, type Emitted, type FromPeer, type PeerCrashed } from '../../src/kernel/emitted.ts';
import { duration, parseOptions, z } from '../../src/scenario/options.ts';
import type { EvidencePart } from '../../src/scenario/scenario.ts';
import type { WorldView } from '../../src/kernel/worldView.ts';
import type { Payload } from '../broker.ts';

export interface TopicsDurable {
  /** Topic `in`, written before the run starts. */
  readonly input: readonly Payload[];
  /** Topic `out`: every result written, a repeat each time it is written again. */
  readonly output: readonly Payload[];
  /** The processor group's offset on `in`: the next record it reads. */
  readonly committed: number;
}

type TopicsRequest =
  | ({ type: 'topics.poll' } & FromPeer)
  | ({ type: 'topics.produce'; ref: string; payload: Payload } & FromPeer)
  | ({ type: 'topics.commit'; offset: number } & FromPeer)
  | ({ type: 'topics.transact'; ref: string; payload: Payload; offset: number } & FromPeer);

type TopicsReply =
  | ({ type: 'topics.record'; offset: number; payload: Payload } & FromPeer)
  | ({ type: 'topics.drained' } & FromPeer)
  | ({ type: 'topics.produced'; ref: string } & FromPeer)
  | ({ type: 'topics.committed'; offset: number } & FromPeer)
  | ({ type: 'topics.transacted'; ref: string } & FromPeer);

type TopicsCtx = { durable: TopicsDurable };

export const topicsMachine = setup({
  types: { context: {} as TopicsCtx, input: {} as { durable: TopicsDurable }, events: {} as TopicsRequest | PeerCrashed, emitted: {} as Emitted },
}).createMachine({
  id: 'topics',
  context: ({ input }) => ({ durable: input.durable }),
  initial: 'serving',
  states: {
    serving: {
      tags: ['idle'],
      on: {
        'topics.poll': {
          actions: enqueueActions(({ context, event, enqueue }) => {
            const { input, committed } = context.durable;
            const r = input[committed];
            enqueue.emit(send(event.from, r === undefined ? { type: 'topics.drained' } : { type: 'topics.record', offset: committed, payload: r }));
          }),
        },
        'topics.produce': {
          actions: enqueueActions(({ context, event, enqueue }) => {
            enqueue.assign({ durable: { ...context.durable, output: [...context.durable.output, event.payload] } });
            enqueue.emit(send(event.from, { type: 'topics.produced', ref: event.ref }));
          }),
        },
        'topics.commit': {
          actions: enqueueActions(({ context, event, enqueue }) => {
            enqueue.assign({ durable: { ...context.durable, committed: event.offset } });
            enqueue.emit(send(event.from, { type: 'topics.committed', offset: event.offset }));
          }),
        },
        'topics.transact': {
          actions: enqueueActions(({ context, event, enqueue }) => {
            const d = context.durable;
            if (event.offset === d.committed) enqueue.assign({ durable: { ...d, output: [...d.output, event.payload], committed: event.offset + 1 } });
            else enqueue.emit(note('guard', { guard: 'transactionFence', offset: event.offset }));
            enqueue.emit(send(event.from, { type: 'topics.transacted', ref: event.ref }));
          }),
        },
      },
    },
  },
});

export interface MailerDurable {
  /** Every email handed to the gateway, a repeat each time. */
  readonly sent: readonly Payload[];
}

type MailRequest = { type: 'mail.send'; event_id: string; payment_id: string } & FromPeer;

export const mailerMachine = setup({
  types: { context: {} as { durable: MailerDurable }, input: {} as Record<string, never>, events: {} as MailRequest | PeerCrashed, emitted: {} as Emitted },
}).createMachine({
  id: 'mailer',
  context: () => ({ durable: { sent: [] } }),
  initial: 'serving',
  states: {
    serving: {
      tags: ['idle'],
      on: { 'mail.send': { actions: assign(({ context, event }) => ({ durable: { sent: [...context.durable.sent, { event_id: event.event_id, payment_id: event.payment_id }] } })) } },
    },
  },
});

export interface ProcessorInput {
  readonly topics: string;
  readonly commit: 'transactional' | 'separate';
  /** The mail gateway to send each record's confirmation to; none when absent. */
  readonly mailer?: string;
  readonly timeoutTicks?: number;
}

type ProcCtx = { input: ProcessorInput; durable: Record<string, never>; current: { offset: number; payload: Payload } | undefined };

/** The result the processor writes for a record: the record's id and what it derived from it. */
const resultOf = (payload: Payload): Payload => ({ event_id: String(payload['event_id']), total: Number(payload['amount'] ?? 0) * 2 });
const refOf = (ctx: ProcCtx) => `out-${ctx.current!.offset}`;

export const readProcessWriteMachine = setup({
  types: { context: {} as ProcCtx, input: {} as ProcessorInput, events: {} as TopicsReply | PeerCrashed, emitted: {} as Emitted },
  delays: { timeout: ({ context }) => context.input.timeoutTicks ?? 20 },
  guards: {
    transactional: ({ context }) => context.input.commit === 'transactional',
    isProduced: ({ context, event }) => event.type === 'topics.produced' && context.current !== undefined && event.ref === refOf(context),
    isCommitted: ({ context, event }) => event.type === 'topics.committed' && context.current !== undefined && event.offset === context.current.offset + 1,
    isTransacted: ({ context, event }) => event.type === 'topics.transacted' && context.current !== undefined && event.ref === refOf(context),
  },
  actions: {
    mail: enqueueActions(({ context, enqueue }) => {
      const p = context.current!.payload;
      if (context.input.mailer !== undefined) enqueue.emit(send(context.input.mailer, { type: 'mail.send', event_id: String(p['event_id']), payment_id: String(p['payment_id']) }));
    }),
    poll: enqueueActions(({ context, enqueue }) => enqueue.emit(send(context.input.topics, { type: 'topics.poll' }))),
    take: assign(({ event }) => (event.type === 'topics.record' ? { current: { offset: event.offset, payload: event.payload } } : {})),
    produce: enqueueActions(({ context, enqueue }) => enqueue.emit(send(context.input.topics, { type: 'topics.produce', ref: refOf(context), payload: resultOf(context.current!.payload) }))),
    commitOffset: enqueueActions(({ context, enqueue }) => enqueue.emit(send(context.input.topics, { type: 'topics.commit', offset: context.current!.offset + 1 }))),
    transact: enqueueActions(({ context, enqueue }) =>
      enqueue.emit(send(context.input.topics, { type: 'topics.transact', ref: refOf(context), payload: resultOf(context.current!.payload), offset: context.current!.offset })),
    ),
  },
}).createMachine({
  id: 'processor',
  context: ({ input }) => ({ input, durable: {}, current: undefined }),
  initial: 'polling',
  states: {
    // Asked for the record at the group's offset; a restart starts here.
    polling: {
      entry: 'poll',
      on: { 'topics.record': { target: 'received', actions: 'take' }, 'topics.drained': { target: 'drained' } },
      after: { timeout: { target: 'polling', reenter: true } },
    },
    // Holding a record; nothing written for it yet (with `email`, its confirmation just sent).
    received: {
      entry: 'mail',
      after: {
        1: [
          { guard: 'transactional', target: 'afterTransactionSend', actions: 'transact' },
          { target: 'afterProduceSend', actions: 'produce' },
        ],
      },
    },
    // Transactional: the result and the offset sent in one transaction, its outcome not known.
    afterTransactionSend: {
      on: { 'topics.transacted': { guard: 'isTransacted', target: 'polling' } },
      after: { timeout: { target: 'afterTransactionSend', reenter: true, actions: 'transact' } },
    },
    // Separate: the result sent, not acknowledged.
    afterProduceSend: {
      on: { 'topics.produced': { guard: 'isProduced', target: 'afterOutputWritten' } },
      after: { timeout: { target: 'afterProduceSend', reenter: true, actions: 'produce' } },
    },
    // Separate: the result is in `out`, the offset not yet committed; a crash here reads the record again.
    afterOutputWritten: { after: { 1: { target: 'afterCommitSend', actions: 'commitOffset' } } },
    // Separate: the offset commit sent, not acknowledged; a lost commit times out and reads the record again.
    afterCommitSend: {
      on: { 'topics.committed': { guard: 'isCommitted', target: 'polling' } },
      after: { timeout: { target: 'polling' } },
    },
    // Nothing left on `in`.
    drained: { tags: ['idle'] },
  },
});

/** Evidence for the cluster: the group's offset and what `out` holds. */
export function topicsEvidence(durable: unknown): EvidencePart[] {
  const d = durable as TopicsDurable | undefined;
  return [
    { label: 'offset on in', items: [`${d?.committed ?? 0}/${d?.input.length ?? 0}`] },
    { label: 'out', items: (d?.output ?? []).map((p) => String(p['event_id'])) },
  ];
}

/** The names the design gives its components. */
export const READ_PROCESS_WRITE = { components: { topics: 'topics', processor: 'processor', mailer: 'mailer' } } as const;

export const ReadProcessWriteOptions = z.strictObject({
  ...componentFields,
  /** One transaction for the result and the offset, or the offset committed after the result. */
  commit: z.enum(['transactional', 'separate']),
  /** How long the processor waits for an answer before asking again (20 ticks). */
  timeout: duration.optional(),
  /** Also send a confirmation email per record through `mailer`, outside the transaction. */
  email: z.boolean().optional(),
});

/** The records on topic `in`: `size` payments. */
const inputOf = (size: number): Payload[] => Array.from({ length: size }, (_, i) => ({ event_id: `evt-pay-${i + 1}`, payment_id: `pay-${i + 1}`, amount: 10 * (i + 1) }));

/** The cluster `topics` and the `processor` between its topics `in` and `out`. */
export function readProcessWrite(options: z.input<typeof ReadProcessWriteOptions>): DesignBuild {
  const o = parseOptions('readProcessWrite', ReadProcessWriteOptions, options);
  const topics: ComponentBuilder = ({ size }) => ({
    name: 'topics',
    machine: topicsMachine,
    process: false,
    answersOnly: true,
    describe: topicsEvidence,
    input: { durable: { input: inputOf(size), output: [], committed: 0 } },
  });
  const processor: ComponentBuilder = ({ time }) => ({
    name: 'processor',
    machine: readProcessWriteMachine,
    process: true,
    peers: o.email ? ['topics', 'mailer'] : ['topics'],
    input: { topics: 'topics', commit: o.commit, ...(o.email ? { mailer: 'mailer' } : {}), ...given({ timeoutTicks: ticksOf(time, 'processor option timeout', o.timeout) }) },
    ...common(time, 'processor', o),
  });
  const mailer: ComponentBuilder = () => ({
    name: 'mailer',
    machine: mailerMachine,
    process: false,
    answersOnly: true,
    describe: (durable: unknown) => [{ label: 'sent', items: ((durable as MailerDurable | undefined)?.sent ?? []).map((p) => String(p['event_id'])) }],
    input: {},
  });
  return o.email ? design(topics, processor, mailer) : design(topics, processor);
}

const topicsOf = (v: WorldView) => v.durable<TopicsDurable>('topics');

/**
 * The cluster's topics as the tables their sink connectors fill, and the mail gateway's log of
 * what it was handed: one row per record or message, in the order written (`offset`, `seq`).
 */
const TOPIC_IN: TableView = {
  table: 'topic_in',
  columns: { offset: 'bigint', event_id: 'text', payment_id: 'text', amount: 'bigint' },
  rows: (v) => topicsOf(v).input.map((p, offset) => ({ offset, event_id: p['event_id'], payment_id: p['payment_id'], amount: p['amount'] })),
};
const TOPIC_OUT: TableView = {
  table: 'topic_out',
  columns: { offset: 'bigint', event_id: 'text', total: 'bigint' },
  rows: (v) => topicsOf(v).output.map((p, offset) => ({ offset, event_id: p['event_id'], total: p['total'] })),
};
const MAIL_LOG: TableView = {
  table: 'mail_gateway_log',
  columns: { seq: 'bigint', event_id: 'text', payment_id: 'text' },
  rows: (v) => v.durable<MailerDurable>('mailer').sent.map((p, i) => ({ seq: i + 1, event_id: p['event_id'], payment_id: p['payment_id'] })),
};

/** Every record of `in` has its result in `out` exactly once. */
export const topicResultClaim: Claim = {
  effect: "a payment's result on topic out",
  key: ['event_id'],
  authority: "the cluster: topic out, and the group's offset on topic in",
  lifetime: 'the retention of topic out',
  sameIntent: 'nothing new: the offset already moved past the record',
  tables: { effect: { table: 'topic_out', key: ['event_id'] }, source: { table: 'topic_in', key: ['event_id'] }, views: [TOPIC_OUT, TOPIC_IN] },
  outcomes: (v) => topicsOf(v).output.map((p) => ({ key: String(p['event_id']) })),
  facts: (v) => topicsOf(v).input.map((p) => String(p['event_id'])),
};

/** Every record of `in` has its confirmation email sent exactly once. */
export const paymentEmailClaim: Claim = {
  effect: "a payment's confirmation email",
  key: ['event_id'],
  authority: 'the mail gateway, which keeps no record of what it was sent before',
  lifetime: 'for ever: an email cannot be taken back',
  sameIntent: 'nothing the gateway can tell: the same email is sent again',
  tables: { effect: { table: 'mail_gateway_log', key: ['event_id'] }, source: { table: 'topic_in', key: ['event_id'] }, views: [MAIL_LOG, TOPIC_IN] },
  outcomes: (v) => v.durable<MailerDurable>('mailer').sent.map((p) => ({ key: String(p['event_id']) })),
  facts: (v) => topicsOf(v).input.map((p) => String(p['event_id'])),
};

// A consumer of one broker subscription that applies one local effect per delivered record.
// Design options, each a line of the seeds:
// - `inbox`: the consumed event_id recorded in the same transaction as the effect (`sameTx`),
//   in a separate transaction first (`separateTx`: the dual write returns), or not at all.
// - the effect table's key: the effect's semantic key (a repeat inserts nothing) or a surrogate
//   id (`autoId`: every repeat inserts another row). That lives on the database's table spec.
// - `versionCheck`: an upsert that only moves a row's version forwards, against reordering.
// - `ack`: transport progress (the broker offset) advanced after the effect commits, or before.
// Its durable state is in its databases; the queue of received deliveries, the record in hand
// and open transactions are volatile. After a restart it subscribes again and the broker
// redelivers from the committed offset.
import { assign, enqueueActions, setup } from 'xstate';
import { note, send, type Emitted, type PeerCrashed } from '../src/emitted.ts';
import type { BrokerReply, Payload } from './broker.ts';
import type { DatabaseReply, DbOp, Row, Value } from './database.ts';
import { commitRequest, subscribeRequest, withDelivery, type Delivery } from './subscription.ts';
import { common, componentFields, given, ticksOf, type ComponentBuilder } from '../src/design.ts';
import { duration, parseOptions, z } from '../src/options.ts';

export interface EffectSpec {
  /** insert: create a row (a repeat is suppressed only by a unique key); upsert: set a row. */
  readonly op: 'insert' | 'upsert';
  readonly table: string;
  /** Effect columns: a payload field name, or a constant. */
  readonly columns: Readonly<Record<string, string | { readonly const: Value }>>;
}

export interface ConsumerInput {
  readonly broker: string;
  readonly group: string;
  /** The inbox namespace: the consumer identity whose history the inbox records. */
  readonly consumerName?: string;
  readonly db: string;
  readonly inboxDb?: string;
  readonly inbox: 'sameTx' | 'separateTx' | 'none';
  readonly effect: EffectSpec;
  readonly versionCheck?: boolean;
  readonly ack?: 'afterCommit' | 'beforeCommit';
  readonly timeoutTicks?: number;
  readonly durable?: Record<string, never>;
}


type Ctx = {
  durable: Record<string, never>;
  input: ConsumerInput;
  queue: readonly Delivery[];
  current: Delivery | undefined;
  attempt: number;
  wrote: boolean;
};

type Event = BrokerReply | DatabaseReply | PeerCrashed;

export function effectRow(spec: EffectSpec, payload: Payload): Row {
  const row: Record<string, Value> = {};
  for (const [col, src] of Object.entries(spec.columns)) row[col] = typeof src === 'string' ? (payload[src] ?? null) : src.const;
  return row;
}

function effectOp(ctx: Ctx): DbOp {
  const row = effectRow(ctx.input.effect, ctx.current!.payload);
  return ctx.input.effect.op === 'insert'
    ? { op: 'insert', table: ctx.input.effect.table, row, onConflict: 'nothing' }
    : { op: 'upsert', table: ctx.input.effect.table, row, onlyNewerVersion: ctx.input.versionCheck ?? false };
}

function inboxOp(ctx: Ctx): DbOp {
  const consumer = ctx.input.consumerName ?? ctx.input.group;
  return { op: 'insert', table: 'inbox', row: { consumer_name: consumer, event_id: String(ctx.current!.payload['event_id']) }, onConflict: 'nothing' };
}

/** Statement ids within the consumer's transaction, so a duplicated statement runs once. */
type Stmt = 'inbox' | 'effect';

const txOf = (ctx: Ctx) => `d${ctx.current!.partition}.${ctx.current!.offset}.${ctx.attempt}`;

export const consumerMachine = setup({
  types: { context: {} as Ctx, input: {} as ConsumerInput, events: {} as Event, emitted: {} as Emitted },
  delays: { timeout: ({ context }) => context.input.timeoutTicks ?? 20 },
  guards: {
    hasWork: ({ context }) => context.queue.length > 0,
    ackFirst: ({ context }) => context.input.ack === 'beforeCommit',
    sameTx: ({ context }) => context.input.inbox === 'sameTx',
    separateTx: ({ context }) => context.input.inbox === 'separateTx',
    inserted: ({ event }) => (event.type === 'db.result' || event.type === 'db.ran') && event.results[0]?.inserted === true,
    committed: ({ event }) => (event.type === 'db.committed' || event.type === 'db.ran') && event.ok,
    // A reply for an earlier attempt's transaction (it arrived after that attempt timed out) is
    // not this attempt's: each attempt runs on its own connection in a real consumer.
    staleReply: ({ context, event }) =>
      context.current !== undefined &&
      (event.type === 'db.result' || event.type === 'db.committed' ? event.tx !== txOf(context) : event.type === 'db.ran' ? event.ref !== txOf(context) : false),
    // A reply to the other statement of this transaction (a duplicated one answered again).
    otherStmt: ({ event }, params: { stmt: Stmt }) => event.type === 'db.result' && event.stmt !== undefined && event.stmt !== params.stmt,
  },
  actions: {
    subscribe: enqueueActions(({ context, enqueue }) => enqueue.emit(send(context.input.broker, subscribeRequest(context.input.group)))),
    enqueue: assign(({ context, event }) => {
      const queue = event.type === 'broker.deliver' ? withDelivery(context.queue, context.current, event) : undefined;
      return queue === undefined ? {} : { queue };
    }),
    take: assign(({ context }) => ({ current: context.queue[0], queue: context.queue.slice(1), attempt: 1, wrote: false })),
    retry: assign(({ context }) => ({ attempt: context.attempt + 1, wrote: false })),
    ack: enqueueActions(({ context, enqueue }) => enqueue.emit(send(context.input.broker, commitRequest(context.current!)))),
    done: assign({ current: undefined }),
    inboxInTx: enqueueActions(({ context, enqueue }) => enqueue.emit(send(context.input.db, { type: 'db.exec', tx: txOf(context), ops: [inboxOp(context)], stmt: 'inbox' }))),
    inboxAlone: enqueueActions(({ context, enqueue }) =>
      enqueue.emit(send(context.input.inboxDb ?? context.input.db, { type: 'db.run', ref: txOf(context), ops: [inboxOp(context)] })),
    ),
    effectInTx: enqueueActions(({ context, enqueue }) => enqueue.emit(send(context.input.db, { type: 'db.exec', tx: txOf(context), ops: [effectOp(context)], stmt: 'effect' }))),
    effectAlone: enqueueActions(({ context, enqueue }) => enqueue.emit(send(context.input.db, { type: 'db.run', ref: txOf(context), ops: [effectOp(context)] }))),
    commit: enqueueActions(({ context, enqueue }) => enqueue.emit(send(context.input.db, { type: 'db.commit', tx: txOf(context) }))),
    abort: enqueueActions(({ context, enqueue }) => enqueue.emit(send(context.input.db, { type: 'db.abort', tx: txOf(context) }))),
    noteEffectWrite: enqueueActions(({ context, event, enqueue }) => {
      if (event.type !== 'db.result' && event.type !== 'db.ran') return;
      const r = event.results[event.type === 'db.ran' ? event.results.length - 1 : 0];
      const wrote = r?.inserted === true || r?.written === true;
      enqueue.assign({ wrote });
      if (!wrote) {
        const guard = context.input.effect.op === 'insert' ? 'effectKey' : 'versionCheck';
        enqueue.emit(note('guard', { guard, event_id: context.current!.payload['event_id'] }));
      }
    }),
    noteInboxHit: enqueueActions(({ context, enqueue }) => enqueue.emit(note('guard', { guard: 'inboxKey', event_id: context.current!.payload['event_id'] }))),
    noteEffect: enqueueActions(({ context, enqueue }) => {
      if (context.wrote) enqueue.emit(note('effect', { table: context.input.effect.table, row: effectRow(context.input.effect, context.current!.payload) }));
    }),
  },
}).createMachine({
  id: 'consumer',
  context: ({ input }) => ({ durable: input.durable ?? {}, input, queue: [], current: undefined, attempt: 0, wrote: false }),
  initial: 'connecting',
  on: { 'broker.deliver': { actions: 'enqueue' } },
  states: {
    // Until the broker confirms the subscription nothing arrives; a lost request is sent again.
    connecting: { entry: 'subscribe', on: { 'broker.subscribed': 'idle' }, after: { timeout: { target: 'connecting', reenter: true } } },
    idle: { tags: ['idle'], always: { guard: 'hasWork', target: 'received', actions: 'take' } },
    // A record is in hand; nothing about it is durable here yet.
    received: {
      after: {
        1: [
          { guard: 'ackFirst', target: 'afterTransportProgress', actions: 'ack' },
          { target: 'applying' },
        ],
      },
    },
    // Acknowledged before the effect: a crash from here on loses the effect.
    afterTransportProgress: { after: { 1: 'applying' } },
    applying: {
      always: [
        { guard: 'sameTx', target: 'insertingInbox', actions: 'inboxInTx' },
        { guard: 'separateTx', target: 'insertingInbox', actions: 'inboxAlone' },
        { target: 'committingEffect', actions: 'effectAlone' },
      ],
    },
    insertingInbox: {
      on: {
        'db.result': [{ guard: 'staleReply' }, { guard: { type: 'otherStmt', params: { stmt: 'inbox' } } }, { guard: 'inserted', target: 'afterInboxInsert' }, { target: 'duplicateSeen', actions: ['noteInboxHit', 'abort'] }],
        'db.ran': [{ guard: 'staleReply' }, { guard: 'inserted', target: 'afterInboxInsert' }, { target: 'duplicateSeen', actions: 'noteInboxHit' }],
      },
      after: { timeout: { target: 'received', actions: ['abort', 'retry'] } },
    },
    // The inbox row exists: inside the open transaction (sameTx) or already committed (separateTx).
    afterInboxInsert: {
      after: {
        1: [
          { guard: 'sameTx', target: 'writingEffect', actions: 'effectInTx' },
          { target: 'committingEffect', actions: 'effectAlone' },
        ],
      },
    },
    writingEffect: {
      on: { 'db.result': [{ guard: 'staleReply' }, { guard: { type: 'otherStmt', params: { stmt: 'effect' } } }, { target: 'committingEffect', actions: ['noteEffectWrite', 'commit'] }] },
      after: { timeout: { target: 'received', actions: ['abort', 'retry'] } },
    },
    committingEffect: {
      on: {
        'db.committed': [{ guard: 'staleReply' }, { guard: 'committed', target: 'afterEffectCommit', actions: 'noteEffect' }, { target: 'duplicateSeen' }],
        'db.ran': [{ guard: 'staleReply' }, { guard: 'committed', target: 'afterEffectCommit', actions: ['noteEffectWrite', 'noteEffect'] }, { target: 'duplicateSeen' }],
      },
      after: { timeout: { target: 'received', actions: 'retry' } },
    },
    // The effect is durable; transport progress has not moved.
    afterEffectCommit: { after: { 1: [{ guard: 'ackFirst', target: 'idle', actions: 'done' }, { target: 'beforeTransportProgress' }] } },
    duplicateSeen: { after: { 1: [{ guard: 'ackFirst', target: 'idle', actions: 'done' }, { target: 'beforeTransportProgress' }] } },
    beforeTransportProgress: { after: { 1: { target: 'idle', actions: ['ack', 'done'] } } },
  },
});

const EffectSpecSchema = z.strictObject({
  op: z.enum(['insert', 'upsert']),
  table: z.string(),
  columns: z.record(z.string(), z.union([z.string(), z.strictObject({ const: z.union([z.string(), z.number(), z.boolean(), z.null()]) })])),
});

/** The consumer's options as a design draws it; durations in their units. */
export const ConsumerOptions = z.strictObject({
  ...componentFields,
  broker: z.string().optional(),
  group: z.string(),
  consumerName: z.string().optional(),
  db: z.string(),
  inboxDb: z.string().optional(),
  inbox: z.enum(['sameTx', 'separateTx', 'none']),
  effect: EffectSpecSchema,
  versionCheck: z.boolean().optional(),
  ack: z.enum(['afterCommit', 'beforeCommit']).optional(),
  /** How long it waits for its database before trying the record again (20 ticks). */
  timeout: duration.optional(),
});

/** A consumer applying one local effect per delivered record, named `consumer` unless the design names it. */
export function consumer(options: z.input<typeof ConsumerOptions>): ComponentBuilder {
  const o = parseOptions('consumer', ConsumerOptions, options);
  const name = o.name ?? 'consumer';
  const brokerName = o.broker ?? 'broker';
  return ({ time }) => {
    const input: ConsumerInput = {
      broker: brokerName,
      group: o.group,
      db: o.db,
      inbox: o.inbox,
      effect: o.effect,
      ...given({
        consumerName: o.consumerName,
        inboxDb: o.inboxDb,
        versionCheck: o.versionCheck,
        ack: o.ack,
        timeoutTicks: ticksOf(time, `${name} option timeout`, o.timeout),
      }),
    };
    return {
      name,
      machine: consumerMachine,
      process: true,
      peers: [brokerName, o.db, ...(o.inboxDb ? [o.inboxDb] : [])],
      input: input as unknown as Record<string, unknown>,
      ...common(time, name, o),
    };
  };
}

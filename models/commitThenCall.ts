// A service that commits a row and then calls an external provider: a shipment service that,
// for each accepted order it consumes, writes its shipment row in a transaction, commits, and
// then books the pickup through a carrier's API (seed 000: "The processor can atomically mark its
// local state CALL_REQUIRED; it cannot atomically commit the carrier's database in the same local
// transaction"). The row is the service's own record that the effect is owed; the effect itself
// leaves the database, so no transaction covers both, and the moment between the commit and the
// call is a failure window of its own (seed 003: "Interrupt it immediately before the call").
//
// For each delivery it inserts the row (`insert … on conflict do nothing`, status REQUESTED) and
// reads it back in one transaction; then, the row committed, it decides:
// - a row already SUCCEEDED (its operation id recorded) is a repeat: acknowledged, nothing called;
// - a row it has just inserted is new work: it calls;
// - a row that was already there and is not SUCCEEDED (REQUESTED, or UNKNOWN after an attempt
//   that gave up) depends on `existingRow`: `resume` treats it as work an earlier attempt may or
//   may not have finished (it asks the provider by key first when it can, then calls again under
//   the key); `skip` takes the row's existence as proof the call was made, the common
//   "insert … on conflict do nothing, and call only if the insert did something" guard, which
//   loses the call when a crash fell between the commit and the call.
// Then it calls (with the effect key as idempotency key when `sendKey`), waits, on a timeout asks
// by key (`statusLookup`) or retries (`maxAttempts`, or a backoff schedule `retry`, as the
// caller's), and records the outcome in the row (SUCCEEDED with the provider's operation id,
// CONFLICT, or UNKNOWN once the attempts are spent), commits, and acknowledges the delivery.
// Durable: nothing of its own; the rows are its database's. Volatile: its queue, the delivery and
// the answer in hand. A broker crash ends its session as a dropped connection does.
// Fault model: its failure windows are its resting states; the ones the seeds name are
// `afterRowCommit` (the row committed, the call not sent), `awaitingExternalResponse` (the call
// sent, no answer), `afterExternalResponse` (the answer in hand, not committed) and
// `afterLocalCommit` (the outcome committed, the offset not acknowledged).
import type { DesignIndex } from '../src/checkers/designIndex.ts';
import { assign, enqueueActions, setup } from 'xstate';
import { note, send, type Emitted, type PeerCrashed } from '../src/kernel/emitted.ts';
import { common, componentFields, given, ticksOf, type ComponentBuilder } from '../src/scenario/design.ts';
import { InputError } from '../src/base/inputError.ts';
import { duration, parseOptions, z } from '../src/scenario/options.ts';
import type { BrokerReply } from './broker.ts';
import { CallRetryOptions, callRetryWaits } from './callRetry.ts';
import { effectKeyOf, intentOf, type OutcomeState } from './caller.ts';
import type { DatabaseReply, DbOp, Row, TableSpec } from './database.ts';
import type { ProviderReply, ProviderResponseStatus } from './provider.ts';
import { commitRequest, groupMember, subscribeRequest, withDelivery, type Delivery } from './subscription.ts';

export interface CommitThenCallInput {
  readonly broker: string;
  readonly group: string;
  readonly db: string;
  /** The row's table; its key is the effect key's fields (see commitThenCallTable). */
  readonly table: string;
  readonly provider: string;
  /** Payload fields forming the row's key and the effect key, e.g. ['order_id', 'pickup_version']. */
  readonly effectKey: readonly string[];
  /** Payload fields forming the canonical intent; all but `event_id` when absent. */
  readonly intentFields?: readonly string[];
  readonly sendKey: boolean;
  readonly statusLookup: boolean;
  /** What a delivery whose row was already there, and not SUCCEEDED, does: call again (`resume`) or nothing (`skip`). */
  readonly existingRow: 'resume' | 'skip';
  readonly timeoutTicks?: number;
  readonly maxAttempts?: number;
  /** The waits before retry 1, 2, … in ticks (models/callRetry.ts), in place of `maxAttempts`. */
  readonly retryWaitsTicks?: readonly number[];
  readonly durable?: Record<string, never>;
}

/** The row's table: keyed by the effect key's fields, with the canonical intent, the status and the provider's operation id. */
export function commitThenCallTable(effectKey: readonly string[]): TableSpec {
  return { key: [...effectKey] };
}

/** What the service read back with its row: whether it inserted it, and the row as committed. */
type RowRead = { readonly inserted: boolean; readonly status: string | undefined; readonly op_id: string | undefined };

type Answer = { readonly status: ProviderResponseStatus | 'found'; readonly op_id: string };

type Ctx = {
  durable: Record<string, never>;
  input: CommitThenCallInput;
  queue: readonly Delivery[];
  current: Delivery | undefined;
  attempt: number;
  row: RowRead | undefined;
  /** An earlier attempt may have reached the provider: ask before calling. */
  reconcile: boolean;
  answer: Answer | undefined;
  outcome: OutcomeState | undefined;
};

type Event = BrokerReply | DatabaseReply | ProviderReply | PeerCrashed;

const keyRow = (ctx: Ctx): Row => Object.fromEntries(ctx.input.effectKey.map((f) => [f, ctx.current!.payload[f] ?? null])) as Row;
const keyOf = (ctx: Ctx) => effectKeyOf(ctx.input.effectKey, ctx.current!.payload);
const intentOfCtx = (ctx: Ctx) => intentOf(ctx.input.intentFields, ctx.current!.payload);
const canLookup = (ctx: Ctx) => ctx.input.statusLookup && ctx.input.sendKey;
const attemptsOf = (input: CommitThenCallInput) => (input.retryWaitsTicks === undefined ? (input.maxAttempts ?? 3) : input.retryWaitsTicks.length + 1);
const waitBeforeCall = (ctx: Ctx) => (ctx.attempt === 0 || ctx.input.retryWaitsTicks === undefined ? 1 : ctx.input.retryWaitsTicks[ctx.attempt - 1]!);
/** Refs name the delivery, so a late reply to an earlier attempt of it still counts. */
const refBase = (ctx: Ctx) => `${ctx.current!.partition}.${ctx.current!.offset}`;
const isDbReply = (ctx: Ctx, event: Event, what: string) => event.type === 'db.ran' && ctx.current !== undefined && event.ref === `${refBase(ctx)}.${what}` && event.ok;
const isProviderReply = (ctx: Ctx, event: Event, type: ProviderReply['type']) => event.type === type && ctx.current !== undefined && event.ref.startsWith(`${refBase(ctx)}#`);
const statusOf = (event: Event) => (event.type === 'provider.statusResult' ? event.op_id : undefined);

export const commitThenCallMachine = setup({
  types: { context: {} as Ctx, input: {} as CommitThenCallInput, events: {} as Event, emitted: {} as Emitted },
  delays: { timeout: ({ context }) => context.input.timeoutTicks ?? 20, beforeCall: ({ context }) => waitBeforeCall(context) },
  guards: {
    hasWork: ({ context }) => context.queue.length > 0,
    brokerCrashed: ({ context, event }) => event.type === 'sys.peerCrashed' && event.peer === context.input.broker,
    isRowWrite: ({ context, event }) => isDbReply(context, event, 'row'),
    isOutcomeWrite: ({ context, event }) => isDbReply(context, event, 'outcome'),
    alreadySucceeded: ({ context }) => context.row?.status === 'SUCCEEDED',
    insertedNow: ({ context }) => context.row?.inserted === true,
    skipsExisting: ({ context }) => context.input.existingRow === 'skip',
    reconcileFirst: ({ context }) => context.reconcile && canLookup(context),
    canLookup: ({ context }) => canLookup(context),
    attemptsLeft: ({ context }) => context.attempt < attemptsOf(context.input),
    isResponse: ({ context, event }) => isProviderReply(context, event, 'provider.response'),
    isFound: ({ context, event }) => isProviderReply(context, event, 'provider.statusResult') && typeof statusOf(event) === 'string',
    isNotFound: ({ context, event }) => isProviderReply(context, event, 'provider.statusResult') && statusOf(event) === null,
  },
  actions: {
    subscribe: enqueueActions(({ context, enqueue }) => enqueue.emit(send(context.input.broker, subscribeRequest(context.input.group)))),
    forgetSession: assign({ queue: [], current: undefined, attempt: 0, row: undefined, reconcile: false, answer: undefined, outcome: undefined }),
    enqueue: assign(({ context, event }) => {
      const queue = event.type === 'broker.deliver' ? withDelivery(context.queue, context.current, event) : undefined;
      return queue === undefined ? {} : { queue };
    }),
    take: assign(({ context }) => ({ current: context.queue[0], queue: context.queue.slice(1), attempt: 0, row: undefined, reconcile: false, answer: undefined, outcome: undefined })),
    done: assign({ current: undefined, row: undefined, answer: undefined, outcome: undefined }),
    ack: enqueueActions(({ context, enqueue }) => enqueue.emit(send(context.input.broker, commitRequest(context.current!)))),
    // The row and its read-back in one transaction: the row is committed before anything leaves.
    writeRow: enqueueActions(({ context, enqueue }) => {
      const row: Row = { ...keyRow(context), intent: intentOfCtx(context), status: 'REQUESTED', op_id: null };
      const ops: DbOp[] = [
        { op: 'insert', table: context.input.table, row, onConflict: 'nothing' },
        { op: 'select', table: context.input.table, where: keyRow(context) },
      ];
      enqueue.emit(send(context.input.db, { type: 'db.run', ref: `${refBase(context)}.row`, ops }));
    }),
    rememberRow: assign(({ event }) => {
      if (event.type !== 'db.ran') return {};
      const stored = event.results[1]?.rows?.[0];
      const status = stored?.['status'] === undefined || stored['status'] === null ? undefined : String(stored['status']);
      const opId = stored?.['op_id'] === undefined || stored['op_id'] === null ? undefined : String(stored['op_id']);
      return { row: { inserted: event.results[0]?.inserted === true, status, op_id: opId } };
    }),
    noteRowOutcome: enqueueActions(({ context, enqueue }) => enqueue.emit(note('guard', { guard: 'rowOutcome', key: keyOf(context), op_id: context.row?.op_id }))),
    noteRowExists: enqueueActions(({ context, enqueue }) => enqueue.emit(note('guard', { guard: 'rowExists', key: keyOf(context), status: context.row?.status }))),
    // A row that was already there and not finished: an earlier attempt may have called.
    resumeExisting: assign({ reconcile: true }),
    noteReconcile: enqueueActions(({ context, enqueue }) => enqueue.emit(note('reconcile', { key: keyOf(context) }))),
    call: enqueueActions(({ context, enqueue }) => {
      const attempt = context.attempt + 1;
      enqueue.assign({ attempt });
      const key = context.input.sendKey ? { key: keyOf(context) } : {};
      enqueue.emit(send(context.input.provider, { type: 'provider.call', ref: `${refBase(context)}#${attempt}`, ...key, intent: intentOfCtx(context) }));
    }),
    askStatus: enqueueActions(({ context, enqueue }) =>
      enqueue.emit(send(context.input.provider, { type: 'provider.status', ref: `${refBase(context)}#s${context.attempt}`, key: keyOf(context) })),
    ),
    rememberAnswer: assign(({ context, event }) => {
      if (event.type === 'provider.response') return { answer: { status: event.status, op_id: event.op_id } };
      if (event.type === 'provider.statusResult' && event.op_id !== null) return { answer: { status: event.intent !== undefined && event.intent !== intentOfCtx(context) ? ('conflict' as const) : ('found' as const), op_id: event.op_id } };
      return {};
    }),
    settle: assign(({ context }) => ({ outcome: context.answer?.status === 'conflict' ? ('CONFLICT' as const) : ('SUCCEEDED' as const) })),
    giveUp: enqueueActions(({ context, enqueue }) => {
      enqueue.assign({ outcome: 'UNKNOWN', answer: undefined });
      enqueue.emit(note('unknownOutcome', { key: keyOf(context), intent: intentOfCtx(context), attempts: context.attempt }));
    }),
    // The outcome goes into the row itself, in a transaction of its own after the call.
    writeOutcome: enqueueActions(({ context, enqueue }) => {
      const ops: DbOp[] = [{ op: 'update', table: context.input.table, where: keyRow(context), set: { status: context.outcome!, op_id: context.answer?.op_id ?? null } }];
      enqueue.emit(send(context.input.db, { type: 'db.run', ref: `${refBase(context)}.outcome`, ops }));
    }),
    noteOutcome: enqueueActions(({ context, enqueue }) => {
      const data = { provider: context.input.provider, op_id: context.answer?.op_id ?? null, key: keyOf(context), intent: intentOfCtx(context) };
      if (context.outcome === 'SUCCEEDED') enqueue.emit(note('effect', { ...data, status: context.answer!.status }));
      else if (context.outcome === 'CONFLICT') enqueue.emit(note('conflict', data));
    }),
  },
}).createMachine({
  id: 'commitThenCall',
  context: ({ input }) => ({ durable: input.durable ?? {}, input, queue: [], current: undefined, attempt: 0, row: undefined, reconcile: false, answer: undefined, outcome: undefined }),
  initial: 'connecting',
  on: { 'broker.deliver': { actions: 'enqueue' }, 'sys.peerCrashed': { guard: 'brokerCrashed', target: '.connecting', actions: 'forgetSession' } },
  states: {
    connecting: { entry: 'subscribe', on: { 'broker.subscribed': 'idle' }, after: { timeout: { target: 'connecting', reenter: true } } },
    idle: { tags: ['idle'], always: { guard: 'hasWork', target: 'received', actions: 'take' } },
    // A record is in hand; nothing about it is durable here yet.
    received: { after: { 1: { target: 'committingRow', actions: 'writeRow' } } },
    // The row's transaction is on its way; a lost answer leaves it committed or not.
    committingRow: {
      on: { 'db.ran': { guard: 'isRowWrite', target: 'afterRowCommit', actions: 'rememberRow' } },
      after: { timeout: { target: 'committingRow', reenter: true, actions: 'writeRow' } },
    },
    // The row is committed and the call not yet sent: the window no transaction covers.
    afterRowCommit: { after: { 1: { target: 'decidingRow' } } },
    decidingRow: {
      always: [
        { guard: 'alreadySucceeded', target: 'duplicateSeen', actions: 'noteRowOutcome' },
        { guard: 'insertedNow', target: 'dispatching' },
        { guard: 'skipsExisting', target: 'duplicateSeen', actions: 'noteRowExists' },
        { target: 'dispatching', actions: 'resumeExisting' },
      ],
    },
    dispatching: {
      always: [{ guard: 'reconcileFirst', target: 'checkingStatus', actions: ['noteReconcile', 'askStatus'] }, { target: 'beforeExternalCall' }],
    },
    // The call is not yet sent: the next tick for a first call, a backoff wait for a retry.
    beforeExternalCall: { after: { beforeCall: { target: 'awaitingExternalResponse', actions: 'call' } } },
    awaitingExternalResponse: {
      on: { 'provider.response': { guard: 'isResponse', target: 'afterExternalResponse', actions: 'rememberAnswer' } },
      after: {
        timeout: [
          { guard: 'canLookup', target: 'checkingStatus', actions: 'askStatus' },
          { guard: 'attemptsLeft', target: 'beforeExternalCall' },
          { target: 'committingOutcome', actions: ['giveUp', 'writeOutcome'] },
        ],
      },
    },
    checkingStatus: {
      on: {
        'provider.response': { guard: 'isResponse', target: 'afterExternalResponse', actions: 'rememberAnswer' },
        'provider.statusResult': [
          { guard: 'isFound', target: 'afterExternalResponse', actions: 'rememberAnswer' },
          { guard: 'isNotFound', target: 'notFound' },
        ],
      },
      after: { timeout: { target: 'notFound' } },
    },
    notFound: { always: [{ guard: 'attemptsLeft', target: 'beforeExternalCall' }, { target: 'committingOutcome', actions: ['giveUp', 'writeOutcome'] }] },
    // The provider's answer is in hand and nothing about it is committed locally.
    afterExternalResponse: { after: { 1: { target: 'committingOutcome', actions: ['settle', 'writeOutcome'] } } },
    committingOutcome: {
      on: { 'db.ran': { guard: 'isOutcomeWrite', target: 'afterLocalCommit', actions: 'noteOutcome' } },
      after: { timeout: { target: 'committingOutcome', reenter: true, actions: 'writeOutcome' } },
    },
    // The outcome is committed in the row; transport progress has not moved.
    afterLocalCommit: { after: { 1: { target: 'idle', actions: ['ack', 'done'] } } },
    duplicateSeen: { after: { 1: { target: 'idle', actions: ['ack', 'done'] } } },
  },
});

/** The service's options as a design draws it; durations in their units. */
export const CommitThenCallOptions = z.strictObject({
  ...componentFields,
  broker: z.string().optional(),
  group: z.string(),
  db: z.string().optional(),
  table: z.string(),
  provider: z.string().optional(),
  effectKey: z.array(z.string()).min(1),
  intentFields: z.array(z.string()).optional(),
  sendKey: z.boolean(),
  statusLookup: z.boolean(),
  existingRow: z.enum(['resume', 'skip']),
  /** How long it waits for the provider or its database (20 ticks). */
  timeout: duration.optional(),
  maxAttempts: z.number().int().min(1).optional(),
  retry: CallRetryOptions.optional(),
});

/** A service that commits a row and then calls an external provider, named `service` unless the design names it. */
export function commitThenCall(options: z.input<typeof CommitThenCallOptions>): ComponentBuilder {
  const o = parseOptions('commitThenCall', CommitThenCallOptions, options);
  const name = o.name ?? 'service';
  if (o.retry !== undefined && o.maxAttempts !== undefined) throw new InputError(`${name} takes maxAttempts or a retry schedule, not both: the schedule sets the attempts`);
  // A lookup asks the provider by the key the call carried: without one there is nothing to ask by,
  // and the lookup would silently never happen.
  if (o.statusLookup && !o.sendKey) throw new InputError(`${name} option statusLookup needs sendKey: true: a lookup asks the provider for the operation under the key its call carried, and a call without a key leaves nothing to look up`);
  return ({ time }) => {
    const input: CommitThenCallInput = {
      broker: o.broker ?? 'broker',
      group: o.group,
      db: o.db ?? 'serviceDb',
      table: o.table,
      provider: o.provider ?? 'provider',
      effectKey: o.effectKey,
      sendKey: o.sendKey,
      statusLookup: o.statusLookup,
      existingRow: o.existingRow,
      ...given({
        intentFields: o.intentFields,
        timeoutTicks: ticksOf(time, `${name} option timeout`, o.timeout),
        maxAttempts: o.maxAttempts,
        retryWaitsTicks: o.retry === undefined ? undefined : callRetryWaits(time, name, o.retry),
      }),
    };
    // Its database holds the table it writes its rows to: found at load, not as a failed statement in a run.
    const wiring = (design: DesignIndex) => {
      const missing = design.missingTable(input.db, input.table);
      return missing === undefined ? [] : [`row table: ${missing}`];
    };
    return { name, machine: commitThenCallMachine, process: true, peers: [input.broker, input.db, input.provider], input: { ...input }, wiring, subscribes: groupMember(input.broker, input.group), ...common(time, name, o) };
  };
}

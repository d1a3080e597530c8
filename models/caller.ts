// A consumer of broker deliveries whose effect is a call to an external API: fulfillment booking
// a carrier pickup, a payment consumer capturing, a notifier sending email. It follows the
// seed's path for effects outside the local transaction: derive a stable effect key from the
// record, store the local intent, call with the key, persist the provider's operation id, and on
// a timeout ask the provider by key before retrying.
// Design options:
// - `sendKey`: pass the effect key to the provider as its idempotency key.
// - `statusLookup`: on a timeout (or a pending intent found after a restart) ask the provider
//   for the operation under the key before calling again; it needs `sendKey`, since a provider
//   can only look up a key it was given.
// - `recordIntent`: write the intent (PENDING) to `effect_intents` before the call, so a
//   redelivery after a crash knows an earlier attempt may have reached the provider and
//   reconciles first instead of calling blind.
// - `sideEffects`: `enabled` (the default) makes the call; `gated` never calls the provider and
//   records the outcome GATED instead, which is how a replay or rebuild run in its own namespace
//   passes the records through its code without repeating the external effect.
// - `maxAttempts` calls, one right after another's timeout; or a `retry` schedule
//   (models/callRetry.ts): exponential backoff with a cap, until a deadline. Either way, once
//   the attempts are spent the outcome is recorded UNKNOWN. The wait before a retry is spent in
//   `beforeExternalCall`, the window where the call is not yet sent.
// Local records live in its database: `effect_outcomes` and `effect_intents`, keyed by effect
// key and intent (a different request under a reused key is not a repeat). The queue, the
// delivery in hand and the response in hand are volatile; after a restart it subscribes again
// and the broker redelivers from the committed offset. A broker crash (or restore) ends its
// session as a dropped connection does: it drops the record in hand and subscribes again, and
// the broker redelivers from the committed offset, as for the consumer.
// Fault model: its failure windows are `caller.beforeExternalCall` (intent recorded, call not
// sent), `caller.afterExternalResponse` (response in hand, not committed locally),
// `caller.afterLocalCommit` (outcome committed, offset not acknowledged) and its waiting states;
// the provider adds `provider.afterExternalEffect`.
import { assign, enqueueActions, setup } from 'xstate';
import { note, send, type Emitted, type PeerCrashed } from '../src/kernel/emitted.ts';
import type { BrokerReply, Payload } from './broker.ts';
import { commitRequest, groupMember, subscribeRequest, withDelivery, type Delivery } from './subscription.ts';
import type { DatabaseReply, DbOp, Row, TableSpec } from './database.ts';
import type { ProviderReply, ProviderResponseStatus } from './provider.ts';
import { common, componentFields, given, ticksOf, type ComponentBuilder } from '../src/scenario/design.ts';
import { InputError } from '../src/base/inputError.ts';
import { duration, parseOptions, z } from '../src/scenario/options.ts';
import type { DesignIndex } from '../src/checkers/designIndex.ts';
import { missingFields, publishedFields } from './payloadFields.ts';
import { CallRetryOptions, callRetryWaits } from './callRetry.ts';

export interface CallerInput {
  readonly broker: string;
  readonly group: string;
  /** Its local database, holding `effect_intents` and `effect_outcomes` (see CALLER_TABLES). */
  readonly db: string;
  readonly provider: string;
  /** Payload fields forming the effect key, e.g. ['order_id', 'pickup_version']. */
  readonly effectKey: readonly string[];
  /** Payload fields forming the canonical intent; all but `event_id` when absent. */
  readonly intentFields?: readonly string[];
  readonly sendKey: boolean;
  readonly statusLookup: boolean;
  readonly recordIntent: boolean;
  readonly timeoutTicks?: number;
  /** Calls per delivery before the outcome is recorded UNKNOWN. */
  readonly maxAttempts?: number;
  /**
   * The waits before retry 1, 2, … in ticks (a backoff schedule, models/callRetry.ts): one call
   * plus one retry per wait, in place of `maxAttempts`. Absent: each retry follows at once.
   */
  readonly retryWaitsTicks?: readonly number[];
  /** `gated`: record the outcome GATED and never call the provider (a rebuild run's gate). */
  readonly sideEffects?: 'enabled' | 'gated';
  readonly durable?: Record<string, never>;
}

/** The tables a caller's database must declare. */
export const CALLER_TABLES: Readonly<Record<string, TableSpec>> = {
  effect_intents: { key: ['key', 'intent'] },
  effect_outcomes: { key: ['key', 'intent'] },
};

export type OutcomeState = 'SUCCEEDED' | 'UNKNOWN' | 'CONFLICT' | 'GATED';

/** What the caller learnt from the provider: a response, or an operation found by status. */
type Answer = { readonly status: ProviderResponseStatus | 'found'; readonly op_id: string };

type Ctx = {
  durable: Record<string, never>;
  input: CallerInput;
  queue: readonly Delivery[];
  current: Delivery | undefined;
  /** Calls sent for the delivery in hand. */
  attempt: number;
  /** The local records say an earlier attempt may have reached the provider. */
  reconcile: boolean;
  /** The op_id of a SUCCEEDED local outcome for this key and intent, if any. */
  localOp: string | undefined;
  answer: Answer | undefined;
  outcome: OutcomeState | undefined;
};

type Event = BrokerReply | DatabaseReply | ProviderReply | PeerCrashed;

/** The effect key of a record: the named payload fields, in order. */
export function effectKeyOf(fields: readonly string[], payload: Payload): string {
  return fields.map((f) => String(payload[f] ?? '')).join('/');
}

/** The canonical intent of a record: the named fields, sorted, so field order never matters. */
export function intentOf(fields: readonly string[] | undefined, payload: Payload): string {
  const names = [...(fields ?? Object.keys(payload).filter((f) => f !== 'event_id'))].sort();
  return names.map((f) => `${escaped(f)}=${escaped(String(payload[f] ?? ''))}`).join('&');
}

/**
 * A name or value as an intent holds it: `%`, `&` and `=` percent-encoded, so a value holding
 * `&order_id=o-9` (a free-text address) cannot be read as another field. Values without them,
 * the ids and figures of every record, read as they are.
 */
function escaped(text: string): string {
  return text.replace(/[%&=]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/**
 * One field of an intent as `intentOf` wrote it (`amount=10&order_id=o-1`), or undefined when the
 * intent has none: what a claim keys a provider's operations by when the idempotency key is
 * something else (`intentField(op.intent, 'order_id')`).
 */
export function intentField(intent: string, field: string): string | undefined {
  return intentValues(intent).get(field);
}

/** Every field of an intent as `intentOf` wrote it, by name, each read back as it was given. */
export function intentValues(intent: string): ReadonlyMap<string, string> {
  const out = new Map<string, string>();
  for (const part of intent.split('&')) {
    const at = part.indexOf('=');
    if (at < 0) continue;
    const name = decodeURIComponent(part.slice(0, at));
    // The first of a name counts, as a reader of a query string takes it.
    if (!out.has(name)) out.set(name, decodeURIComponent(part.slice(at + 1)));
  }
  return out;
}

/** Calls a delivery gets: one per wait of the backoff schedule and the first, or `maxAttempts`. */
const attemptsOf = (input: CallerInput) => (input.retryWaitsTicks === undefined ? (input.maxAttempts ?? 3) : input.retryWaitsTicks.length + 1);
/** The first call goes out on the next tick; a retry waits its turn in the backoff schedule. */
const waitBeforeCall = (ctx: Ctx) => (ctx.attempt === 0 || ctx.input.retryWaitsTicks === undefined ? 1 : ctx.input.retryWaitsTicks[ctx.attempt - 1]!);
const keyOf = (ctx: Ctx) => effectKeyOf(ctx.input.effectKey, ctx.current!.payload);
const intentOfCtx = (ctx: Ctx) => intentOf(ctx.input.intentFields, ctx.current!.payload);
const canLookup = (ctx: Ctx) => ctx.input.statusLookup && ctx.input.sendKey;
/** Refs name the delivery, so a late reply to an earlier attempt of it still counts. */
const refBase = (ctx: Ctx) => `${ctx.current!.partition}.${ctx.current!.offset}`;
const isDbReply = (ctx: Ctx, event: Event, what: string) => event.type === 'db.ran' && ctx.current !== undefined && event.ref === `${refBase(ctx)}.${what}`;
const isProviderReply = (ctx: Ctx, event: Event, type: ProviderReply['type']) =>
  event.type === type && ctx.current !== undefined && event.ref.startsWith(`${refBase(ctx)}#`);

export const callerMachine = setup({
  types: { context: {} as Ctx, input: {} as CallerInput, events: {} as Event, emitted: {} as Emitted },
  delays: { timeout: ({ context }) => context.input.timeoutTicks ?? 20, beforeCall: ({ context }) => waitBeforeCall(context) },
  guards: {
    hasWork: ({ context }) => context.queue.length > 0,
    brokerCrashed: ({ context, event }) => event.type === 'sys.peerCrashed' && event.peer === context.input.broker,
    recordIntent: ({ context }) => context.input.recordIntent,
    gated: ({ context }) => context.input.sideEffects === 'gated',
    localSucceeded: ({ context }) => context.localOp !== undefined,
    reconcileFirst: ({ context }) => context.reconcile && canLookup(context),
    canLookup: ({ context }) => canLookup(context),
    attemptsLeft: ({ context }) => context.attempt < attemptsOf(context.input),
    isLocalRead: ({ context, event }) => isDbReply(context, event, 'local'),
    isIntentWrite: ({ context, event }) => isDbReply(context, event, 'intent') && event.type === 'db.ran' && event.ok,
    isOutcomeWrite: ({ context, event }) => isDbReply(context, event, 'outcome') && event.type === 'db.ran' && event.ok,
    isResponse: ({ context, event }) => isProviderReply(context, event, 'provider.response'),
    isFound: ({ context, event }) => isProviderReply(context, event, 'provider.statusResult') && event.type === 'provider.statusResult' && event.op_id !== null,
    isNotFound: ({ context, event }) => isProviderReply(context, event, 'provider.statusResult') && event.type === 'provider.statusResult' && event.op_id === null,
  },
  actions: {
    subscribe: enqueueActions(({ context, enqueue }) => enqueue.emit(send(context.input.broker, subscribeRequest(context.input.group)))),
    forgetSession: assign({ queue: [], current: undefined, attempt: 0, reconcile: false, localOp: undefined, answer: undefined, outcome: undefined }),
    enqueue: assign(({ context, event }) => {
      const queue = event.type === 'broker.deliver' ? withDelivery(context.queue, context.current, event) : undefined;
      return queue === undefined ? {} : { queue };
    }),
    take: assign(({ context }) => ({
      current: context.queue[0],
      queue: context.queue.slice(1),
      attempt: 0,
      reconcile: false,
      localOp: undefined,
      answer: undefined,
      outcome: undefined,
    })),
    done: assign({ current: undefined, answer: undefined, outcome: undefined }),
    ack: enqueueActions(({ context, enqueue }) => enqueue.emit(send(context.input.broker, commitRequest(context.current!)))),
    readLocal: enqueueActions(({ context, enqueue }) => {
      const where: Row = { key: keyOf(context), intent: intentOfCtx(context) };
      const ops: DbOp[] = [{ op: 'select', table: 'effect_outcomes', where }];
      if (context.input.recordIntent) ops.push({ op: 'select', table: 'effect_intents', where });
      enqueue.emit(send(context.input.db, { type: 'db.run', ref: `${refBase(context)}.local`, ops }));
    }),
    rememberLocal: assign(({ event }) => {
      if (event.type !== 'db.ran') return {};
      const outcome = event.results[0]?.rows?.[0];
      const intent = event.results[1]?.rows?.[0];
      const succeeded = outcome?.['state'] === 'SUCCEEDED' ? String(outcome['op_id']) : undefined;
      // A PENDING intent or an UNKNOWN outcome means an earlier attempt may have reached the
      // provider: the first question is whether it did, not another call.
      const reconcile = intent?.['state'] === 'PENDING' || outcome?.['state'] === 'UNKNOWN';
      return { localOp: succeeded, reconcile };
    }),
    noteLocalOutcome: enqueueActions(({ context, enqueue }) =>
      enqueue.emit(note('guard', { guard: 'localOutcome', key: keyOf(context), op_id: context.localOp })),
    ),
    noteReconcile: enqueueActions(({ context, enqueue }) => enqueue.emit(note('reconcile', { key: keyOf(context) }))),
    writeIntent: enqueueActions(({ context, enqueue }) => {
      const row: Row = { key: keyOf(context), intent: intentOfCtx(context), state: 'PENDING', op_id: null };
      enqueue.emit(send(context.input.db, { type: 'db.run', ref: `${refBase(context)}.intent`, ops: [{ op: 'upsert', table: 'effect_intents', row }] }));
    }),
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
      // An operation under the key made for another intent is not this request's: a conflict.
      if (event.type === 'provider.statusResult' && event.op_id !== null) return { answer: { status: event.intent !== undefined && event.intent !== intentOfCtx(context) ? ('conflict' as const) : ('found' as const), op_id: event.op_id } };
      return {};
    }),
    gate: enqueueActions(({ context, enqueue }) => {
      enqueue.assign({ outcome: 'GATED', answer: undefined });
      enqueue.emit(note('guard', { guard: 'sideEffectGate', key: keyOf(context) }));
    }),
    settle: assign(({ context }) => ({ outcome: context.answer?.status === 'conflict' ? ('CONFLICT' as const) : ('SUCCEEDED' as const) })),
    giveUp: enqueueActions(({ context, enqueue }) => {
      enqueue.assign({ outcome: 'UNKNOWN', answer: undefined });
      enqueue.emit(note('unknownOutcome', { key: keyOf(context), intent: intentOfCtx(context), attempts: context.attempt }));
    }),
    // The provider's operation id and the outcome, in one local transaction with the intent's end.
    writeOutcome: enqueueActions(({ context, enqueue }) => {
      const row: Row = { key: keyOf(context), intent: intentOfCtx(context), state: context.outcome!, op_id: context.answer?.op_id ?? null };
      const ops: DbOp[] = [{ op: 'upsert', table: 'effect_outcomes', row }];
      if (context.input.recordIntent) ops.push({ op: 'upsert', table: 'effect_intents', row });
      enqueue.emit(send(context.input.db, { type: 'db.run', ref: `${refBase(context)}.outcome`, ops }));
    }),
    noteOutcome: enqueueActions(({ context, enqueue }) => {
      const data = { provider: context.input.provider, op_id: context.answer?.op_id ?? null, key: keyOf(context), intent: intentOfCtx(context) };
      if (context.outcome === 'SUCCEEDED') enqueue.emit(note('effect', { ...data, status: context.answer!.status }));
      else if (context.outcome === 'CONFLICT') enqueue.emit(note('conflict', data));
    }),
  },
}).createMachine({
  id: 'caller',
  context: ({ input }) => ({
    durable: input.durable ?? {},
    input,
    queue: [],
    current: undefined,
    attempt: 0,
    reconcile: false,
    localOp: undefined,
    answer: undefined,
    outcome: undefined,
  }),
  initial: 'connecting',
  on: { 'broker.deliver': { actions: 'enqueue' }, 'sys.peerCrashed': { guard: 'brokerCrashed', target: '.connecting', actions: 'forgetSession' } },
  states: {
    // Until the broker confirms the subscription nothing arrives; a lost request is sent again.
    connecting: { entry: 'subscribe', on: { 'broker.subscribed': 'idle' }, after: { timeout: { target: 'connecting', reenter: true } } },
    idle: { tags: ['idle'], always: { guard: 'hasWork', target: 'received', actions: 'take' } },
    // A record is in hand; nothing about it is durable here yet.
    received: { after: { 1: { target: 'checkingLocalOutcome', actions: 'readLocal' } } },
    checkingLocalOutcome: {
      on: { 'db.ran': { guard: 'isLocalRead', target: 'decidingLocal', actions: 'rememberLocal' } },
      after: { timeout: { target: 'checkingLocalOutcome', reenter: true, actions: 'readLocal' } },
    },
    decidingLocal: {
      always: [
        { guard: 'localSucceeded', target: 'duplicateSeen', actions: 'noteLocalOutcome' },
        { guard: 'recordIntent', target: 'recordingIntent', actions: 'writeIntent' },
        { target: 'dispatching' },
      ],
    },
    recordingIntent: {
      on: { 'db.ran': { guard: 'isIntentWrite', target: 'dispatching' } },
      after: { timeout: { target: 'recordingIntent', reenter: true, actions: 'writeIntent' } },
    },
    dispatching: {
      always: [
        // A gated run commits its GATED outcome without a call: the effect is never attempted.
        { guard: 'gated', target: 'committingOutcome', actions: ['gate', 'writeOutcome'] },
        { guard: 'reconcileFirst', target: 'checkingStatus', actions: ['noteReconcile', 'askStatus'] },
        { target: 'beforeExternalCall' },
      ],
    },
    // The intent is recorded (when the design records it) and the call is not yet sent.
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
    // Asking the provider whether an operation exists under the key; an unanswered or negative
    // question leads to another call, which the key protects if the provider honours it.
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
    notFound: {
      always: [{ guard: 'attemptsLeft', target: 'beforeExternalCall' }, { target: 'committingOutcome', actions: ['giveUp', 'writeOutcome'] }],
    },
    // The provider's answer is in hand and nothing about it is committed locally.
    afterExternalResponse: { after: { 1: { target: 'committingOutcome', actions: ['settle', 'writeOutcome'] } } },
    committingOutcome: {
      on: { 'db.ran': { guard: 'isOutcomeWrite', target: 'afterLocalCommit', actions: 'noteOutcome' } },
      after: { timeout: { target: 'committingOutcome', reenter: true, actions: 'writeOutcome' } },
    },
    // The outcome is committed locally; transport progress has not moved.
    afterLocalCommit: { after: { 1: { target: 'idle', actions: ['ack', 'done'] } } },
    duplicateSeen: { after: { 1: { target: 'idle', actions: ['ack', 'done'] } } },
  },
});

/** The caller's options as a design draws it; durations in their units. */
export const CallerOptions = z.strictObject({
  ...componentFields,
  broker: z.string().optional(),
  group: z.string(),
  db: z.string().optional(),
  provider: z.string().optional(),
  effectKey: z.array(z.string()).min(1),
  intentFields: z.array(z.string()).optional(),
  sendKey: z.boolean(),
  statusLookup: z.boolean(),
  recordIntent: z.boolean(),
  /** How long it waits for the provider or its database (20 ticks). */
  timeout: duration.optional(),
  maxAttempts: z.number().int().min(1).optional(),
  /** Retry with exponential backoff until a deadline, in place of `maxAttempts` (see models/callRetry.ts). */
  retry: CallRetryOptions.optional(),
  sideEffects: z.enum(['enabled', 'gated']).optional(),
});

/** A consumer whose effect is a call to an external provider, named `caller` unless the design names it. */
export function caller(options: z.input<typeof CallerOptions>): ComponentBuilder {
  const o = parseOptions('caller', CallerOptions, options);
  const name = o.name ?? 'caller';
  if (o.retry !== undefined && o.maxAttempts !== undefined) throw new InputError(`${name} takes maxAttempts or a retry schedule, not both: the schedule sets the attempts`);
  // A lookup asks the provider by the key the call carried: without one there is nothing to ask by,
  // and the lookup would silently never happen.
  if (o.statusLookup && !o.sendKey) throw new InputError(`${name} option statusLookup needs sendKey: true: a lookup asks the provider for the operation under the key its call carried, and a call without a key leaves nothing to look up`);
  const input = (timeoutTicks: number | undefined, retryWaitsTicks: number[] | undefined): CallerInput => ({
    broker: o.broker ?? 'broker',
    group: o.group,
    db: o.db ?? 'callerDb',
    provider: o.provider ?? 'provider',
    effectKey: o.effectKey,
    sendKey: o.sendKey,
    statusLookup: o.statusLookup,
    recordIntent: o.recordIntent,
    ...given({ intentFields: o.intentFields, timeoutTicks, maxAttempts: o.maxAttempts, retryWaitsTicks, sideEffects: o.sideEffects }),
  });
  return ({ time }) => {
    const i = input(ticksOf(time, `${name} option timeout`, o.timeout), o.retry === undefined ? undefined : callRetryWaits(time, name, o.retry));
    return { name, machine: callerMachine, process: true, peers: [i.broker, i.db, i.provider], input: { ...i }, wiring: (design) => callerWiring(i, design), subscribes: groupMember(i.broker, i.group), ...common(time, name, o) };
  };
}

/** The caller's database holds its records, and the records it reads carry the fields of its key and intent. */
function callerWiring(i: CallerInput, design: DesignIndex): string[] {
  const tables = Object.keys(CALLER_TABLES).flatMap((t) => design.missingTable(i.db, t) ?? []);
  const carried = publishedFields(design, i.broker);
  return [...tables, ...missingFields(design, i.broker, 'effectKey field', i.effectKey, carried), ...missingFields(design, i.broker, 'intentFields field', i.intentFields ?? [], carried)];
}

/** The fields of the intent a caller sends its provider: the ones it names, else every field of its records but `event_id`. */
export function intentFieldsOf(i: CallerInput, design: DesignIndex): readonly string[] | undefined {
  if (i.intentFields !== undefined) return i.intentFields;
  return publishedFields(design, i.broker)?.filter((f) => f !== 'event_id');
}

// A consumer of one broker subscription that applies one local effect per delivered record.
// Design options, each a line of the seeds:
// - `inbox`: the consumed event_id recorded in the same transaction as the effect (`sameTx`),
//   in a separate transaction first (`separateTx`: the dual write returns), in a process-local
//   cache (`localCache`: fast, but a crash empties it and each member of a group has its own,
//   seed 000's "a process-local cache loses history on restart and cannot coordinate
//   replicas"), or not at all.
// - the effect table's key: the effect's semantic key (a repeat inserts nothing) or a surrogate
//   id (`autoId`: every repeat inserts another row). That lives on the database's table spec.
// - `handler`: the effect as one atomic insert (`atomic`: only a unique key stops a repeat), or
//   `checkThenInsert`: read whether the effect exists, then insert in a second statement. A
//   repeat that comes after the first has committed reads "present"; two members handling the
//   same record at once both read "absent" and both insert, unless a unique key refuses one.
// - `versionCheck`: an upsert that only moves a row's version forwards, against reordering.
// - `ack`: transport progress (the broker offset) advanced after the effect commits, or before.
// - `retry` (models/retryPolicy.ts): what happens when the handler fails on a record (a payload
//   marked `poison: true` fails every time; `failures: N` fails the first N attempts). Without a
//   policy the handler never fails. `blocking` retries inside the handler after each wait of the
//   backoff schedule, holding every partition of the consumer meanwhile; `retryTopic` hands the
//   record to a retry topic with its attempt count and due time and moves on, optionally parking
//   its key (later records of that key follow it through the retry topic instead of overtaking
//   it); after the last retry the record goes to a dead-letter topic with its error, attempt
//   count and original offset, or, without one, is retried for ever at the last wait.
// - `reads: 'retries'`: the consumer of a retry topic, which waits until a record is due, runs
//   the same handler, and (with parking) handles a parked key's records strictly in order.
// A statement or commit the database fails for a reason another attempt gets past (a deadlock,
// a transaction the idle timeout rolled back) is an error to the handler: it rolls back and
// handles the record again without acknowledging it. Only an inbox row or effect already there,
// or a commit refused on its key, is a repeat.
// Its durable state is in its databases; the queue of received deliveries, the record in hand,
// its handler attempts, open transactions and a local cache are volatile. After a restart it
// subscribes again and the broker redelivers from the committed offset.
// The machine has only the states its options need (consumerMachineFor), so a design without a
// retry policy or a check-then-insert handler has no failure windows that could never be entered.
import { assign, enqueueActions, setup } from 'xstate';
import { note, send, type Emitted, type PeerCrashed } from '../src/kernel/emitted.ts';
import type { BrokerReply, Payload } from './broker.ts';
import type { DatabaseReply, DbOp, Row, Value } from './database.ts';
import { commitRequest, groupMember, subscribeRequest, withDelivery, type Delivery } from './subscription.ts';
import { attemptOf, deadLetterPayload, handlerError, retryPayload, retryPolicyOf, RetryOptions, waitAfter, type RetryPolicy } from './retryPolicy.ts';
import { common, componentFields, given, ticksOf, type ComponentBuilder } from '../src/scenario/design.ts';
import type { TimeScale } from '../src/base/duration.ts';
import { InputError } from '../src/base/inputError.ts';
import { duration, parseOptions, z } from '../src/scenario/options.ts';
import type { DesignComponent } from '../src/scenario/scenario.ts';
import type { DesignIndex } from '../src/checkers/designIndex.ts';
import { missingFields } from './payloadFields.ts';

export interface EffectSpec {
  /** insert: create a row (a repeat is suppressed only by a unique key); upsert: set a row. */
  readonly op: 'insert' | 'upsert';
  readonly table: string;
  /** Effect columns: a payload field name, a constant, or the tick the handler ran (SQL's `now()`). */
  readonly columns: Readonly<Record<string, string | { readonly const: Value } | { readonly now: true }>>;
}

export interface ConsumerInput {
  readonly broker: string;
  readonly group: string;
  /** The inbox namespace: the consumer identity whose history the inbox records. */
  readonly consumerName?: string;
  readonly db: string;
  readonly inboxDb?: string;
  readonly inbox: 'sameTx' | 'separateTx' | 'localCache' | 'none';
  readonly effect: EffectSpec;
  readonly handler?: 'atomic' | 'checkThenInsert';
  readonly versionCheck?: boolean;
  readonly ack?: 'afterCommit' | 'beforeCommit';
  readonly timeoutTicks?: number;
  readonly retry?: RetryPolicy;
  /** `retries`: it reads a retry topic, waiting for each record's due time. */
  readonly reads?: 'records' | 'retries';
  readonly durable?: Record<string, never>;
}

/** What the record in hand is being handed to: the retry topic (after a failure, or parked behind its key) or the dead-letter topic. */
type HandOver = { readonly kind: 'retry' | 'forward' | 'deadLetter'; readonly to: string; readonly ref: string; readonly payload: Payload };

type Ctx = {
  durable: Record<string, never>;
  input: ConsumerInput;
  queue: readonly Delivery[];
  current: Delivery | undefined;
  attempt: number;
  wrote: boolean;
  /**
   * The tick the record in hand's effect statement was sent at, where the effect writes the time
   * (a `{ now: true }` column): the note of the committed effect shows the row as it was written,
   * not with the tick of the commit. Kept only then, so no other design's states tell it apart.
   */
  effectAt: number | undefined;
  /** Handler runs of the record in hand, in this incarnation (blocking retries). */
  tries: number;
  /** The tick the record in hand was taken, or its due time once waited for. */
  takenAt: number;
  /** Whether the parked-key lookup for the record in hand has been made. */
  parkChecked: boolean;
  /** Event ids this process has applied: the local cache, emptied by a crash. */
  cache: readonly string[];
  handOver: HandOver | undefined;
  /**
   * Records taken so far by this incarnation. Each taking of a record opens its transactions
   * under names of its own, as on a new connection: a take that abandoned its transaction (its
   * abort or commit lost on the way) may have left it open on the database, and a reply to it
   * on its way, which a later take of the same record must not meet.
   */
  takes: number;
};

type Event = BrokerReply | DatabaseReply | PeerCrashed;

export function effectRow(spec: EffectSpec, payload: Payload, now = 0): Row {
  const row: Record<string, Value> = {};
  for (const [col, src] of Object.entries(spec.columns)) row[col] = typeof src === 'string' ? (payload[src] ?? null) : 'const' in src ? src.const : now;
  return row;
}

/** The effect columns that come from the record: what a check-then-insert handler looks the effect up by. */
export function effectLookup(spec: EffectSpec, payload: Payload): Row {
  const row: Record<string, Value> = {};
  for (const [col, src] of Object.entries(spec.columns)) if (typeof src === 'string') row[col] = payload[src] ?? null;
  return row;
}

const nowOf = (event: unknown): number => (event as { at?: number }).at ?? 0;

/** Whether the effect writes the time it runs at (SQL's `now()`) in some column. */
const writesNow = (ctx: Ctx): boolean => Object.values(ctx.input.effect.columns).some((src) => typeof src !== 'string' && 'now' in src);

function effectOp(ctx: Ctx, now: number): DbOp {
  const row = effectRow(ctx.input.effect, ctx.current!.payload, now);
  return ctx.input.effect.op === 'insert'
    ? { op: 'insert', table: ctx.input.effect.table, row, onConflict: 'nothing' }
    : { op: 'upsert', table: ctx.input.effect.table, row, onlyNewerVersion: ctx.input.versionCheck ?? false };
}

function inboxOp(ctx: Ctx): DbOp {
  const consumer = ctx.input.consumerName ?? ctx.input.group;
  return { op: 'insert', table: 'inbox', row: { consumer_name: consumer, event_id: String(ctx.current!.payload['event_id']) }, onConflict: 'nothing' };
}

/** Statement ids within the consumer's transaction, so a duplicated statement runs once. */
type Stmt = 'inbox' | 'effect' | 'check';

const txOf = (ctx: Ctx) => `d${ctx.current!.partition}.${ctx.current!.offset}.t${ctx.takes}.${ctx.attempt}`;
const eventIdOf = (ctx: Ctx) => String(ctx.current!.payload['event_id']);
/** The record's offset in the topic it was first consumed from: a parked key's records are handled in that order. */
const originOffset = (ctx: Ctx) => Number(ctx.current!.payload['origin_offset'] ?? ctx.current!.offset);
const parkedRows = (event: Event): readonly Row[] => (event.type === 'db.ran' ? (event.results[0]?.rows ?? []) : []);

/** Why a transaction fails that another attempt can get past, as the database reports it in a refused commit or run. */
const TRANSIENT_FAILURES: ReadonlySet<string> = new Set(['deadlock', 'idle in transaction timeout']);

/**
 * The options that decide which states the machine has. The catalogue's consumer (none of the
 * newer options) keeps every state it always had; a consumer with a newer option has only the
 * states its inbox, acknowledgement and retry policy can reach, so windows mode never offers a
 * window no run could enter.
 */
export interface ConsumerFeatures {
  readonly checkThenInsert: boolean;
  readonly localCache: boolean;
  readonly retry: 'blocking' | 'retryTopic' | undefined;
  readonly parkKeys: boolean;
  readonly readsRetries: boolean;
  readonly deadLetter: boolean;
  readonly inbox: ConsumerInput['inbox'];
  readonly ackFirst: boolean;
}

export function featuresOf(input: ConsumerInput): ConsumerFeatures {
  return {
    checkThenInsert: input.handler === 'checkThenInsert',
    localCache: input.inbox === 'localCache',
    retry: input.retry?.mode,
    parkKeys: input.retry?.parkKeys === true,
    readsRetries: input.reads === 'retries',
    // A retry topic's consumers share one machine with or without a dead-letter topic (its
    // transitions are guarded by the policy); a blocking consumer without one never hands over.
    deadLetter: input.retry !== undefined && (input.retry.mode === 'retryTopic' || input.retry.deadLetter !== undefined),
    inbox: input.inbox,
    ackFirst: input.ack === 'beforeCommit',
  };
}

/** Whether a consumer uses none of the newer options: the machine of the existing catalogue. */
function isBase(f: ConsumerFeatures): boolean {
  return !f.checkThenInsert && !f.localCache && f.retry === undefined && !f.readsRetries;
}

const consumerSetup = setup({
  types: { context: {} as Ctx, input: {} as ConsumerInput, events: {} as Event, emitted: {} as Emitted },
  delays: {
    timeout: ({ context }) => context.input.timeoutTicks ?? 20,
    backoff: ({ context }) => waitAfter(context.input.retry!, attemptOf(context.current!.payload, context.tries)),
    due: ({ context }) => Math.max(1, Number(context.current!.payload['due_at'] ?? 0) - context.takenAt),
  },
  guards: {
    hasWork: ({ context }) => context.queue.length > 0,
    ackFirst: ({ context }) => context.input.ack === 'beforeCommit',
    sameTx: ({ context }) => context.input.inbox === 'sameTx',
    separateTx: ({ context }) => context.input.inbox === 'separateTx',
    inserted: ({ event }) => (event.type === 'db.result' || event.type === 'db.ran') && event.results[0]?.inserted === true,
    committed: ({ event }) => (event.type === 'db.committed' || event.type === 'db.ran') && event.ok,
    // A statement or commit that failed for a reason a new attempt cures (a deadlock, the idle
    // timeout rolled the transaction back) is an error to the handler, not a duplicate: it rolls
    // back and handles the record again, unacknowledged.
    failedTransiently: ({ event }) =>
      event.type === 'db.result'
        ? event.results.some((r) => r.error !== undefined)
        : (event.type === 'db.ran' || event.type === 'db.committed') && !event.ok && TRANSIENT_FAILURES.has(event.conflict ?? ''),
    // A reply for an earlier attempt's transaction (it arrived after that attempt timed out) is
    // not this attempt's: each attempt runs on its own connection in a real consumer.
    staleReply: ({ context, event }) =>
      context.current !== undefined &&
      (event.type === 'db.result' || event.type === 'db.committed' ? event.tx !== txOf(context) : event.type === 'db.ran' ? event.ref !== txOf(context) : false),
    // A reply to the other statement of this transaction (a duplicated one answered again).
    otherStmt: ({ event }, params: { stmt: Stmt }) => event.type === 'db.result' && event.stmt !== undefined && event.stmt !== params.stmt,
    // Check-then-insert: the lookup found the effect already there.
    effectFound: ({ event }) => event.type === 'db.result' && (event.results[0]?.rows?.length ?? 0) > 0,
    cacheHit: ({ context }) => context.cache.includes(eventIdOf(context)),
    dueLater: ({ context }) => Number(context.current!.payload['due_at'] ?? 0) > context.takenAt,
    needsParkCheck: ({ context }) => !context.parkChecked,
    handlerFails: ({ context }) => handlerError(context.current!.payload, attemptOf(context.current!.payload, context.tries)) !== undefined,
    retriesLeft: ({ context }) => attemptOf(context.current!.payload, context.tries) <= context.input.retry!.backoffTicks.length,
    deadLetterOn: ({ context }) => context.input.retry?.deadLetter !== undefined,
    handedToDeadLetter: ({ context }) => context.handOver?.kind === 'deadLetter',
    // Anything but the answer to this record's parked-key lookup (`ref` …`.park`).
    notParkReply: ({ context, event }) => !(event.type === 'db.ran' && event.ref === `${txOf(context)}.park`),
    // The main consumer: an earlier record of this key is parked, so this one follows it.
    keyParked: ({ event }) => parkedRows(event).length > 0,
    // The retry consumer: this record's parking row is gone, so it was applied or dead-lettered already.
    parkedDone: ({ context, event }) => !parkedRows(event).some((r) => r['event_id'] === eventIdOf(context)),
    // The retry consumer: an earlier record of this key is still parked ahead of this one.
    notHeadOfKey: ({ context, event }) => parkedRows(event).some((r) => Number(r['origin_offset']) < originOffset(context)),
    ranRef: ({ context, event }, params: { suffix: string }) => event.type === 'db.ran' && event.ref === `${txOf(context)}.${params.suffix}`,
    isHandOverAck: ({ context, event }) => event.type === 'broker.ack' && event.ref === context.handOver?.ref,
    // Its broker crashed: the session, and with it every delivery not yet committed, is gone.
    brokerCrashed: ({ context, event }) => event.type === 'sys.peerCrashed' && event.peer === context.input.broker,
  },
  actions: {
    subscribe: enqueueActions(({ context, enqueue }) => enqueue.emit(send(context.input.broker, subscribeRequest(context.input.group)))),
    enqueue: assign(({ context, event }) => {
      const queue = event.type === 'broker.deliver' ? withDelivery(context.queue, context.current, event) : undefined;
      return queue === undefined ? {} : { queue };
    }),
    take: assign(({ context, event }) => ({ current: context.queue[0], queue: context.queue.slice(1), attempt: 1, wrote: false, effectAt: undefined, tries: 1, takenAt: nowOf(event), parkChecked: false, handOver: undefined, takes: context.takes + 1 })),
    retry: assign(({ context }) => ({ attempt: context.attempt + 1, wrote: false, effectAt: undefined })),
    // The deliveries of a broker session that was lost are the broker's to send again.
    forgetSession: assign({ queue: [], current: undefined, effectAt: undefined }),
    ack: enqueueActions(({ context, enqueue }) => enqueue.emit(send(context.input.broker, commitRequest(context.current!)))),
    done: assign({ current: undefined, effectAt: undefined }),
    inboxInTx: enqueueActions(({ context, enqueue }) => enqueue.emit(send(context.input.db, { type: 'db.exec', tx: txOf(context), ops: [inboxOp(context)], stmt: 'inbox' }))),
    inboxAlone: enqueueActions(({ context, enqueue }) =>
      enqueue.emit(send(context.input.inboxDb ?? context.input.db, { type: 'db.run', ref: txOf(context), ops: [inboxOp(context)] })),
    ),
    effectInTx: enqueueActions(({ context, event, enqueue }) => {
      if (writesNow(context)) enqueue.assign({ effectAt: nowOf(event) });
      enqueue.emit(send(context.input.db, { type: 'db.exec', tx: txOf(context), ops: [effectOp(context, nowOf(event))], stmt: 'effect' }));
    }),
    effectAlone: enqueueActions(({ context, event, enqueue }) => {
      if (writesNow(context)) enqueue.assign({ effectAt: nowOf(event) });
      enqueue.emit(send(context.input.db, { type: 'db.run', ref: txOf(context), ops: [effectOp(context, nowOf(event))] }));
    }),
    commit: enqueueActions(({ context, enqueue }) => enqueue.emit(send(context.input.db, { type: 'db.commit', tx: txOf(context) }))),
    abort: enqueueActions(({ context, enqueue }) => enqueue.emit(send(context.input.db, { type: 'db.abort', tx: txOf(context) }))),
    noteEffectWrite: enqueueActions(({ context, event, enqueue }) => {
      if (event.type !== 'db.result' && event.type !== 'db.ran') return;
      const r = event.results[event.type === 'db.ran' ? event.results.length - 1 : 0];
      const wrote = r?.inserted === true || r?.written === true;
      // A statement that wrote nothing leaves no time to show, and keeps no tick the states of a search would differ by.
      enqueue.assign(wrote || context.effectAt === undefined ? { wrote } : { wrote, effectAt: undefined });
      if (!wrote) {
        const guard = context.input.effect.op === 'insert' ? 'effectKey' : 'versionCheck';
        enqueue.emit(note('guard', { guard, event_id: context.current!.payload['event_id'] }));
      }
    }),
    noteInboxHit: enqueueActions(({ context, enqueue }) => enqueue.emit(note('guard', { guard: 'inboxKey', event_id: context.current!.payload['event_id'] }))),
    noteEffect: enqueueActions(({ context, event, enqueue }) => {
      if (context.wrote) enqueue.emit(note('effect', { table: context.input.effect.table, row: effectRow(context.input.effect, context.current!.payload, context.effectAt ?? nowOf(event)) }));
      if (context.effectAt !== undefined) enqueue.assign({ effectAt: undefined });
    }),
    // Check-then-insert: the lookup, inside the effect's transaction.
    lookUpEffect: enqueueActions(({ context, enqueue }) =>
      enqueue.emit(send(context.input.db, { type: 'db.exec', tx: txOf(context), ops: [{ op: 'select', table: context.input.effect.table, where: effectLookup(context.input.effect, context.current!.payload) }], stmt: 'check' })),
    ),
    noteEffectFound: enqueueActions(({ context, enqueue }) => enqueue.emit(note('guard', { guard: 'effectCheck', event_id: eventIdOf(context) }))),
    // The local cache.
    remember: assign(({ context }) => (context.cache.includes(eventIdOf(context)) ? {} : { cache: [...context.cache, eventIdOf(context)] })),
    noteCacheHit: enqueueActions(({ context, enqueue }) => enqueue.emit(note('guard', { guard: 'localCache', event_id: eventIdOf(context) }))),
    // Failures, retries and dead letters.
    noteHandlerFailed: enqueueActions(({ context, enqueue }) => {
      const attempt = attemptOf(context.current!.payload, context.tries);
      enqueue.emit(note('handler.failed', { event_id: eventIdOf(context), attempt, error: handlerError(context.current!.payload, attempt) }));
    }),
    retryHandler: assign(({ context }) => ({ tries: context.tries + 1, attempt: context.attempt + 1, wrote: false, effectAt: undefined })),
    markDue: assign(({ context }) => ({ takenAt: Number(context.current!.payload['due_at'] ?? context.takenAt) })),
    markParkChecked: assign({ parkChecked: true }),
    lookUpParked: enqueueActions(({ context, enqueue }) =>
      enqueue.emit(send(context.input.db, { type: 'db.run', ref: `${txOf(context)}.park`, ops: [{ op: 'select', table: 'parked', where: { park_key: context.current!.key } }] })),
    ),
    park: enqueueActions(({ context, enqueue }) =>
      enqueue.emit(
        send(context.input.db, {
          type: 'db.run',
          ref: `${txOf(context)}.parking`,
          ops: [{ op: 'insert', table: 'parked', row: { park_key: context.current!.key, event_id: eventIdOf(context), origin_offset: originOffset(context) }, onConflict: 'nothing' }],
        }),
      ),
    ),
    unpark: enqueueActions(({ context, enqueue }) =>
      enqueue.emit(send(context.input.db, { type: 'db.run', ref: `${txOf(context)}.unpark`, ops: [{ op: 'delete', table: 'parked', where: { park_key: context.current!.key, event_id: eventIdOf(context) } }] })),
    ),
    noteParkedDone: enqueueActions(({ context, enqueue }) => enqueue.emit(note('guard', { guard: 'parkedDone', event_id: eventIdOf(context) }))),
    prepareRetry: assign(({ context, event }) => {
      const policy = context.input.retry!;
      const attempt = attemptOf(context.current!.payload, context.tries);
      return { handOver: { kind: 'retry' as const, to: policy.topic!, ref: `${txOf(context)}.retry`, payload: retryPayload(context.current!, attempt, nowOf(event) + waitAfter(policy, attempt)) } };
    }),
    prepareForward: assign(({ context }) => ({
      handOver: { kind: 'forward' as const, to: context.input.retry!.topic!, ref: `${txOf(context)}.forward`, payload: { ...context.current!.payload, origin_offset: originOffset(context), origin_partition: Number(context.current!.payload['origin_partition'] ?? context.current!.partition) } },
    })),
    prepareDeadLetter: assign(({ context }) => {
      const dl = context.input.retry!.deadLetter!;
      const attempt = attemptOf(context.current!.payload, context.tries);
      return { handOver: { kind: 'deadLetter' as const, to: dl.topic, ref: `${txOf(context)}.dead`, payload: deadLetterPayload(context.current!, attempt, dl.owner) } };
    }),
    handOver: enqueueActions(({ context, enqueue }) => {
      const h = context.handOver!;
      enqueue.emit(send(h.to, { type: 'broker.publish', ref: h.ref, key: context.current!.key, payload: h.payload }));
    }),
  },
});

/** The machine's states for a set of options; the base (no options) is the consumer every existing design uses. */
function configFor(f: ConsumerFeatures) {
  const retrying = f.retry !== undefined;
  const base = isBase(f);
  // Which of the catalogue consumer's states this one can reach.
  const acksFirst = base || f.ackFirst;
  const inboxTx = base || f.inbox === 'sameTx' || f.inbox === 'separateTx';
  const writesInTx = base || f.inbox === 'sameTx' || f.checkThenInsert;
  // Where a record goes once its effect is durable or its repeat suppressed: a retry consumer of
  // parked keys first releases the key.
  const release = f.parkKeys && f.readsRetries;
  const afterDone = release
    ? { 1: [{ guard: 'ackFirst' as const, target: 'idle', actions: 'done' as const }, { target: 'unparking', actions: 'unpark' as const }] }
    : { 1: [{ guard: 'ackFirst' as const, target: 'idle', actions: 'done' as const }, { target: 'beforeTransportProgress' }] };
  const effectStep = f.checkThenInsert ? { target: 'checkingEffect', actions: 'lookUpEffect' as const } : undefined;
  return {
    id: 'consumer',
    context: contextFor(),
    initial: 'connecting',
    // A broker crash ends the session as a dropped connection does: the consumer drops the
    // records it holds (the broker delivers them again from the committed offset) and subscribes
    // again, as a Kafka consumer rejoins its group. A transaction it had open is left to the
    // database's idle timeout, as when the consumer itself crashes.
    on: { 'broker.deliver': { actions: 'enqueue' as const }, 'sys.peerCrashed': { guard: 'brokerCrashed' as const, target: '.connecting', actions: 'forgetSession' as const } },
    states: {
      // Until the broker confirms the subscription nothing arrives; a lost request is sent again.
      connecting: { entry: 'subscribe' as const, on: { 'broker.subscribed': 'idle' }, after: { timeout: { target: 'connecting', reenter: true } } },
      idle: { tags: ['idle'], always: { guard: 'hasWork' as const, target: 'received', actions: 'take' as const } },
      // A record is in hand; nothing about it is durable here yet.
      received: {
        after: {
          1: [...(acksFirst ? [{ guard: 'ackFirst' as const, target: 'afterTransportProgress', actions: 'ack' as const }] : []), { target: 'applying' }],
        },
      },
      // Acknowledged before the effect: a crash from here on loses the effect.
      ...(acksFirst ? { afterTransportProgress: { after: { 1: 'applying' } } } : {}),
      applying: {
        always: [
          ...(f.readsRetries ? [{ guard: 'dueLater' as const, target: 'waitingDue' }] : []),
          ...(f.parkKeys ? [{ guard: 'needsParkCheck' as const, target: 'checkingParked', actions: 'lookUpParked' as const }] : []),
          ...(f.localCache ? [{ guard: 'cacheHit' as const, target: 'duplicateSeen', actions: 'noteCacheHit' as const }] : []),
          ...(retrying ? [{ guard: 'handlerFails' as const, target: 'handlerFailed', actions: 'noteHandlerFailed' as const }] : []),
          ...(inboxTx
            ? [
                { guard: 'sameTx' as const, target: 'insertingInbox', actions: 'inboxInTx' as const },
                { guard: 'separateTx' as const, target: 'insertingInbox', actions: 'inboxAlone' as const },
              ]
            : []),
          effectStep ?? { target: 'committingEffect', actions: 'effectAlone' as const },
        ],
      },
      ...(inboxTx ? inboxStates(effectStep, writesInTx) : {}),
      ...effectStates(f, writesInTx),
      committingEffect: COMMITTING_EFFECT,
      // The effect is durable; transport progress has not moved.
      afterEffectCommit: { ...(f.localCache ? { entry: 'remember' as const } : {}), after: afterDone },
      duplicateSeen: { ...(f.localCache ? { entry: 'remember' as const } : {}), after: afterDone },
      beforeTransportProgress: { after: { 1: { target: 'idle', actions: ['ack' as const, 'done' as const] } } },
      ...(retrying ? failureStates(f) : {}),
      ...(f.readsRetries ? { waitingDue: { after: { due: { target: 'applying', actions: 'markDue' as const } } } } : {}),
      ...(f.parkKeys ? parkingStates(f) : {}),
    },
  };
}

/** A consumer's context as it starts. */
function contextFor() {
  return ({ input }: { input: ConsumerInput }): Ctx => ({
    durable: input.durable ?? {},
    input,
    queue: [],
    current: undefined,
    attempt: 0,
    wrote: false,
    effectAt: undefined,
    tries: 0,
    takenAt: 0,
    parkChecked: false,
    cache: [],
    handOver: undefined,
    takes: 0,
  });
}

/** The handler's own look-up of the effect and its write, in the record's transaction, where the features have them. */
function effectStates(f: ConsumerFeatures, writesInTx: boolean) {
  return {
    ...(f.checkThenInsert
      ? {
          // The handler asked whether the effect exists, in its transaction.
          checkingEffect: {
            on: {
              'db.result': [
                { guard: 'staleReply' as const },
                { guard: { type: 'otherStmt' as const, params: { stmt: 'check' as const } } },
                { guard: 'failedTransiently' as const, target: 'received', actions: ['abort' as const, 'retry' as const] },
                { guard: 'effectFound' as const, target: 'duplicateSeen', actions: ['noteEffectFound' as const, 'abort' as const] },
                { target: 'afterEffectCheck' },
              ],
            },
            after: { timeout: { target: 'received', actions: ['abort' as const, 'retry' as const] } },
          },
          // It read "absent" and has not inserted yet: another reader of the same record may be here too.
          afterEffectCheck: { after: { 1: { target: 'writingEffect', actions: 'effectInTx' as const } } },
        }
      : {}),
    ...(writesInTx
      ? {
          writingEffect: {
            on: {
              'db.result': [
                { guard: 'staleReply' as const },
                { guard: { type: 'otherStmt' as const, params: { stmt: 'effect' as const } } },
                { guard: 'failedTransiently' as const, target: 'received', actions: ['abort' as const, 'retry' as const] },
                { target: 'committingEffect', actions: ['noteEffectWrite' as const, 'commit' as const] },
              ],
            },
            after: { timeout: { target: 'received', actions: ['abort' as const, 'retry' as const] } },
          },
        }
      : {}),
  };
}

/** The effect's commit and the answers it may get: committed, failed for now, or refused as a duplicate. */
const COMMITTING_EFFECT = {
  on: {
    'db.committed': [
      { guard: 'staleReply' as const },
      { guard: 'committed' as const, target: 'afterEffectCommit', actions: 'noteEffect' as const },
      { guard: 'failedTransiently' as const, target: 'received', actions: 'retry' as const },
      { target: 'duplicateSeen' },
    ],
    'db.ran': [
      { guard: 'staleReply' as const },
      { guard: 'committed' as const, target: 'afterEffectCommit', actions: ['noteEffectWrite' as const, 'noteEffect' as const] },
      { guard: 'failedTransiently' as const, target: 'received', actions: 'retry' as const },
      { target: 'duplicateSeen' },
    ],
  },
  after: { timeout: { target: 'received', actions: 'retry' as const } },
};

/** The inbox's states: its insert, and the moment its row exists and the effect is not yet written. */
function inboxStates(effectStep: { target: string; actions: 'lookUpEffect' } | undefined, writesInTx: boolean) {
  return {
    insertingInbox: {
      on: {
        'db.result': [
          { guard: 'staleReply' as const },
          { guard: { type: 'otherStmt' as const, params: { stmt: 'inbox' as const } } },
          { guard: 'inserted' as const, target: 'afterInboxInsert' },
          { guard: 'failedTransiently' as const, target: 'received', actions: ['abort' as const, 'retry' as const] },
          { target: 'duplicateSeen', actions: ['noteInboxHit' as const, 'abort' as const] },
        ],
        'db.ran': [
          { guard: 'staleReply' as const },
          { guard: 'inserted' as const, target: 'afterInboxInsert' },
          { guard: 'failedTransiently' as const, target: 'received', actions: 'retry' as const },
          { target: 'duplicateSeen', actions: 'noteInboxHit' as const },
        ],
      },
      after: { timeout: { target: 'received', actions: ['abort' as const, 'retry' as const] } },
    },
    // The inbox row exists: inside the open transaction (sameTx) or already committed (separateTx).
    afterInboxInsert: {
      after: {
        1: [
          ...(effectStep ? [effectStep] : []),
          ...(writesInTx ? [{ guard: 'sameTx' as const, target: 'writingEffect', actions: 'effectInTx' as const }] : []),
          { target: 'committingEffect', actions: 'effectAlone' as const },
        ],
      },
    },
  };
}

/** The handler failed on the record in hand: wait and retry in place, or hand it to the retry or dead-letter topic. */
function failureStates(f: ConsumerFeatures) {
  // After the last retry: the dead-letter topic, or, without one, the same retry again at the last wait.
  const deadLetter = f.deadLetter ? [{ guard: 'deadLetterOn' as const, target: 'handingOver', actions: ['prepareDeadLetter' as const, 'handOver' as const] }] : [];
  const toRetryTopic = f.parkKeys && !f.readsRetries ? { target: 'parking', actions: ['prepareRetry' as const, 'park' as const] } : { target: 'handingOver', actions: ['prepareRetry' as const, 'handOver' as const] };
  const onward =
    f.retry === 'blocking'
      ? [{ guard: 'retriesLeft' as const, target: 'backingOff' }, ...deadLetter, { target: 'backingOff' }]
      : [{ guard: 'retriesLeft' as const, ...toRetryTopic }, ...deadLetter, toRetryTopic];
  const handsOver = f.retry === 'retryTopic' || f.deadLetter;
  return {
    // The handler failed; nothing about the record is durable, and it is still in hand.
    handlerFailed: { after: { 1: onward } },
    ...(f.retry === 'blocking'
      ? {
          // Waiting inside the handler before trying again: no other record of this consumer moves.
          backingOff: { after: { backoff: { target: 'received', actions: 'retryHandler' as const } } },
        }
      : {}),
    ...(handsOver
      ? {
          // Published to the retry or dead-letter topic, not yet acknowledged; sent again on a timeout.
          handingOver: {
            on: { 'broker.ack': { guard: 'isHandOverAck' as const, target: 'afterHandOver' } },
            after: { timeout: { target: 'handingOver', reenter: true, actions: 'handOver' as const } },
          },
          // The retry or dead-letter topic holds the record; the offset past it is not committed.
          afterHandOver: {
            after: {
              1:
                f.parkKeys && f.readsRetries
                  ? [{ guard: 'handedToDeadLetter' as const, target: 'unparking', actions: 'unpark' as const }, { target: 'beforeTransportProgress' }]
                  : [{ target: 'beforeTransportProgress' }],
            },
          },
        }
      : {}),
  };
}

/** Key parking: the lookup of a record's key, the parking row written before the hand-over, and its removal once the record is done. */
function parkingStates(f: ConsumerFeatures) {
  const lookup = f.readsRetries
    ? [
        { guard: 'parkedDone' as const, target: 'duplicateSeen', actions: 'noteParkedDone' as const },
        { guard: 'notHeadOfKey' as const, target: 'handingOver', actions: ['prepareForward' as const, 'handOver' as const] },
        { target: 'applying', actions: 'markParkChecked' as const },
      ]
    : [
        { guard: 'keyParked' as const, target: 'parking', actions: ['prepareForward' as const, 'park' as const] },
        { target: 'applying', actions: 'markParkChecked' as const },
      ];
  return {
    // Asking whether this record's key is parked behind an earlier record.
    checkingParked: {
      on: { 'db.ran': [{ guard: 'notParkReply' as const }, ...lookup] },
      after: { timeout: { target: 'received', actions: 'retry' as const } },
    },
    ...(f.readsRetries
      ? {}
      : {
          // Writing the parking row before the record goes to the retry topic.
          parking: {
            on: { 'db.ran': { guard: { type: 'ranRef' as const, params: { suffix: 'parking' } }, target: 'handingOver', actions: 'handOver' as const } },
            after: { timeout: { target: 'parking', reenter: true, actions: 'park' as const } },
          },
        }),
    ...(f.readsRetries
      ? {
          // The record is done (applied, suppressed or dead-lettered): its key's next record may go.
          unparking: {
            on: { 'db.ran': { guard: { type: 'ranRef' as const, params: { suffix: 'unpark' } }, target: 'beforeTransportProgress' } },
            after: { timeout: { target: 'unparking', reenter: true, actions: 'unpark' as const } },
          },
        }
      : {}),
  };
}

const machines = new Map<string, ReturnType<typeof consumerSetup.createMachine>>();

/** The consumer machine for a set of options: one definition per combination, made once. */
export function consumerMachineFor(f: ConsumerFeatures) {
  // Every consumer without a newer option shares the catalogue's machine, whatever its inbox.
  const key = isBase(f) ? 'base' : JSON.stringify(f);
  let m = machines.get(key);
  if (m === undefined) {
    m = consumerSetup.createMachine(configFor(f) as never);
    machines.set(key, m);
  }
  return m;
}

/** The consumer as every design without a retry policy, a check-then-insert handler or a local cache draws it. */
export const consumerMachine = consumerMachineFor({ checkThenInsert: false, localCache: false, retry: undefined, parkKeys: false, readsRetries: false, deadLetter: false, inbox: 'sameTx', ackFirst: false });

const EffectSpecSchema = z.strictObject({
  op: z.enum(['insert', 'upsert']),
  table: z.string(),
  columns: z.record(
    z.string(),
    z.union([z.string(), z.strictObject({ const: z.union([z.string(), z.number(), z.boolean(), z.null()]) }), z.strictObject({ now: z.literal(true) })]),
  ),
});

/** The consumer's options as a design draws it; durations in their units. */
export const ConsumerOptions = z.strictObject({
  ...componentFields,
  broker: z.string().optional(),
  group: z.string(),
  consumerName: z.string().optional(),
  db: z.string(),
  inboxDb: z.string().optional(),
  inbox: z.enum(['sameTx', 'separateTx', 'localCache', 'none']),
  effect: EffectSpecSchema,
  /** One atomic insert (the default), or a lookup and then an insert in a second statement. */
  handler: z.enum(['atomic', 'checkThenInsert']).optional(),
  versionCheck: z.boolean().optional(),
  ack: z.enum(['afterCommit', 'beforeCommit']).optional(),
  /** How long it waits for its database before trying the record again (20 ticks). */
  timeout: duration.optional(),
  /** What follows a failure of the handler (models/retryPolicy.ts); without one the handler never fails. */
  retry: RetryOptions.optional(),
  /** `retries`: the consumer of a retry topic (its `broker`), which waits until each record is due. */
  reads: z.enum(['records', 'retries']).optional(),
});

export type ConsumerOptions = z.input<typeof ConsumerOptions>;

/** The consumer's input from its parsed options, or bad input when they do not fit together. */
function consumerInput(name: string, o: z.output<typeof ConsumerOptions>, time: TimeScale): ConsumerInput {
  if (o.handler === 'checkThenInsert' && o.effect.op !== 'insert') throw new InputError(`${name} option handler: checkThenInsert looks up an inserted effect; the effect is an ${o.effect.op}`);
  if (o.retry !== undefined && o.ack === 'beforeCommit') throw new InputError(`${name} option retry: a consumer that acknowledges before its effect has nothing left to retry`);
  // Only an inbox in its own transaction can live in another database; one in the effect's transaction is in the effect's.
  if (o.inboxDb !== undefined && o.inbox !== 'separateTx') throw new InputError(`${name} option inboxDb: an inbox ${o.inbox === 'sameTx' ? "in the effect's transaction (sameTx) is in the effect's database" : `of kind ${o.inbox} is in no database`}; inboxDb needs inbox: 'separateTx'`);
  // A version check compares the rows' `version` column: without one written, every later upsert
  // would be refused (a NULL is never less than anything), and the check would hold by freezing the row.
  if (o.versionCheck === true && o.effect.op !== 'upsert') throw new InputError(`${name} option versionCheck: a version check guards an upsert; the effect is an ${o.effect.op}`);
  if (o.versionCheck === true && !Object.hasOwn(o.effect.columns, 'version')) throw new InputError(`${name} option versionCheck: the upsert compares the rows' version column, and the effect writes none (its columns: ${Object.keys(o.effect.columns).join(', ')}); add version: '<the payload field holding it>'`);
  if (o.reads === 'retries' && o.retry?.mode !== 'retryTopic') throw new InputError(`${name} option reads: a retry topic's consumer needs retry: { mode: 'retryTopic', … }`);
  return {
    broker: o.broker ?? 'broker',
    group: o.group,
    db: o.db,
    inbox: o.inbox,
    effect: o.effect,
    ...given({
      consumerName: o.consumerName,
      inboxDb: o.inboxDb,
      handler: o.handler,
      versionCheck: o.versionCheck,
      ack: o.ack,
      timeoutTicks: ticksOf(time, `${name} option timeout`, o.timeout),
      retry: o.retry === undefined ? undefined : retryPolicyOf(time, name, o.retry),
      reads: o.reads,
    }),
  };
}

function consumerComponent(name: string, o: z.output<typeof ConsumerOptions>, time: TimeScale): DesignComponent {
  const input = consumerInput(name, o, time);
  const topics = [input.retry?.topic, input.retry?.deadLetter?.topic].filter((t): t is string => t !== undefined && t !== input.broker);
  return {
    name,
    machine: consumerMachineFor(featuresOf(input)),
    process: true,
    peers: [input.broker, o.db, ...(o.inboxDb ? [o.inboxDb] : []), ...new Set(topics)],
    input: input as unknown as Record<string, unknown>,
    wiring: (design) => consumerWiring(input, design),
    subscribes: groupMember(input.broker, input.group),
    ...common(time, name, o),
  };
}

/** Its databases hold the tables it writes, and the records it reads carry the fields its effect's columns take. */
function consumerWiring(input: ConsumerInput, design: DesignIndex): string[] {
  const effect = design.missingTable(input.db, input.effect.table);
  const inboxDb = input.inbox === 'separateTx' ? (input.inboxDb ?? input.db) : input.db;
  const inbox = input.inbox === 'sameTx' || input.inbox === 'separateTx' ? design.missingTable(inboxDb, 'inbox') : undefined;
  const fields = Object.values(input.effect.columns).filter((c): c is string => typeof c === 'string');
  return [...(effect === undefined ? [] : [`effect table: ${effect}`]), ...(inbox === undefined ? [] : [`inbox table: ${inbox}`]), ...missingFields(design, input.broker, 'effect column field', fields)];
}

/** A consumer applying one local effect per delivered record, named `consumer` unless the design names it. */
export function consumer(options: ConsumerOptions): ComponentBuilder {
  const o = parseOptions('consumer', ConsumerOptions, options);
  const name = o.name ?? 'consumer';
  return ({ time }) => consumerComponent(name, o, time);
}

/** A consumer group's options: how many members, and the options every member shares. */
export const ConsumerGroupOptions = ConsumerOptions.extend({
  /** How many members the group has; they are named `<name>1`, `<name>2`, … */
  consumers: z.number().int().min(1).max(16),
});

/**
 * K consumers in one group: the broker shares the group's partitions among the live members
 * (models/groupAssignment.ts). With two or more members, a record its broker delivers to one of
 * them can be rebalanced to another while it is on its way, so every mode offers the `rebalance`
 * fault on those deliveries (src/faults/linkFaults.ts: each member says it `subscribes` in the
 * group), as it does for members drawn one by one.
 */
export function consumerGroup(options: z.input<typeof ConsumerGroupOptions>): ComponentBuilder {
  const { consumers: k, ...rest } = parseOptions('consumerGroup', ConsumerGroupOptions, options);
  const base = rest.name ?? 'consumer';
  return ({ time }) => Array.from({ length: k }, (_, i) => consumerComponent(`${base}${i + 1}`, rest, time));
}

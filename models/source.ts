// The source service (Mercury's order service): takes a command, changes an aggregate's state
// in its database and makes the fact known to the broker. The design option is the heart of
// the first seed:
// - `dualWriteCommitFirst`: commit the state, then publish. A crash or lost publish between the
//   two leaves a committed fact that nobody downstream ever hears of (lost).
// - `dualWritePublishFirst`: publish, then commit. A crash or failed commit after the publish
//   leaves downstream acting on a fact that never committed (phantom).
// - `outbox`: write the state and an outbox row in one transaction; a relay publishes later.
// With `checkoutKeys`, the command's idempotency key is recorded under a unique constraint in
// the same transaction, and a repeat returns the recorded outcome instead of acting again. With
// `'intentBound'` (or `true`) a repeat of the key with a different intent is refused as a
// conflict (seed 000: "same key, different intent: reject as conflict"); with `'honoured'` the key
// is bound to nothing but the order, and a different intent silently gets the old order back.
import { assign, enqueueActions, setup } from 'xstate';
import { note, send, type Emitted, type FromPeer, type PeerCrashed } from '../src/kernel/emitted.ts';
import type { BrokerReply } from './broker.ts';
import type { CommandEvent, Command } from './client.ts';
import type { DatabaseReply, DbOp, Row } from './database.ts';
import { common, componentFields, given, ticksOf, type ComponentBuilder } from '../src/scenario/design.ts';
import { duration, parseOptions, z } from '../src/scenario/options.ts';

export type SourceDesign = 'dualWriteCommitFirst' | 'dualWritePublishFirst' | 'outbox';

export interface SourceInput {
  readonly design: SourceDesign;
  readonly db: string;
  readonly broker: string;
  readonly aggregateTable?: string;
  readonly outboxTable?: string;
  /** Record each command's idempotency key with its outcome (the `003` checkout key); see above. */
  readonly checkoutKeys?: boolean | 'intentBound' | 'honoured';
  readonly timeoutTicks?: number;
  readonly durable?: Record<string, never>;
}

type Pending = { readonly cmd: CommandEvent; readonly from: string; readonly n: number };

type Ctx = {
  durable: Record<string, never>;
  input: SourceInput;
  pending: Pending | undefined;
  /** Commands that arrived while it was busy with another, taken in arrival order once it is idle: a real service answers every request. Lost in a crash. */
  queued: readonly (CommandEvent & FromPeer)[];
  handled: number;
  replayOutcome: string | undefined;
};

type Event = (CommandEvent & FromPeer) | DatabaseReply | BrokerReply | PeerCrashed;

/** The fact a command produces: its event id is stable, derived from aggregate and version. */
export function factOf(c: Command): Row {
  return {
    event_id: `evt-${c.aggregate_id}-v${c.version}`,
    aggregate_id: c.aggregate_id,
    aggregate_version: c.version,
    event_type: c.event_type,
    status: c.status,
    ...(c.data ?? {}),
  };
}

/**
 * The aggregate a command creates or changes. A keyed command names its order by the key, so a
 * retry with the same key names the same order and a fresh key names a new one.
 */
function aggregateOf(p: Pending): string {
  return p.cmd.key !== undefined ? `${p.cmd.command.aggregate_id}@${p.cmd.key}` : p.cmd.command.aggregate_id;
}

function commandWithAggregate(p: Pending): Command {
  return { ...p.cmd.command, aggregate_id: aggregateOf(p) };
}

function stateOps(ctx: Ctx): DbOp[] {
  const p = ctx.pending!;
  const c = commandWithAggregate(p);
  const table = ctx.input.aggregateTable ?? 'orders';
  const row: Row = { order_id: c.aggregate_id, intent: c.intent, status: c.status, version: c.version };
  const ops: DbOp[] = [];
  if (c.version === 1) ops.push({ op: 'insert', table, row, onConflict: 'error' });
  else ops.push({ op: 'update', table, where: { order_id: c.aggregate_id }, set: { status: c.status, version: c.version }, ifVersion: c.version - 1 });
  if (ctx.input.design === 'outbox') ops.push({ op: 'insert', table: ctx.input.outboxTable ?? 'outbox', row: { ...factOf(c), published: false }, onConflict: 'error' });
  return ops;
}

export const sourceMachine = setup({
  types: { context: {} as Ctx, input: {} as SourceInput, events: {} as Event, emitted: {} as Emitted },
  delays: { timeout: ({ context }) => context.input.timeoutTicks ?? 20 },
  guards: {
    keyed: ({ context }) => Boolean(context.input.checkoutKeys && context.pending?.cmd.key !== undefined),
    publishFirst: ({ context }) => context.input.design === 'dualWritePublishFirst',
    queued: ({ context }) => context.queued.length > 0,
    // The design first: for any other design the guard reads nothing but the options, so the
    // windows it leads to are ruled out for that design (src/run/failureWindows.ts).
    queuedPublishFirst: ({ context }) => context.input.design === 'dualWritePublishFirst' && context.queued.length > 0,
    publishAfter: ({ context }) => context.input.design === 'dualWriteCommitFirst',
    writesOk: ({ event }) => event.type === 'db.result' && event.results.every((r) => r.inserted !== false && r.updated !== 0),
    committed: ({ event }) => event.type === 'db.committed' && event.ok,
    // A statement the database did not run (a deadlock, or after one): the service's request
    // fails, as an SQL error turns into a failed reply, and says nothing about the key.
    statementFailed: ({ event }) => event.type === 'db.result' && event.results.some((r) => r.error !== undefined),
    // A reply for an earlier command's transaction (it arrived after that command timed out)
    // is not this command's: each request runs on its own connection in a real service.
    staleReply: ({ context, event }) => (event.type === 'db.result' || event.type === 'db.committed') && event.tx !== `cmd-${context.pending?.n}`,
    isAck: ({ context, event }) => event.type === 'broker.ack' && event.ref === `pub-${context.pending?.n}`,
  },
  actions: {
    accept: assign(({ context, event }) =>
      event.type === 'cmd' ? { pending: { cmd: event, from: event.from, n: context.handled + 1 }, handled: context.handled + 1, replayOutcome: undefined } : {},
    ),
    hold: assign(({ context, event }) => (event.type === 'cmd' ? { queued: [...context.queued, event] } : {})),
    takeQueued: assign(({ context }) => {
      const [next, ...rest] = context.queued;
      return { pending: { cmd: next!, from: next!.from, n: context.handled + 1 }, handled: context.handled + 1, replayOutcome: undefined, queued: rest };
    }),
    claimKey: enqueueActions(({ context, enqueue }) => {
      const p = context.pending!;
      const row: Row = { checkout_key: p.cmd.key!, intent: p.cmd.command.intent, order_id: aggregateOf(p) };
      enqueue.emit(
        send(context.input.db, {
          type: 'db.exec',
          tx: `cmd-${p.n}`,
          ops: [
            { op: 'insert', table: 'checkout_keys', row, onConflict: 'nothing' },
            { op: 'select', table: 'checkout_keys', where: { checkout_key: p.cmd.key! } },
          ],
        }),
      );
    }),
    writeState: enqueueActions(({ context, enqueue }) => {
      enqueue.emit(send(context.input.db, { type: 'db.exec', tx: `cmd-${context.pending!.n}`, ops: stateOps(context) }));
    }),
    commit: enqueueActions(({ context, enqueue }) => {
      enqueue.emit(send(context.input.db, { type: 'db.commit', tx: `cmd-${context.pending!.n}` }));
    }),
    abort: enqueueActions(({ context, enqueue }) => {
      enqueue.emit(send(context.input.db, { type: 'db.abort', tx: `cmd-${context.pending!.n}` }));
    }),
    publish: enqueueActions(({ context, enqueue }) => {
      const c = commandWithAggregate(context.pending!);
      const fact = factOf(c);
      enqueue.emit(send(context.input.broker, { type: 'broker.publish', ref: `pub-${context.pending!.n}`, key: c.aggregate_id, payload: fact }));
    }),
    rememberReplay: assign(({ event }) => {
      const row = event.type === 'db.result' ? event.results[1]?.rows?.[0] : undefined;
      return { replayOutcome: row ? String(row['order_id']) : 'unknown' };
    }),
    replyConflict: enqueueActions(({ context, enqueue }) => {
      const p = context.pending!;
      enqueue.emit(note('guard', { guard: 'checkoutIntent', key: p.cmd.key }));
      enqueue.emit(send(p.from, { type: 'cmd.reply', ref: p.cmd.ref, ok: false, outcome: 'conflict' }));
    }),
    replyOk: enqueueActions(({ context, enqueue }) => {
      const p = context.pending!;
      enqueue.emit(send(p.from, { type: 'cmd.reply', ref: p.cmd.ref, ok: true, outcome: aggregateOf(p) }));
    }),
    replyReplayed: enqueueActions(({ context, enqueue }) => {
      const p = context.pending!;
      enqueue.emit(note('guard', { guard: 'checkoutKey', key: p.cmd.key }));
      enqueue.emit(send(p.from, { type: 'cmd.reply', ref: p.cmd.ref, ok: true, outcome: context.replayOutcome ?? 'unknown', replayed: true }));
    }),
    replyFailed: enqueueActions(({ context, enqueue }) => {
      const p = context.pending!;
      enqueue.emit(send(p.from, { type: 'cmd.reply', ref: p.cmd.ref, ok: false, outcome: 'failed' }));
    }),
  },
}).createMachine({
  id: 'source',
  context: ({ input }) => ({ durable: input.durable ?? {}, input, pending: undefined, queued: [], handled: 0, replayOutcome: undefined }),
  initial: 'idle',
  // A command that arrives while another is being handled waits its turn (idle takes it).
  on: { cmd: { actions: 'hold' } },
  states: {
    idle: {
      tags: ['idle'],
      always: [
        { guard: 'queuedPublishFirst', target: 'afterPublishSend', actions: ['takeQueued', 'publish'] },
        { guard: 'queued', target: 'received', actions: 'takeQueued' },
      ],
      on: {
        cmd: [
          { guard: 'publishFirst', target: 'afterPublishSend', actions: ['accept', 'publish'] },
          { target: 'received', actions: 'accept' },
        ],
      },
    },
    received: {
      always: [
        { guard: 'keyed', target: 'claimingKey', actions: 'claimKey' },
        { target: 'writingSource', actions: 'writeState' },
      ],
    },
    claimingKey: {
      on: {
        'db.result': [
          { guard: 'staleReply' },
          { guard: ({ event }) => event.results[0]?.inserted === true, target: 'writingSource', actions: 'writeState' },
          { guard: 'statementFailed', target: 'idle', actions: ['abort', 'replyFailed'] },
          {
            guard: ({ context, event }) => context.input.checkoutKeys !== 'honoured' && String(event.results[1]?.rows?.[0]?.['intent']) !== context.pending!.cmd.command.intent,
            target: 'idle',
            actions: ['rememberReplay', 'abort', 'replyConflict'],
          },
          { target: 'idle', actions: ['rememberReplay', 'abort', 'replyReplayed'] },
        ],
      },
      after: { timeout: { target: 'idle', actions: ['abort', 'replyFailed'] } },
    },
    writingSource: {
      on: {
        'db.result': [
          { guard: 'staleReply' },
          { guard: 'writesOk', target: 'beforeSourceCommit' },
          { target: 'idle', actions: ['abort', 'replyFailed'] },
        ],
      },
      after: { timeout: { target: 'idle', actions: ['abort', 'replyFailed'] } },
    },
    // The writes are in an open transaction; nothing is durable yet.
    beforeSourceCommit: { after: { 1: { target: 'committing', actions: 'commit' } } },
    committing: {
      on: {
        'db.committed': [
          { guard: 'staleReply' },
          { guard: 'committed', target: 'afterSourceCommit' },
          { target: 'idle', actions: 'replyFailed' },
        ],
      },
      // A lost commit reply: the service cannot tell commit from failure and reports failure.
      after: { timeout: { target: 'idle', actions: 'replyFailed' } },
    },
    // The state change (and, with an outbox, the publication intent) is durable.
    afterSourceCommit: {
      after: {
        1: [
          { guard: 'publishAfter', target: 'afterPublishSend', actions: 'publish' },
          { target: 'idle', actions: 'replyOk' },
        ],
      },
    },
    afterPublishSend: {
      on: { 'broker.ack': { guard: 'isAck', target: 'afterBrokerAccept' } },
      after: { timeout: { target: 'afterPublishSend', reenter: true, actions: 'publish' } },
    },
    // The broker holds the event.
    afterBrokerAccept: {
      after: {
        1: [
          { guard: 'publishFirst', target: 'received' },
          { target: 'idle', actions: 'replyOk' },
        ],
      },
    },
  },
});

/** The source service's options as a design draws it; durations in their units. */
export const SourceOptions = z.strictObject({
  ...componentFields,
  design: z.enum(['dualWriteCommitFirst', 'dualWritePublishFirst', 'outbox']),
  db: z.string().optional(),
  broker: z.string().optional(),
  aggregateTable: z.string().optional(),
  outboxTable: z.string().optional(),
  checkoutKeys: z.union([z.boolean(), z.enum(['intentBound', 'honoured'])]).optional(),
  /** How long it waits for its database or the broker (20 ticks). */
  timeout: duration.optional(),
});

/** The service that changes an aggregate and makes the fact known, named `source` unless the design names it. */
export function source(options: z.input<typeof SourceOptions>): ComponentBuilder {
  const o = parseOptions('source', SourceOptions, options);
  const name = o.name ?? 'source';
  const db = o.db ?? 'ordersDb';
  const broker = o.broker ?? 'broker';
  return ({ time }) => ({
    name,
    machine: sourceMachine,
    process: true,
    // With an outbox it only writes its database; the relay publishes. A dual write publishes itself.
    peers: o.design === 'outbox' ? [db] : [db, broker],
    input: {
      design: o.design,
      db,
      broker,
      ...given({
        aggregateTable: o.aggregateTable,
        outboxTable: o.outboxTable,
        checkoutKeys: o.checkoutKeys,
        timeoutTicks: ticksOf(time, `${name} option timeout`, o.timeout),
      }),
    },
    // Its database holds the tables it writes: the aggregate's, the outbox its design keeps, and
    // the checkout keys it records.
    wiring: (design) => {
      const tables = [
        ['aggregate table', o.aggregateTable ?? 'orders'],
        ...(o.design === 'outbox' ? [['outbox table', o.outboxTable ?? 'outbox']] : []),
        ...(o.checkoutKeys ? [['checkout key table', 'checkout_keys']] : []),
      ] as const;
      return tables.flatMap(([what, table]) => {
        const missing = design.missingTable(db, table);
        return missing === undefined ? [] : [`${what}: ${missing}`];
      });
    },
    ...common(time, name, o),
  });
}

// The outbox relay: polls committed outbox rows, publishes each to the broker and records that
// it did. It is the owner of retry between the source database and the broker.
// Design options:
// - `mark: 'afterSend'` records progress after the broker accepted the record (at-least-once:
//   a crash between acceptance and the mark publishes the same event_id again);
//   `mark: 'beforeSend'` records progress first (at-most-once: a crash after the mark loses it).
// - `concurrency: 'perAggregate'` keeps one publish in flight, so one aggregate's versions reach
//   the broker in order; `'concurrent'` sends a whole batch at once on separate connections, so
//   the broker may append one aggregate's versions out of order.
// Failure windows are its states: `relay.afterRelaySend`, `relay.afterBrokerAccept`,
// `relay.afterRelayProgress` and the rest.
import { assign, enqueueActions, setup } from 'xstate';
import { note, send, type Emitted, type PeerCrashed } from '../src/kernel/emitted.ts';
import type { BrokerReply } from './broker.ts';
import { idOf, markPublished, OUTBOX_TABLE, publishOf } from './outboxRow.ts';
import type { DatabaseReply, Row } from './database.ts';
import { common, componentFields, given, ticksOf, type ComponentBuilder } from '../src/scenario/design.ts';
import { duration, parseOptions, z } from '../src/scenario/options.ts';
import { InputError } from '../src/base/inputError.ts';
import { claimingRelayMachine } from './claimingRelay.ts';

export interface RelayInput {
  readonly db: string;
  readonly broker: string;
  readonly table?: string;
  readonly mark?: 'afterSend' | 'beforeSend';
  readonly concurrency?: 'perAggregate' | 'concurrent';
  readonly pollTicks?: number;
  readonly timeoutTicks?: number;
  readonly durable?: Record<string, never>;
}

type Ctx = {
  durable: Record<string, never>;
  db: string;
  broker: string;
  table: string;
  mark: 'afterSend' | 'beforeSend';
  concurrent: boolean;
  pollTicks: number;
  timeoutTicks: number;
  batch: readonly Row[];
  /** event_ids of the current batch still waiting for a broker ack. */
  unacked: readonly string[];
  polls: number;
};

type Event = BrokerReply | DatabaseReply | PeerCrashed;


/** The ref of the mark the relay is waiting on: the rows it published in this round. */
function markRef(context: Ctx): string {
  const rows = context.concurrent ? context.batch : context.batch.slice(0, 1);
  return `mark-${rows.map(idOf).join(',')}`;
}

/** Whether a reply answers the poll in progress, not an earlier one that outlived its timeout. */
function answersPoll(context: Ctx, event: { type: string; ref?: string }): boolean {
  return event.type === 'db.ran' && event.ref === `poll-${context.polls}`;
}

export const relayMachine = setup({
  types: { context: {} as Ctx, input: {} as RelayInput, events: {} as Event, emitted: {} as Emitted },
  delays: {
    poll: ({ context }) => context.pollTicks,
    timeout: ({ context }) => context.timeoutTicks,
  },
  guards: {
    markFirst: ({ context }) => context.mark === 'beforeSend',
    moreRows: ({ context }) => context.batch.length > 1 && !context.concurrent,
    expectedAck: ({ context, event }) => event.type === 'broker.ack' && context.unacked.includes(event.ref),
    // A reply to an earlier poll or mark (one that outlived its timeout) answers nothing now.
    pollAnswer: ({ context, event }) => answersPoll(context, event),
    markAnswer: ({ context, event }) => event.type === 'db.ran' && event.ref === markRef(context),
    // The mark's update failed: the rows are not marked, so nothing may be sent on its strength.
    markRefused: ({ context, event }) => event.type === 'db.ran' && event.ref === markRef(context) && !event.ok,
  },
  actions: {
    poll: enqueueActions(({ context, enqueue }) => {
      enqueue.assign({ polls: context.polls + 1 });
      enqueue.emit(send(context.db, { type: 'db.run', ref: `poll-${context.polls + 1}`, ops: [{ op: 'select', table: context.table, where: { published: false } }] }));
    }),
    takeBatch: assign(({ event }) => {
      const rows = event.type === 'db.ran' ? (event.results[0]?.rows ?? []) : [];
      return { batch: rows, unacked: [] as string[] };
    }),
    publish: enqueueActions(({ context, enqueue }) => {
      const rows = context.concurrent ? context.batch : context.batch.slice(0, 1);
      enqueue.assign({ unacked: rows.map(idOf) });
      for (const row of rows) enqueue.emit(send(context.broker, publishOf(row, idOf(row)), context.concurrent));
    }),
    ack: assign(({ context, event }) => ({ unacked: context.unacked.filter((id) => event.type !== 'broker.ack' || id !== event.ref) })),
    markProgress: enqueueActions(({ context, enqueue }) => {
      const rows = context.concurrent ? context.batch : context.batch.slice(0, 1);
      enqueue.emit(
        send(context.db, {
          type: 'db.run',
          ref: markRef(context),
          ops: markPublished(context.table, rows),
        }),
      );
    }),
    nextRow: assign(({ context }) => ({ batch: context.concurrent ? [] : context.batch.slice(1) })),
    gaveUp: enqueueActions(({ context, enqueue }) => {
      enqueue.emit(note('relay.unconfirmed', { event_ids: context.unacked }));
    }),
  },
}).createMachine({
  id: 'relay',
  context: ({ input }) => ({
    durable: input.durable ?? {},
    db: input.db,
    broker: input.broker,
    table: input.table ?? OUTBOX_TABLE,
    mark: input.mark ?? 'afterSend',
    concurrent: (input.concurrency ?? 'perAggregate') === 'concurrent',
    pollTicks: input.pollTicks ?? 8,
    timeoutTicks: input.timeoutTicks ?? 20,
    batch: [],
    unacked: [],
    polls: 0,
  }),
  initial: 'idle',
  states: {
    idle: { tags: ['idle'], after: { poll: 'polling' } },
    polling: {
      entry: 'poll',
      on: {
        'db.ran': [
          { guard: ({ context, event }) => answersPoll(context, event) && (event.results[0]?.rows ?? []).length === 0, target: 'idle' },
          { guard: ({ context, event }) => answersPoll(context, event) && context.mark === 'beforeSend', target: 'recordingProgress', actions: 'takeBatch' },
          { guard: 'pollAnswer', target: 'beforeRelaySend', actions: 'takeBatch' },
        ],
      },
      after: { timeout: 'idle' },
    },
    beforeRelaySend: { after: { 1: { target: 'afterRelaySend', actions: 'publish' } } },
    // Sent, not yet acknowledged: the broker may or may not have the record.
    afterRelaySend: {
      on: {
        'broker.ack': [
          { guard: ({ context, event }) => context.unacked.length === 1 && context.unacked[0] === event.ref, target: 'afterBrokerAccept', actions: 'ack' },
          { guard: 'expectedAck', actions: 'ack' },
        ],
      },
      after: {
        timeout: [
          // At-most-once gives up on an unacknowledged publish; at-least-once sends it again.
          { guard: 'markFirst', target: 'afterBrokerAccept', actions: 'gaveUp' },
          { target: 'beforeRelaySend' },
        ],
      },
    },
    // The broker has the record; the outbox row still says unpublished.
    afterBrokerAccept: {
      after: {
        1: [
          { guard: 'markFirst', target: 'nextRow' },
          { target: 'recordingProgress' },
        ],
      },
    },
    recordingProgress: {
      entry: 'markProgress',
      on: { 'db.ran': [{ guard: 'markRefused', target: 'idle' }, { guard: 'markAnswer', target: 'afterRelayProgress' }] },
      after: { timeout: 'idle' },
    },
    // The row is marked published.
    afterRelayProgress: {
      after: {
        1: [
          { guard: 'markFirst', target: 'beforeRelaySend' },
          { target: 'nextRow' },
        ],
      },
    },
    nextRow: {
      always: [
        { guard: ({ context }) => context.batch.length > 1 && !context.concurrent && context.mark === 'beforeSend', target: 'recordingProgress', actions: 'nextRow' },
        { guard: 'moreRows', target: 'beforeRelaySend', actions: 'nextRow' },
        { target: 'polling', actions: 'nextRow' },
      ],
    },
  },
});

/** The relay's options as a design draws it; durations in their units. */
export const RelayOptions = z.strictObject({
  ...componentFields,
  db: z.string().optional(),
  broker: z.string().optional(),
  table: z.string().optional(),
  mark: z.enum(['afterSend', 'beforeSend']).optional(),
  concurrency: z.enum(['perAggregate', 'concurrent']).optional(),
  /** How long it waits between polls when nothing is pending (8 ticks). */
  poll: duration.optional(),
  /** How long it waits for a reply before giving up on it (20 ticks). */
  timeout: duration.optional(),
  /**
   * How it takes rows: `'read'` (a plain select, the default) or `'skipLocked'`, one transaction
   * per round that claims rows FOR UPDATE SKIP LOCKED, so several workers share one outbox.
   */
  claim: z.enum(['read', 'skipLocked']).optional(),
  /** With `claim: 'skipLocked'`: claim only the earliest pending row of each aggregate (false). */
  heads: z.boolean().optional(),
  /** With `claim: 'skipLocked'`: the claim's LIMIT (none). */
  batch: z.number().int().min(1).optional(),
});

/** An outbox relay, named `relay` unless the design names it. */
export function relay(options: z.input<typeof RelayOptions> = {}): ComponentBuilder {
  const o = parseOptions('relay', RelayOptions, options);
  const name = o.name ?? 'relay';
  const db = o.db ?? 'ordersDb';
  const broker = o.broker ?? 'broker';
  const claiming = o.claim === 'skipLocked';
  if (claiming && o.mark === 'beforeSend') throw new InputError(`relay ${name}: mark 'beforeSend' cannot go with claim 'skipLocked', whose mark commits with its claim after the publish`);
  for (const key of ['heads', 'batch'] as const) {
    if (!claiming && o[key] !== undefined) throw new InputError(`relay ${name}: option ${key} needs claim 'skipLocked'`);
  }
  // The claiming relay is its own machine; the options each machine reads are its input.
  const own = claiming ? { heads: o.heads, batch: o.batch } : { mark: o.mark };
  return ({ time }) => ({
    name,
    machine: claiming ? claimingRelayMachine : relayMachine,
    process: true,
    peers: [db, broker],
    input: given({
      db,
      broker,
      table: o.table,
      ...own,
      concurrency: o.concurrency,
      pollTicks: ticksOf(time, `${name} option poll`, o.poll),
      timeoutTicks: ticksOf(time, `${name} option timeout`, o.timeout),
    }),
    // Its database holds the outbox it polls: found at load, not as a failed statement in a run.
    wiring: (design) => {
      const missing = design.missingTable(db, o.table ?? OUTBOX_TABLE);
      return missing === undefined ? [] : [`outbox table: ${missing}`];
    },
    ...common(time, name, o),
  });
}

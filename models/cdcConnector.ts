// A change-data-capture connector as the outbox's relay. Seed 002: "A CDC connector such as
// Debezium tails the database write-ahead log and streams outbox inserts straight to the
// broker"; seed 000: "'CDC' names a mechanism; it does not remove the relay's ownership." It
// reads the outbox table's committed changes in commit order from its own position (the
// database's `tail`, standing for logical decoding of a publication), publishes each to the
// broker, and keeps its position in a durable offset store of its own, which survives a crash.
// Nothing is written back to the outbox: progress is the offset alone.
// Design option `offsetCommit`:
// - `'afterAck'` moves the offset past a change once the broker acknowledged it: a crash
//   between the ack and the offset commit streams the same change again (at least once);
// - `'beforeAck'` moves the offset first and then publishes: a crash between the offset commit
//   and the broker's ack leaves a change the connector will never read again (at most once).
// Failure windows are its states: `connector.reading`, `connector.afterRelaySend`,
// `connector.afterBrokerAccept`, `connector.afterOffsetCommit` and the rest.
import { assign, enqueueActions, setup } from 'xstate';
import { send, type Emitted, type PeerCrashed } from '../src/kernel/emitted.ts';
import { common, componentFields, given, ticksOf, type ComponentBuilder } from '../src/scenario/design.ts';
import { duration, parseOptions, z } from '../src/scenario/options.ts';
import type { BrokerReply } from './broker.ts';
import type { DatabaseReply, Row } from './database.ts';
import { idOf, OUTBOX_TABLE, publishOf } from './outboxRow.ts';

/** The connector's offset store: the position of the next change to stream. */
export interface CdcDurable {
  readonly offset: number;
}

export interface CdcConnectorInput {
  readonly db: string;
  readonly broker: string;
  readonly table?: string;
  readonly offsetCommit?: 'afterAck' | 'beforeAck';
  readonly pollTicks?: number;
  readonly timeoutTicks?: number;
  readonly durable?: CdcDurable;
}

type Ctx = {
  durable: CdcDurable;
  db: string;
  broker: string;
  table: string;
  offsetFirst: boolean;
  pollTicks: number;
  timeoutTicks: number;
  /** The changes read and not yet streamed, the first at position `durable.offset` or just past it. */
  changes: readonly Row[];
  reads: number;
};

type Event = BrokerReply | DatabaseReply | PeerCrashed;

const head = (context: Ctx) => context.changes[0]!;

export const cdcConnectorMachine = setup({
  types: { context: {} as Ctx, input: {} as CdcConnectorInput, events: {} as Event, emitted: {} as Emitted },
  delays: {
    poll: ({ context }) => context.pollTicks,
    timeout: ({ context }) => context.timeoutTicks,
  },
  guards: {
    readNothing: ({ context, event }) => event.type === 'db.ran' && event.ref === `tail-${context.reads}` && (event.results[0]?.rows ?? []).length === 0,
    read: ({ context, event }) => event.type === 'db.ran' && event.ref === `tail-${context.reads}`,
    acked: ({ context, event }) => event.type === 'broker.ack' && context.changes.length > 0 && event.ref === idOf(head(context)),
    offsetFirst: ({ context }) => context.offsetFirst,
    moreChanges: ({ context }) => context.changes.length > 1,
  },
  actions: {
    read: enqueueActions(({ context, enqueue }) => {
      const reads = context.reads + 1;
      enqueue.assign({ reads });
      enqueue.emit(send(context.db, { type: 'db.run', ref: `tail-${reads}`, ops: [{ op: 'tail', table: context.table, from: context.durable.offset }] }));
    }),
    takeChanges: assign(({ event }) => ({ changes: event.type === 'db.ran' ? (event.results[0]?.rows ?? []) : [] })),
    publish: enqueueActions(({ context, enqueue }) => {
      const row = head(context);
      enqueue.emit(send(context.broker, publishOf(row, idOf(row))));
    }),
    // The offset store's write: the position past the change in hand.
    commitOffset: assign(({ context }) => ({ durable: { offset: context.durable.offset + 1 } })),
    nextChange: assign(({ context }) => ({ changes: context.changes.slice(1) })),
  },
}).createMachine({
  id: 'cdcConnector',
  context: ({ input }) => ({
    durable: input.durable ?? { offset: 0 },
    db: input.db,
    broker: input.broker,
    table: input.table ?? OUTBOX_TABLE,
    offsetFirst: (input.offsetCommit ?? 'afterAck') === 'beforeAck',
    pollTicks: input.pollTicks ?? 8,
    timeoutTicks: input.timeoutTicks ?? 20,
    changes: [],
    reads: 0,
  }),
  initial: 'idle',
  states: {
    idle: { tags: ['idle'], after: { poll: 'reading' } },
    reading: {
      entry: 'read',
      on: {
        'db.ran': [
          { guard: 'readNothing', target: 'idle' },
          { guard: 'read', target: 'beforeRelaySend', actions: 'takeChanges' },
        ],
      },
      after: { timeout: 'idle' },
    },
    beforeRelaySend: {
      after: {
        1: [
          { guard: 'offsetFirst', target: 'afterOffsetCommit', actions: 'commitOffset' },
          { target: 'afterRelaySend', actions: 'publish' },
        ],
      },
    },
    // Sent, not yet acknowledged: the broker may or may not have the record. The producer sends
    // again on a timeout while it lives.
    afterRelaySend: {
      on: { 'broker.ack': { guard: 'acked', target: 'afterBrokerAccept' } },
      after: { timeout: { target: 'afterRelaySend', reenter: true, actions: 'publish' } },
    },
    // The broker has the record.
    afterBrokerAccept: {
      after: {
        1: [
          { guard: 'offsetFirst', target: 'nextChange' },
          { target: 'afterOffsetCommit', actions: 'commitOffset' },
        ],
      },
    },
    // The offset is past the change.
    afterOffsetCommit: {
      after: {
        1: [
          { guard: 'offsetFirst', target: 'afterRelaySend', actions: 'publish' },
          { target: 'nextChange' },
        ],
      },
    },
    nextChange: {
      always: [
        { guard: 'moreChanges', target: 'beforeRelaySend', actions: 'nextChange' },
        { target: 'reading', actions: 'nextChange' },
      ],
    },
  },
});

/** The connector's options as a design draws it; durations in their units. */
export const CdcConnectorOptions = z.strictObject({
  ...componentFields,
  db: z.string().optional(),
  broker: z.string().optional(),
  table: z.string().optional(),
  /** When its position moves past a change: after the broker acknowledged it, or before it is sent. */
  offsetCommit: z.enum(['afterAck', 'beforeAck']).optional(),
  /** Its wait between reads when nothing new was committed (8 ticks). */
  poll: duration.optional(),
  /** How long it waits for a reply before reading or sending again (20 ticks). */
  timeout: duration.optional(),
});

/** A CDC connector streaming an outbox table, named `connector` unless the design names it. */
export function cdcConnector(options: z.input<typeof CdcConnectorOptions> = {}): ComponentBuilder {
  const o = parseOptions('cdcConnector', CdcConnectorOptions, options);
  const name = o.name ?? 'connector';
  const db = o.db ?? 'ordersDb';
  const broker = o.broker ?? 'broker';
  return ({ time }) => ({
    name,
    machine: cdcConnectorMachine,
    process: true,
    peers: [db, broker],
    input: given({
      db,
      broker,
      table: o.table,
      offsetCommit: o.offsetCommit,
      pollTicks: ticksOf(time, `${name} option poll`, o.poll),
      timeoutTicks: ticksOf(time, `${name} option timeout`, o.timeout),
    }),
    // It streams its table's log, which a table keeps only with history: found at load, not as
    // a failed statement in a run.
    wiring: (design) => {
      const table = o.table ?? OUTBOX_TABLE;
      const missing = design.missingTable(db, table);
      if (missing !== undefined) return [`streamed table: ${missing}`];
      const spec = (design.component(db)?.input as { tables?: Readonly<Record<string, { history?: boolean }>> } | undefined)?.tables?.[table];
      return spec !== undefined && spec.history !== true ? [`streamed table: ${db}.${table} keeps no history, so it has no log of changes to stream: declare it with history: true`] : [];
    },
    ...common(time, name, o),
  });
}

// An outbox relay worker that claims its rows, so several workers can poll one outbox in
// parallel without coordinating: the polling publisher of seed 002 ("Use FOR UPDATE SKIP LOCKED
// so multiple relay instances can run safely in parallel"). Each round is one transaction:
// claim pending rows (SELECT … FOR UPDATE SKIP LOCKED), publish them, mark them published,
// commit. Another worker's claim passes over the rows this one holds, so while it lives no
// second worker publishes them; a crash, a lost commit or the database's idle timeout rolls the
// round back and the rows go to whichever worker claims next, which publishes them again
// (at-least-once, as any relay).
// Design options:
// - `heads: true` claims only the earliest pending row of each aggregate. Without it a second
//   worker that finds an aggregate's first row held takes its next one and may publish version
//   2 before the holder publishes version 1 (seed 000: "a relay that publishes versions
//   concurrently can reorder one aggregate"); with it, a held row keeps the rows behind it back.
// - `batch`: the claim's LIMIT (no limit by default).
// - `concurrency`: as the plain relay's, whether a claimed batch is published one row at a time
//   or all at once on separate connections.
// Failure windows are its states: `relay.claiming`, `relay.afterRelaySend`,
// `relay.afterRelayProgress` (marked, not yet committed), `relay.committingClaim` and the rest.
import { assign, enqueueActions, setup } from 'xstate';
import { send, type Emitted, type PeerCrashed } from '../src/kernel/emitted.ts';
import type { BrokerReply } from './broker.ts';
import type { DatabaseReply, DbOp, Row } from './database.ts';
import { idOf, markPublished, OUTBOX_TABLE, publishOf } from './outboxRow.ts';

export interface ClaimingRelayInput {
  readonly db: string;
  readonly broker: string;
  readonly table?: string;
  readonly heads?: boolean;
  readonly batch?: number;
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
  heads: boolean;
  batch: number | undefined;
  concurrent: boolean;
  pollTicks: number;
  timeoutTicks: number;
  /** The rows of this round's claim not yet published and marked. */
  rows: readonly Row[];
  /** event_ids of the rows sent and still waiting for a broker ack. */
  unacked: readonly string[];
  /** Rounds started; names the round's transaction, so a reply to an earlier round answers nothing. */
  rounds: number;
};

type Event = BrokerReply | DatabaseReply | PeerCrashed;

const txOf = (context: Ctx) => `claim-${context.rounds}`;

/** The rows this step publishes and marks: the whole claim at once, or its first row. */
const current = (context: Ctx) => (context.concurrent ? context.rows : context.rows.slice(0, 1));

const markStmt = (context: Ctx) => `mark-${current(context).map(idOf).join(',')}`;

/** Whether a database reply answers this round's statement `stmt` (or its commit, without one). */
function answers(context: Ctx, event: Event, stmt?: string): boolean {
  if (stmt === undefined) return event.type === 'db.committed' && event.tx === txOf(context);
  return event.type === 'db.result' && event.tx === txOf(context) && event.stmt === stmt;
}

export const claimingRelayMachine = setup({
  types: { context: {} as Ctx, input: {} as ClaimingRelayInput, events: {} as Event, emitted: {} as Emitted },
  delays: {
    poll: ({ context }) => context.pollTicks,
    timeout: ({ context }) => context.timeoutTicks,
  },
  guards: {
    claimedNothing: ({ context, event }) => answers(context, event, 'claim') && event.type === 'db.result' && (event.results[0]?.rows ?? []).length === 0,
    claimed: ({ context, event }) => answers(context, event, 'claim'),
    lastAck: ({ context, event }) => event.type === 'broker.ack' && context.unacked.length === 1 && context.unacked[0] === event.ref,
    expectedAck: ({ context, event }) => event.type === 'broker.ack' && context.unacked.includes(event.ref),
    marked: ({ context, event }) => answers(context, event, markStmt(context)),
    committed: ({ context, event }) => answers(context, event),
    moreRows: ({ context }) => !context.concurrent && context.rows.length > 1,
  },
  actions: {
    claim: enqueueActions(({ context, enqueue }) => {
      const rounds = context.rounds + 1;
      enqueue.assign({ rounds, rows: [], unacked: [] });
      const op: DbOp = { op: 'select', table: context.table, where: { published: false }, lock: 'skipLocked', ...(context.heads ? { headsOf: 'aggregate_id' } : {}), ...(context.batch === undefined ? {} : { limit: context.batch }) };
      enqueue.emit(send(context.db, { type: 'db.exec', tx: `claim-${rounds}`, stmt: 'claim', ops: [op] }));
    }),
    takeRows: assign(({ event }) => ({ rows: event.type === 'db.result' ? (event.results[0]?.rows ?? []) : [] })),
    publish: enqueueActions(({ context, enqueue }) => {
      const rows = current(context);
      enqueue.assign({ unacked: rows.map(idOf) });
      for (const row of rows) enqueue.emit(send(context.broker, publishOf(row, idOf(row)), context.concurrent));
    }),
    ack: assign(({ context, event }) => ({ unacked: context.unacked.filter((id) => event.type !== 'broker.ack' || id !== event.ref) })),
    mark: enqueueActions(({ context, enqueue }) => {
      const ops = markPublished(context.table, current(context));
      enqueue.emit(send(context.db, { type: 'db.exec', tx: txOf(context), stmt: markStmt(context), ops }));
    }),
    nextRow: assign(({ context }) => ({ rows: context.concurrent ? [] : context.rows.slice(1) })),
    commit: enqueueActions(({ context, enqueue }) => enqueue.emit(send(context.db, { type: 'db.commit', tx: txOf(context) }))),
    // Giving a round up rolls it back, so its rows are free for the next claim at once rather
    // than after the database's idle timeout.
    release: enqueueActions(({ context, enqueue }) => enqueue.emit(send(context.db, { type: 'db.abort', tx: txOf(context) }))),
  },
}).createMachine({
  id: 'claimingRelay',
  context: ({ input }) => ({
    durable: input.durable ?? {},
    db: input.db,
    broker: input.broker,
    table: input.table ?? OUTBOX_TABLE,
    heads: input.heads ?? false,
    batch: input.batch,
    concurrent: (input.concurrency ?? 'perAggregate') === 'concurrent',
    pollTicks: input.pollTicks ?? 8,
    timeoutTicks: input.timeoutTicks ?? 20,
    rows: [],
    unacked: [],
    rounds: 0,
  }),
  initial: 'idle',
  states: {
    idle: { tags: ['idle'], after: { poll: 'claiming' } },
    // The claim is sent; the rows it returns are locked by this round until it ends.
    claiming: {
      entry: 'claim',
      on: {
        'db.result': [
          { guard: 'claimedNothing', target: 'idle', actions: 'release' },
          { guard: 'claimed', target: 'beforeRelaySend', actions: 'takeRows' },
        ],
      },
      after: { timeout: { target: 'idle', actions: 'release' } },
    },
    beforeRelaySend: { after: { 1: { target: 'afterRelaySend', actions: 'publish' } } },
    // Sent, not yet acknowledged: the broker may or may not have the record.
    afterRelaySend: {
      on: {
        'broker.ack': [
          { guard: 'lastAck', target: 'afterBrokerAccept', actions: 'ack' },
          { guard: 'expectedAck', actions: 'ack' },
        ],
      },
      after: { timeout: 'beforeRelaySend' },
    },
    // The broker has the record; the row is still pending and still held by this round.
    afterBrokerAccept: { after: { 1: 'recordingProgress' } },
    recordingProgress: {
      entry: 'mark',
      on: { 'db.result': { guard: 'marked', target: 'afterRelayProgress' } },
      after: { timeout: { target: 'idle', actions: 'release' } },
    },
    // The row is marked inside the round's transaction, which has not committed: a crash here
    // rolls the mark back and the row is published again.
    afterRelayProgress: {
      after: {
        1: [
          { guard: 'moreRows', target: 'beforeRelaySend', actions: 'nextRow' },
          { target: 'committingClaim', actions: 'nextRow' },
        ],
      },
    },
    // The commit is sent: whether the marks landed is unknown until its reply.
    committingClaim: {
      entry: 'commit',
      on: { 'db.committed': { guard: 'committed', target: 'claiming' } },
      after: { timeout: 'idle' },
    },
  },
});

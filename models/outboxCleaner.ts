// The outbox's cleanup job. Seed 002: "Prune published rows on a schedule tied to your maximum
// plausible replay window. Keeping an outbox table forever turns a small coordination table
// into your largest table." Seed 000 adds the catch: "cleanup must not delete the only evidence
// of an unknown publish". Every `every` it deletes the outbox rows inserted longer than
// `retention` ago, either only those already published (the seeds' rule) or every row of that
// age (a cleanup written against the table's size alone, which also deletes a row the relay has
// not yet published when the relay is down or behind for longer than the retention).
// Failure windows are its states: `cleaner.idle` and `cleaner.cleaning`.
import { enqueueActions, setup } from 'xstate';
import { send, type Emitted, type PeerCrashed } from '../src/kernel/emitted.ts';
import { common, componentFields, given, ticksOf, type ComponentBuilder } from '../src/scenario/design.ts';
import { duration, parseOptions, z } from '../src/scenario/options.ts';
import type { DatabaseReply } from './database.ts';

export interface OutboxCleanerInput {
  readonly db: string;
  readonly table?: string;
  readonly everyTicks?: number;
  readonly retentionTicks: number;
  readonly rows?: 'published' | 'all';
  readonly timeoutTicks?: number;
  readonly durable?: Record<string, never>;
}

type Ctx = {
  durable: Record<string, never>;
  db: string;
  table: string;
  everyTicks: number;
  retentionTicks: number;
  publishedOnly: boolean;
  timeoutTicks: number;
  /** Sweeps started; names the sweep's statement, so a late reply to an earlier one answers nothing. */
  sweeps: number;
};

type Event = DatabaseReply | PeerCrashed;

export const outboxCleanerMachine = setup({
  types: { context: {} as Ctx, input: {} as OutboxCleanerInput, events: {} as Event, emitted: {} as Emitted },
  delays: {
    every: ({ context }) => context.everyTicks,
    timeout: ({ context }) => context.timeoutTicks,
  },
  guards: {
    swept: ({ context, event }) => event.type === 'db.ran' && event.ref === `sweep-${context.sweeps}`,
  },
  actions: {
    sweep: enqueueActions(({ context, enqueue }) => {
      const sweeps = context.sweeps + 1;
      enqueue.assign({ sweeps });
      const where = context.publishedOnly ? { published: true } : undefined;
      enqueue.emit(send(context.db, { type: 'db.run', ref: `sweep-${sweeps}`, ops: [{ op: 'delete', table: context.table, ...(where ? { where } : {}), olderThan: context.retentionTicks }] }));
    }),
  },
}).createMachine({
  id: 'outboxCleaner',
  context: ({ input }) => ({
    durable: input.durable ?? {},
    db: input.db,
    table: input.table ?? 'outbox',
    everyTicks: input.everyTicks ?? 10,
    retentionTicks: input.retentionTicks,
    publishedOnly: (input.rows ?? 'published') === 'published',
    timeoutTicks: input.timeoutTicks ?? 20,
    sweeps: 0,
  }),
  initial: 'idle',
  states: {
    idle: { tags: ['idle'], after: { every: 'cleaning' } },
    // The delete is sent; whether it ran is unknown until its reply.
    cleaning: {
      entry: 'sweep',
      on: { 'db.ran': { guard: 'swept', target: 'idle' } },
      after: { timeout: 'idle' },
    },
  },
});

/** The cleanup job's options as a design draws it; durations in their units. */
export const OutboxCleanerOptions = z.strictObject({
  ...componentFields,
  db: z.string().optional(),
  table: z.string().optional(),
  /** Rows inserted longer ago than this are deleted (required). */
  retention: duration,
  /** How often it sweeps (10 ticks). */
  every: duration.optional(),
  /** Which rows of that age: only those already published (the default), or all. */
  rows: z.enum(['published', 'all']).optional(),
  /** How long it waits for the delete's reply (20 ticks). */
  timeout: duration.optional(),
});

/** An outbox cleanup job, named `cleaner` unless the design names it. */
export function outboxCleaner(options: z.input<typeof OutboxCleanerOptions>): ComponentBuilder {
  const o = parseOptions('outboxCleaner', OutboxCleanerOptions, options);
  const name = o.name ?? 'cleaner';
  const db = o.db ?? 'ordersDb';
  return ({ time }) => ({
    name,
    machine: outboxCleanerMachine,
    process: true,
    peers: [db],
    input: {
      db,
      retentionTicks: time.ticks(`${name} option retention`, o.retention, 0),
      ...given({
        table: o.table,
        rows: o.rows,
        everyTicks: ticksOf(time, `${name} option every`, o.every),
        timeoutTicks: ticksOf(time, `${name} option timeout`, o.timeout),
      }),
    },
    ...common(time, name, o),
  });
}

// The reconciler of seed 000's external-effect path, step 6: "reconcile pending/unknown states
// until terminal". Each sweep reads the caller's `effect_outcomes` for UNKNOWN rows (the caller
// gave up on an ambiguous call and moved on) and, when the caller records intents, its
// `effect_intents` for PENDING rows; a PENDING intent is taken only once two sweeps in a row
// have seen it, since a caller may still be working on a fresh one. For the row it takes it asks
// the provider by key whether the operation exists, calls again under the same key only when it
// does not, and records the terminal outcome with the provider's operation id. It never calls
// without a key: a provider that honours the key turns its call into a replay if the lookup was
// wrong. Option `sweep: 'unknownOnly'` reads only the UNKNOWN outcomes: an intent a racing
// redelivery put back to PENDING after it was resolved is then never seen again.
// Its state is the caller's database plus the provider's records; nothing of its own survives a
// crash, and nothing needs to: the next poll finds the rows still UNKNOWN.
// Failure windows: `reconciler.checkingStatus`, `reconciler.awaitingResponse`,
// `reconciler.afterAnswer` (answer in hand, not recorded), `reconciler.recording` and its
// polling states.
import { assign, enqueueActions, setup } from 'xstate';
import { note, send, type Emitted, type PeerCrashed } from '../src/kernel/emitted.ts';
import type { DatabaseReply, DbOp, OpResult, Row } from './database.ts';
import type { ProviderReply } from './provider.ts';
import { common, componentFields, given, ticksOf, type ComponentBuilder } from '../src/scenario/design.ts';
import { duration, parseOptions, z } from '../src/scenario/options.ts';

export interface ReconcilerInput {
  readonly db: string;
  readonly provider: string;
  /** The caller records intents too, so the intent row is closed with the outcome. */
  readonly recordIntent: boolean;
  /** What a sweep reads: UNKNOWN outcomes and stale PENDING intents (the default), or UNKNOWN outcomes only. */
  readonly sweep?: 'pendingAndUnknown' | 'unknownOnly';
  readonly pollTicks?: number;
  readonly timeoutTicks?: number;
  readonly durable?: Record<string, never>;
}

type Answer = { readonly state: 'SUCCEEDED' | 'CONFLICT'; readonly op_id: string };

type Ctx = {
  durable: Record<string, never>;
  input: ReconcilerInput;
  polls: number;
  /** The UNKNOWN outcome or stale PENDING intent being reconciled. */
  row: Row | undefined;
  /** The PENDING intents the last sweep saw, as `key|intent`. */
  pendingSeen: readonly string[];
  answer: Answer | undefined;
};

type Event = DatabaseReply | ProviderReply | PeerCrashed;

const refBase = (ctx: Ctx) => `reconcile-${ctx.polls}`;
const sweepsPending = (ctx: Ctx) => ctx.input.recordIntent && (ctx.input.sweep ?? 'pendingAndUnknown') === 'pendingAndUnknown';
const idOf = (r: Row) => `${r['key']}|${r['intent']}`;

/** The PENDING intents a sweep saw. */
function pendingOf(results: readonly OpResult[]): string[] {
  return (results[1]?.rows ?? []).map(idOf);
}

/** The row a sweep takes: the first UNKNOWN outcome, else the first PENDING intent the previous sweep saw too. */
function pick(ctx: Ctx, results: readonly OpResult[]): Row | undefined {
  const unknown = results[0]?.rows?.[0];
  if (unknown) return unknown;
  return (results[1]?.rows ?? []).find((r) => ctx.pendingSeen.includes(idOf(r)));
}
const isMine = (ctx: Ctx, event: Event, type: string) => event.type === type && 'ref' in event && event.ref.startsWith(`${refBase(ctx)}#`);

export const reconcilerMachine = setup({
  types: { context: {} as Ctx, input: {} as ReconcilerInput, events: {} as Event, emitted: {} as Emitted },
  delays: {
    poll: ({ context }) => context.input.pollTicks ?? 15,
    timeout: ({ context }) => context.input.timeoutTicks ?? 20,
  },
  guards: {
    isPoll: ({ context, event }) => event.type === 'db.ran' && event.ref === `${refBase(context)}#poll`,
    nothingUnknown: ({ context, event }) => event.type === 'db.ran' && event.ref === `${refBase(context)}#poll` && pick(context, event.results) === undefined,
    isFound: ({ context, event }) => isMine(context, event, 'provider.statusResult') && event.type === 'provider.statusResult' && event.op_id !== null,
    isNotFound: ({ context, event }) => isMine(context, event, 'provider.statusResult') && event.type === 'provider.statusResult' && event.op_id === null,
    isResponse: ({ context, event }) => isMine(context, event, 'provider.response'),
    isRecorded: ({ context, event }) => event.type === 'db.ran' && event.ref === `${refBase(context)}#record` && event.ok,
  },
  actions: {
    poll: enqueueActions(({ context, enqueue }) => {
      const polls = context.polls + 1;
      enqueue.assign({ polls, row: undefined, answer: undefined });
      const ops: DbOp[] = [{ op: 'select', table: 'effect_outcomes', where: { state: 'UNKNOWN' } }];
      if (sweepsPending(context)) ops.push({ op: 'select', table: 'effect_intents', where: { state: 'PENDING' } });
      enqueue.emit(send(context.input.db, { type: 'db.run', ref: `reconcile-${polls}#poll`, ops }));
    }),
    takeRow: assign(({ context, event }) => (event.type === 'db.ran' ? { row: pick(context, event.results), pendingSeen: pendingOf(event.results) } : {})),
    rememberPending: assign(({ event }) => (event.type === 'db.ran' ? { pendingSeen: pendingOf(event.results) } : {})),
    askStatus: enqueueActions(({ context, enqueue }) => {
      enqueue.emit(note('reconcile', { key: context.row!['key'], by: 'reconciler' }));
      enqueue.emit(send(context.input.provider, { type: 'provider.status', ref: `${refBase(context)}#status`, key: String(context.row!['key']) }));
    }),
    call: enqueueActions(({ context, enqueue }) =>
      enqueue.emit(
        send(context.input.provider, { type: 'provider.call', ref: `${refBase(context)}#call`, key: String(context.row!['key']), intent: String(context.row!['intent']) }),
      ),
    ),
    rememberAnswer: assign(({ context, event }) => {
      // An operation under the key made for another intent is not this row's: a conflict.
      if (event.type === 'provider.statusResult' && event.op_id !== null) {
        const other = event.intent !== undefined && event.intent !== String(context.row?.['intent']);
        return { answer: { state: other ? ('CONFLICT' as const) : ('SUCCEEDED' as const), op_id: event.op_id } };
      }
      if (event.type === 'provider.response') return { answer: { state: event.status === 'conflict' ? ('CONFLICT' as const) : ('SUCCEEDED' as const), op_id: event.op_id } };
      return {};
    }),
    record: enqueueActions(({ context, enqueue }) => {
      const a = context.answer!;
      const row: Row = { key: context.row!['key']!, intent: context.row!['intent']!, state: a.state, op_id: a.op_id };
      const ops: DbOp[] = [{ op: 'upsert', table: 'effect_outcomes', row }];
      if (context.input.recordIntent) ops.push({ op: 'upsert', table: 'effect_intents', row });
      enqueue.emit(send(context.input.db, { type: 'db.run', ref: `${refBase(context)}#record`, ops }));
    }),
    noteResolved: enqueueActions(({ context, enqueue }) => enqueue.emit(note('resolved', { key: context.row!['key'], ...context.answer! }))),
  },
}).createMachine({
  id: 'reconciler',
  context: ({ input }) => ({ durable: input.durable ?? {}, input, polls: 0, row: undefined, pendingSeen: [], answer: undefined }),
  initial: 'idle',
  states: {
    idle: { tags: ['idle'], after: { poll: { target: 'polling', actions: 'poll' } } },
    polling: {
      on: {
        'db.ran': [
          { guard: 'nothingUnknown', target: 'idle', actions: 'rememberPending' },
          { guard: 'isPoll', target: 'checkingStatus', actions: ['takeRow', 'askStatus'] },
        ],
      },
      after: { timeout: 'idle' },
    },
    // Does the provider hold an operation under the key? Only a "no" justifies another call.
    checkingStatus: {
      on: {
        'provider.statusResult': [
          { guard: 'isFound', target: 'afterAnswer', actions: 'rememberAnswer' },
          { guard: 'isNotFound', target: 'awaitingResponse', actions: 'call' },
        ],
      },
      after: { timeout: 'idle' },
    },
    awaitingResponse: {
      on: { 'provider.response': { guard: 'isResponse', target: 'afterAnswer', actions: 'rememberAnswer' } },
      after: { timeout: 'idle' },
    },
    // The terminal outcome is known and not yet recorded: the row still says UNKNOWN.
    afterAnswer: { after: { 1: { target: 'recording', actions: 'record' } } },
    recording: {
      on: { 'db.ran': { guard: 'isRecorded', target: 'idle', actions: 'noteResolved' } },
      after: { timeout: 'idle' },
    },
  },
});

/** The reconciler's options as a design draws it; durations in their units. */
export const ReconcilerOptions = z.strictObject({
  ...componentFields,
  db: z.string().optional(),
  provider: z.string().optional(),
  recordIntent: z.boolean(),
  sweep: z.enum(['pendingAndUnknown', 'unknownOnly']).optional(),
  /** How long it waits between sweeps (15 ticks). */
  poll: duration.optional(),
  /** How long it waits for the provider or the database (20 ticks). */
  timeout: duration.optional(),
});

/** A reconciler of pending and unknown outcomes, named `reconciler` unless the design names it. */
export function reconciler(options: z.input<typeof ReconcilerOptions>): ComponentBuilder {
  const o = parseOptions('reconciler', ReconcilerOptions, options);
  const name = o.name ?? 'reconciler';
  const db = o.db ?? 'callerDb';
  const providerName = o.provider ?? 'provider';
  return ({ time }) => ({
    name,
    machine: reconcilerMachine,
    process: true,
    peers: [db, providerName],
    input: {
      db,
      provider: providerName,
      recordIntent: o.recordIntent,
      ...given({ sweep: o.sweep, pollTicks: ticksOf(time, `${name} option poll`, o.poll), timeoutTicks: ticksOf(time, `${name} option timeout`, o.timeout) }),
    },
    ...common(time, name, o),
  });
}

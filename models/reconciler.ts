// The reconciler of seed 000's external-effect path, step 6: "reconcile pending/unknown states
// until terminal". It polls the caller's `effect_outcomes` for UNKNOWN rows (the caller gave up
// on an ambiguous call and moved on), asks the provider by key whether the operation exists,
// calls again under the same key only when it does not, and records the terminal outcome with
// the provider's operation id. It never calls without a key: a provider that honours the key
// turns its call into a replay if the lookup was wrong.
// Its state is the caller's database plus the provider's records; nothing of its own survives a
// crash, and nothing needs to: the next poll finds the rows still UNKNOWN.
// Failure windows: `reconciler.checkingStatus`, `reconciler.awaitingResponse`,
// `reconciler.afterAnswer` (answer in hand, not recorded), `reconciler.recording` and its
// polling states.
import { assign, enqueueActions, setup } from 'xstate';
import { note, send, type Emitted, type PeerCrashed } from '../src/emitted.ts';
import type { DatabaseReply, DbOp, Row } from './database.ts';
import type { ProviderReply } from './provider.ts';

export interface ReconcilerInput {
  readonly db: string;
  readonly provider: string;
  /** The caller records intents too, so the intent row is closed with the outcome. */
  readonly recordIntent: boolean;
  readonly pollTicks?: number;
  readonly timeoutTicks?: number;
  readonly durable?: Record<string, never>;
}

type Answer = { readonly state: 'SUCCEEDED' | 'CONFLICT'; readonly op_id: string };

type Ctx = {
  durable: Record<string, never>;
  input: ReconcilerInput;
  polls: number;
  /** The UNKNOWN row being reconciled. */
  row: Row | undefined;
  answer: Answer | undefined;
};

type Event = DatabaseReply | ProviderReply | PeerCrashed;

const refBase = (ctx: Ctx) => `reconcile-${ctx.polls}`;
const isMine = (ctx: Ctx, event: Event, type: string) => event.type === type && 'ref' in event && event.ref.startsWith(`${refBase(ctx)}#`);

export const reconcilerMachine = setup({
  types: { context: {} as Ctx, input: {} as ReconcilerInput, events: {} as Event, emitted: {} as Emitted },
  delays: {
    poll: ({ context }) => context.input.pollTicks ?? 15,
    timeout: ({ context }) => context.input.timeoutTicks ?? 20,
  },
  guards: {
    isPoll: ({ context, event }) => event.type === 'db.ran' && event.ref === `${refBase(context)}#poll`,
    nothingUnknown: ({ context, event }) => event.type === 'db.ran' && event.ref === `${refBase(context)}#poll` && (event.results[0]?.rows ?? []).length === 0,
    isFound: ({ context, event }) => isMine(context, event, 'provider.statusResult') && event.type === 'provider.statusResult' && event.op_id !== null,
    isNotFound: ({ context, event }) => isMine(context, event, 'provider.statusResult') && event.type === 'provider.statusResult' && event.op_id === null,
    isResponse: ({ context, event }) => isMine(context, event, 'provider.response'),
    isRecorded: ({ context, event }) => event.type === 'db.ran' && event.ref === `${refBase(context)}#record` && event.ok,
  },
  actions: {
    poll: enqueueActions(({ context, enqueue }) => {
      const polls = context.polls + 1;
      enqueue.assign({ polls, row: undefined, answer: undefined });
      enqueue.emit(send(context.input.db, { type: 'db.run', ref: `reconcile-${polls}#poll`, ops: [{ op: 'select', table: 'effect_outcomes', where: { state: 'UNKNOWN' } }] }));
    }),
    takeRow: assign(({ event }) => ({ row: event.type === 'db.ran' ? event.results[0]?.rows?.[0] : undefined })),
    askStatus: enqueueActions(({ context, enqueue }) => {
      enqueue.emit(note('reconcile', { key: context.row!['key'], by: 'reconciler' }));
      enqueue.emit(send(context.input.provider, { type: 'provider.status', ref: `${refBase(context)}#status`, key: String(context.row!['key']) }));
    }),
    call: enqueueActions(({ context, enqueue }) =>
      enqueue.emit(
        send(context.input.provider, { type: 'provider.call', ref: `${refBase(context)}#call`, key: String(context.row!['key']), intent: String(context.row!['intent']) }),
      ),
    ),
    rememberAnswer: assign(({ event }) => {
      if (event.type === 'provider.statusResult' && event.op_id !== null) return { answer: { state: 'SUCCEEDED' as const, op_id: event.op_id } };
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
  context: ({ input }) => ({ durable: input.durable ?? {}, input, polls: 0, row: undefined, answer: undefined }),
  initial: 'idle',
  states: {
    idle: { tags: ['idle'], after: { poll: { target: 'polling', actions: 'poll' } } },
    polling: {
      on: {
        'db.ran': [
          { guard: 'nothingUnknown', target: 'idle' },
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

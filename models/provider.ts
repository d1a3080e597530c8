// An external API on the far side of the caller's transaction: a carrier that books pickups, a
// payment provider that captures, an email provider that sends. Its operations are its own
// durable records; nothing the caller commits locally can include them, which is why the seeds
// call this the edge of the transaction.
// Design options, each a line of the seeds:
// - `idempotency`: `none` (every call creates an operation), `honoured` (a repeat of a known
//   key returns the recorded operation, whatever it asks for) or `intentBound` (a repeat is
//   returned only when it asks for the same intent; another intent under the key is refused).
// - `keyRetentionTicks`: how long the provider remembers a key; a retry after that is new work.
// - `statusLookup`: `byKey` lets a caller ask whether an operation exists for its key (within
//   the same retention), which is what turns an ambiguous timeout back into a known outcome.
// Fault model: operations and key records are durable, the queue of calls is volatile. Every
// operation passes through `provider.afterExternalEffect` (committed, response not yet sent), so
// a crash there, or a lost `provider-><caller>:provider.response`, leaves the caller with the
// ambiguous timeout of the seeds.
import { assign, enqueueActions, setup } from 'xstate';
import { note, send, type Emitted, type FromPeer, type PeerCrashed } from '../src/kernel/emitted.ts';
import type { EvidencePart } from '../src/scenario/scenario.ts';
import { common, componentFields, given, ticksOf, type ComponentBuilder } from '../src/scenario/design.ts';
import { duration, parseOptions, z } from '../src/scenario/options.ts';
import { ofKind } from '../src/base/notOfKind.ts';

export interface ProviderOperation {
  readonly op_id: string;
  /** The idempotency key the call carried, or null when it carried none. */
  readonly key: string | null;
  readonly intent: string;
  readonly at: number;
}

export interface ProviderKeyRecord {
  readonly op_id: string;
  readonly intent: string;
  readonly at: number;
}

export interface ProviderDurable {
  readonly nextOp: number;
  readonly operations: readonly ProviderOperation[];
  /** Key → the operation it was first bound to; kept only when the provider honours keys. */
  readonly keys: Readonly<Record<string, ProviderKeyRecord>>;
}

export interface ProviderInput {
  readonly idempotency: 'none' | 'honoured' | 'intentBound';
  readonly statusLookup: 'none' | 'byKey';
  /** A key older than this many ticks is forgotten; absent means kept forever. */
  readonly keyRetentionTicks?: number;
  readonly durable?: ProviderDurable;
}

export type ProviderCall = { readonly type: 'provider.call'; readonly ref: string; readonly key?: string; readonly intent: string };
export type ProviderStatus = { readonly type: 'provider.status'; readonly ref: string; readonly key: string };

export type ProviderEvent = (ProviderCall & FromPeer) | (ProviderStatus & FromPeer) | PeerCrashed;

export type ProviderResponseStatus = 'created' | 'replayed' | 'conflict';

/** Replies a provider sends; callers put these in their own event unions. */
export type ProviderReply =
  | ({ type: 'provider.response'; ref: string; status: ProviderResponseStatus; op_id: string } & FromPeer)
  /** A status answer names the operation under the key and the intent it was made for, so a caller can tell its own request from another one that reused the key. */
  | ({ type: 'provider.statusResult'; ref: string; op_id: string | null; intent?: string; unsupported?: true } & FromPeer);

type Call = ProviderCall & { readonly from: string; readonly at: number };

type Decision =
  | { readonly kind: 'replay'; readonly record: ProviderKeyRecord }
  | { readonly kind: 'conflict'; readonly record: ProviderKeyRecord }
  | { readonly kind: 'create' };

type Ctx = {
  durable: ProviderDurable;
  input: ProviderInput;
  queue: readonly Call[];
  current: Call | undefined;
  /** The operation just created, whose response is still to be sent. */
  created: ProviderOperation | undefined;
};

/** Every operation the provider performed, oldest first; for checkers, evidence and tests. */
export function operationsOf(durable: ProviderDurable | undefined): readonly ProviderOperation[] {
  ofKind(durable, 'keys', 'operationsOf', 'a provider');
  return durable?.operations ?? [];
}

function live(ctx: Ctx, at: number, now: number): boolean {
  const ttl = ctx.input.keyRetentionTicks;
  return ttl === undefined || now - at < ttl;
}

/** What a call gets: the recorded operation of its key, a refusal, or a new operation. */
function decide(ctx: Ctx, call: Call): Decision {
  if (ctx.input.idempotency === 'none' || call.key === undefined) return { kind: 'create' };
  const record = ctx.durable.keys[call.key];
  if (!record || !live(ctx, record.at, call.at)) return { kind: 'create' };
  if (record.intent === call.intent) return { kind: 'replay', record };
  // `honoured` keys are bound to an operation, not to what was asked: a different request under
  // the same key silently gets the old operation back.
  return ctx.input.idempotency === 'intentBound' ? { kind: 'conflict', record } : { kind: 'replay', record };
}

/** The newest operation recorded under `key` that the provider still remembers. */
function lookup(ctx: Ctx, key: string, now: number): ProviderOperation | undefined {
  for (let i = ctx.durable.operations.length - 1; i >= 0; i--) {
    const op = ctx.durable.operations[i]!;
    if (op.key === key && live(ctx, op.at, now)) return op;
  }
  return undefined;
}

export const providerMachine = setup({
  types: { context: {} as Ctx, input: {} as ProviderInput, events: {} as ProviderEvent, emitted: {} as Emitted },
  guards: {
    hasWork: ({ context }) => context.queue.length > 0,
    isReplay: ({ context }) => decide(context, context.current!).kind === 'replay',
    isConflict: ({ context }) => decide(context, context.current!).kind === 'conflict',
  },
  actions: {
    enqueue: assign(({ context, event }) => (event.type === 'provider.call' ? { queue: [...context.queue, event] } : {})),
    take: assign(({ context }) => ({ current: context.queue[0], queue: context.queue.slice(1), created: undefined })),
    done: assign({ current: undefined, created: undefined }),
    // A read: it changes nothing, so it is answered at once in any state the provider is up in.
    answerStatus: enqueueActions(({ context, event, enqueue }) => {
      if (event.type !== 'provider.status') return;
      if (context.input.statusLookup === 'none') {
        enqueue.emit(send(event.from, { type: 'provider.statusResult', ref: event.ref, op_id: null, unsupported: true }));
        return;
      }
      const op = lookup(context, event.key, event.at);
      // Only a provider that binds keys to intents says which intent a key is bound to.
      const bound = op !== undefined && context.input.idempotency === 'intentBound';
      enqueue.emit(send(event.from, { type: 'provider.statusResult', ref: event.ref, op_id: op?.op_id ?? null, ...(bound ? { intent: op.intent } : {}) }));
    }),
    replyReplayed: enqueueActions(({ context, enqueue }) => {
      const call = context.current!;
      const d = decide(context, call);
      if (d.kind !== 'replay') return;
      enqueue.emit(note('guard', { guard: 'providerKey', key: call.key, op_id: d.record.op_id }));
      enqueue.emit(send(call.from, { type: 'provider.response', ref: call.ref, status: 'replayed', op_id: d.record.op_id }));
    }),
    replyConflict: enqueueActions(({ context, enqueue }) => {
      const call = context.current!;
      const d = decide(context, call);
      if (d.kind !== 'conflict') return;
      enqueue.emit(note('guard', { guard: 'providerIntent', key: call.key, op_id: d.record.op_id }));
      enqueue.emit(send(call.from, { type: 'provider.response', ref: call.ref, status: 'conflict', op_id: d.record.op_id }));
    }),
    // The external effect: once this assignment is made the operation exists, whether or not
    // anyone ever hears of it.
    perform: enqueueActions(({ context, enqueue }) => {
      const call = context.current!;
      // A key the provider bound once and has since forgotten: this is why the call is new work, and
      // a real provider says nothing of it, so the trace says what was forgotten and when.
      const forgotten = context.input.idempotency !== 'none' && call.key !== undefined ? context.durable.keys[call.key] : undefined;
      if (forgotten !== undefined) enqueue.emit(note('keyLapsed', { key: call.key, op_id: forgotten.op_id, firstAt: forgotten.at, retentionTicks: context.input.keyRetentionTicks }));
      const op: ProviderOperation = { op_id: `op-${context.durable.nextOp}`, key: call.key ?? null, intent: call.intent, at: call.at };
      const keys =
        context.input.idempotency !== 'none' && call.key !== undefined
          ? { ...context.durable.keys, [call.key]: { op_id: op.op_id, intent: op.intent, at: op.at } }
          : context.durable.keys;
      enqueue.assign({ durable: { nextOp: context.durable.nextOp + 1, operations: [...context.durable.operations, op], keys }, created: op });
      enqueue.emit(note('provider.operation', { op_id: op.op_id, key: op.key, intent: op.intent }));
    }),
    replyCreated: enqueueActions(({ context, enqueue }) => {
      const call = context.current!;
      enqueue.emit(send(call.from, { type: 'provider.response', ref: call.ref, status: 'created', op_id: context.created!.op_id }));
    }),
  },
}).createMachine({
  id: 'provider',
  context: ({ input }) => ({ durable: input.durable ?? { nextOp: 1, operations: [], keys: {} }, input, queue: [], current: undefined, created: undefined }),
  initial: 'serving',
  on: {
    'provider.call': { actions: 'enqueue' },
    'provider.status': { actions: 'answerStatus' },
  },
  states: {
    serving: { tags: ['idle'], always: { guard: 'hasWork', target: 'deciding', actions: 'take' } },
    // Transient: a replay or a refusal creates nothing, so it is answered without a window.
    deciding: {
      always: [
        { guard: 'isReplay', target: 'serving', actions: ['replyReplayed', 'done'] },
        { guard: 'isConflict', target: 'serving', actions: ['replyConflict', 'done'] },
        { target: 'afterExternalEffect', actions: 'perform' },
      ],
    },
    // The operation is durable and the response has not been sent: the ambiguous moment.
    afterExternalEffect: { after: { 1: { target: 'serving', actions: ['replyCreated', 'done'] } } },
  },
});

/** Evidence for the provider: its operations, each with the key it was called under. */
export function providerEvidence(durable: unknown): EvidencePart[] {
  const ops = operationsOf(durable as ProviderDurable | undefined);
  return [{ label: 'operations', items: ops.length > 0 ? ops.map((op) => `${op.op_id} ${op.key ?? '(no key)'}`) : ['none'] }];
}

/** The provider's options as a design draws it; durations in their units. */
export const ProviderOptions = z.strictObject({
  ...componentFields,
  idempotency: z.enum(['none', 'honoured', 'intentBound']),
  statusLookup: z.enum(['none', 'byKey']),
  /** How long it remembers a key (for ever). */
  keyRetention: duration.optional(),
});

/** An external API on the far side of the caller's transaction, named `provider` unless the design names it. */
export function provider(options: z.input<typeof ProviderOptions>): ComponentBuilder {
  const o = parseOptions('provider', ProviderOptions, options);
  const name = o.name ?? 'provider';
  return ({ time }) => ({
    name,
    machine: providerMachine,
    process: true,
    describe: providerEvidence,
    input: { idempotency: o.idempotency, statusLookup: o.statusLookup, ...given({ keyRetentionTicks: ticksOf(time, `${name} option keyRetention`, o.keyRetention) }) },
    ...common(time, name, o),
  });
}

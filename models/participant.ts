// A participant of an orchestrated saga (seed 004, section 7): a service that performs the
// actions a saga step asks of it (authorise, capture, reserve, email…) and their compensations
// (void, refund, release). Every operation is recorded durably before the answer goes out, so
// `<participant>.afterEffect` is the ambiguous window: the operation exists and the orchestrator
// has not heard of it. Option `idempotent`: a repeated (saga, action) gets the recorded operation
// back instead of a new one (Payments and Inventory); without it every request is new work (an
// email provider that has no key). Option `declines`: the (saga, action) pairs it refuses.
// Fault model: operations are durable, the queue of requests is volatile.
import { assign, enqueueActions, setup } from 'xstate';
import { note, send, type Emitted, type FromPeer, type PeerCrashed } from '../src/kernel/emitted.ts';
import type { EvidencePart } from '../src/scenario/scenario.ts';
import { common, componentFields, type ComponentBuilder } from '../src/scenario/design.ts';
import { parseOptions, sizedValue, z } from '../src/scenario/options.ts';
import { ofKind } from '../src/base/notOfKind.ts';

export type RemoteAction = 'authorise' | 'void' | 'reserve' | 'release' | 'capture' | 'refund' | 'email';

export interface ParticipantOperation {
  readonly op_id: string;
  readonly saga: string;
  readonly action: RemoteAction;
  /** false: the participant refused (a declined capture). */
  readonly ok: boolean;
  readonly at: number;
}

export interface ParticipantDurable {
  readonly nextOp: number;
  readonly operations: readonly ParticipantOperation[];
}

export interface ParticipantInput {
  /** A repeated (saga, action) gets the recorded operation back instead of a new one. */
  readonly idempotent: boolean;
  /** The (saga, action) pairs it refuses, as `<saga>:<action>`. */
  readonly declines?: readonly string[];
  readonly durable?: ParticipantDurable;
}

export type SagaRequest = { readonly type: 'saga.request'; readonly ref: string; readonly saga: string; readonly action: RemoteAction };
export type SagaReply = { type: 'saga.reply'; ref: string; ok: boolean; op_id: string } & FromPeer;

type Request = SagaRequest & FromPeer;

type ParticipantCtx = {
  durable: ParticipantDurable;
  input: ParticipantInput;
  queue: readonly Request[];
  current: Request | undefined;
  created: ParticipantOperation | undefined;
};

/** The operation a participant already holds for this request's (saga, action), if it honours that. */
function recorded(ctx: ParticipantCtx, r: Request): ParticipantOperation | undefined {
  if (!ctx.input.idempotent) return undefined;
  return ctx.durable.operations.find((op) => op.saga === r.saga && op.action === r.action);
}

/** Every operation a participant performed (declines included), oldest first. */
export function participantOperations(durable: ParticipantDurable | undefined): readonly ParticipantOperation[] {
  ofKind(durable, 'operations', 'participantOperations', 'a saga participant', 'keys');
  return durable?.operations ?? [];
}

export const participantMachine = setup({
  types: { context: {} as ParticipantCtx, input: {} as ParticipantInput, events: {} as Request | PeerCrashed, emitted: {} as Emitted },
  guards: {
    hasWork: ({ context }) => context.queue.length > 0,
    isRepeat: ({ context }) => recorded(context, context.current!) !== undefined,
  },
  actions: {
    enqueue: assign(({ context, event }) => (event.type === 'saga.request' ? { queue: [...context.queue, event] } : {})),
    take: assign(({ context }) => ({ current: context.queue[0], queue: context.queue.slice(1), created: undefined })),
    done: assign({ current: undefined, created: undefined }),
    replyRecorded: enqueueActions(({ context, enqueue }) => {
      const r = context.current!;
      const op = recorded(context, r)!;
      enqueue.emit(note('guard', { guard: 'participantKey', saga: r.saga, action: r.action, op_id: op.op_id }));
      enqueue.emit(send(r.from, { type: 'saga.reply', ref: r.ref, ok: op.ok, op_id: op.op_id }));
    }),
    // The participant's own commit: from here the operation exists whoever hears of it.
    perform: enqueueActions(({ context, enqueue }) => {
      const r = context.current!;
      const ok = !(context.input.declines ?? []).includes(`${r.saga}:${r.action}`);
      const op: ParticipantOperation = { op_id: `op-${context.durable.nextOp}`, saga: r.saga, action: r.action, ok, at: r.at };
      enqueue.assign({ durable: { nextOp: context.durable.nextOp + 1, operations: [...context.durable.operations, op] }, created: op });
      enqueue.emit(note('saga.operation', { op_id: op.op_id, saga: op.saga, action: op.action, ok }));
    }),
    replyCreated: enqueueActions(({ context, enqueue }) => {
      const r = context.current!;
      enqueue.emit(send(r.from, { type: 'saga.reply', ref: r.ref, ok: context.created!.ok, op_id: context.created!.op_id }));
    }),
  },
}).createMachine({
  id: 'participant',
  context: ({ input }) => ({ durable: input.durable ?? { nextOp: 1, operations: [] }, input, queue: [], current: undefined, created: undefined }),
  initial: 'serving',
  on: { 'saga.request': { actions: 'enqueue' } },
  states: {
    serving: { tags: ['idle'], always: { guard: 'hasWork', target: 'deciding', actions: 'take' } },
    // Transient: a repeat is answered from the record without a window.
    deciding: {
      always: [{ guard: 'isRepeat', target: 'serving', actions: ['replyRecorded', 'done'] }, { target: 'afterEffect', actions: 'perform' }],
    },
    // The operation is recorded and the reply not yet sent: the orchestrator's ambiguous timeout.
    afterEffect: { after: { 1: { target: 'serving', actions: ['replyCreated', 'done'] } } },
  },
});

/** Evidence: the participant's operations, declines marked. */
export function participantEvidence(durable: unknown): EvidencePart[] {
  const d = durable as ParticipantDurable | undefined;
  const ops = d?.operations ?? [];
  return [{ label: 'operations', items: ops.length > 0 ? ops.map((op) => `${op.action} ${op.saga}${op.ok ? '' : ' declined'}`) : ['none'] }];
}

/** A saga participant's options as a design draws it. */
export const ParticipantOptions = z.strictObject({
  ...componentFields,
  name: z.string().regex(/^[A-Za-z][A-Za-z0-9_]*$/),
  idempotent: z.boolean(),
  /** The (saga, action) pairs it refuses, given the workload size, as `<saga>:<action>`. */
  declines: z.custom<(size: number) => readonly string[]>((v) => typeof v === 'function').optional(),
});

/** A service a saga step calls. */
export function participant(options: z.input<typeof ParticipantOptions>): ComponentBuilder {
  const o = parseOptions('participant', ParticipantOptions, options);
  return ({ size, time }) => ({
    name: o.name,
    machine: participantMachine,
    process: true,
    describe: participantEvidence,
    input: { idempotent: o.idempotent, ...(o.declines ? { declines: sizedValue(`${o.name} option declines`, z.array(z.string()), o.declines, size) } : {}) },
    ...common(time, o.name, o),
  });
}

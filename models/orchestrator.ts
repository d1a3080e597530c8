// The orchestrator of seed 004's gift purchase saga: it creates a pending gift order, then asks
// Payments to authorise the card, Inventory to reserve the e-book licence, Payments to capture,
// and Notifications to email the gift code. A step that is refused makes it run the compensations
// of the steps already done, newest first: refund, release the licence, void the authorisation,
// cancel the order. The email has no compensation: it cannot be unsent.
// Option `emailStep`: `last` (the step that cannot be undone runs only once nothing after it can
// fail) or `first` (the gift code goes out as soon as the order exists).
// Fault model: the saga log (order state, steps done, steps undone) is durable and changes
// atomically with each step's recorded reply, as in a workflow engine; the request in flight is
// volatile, so after a restart the orchestrator sends the pending request again under the same
// key (saga, action).
import { assign, enqueueActions, setup } from 'xstate';
import { note, send, type Emitted, type PeerCrashed } from '../src/kernel/emitted.ts';
import type { EvidencePart } from '../src/scenario/scenario.ts';
import type { RemoteAction, SagaReply } from './participant.ts';
import { common, componentFields, given, ticksOf, type ComponentBuilder } from '../src/scenario/design.ts';
import { duration, parseOptions, sizedValue, z } from '../src/scenario/options.ts';

export type EmailStep = 'first' | 'last';

/** A forward step: the remote ones, plus `confirm`, the local commit of the purchase. */
export type Step = 'authorise' | 'reserve' | 'capture' | 'confirm' | 'email';

export interface GiftPurchase {
  readonly id: string;
  /** Payments declines this purchase's capture (the card fails at capture time). */
  readonly captureDeclined: boolean;
}

export type OrderState = 'PENDING' | 'CONFIRMED' | 'CANCELLED';

export interface SagaRecord {
  readonly order: OrderState;
  readonly status: 'running' | 'compensating' | 'completed' | 'compensated';
  /** Forward steps done, in order. */
  readonly done: readonly Step[];
  /** The step a participant refused, once one has. */
  readonly failed?: Step;
  /** Compensations done, in order. */
  readonly undone: readonly RemoteAction[];
}

export interface OrchestratorDurable {
  /** Index of the purchase in hand; purchases run one after another. */
  readonly next: number;
  readonly sagas: Readonly<Record<string, SagaRecord>>;
}

export interface OrchestratorInput {
  readonly purchases: readonly GiftPurchase[];
  readonly emailStep: EmailStep;
  readonly timeoutTicks?: number;
  readonly durable?: OrchestratorDurable;
}

/** Where each remote action is performed. */
export const SERVICE: Readonly<Record<RemoteAction, 'payments' | 'inventory' | 'notifications'>> = {
  authorise: 'payments',
  void: 'payments',
  capture: 'payments',
  refund: 'payments',
  reserve: 'inventory',
  release: 'inventory',
  email: 'notifications',
};

/** The compensation of each forward step; `confirm` is undone by cancelling, `email` never. */
export const COMPENSATION: Readonly<Partial<Record<Step, RemoteAction>>> = { authorise: 'void', reserve: 'release', capture: 'refund' };

export function sagaPlan(emailStep: EmailStep): readonly Step[] {
  return emailStep === 'last' ? ['authorise', 'reserve', 'capture', 'confirm', 'email'] : ['email', 'authorise', 'reserve', 'capture', 'confirm'];
}

type Task = { readonly kind: 'step'; readonly action: Step & RemoteAction } | { readonly kind: 'compensation'; readonly action: RemoteAction };

type OrchestratorCtx = {
  durable: OrchestratorDurable;
  input: OrchestratorInput;
  task: Task | undefined;
  attempt: number;
  reply: { ok: boolean; op_id: string } | undefined;
};

type Move = { readonly kind: 'idle' } | { readonly kind: 'local' } | Task;

function pendingCompensations(rec: SagaRecord): RemoteAction[] {
  return [...rec.done]
    .reverse()
    .map((s) => COMPENSATION[s])
    .filter((c): c is RemoteAction => c !== undefined && !rec.undone.includes(c));
}

/** The first forward step of the plan the saga has not done yet. */
function nextStep(ctx: OrchestratorCtx, rec: SagaRecord): Step | undefined {
  return sagaPlan(ctx.input.emailStep).find((s) => !rec.done.includes(s));
}

/** What the saga log says comes next: nothing, a local step, or a remote request. */
function nextMove(ctx: OrchestratorCtx, d: OrchestratorDurable): Move {
  const purchase = ctx.input.purchases[d.next];
  if (!purchase) return { kind: 'idle' };
  const rec = d.sagas[purchase.id];
  if (!rec) return { kind: 'local' };
  if (rec.status === 'compensating') {
    const c = pendingCompensations(rec)[0];
    return c === undefined ? { kind: 'local' } : { kind: 'compensation', action: c };
  }
  const step = nextStep(ctx, rec);
  if (step === undefined || step === 'confirm') return { kind: 'local' };
  return { kind: 'step', action: step };
}

/** Applies every local step the log calls for (create, confirm, complete, cancel), with their notes. */
function advanceLocal(ctx: OrchestratorCtx): { durable: OrchestratorDurable; notes: Emitted[] } {
  let d = ctx.durable;
  const notes: Emitted[] = [];
  while (nextMove(ctx, d).kind === 'local') {
    const id = ctx.input.purchases[d.next]!.id;
    const rec = d.sagas[id];
    const put = (r: SagaRecord, advance = false) => ({ next: advance ? d.next + 1 : d.next, sagas: { ...d.sagas, [id]: r } });
    if (!rec) {
      d = put({ order: 'PENDING', status: 'running', done: [], undone: [] });
      notes.push(note('saga.order', { saga: id, order: 'PENDING' }));
    } else if (rec.status === 'compensating') {
      d = put({ ...rec, order: 'CANCELLED', status: 'compensated' }, true);
      notes.push(note('saga.order', { saga: id, order: 'CANCELLED' }));
    } else if (nextStep(ctx, rec) === 'confirm') {
      d = put({ ...rec, order: 'CONFIRMED', done: [...rec.done, 'confirm'] });
      notes.push(note('saga.order', { saga: id, order: 'CONFIRMED' }));
    } else {
      d = put({ ...rec, status: 'completed' }, true);
      notes.push(note('saga.completed', { saga: id }));
    }
  }
  return { durable: d, notes };
}

const sagaOf = (ctx: OrchestratorCtx) => ctx.input.purchases[ctx.durable.next]!.id;
const refBase = (ctx: OrchestratorCtx) => `${sagaOf(ctx)}:${ctx.task!.action}#`;
const isReply = (ctx: OrchestratorCtx, event: { type: string; ref?: string }) =>
  event.type === 'saga.reply' && ctx.task !== undefined && ctx.input.purchases[ctx.durable.next] !== undefined && event.ref!.startsWith(refBase(ctx));

export const orchestratorMachine = setup({
  types: { context: {} as OrchestratorCtx, input: {} as OrchestratorInput, events: {} as SagaReply | PeerCrashed, emitted: {} as Emitted },
  delays: { timeout: ({ context }) => context.input.timeoutTicks ?? 20 },
  guards: {
    allDone: ({ context }) => nextMove(context, context.durable).kind === 'idle',
    compensationNext: ({ context }) => nextMove(context, context.durable).kind === 'compensation',
    isReply: ({ context, event }) => isReply(context, event as { type: string; ref?: string }),
  },
  actions: {
    advanceLocal: enqueueActions(({ context, enqueue }) => {
      const { durable, notes } = advanceLocal(context);
      if (durable !== context.durable) enqueue.assign({ durable });
      for (const n of notes) enqueue.emit(n);
    }),
    pickTask: assign(({ context }) => {
      const move = nextMove(context, context.durable);
      return { task: move.kind === 'step' || move.kind === 'compensation' ? move : undefined, attempt: 0, reply: undefined };
    }),
    request: enqueueActions(({ context, enqueue }) => {
      const attempt = context.attempt + 1;
      const task = context.task!;
      enqueue.assign({ attempt });
      enqueue.emit(send(SERVICE[task.action], { type: 'saga.request', ref: `${refBase(context)}${attempt}`, saga: sagaOf(context), action: task.action }));
    }),
    rememberReply: assign(({ event }) => (event.type === 'saga.reply' ? { reply: { ok: event.ok, op_id: event.op_id } } : {})),
    // The reply becomes part of the saga log in one step: a step done, a step refused (and the
    // saga turns to compensation), or a compensation done. A refused compensation is not done:
    // the log keeps it pending and it is asked for again, as a workflow engine retries a
    // compensation until it succeeds; a participant that refuses it for ever leaves the run stuck.
    recordReply: enqueueActions(({ context, enqueue }) => {
      const id = sagaOf(context);
      const rec = context.durable.sagas[id]!;
      const task = context.task!;
      let next: SagaRecord;
      if (task.kind === 'compensation') {
        if (context.reply!.ok) next = { ...rec, undone: [...rec.undone, task.action] };
        else {
          next = rec;
          enqueue.emit(note('saga.compensationRefused', { saga: id, action: task.action }));
        }
      }
      else if (context.reply!.ok) next = { ...rec, done: [...rec.done, task.action] };
      else {
        next = { ...rec, status: 'compensating', failed: task.action };
        const stuck = rec.done.filter((s) => s !== 'confirm' && COMPENSATION[s] === undefined);
        enqueue.emit(note('saga.compensating', { saga: id, failed: task.action }));
        if (stuck.length > 0) enqueue.emit(note('saga.cannotUndo', { saga: id, steps: stuck }));
      }
      enqueue.assign({ durable: { ...context.durable, sagas: { ...context.durable.sagas, [id]: next } }, task: undefined, reply: undefined });
    }),
  },
}).createMachine({
  id: 'orchestrator',
  context: ({ input }) => ({ durable: input.durable ?? { next: 0, sagas: {} }, input, task: undefined, attempt: 0, reply: undefined }),
  initial: 'deciding',
  states: {
    // Transient: apply the local steps the saga log calls for, then pick the next request.
    deciding: {
      entry: 'advanceLocal',
      always: [
        { guard: 'allDone', target: 'idle' },
        { guard: 'compensationNext', target: 'beforeCompensation', actions: 'pickTask' },
        { target: 'beforeStep', actions: 'pickTask' },
      ],
    },
    // The saga log names the step; its request is not yet sent.
    beforeStep: { after: { 1: { target: 'awaitingStep', actions: 'request' } } },
    awaitingStep: {
      on: { 'saga.reply': { guard: 'isReply', target: 'afterStepReply', actions: 'rememberReply' } },
      after: { timeout: { target: 'awaitingStep', reenter: true, actions: 'request' } },
    },
    // The participant's answer is in hand and not yet in the saga log.
    afterStepReply: { after: { 1: { target: 'deciding', actions: 'recordReply' } } },
    beforeCompensation: { after: { 1: { target: 'awaitingCompensation', actions: 'request' } } },
    awaitingCompensation: {
      on: { 'saga.reply': { guard: 'isReply', target: 'afterCompensationReply', actions: 'rememberReply' } },
      after: { timeout: { target: 'awaitingCompensation', reenter: true, actions: 'request' } },
    },
    afterCompensationReply: { after: { 1: { target: 'deciding', actions: 'recordReply' } } },
    idle: { tags: ['idle'] },
  },
});

/** Evidence: each gift order's state and the steps done and undone. */
export function orchestratorEvidence(durable: unknown): EvidencePart[] {
  const d = durable as OrchestratorDurable | undefined;
  const sagas = Object.entries(d?.sagas ?? {});
  if (sagas.length === 0) return [{ label: 'orders', items: ['none'] }];
  return sagas.map(([id, r]) => ({ label: id, items: [`${r.order} [${r.done.join(', ')}${r.undone.length ? `; undone ${r.undone.join(', ')}` : ''}]`] }));
}

/** The saga orchestrator's options as a design draws it; durations in their units. */
export const OrchestratorOptions = z.strictObject({
  ...componentFields,
  /** The purchases, given the workload size. */
  purchases: z.custom<(size: number) => readonly GiftPurchase[]>((v) => typeof v === 'function'),
  emailStep: z.enum(['first', 'last']),
  /** How long it waits for a participant's reply (20 ticks). */
  timeout: duration.optional(),
});

/** The orchestrator of the gift purchase saga, named `orchestrator` unless the design names it. */
export function orchestrator(options: z.input<typeof OrchestratorOptions>): ComponentBuilder {
  const o = parseOptions('orchestrator', OrchestratorOptions, options);
  const name = o.name ?? 'orchestrator';
  return ({ size, time }) => ({
    name,
    machine: orchestratorMachine,
    process: true,
    peers: ['payments', 'inventory', 'notifications'],
    describe: orchestratorEvidence,
    input: { purchases: sizedValue(`${name} option purchases`, z.array(z.strictObject({ id: z.string(), captureDeclined: z.boolean() })), o.purchases, size), emailStep: o.emailStep, ...given({ timeoutTicks: ticksOf(time, `${name} option timeout`, o.timeout) }) },
    ...common(time, name, o),
  });
}

// The gift purchase saga of seed 004 (section 7, decision ED-03), orchestrated: the orders
// service creates a pending gift order, then asks Payments to authorise the card, Inventory to
// reserve the e-book licence, Payments to capture, and Notifications to email the gift code to
// the recipient. A step that is refused makes the orchestrator run the compensations of the
// steps already done, newest first: refund, release the licence, void the authorisation, cancel
// the order. The email has no compensation: it cannot be unsent.
// Design option `emailStep`: `last` (the template's decision: the step that cannot be undone runs
// only once nothing after it can fail) or `first` (the gift code goes out as soon as the order
// exists, before the card is even authorised). Workload input: per purchase, whether Payments
// declines the capture.
// Fault model: the orchestrator's saga log (order state, steps done, steps undone) is durable and
// changes atomically with each step's recorded reply, as in a workflow engine; the request in
// flight is volatile, so after a restart the orchestrator sends the pending request again under
// the same key. Participants record every operation durably before they answer
// (`<participant>.afterEffect` is the ambiguous window); Payments and Inventory return the
// recorded result for a repeated key, the email provider does not (every request is a message).
import { assign, enqueueActions, setup } from 'xstate';
import { note, send, type Emitted, type FromPeer, type PeerCrashed } from '../src/emitted.ts';
import type { Claim, Outcome } from '../src/claims.ts';
import type { WorldView } from '../src/worldView.ts';
import type { ComponentSpec, WindowNote } from '../src/world.ts';
import { windowNote as n } from './windowNotes.ts';

// The participants: the services each saga step calls, with their compensations.

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

// The orchestrator: it drives the steps in order and compensates on failure.

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
    // saga turns to compensation), or a compensation done.
    recordReply: enqueueActions(({ context, enqueue }) => {
      const id = sagaOf(context);
      const rec = context.durable.sagas[id]!;
      const task = context.task!;
      let next: SagaRecord;
      if (task.kind === 'compensation') next = { ...rec, undone: [...rec.undone, task.action] };
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

// The world: the orchestrator, its participants and the gift purchases.

export interface GiftSagaOptions {
  readonly emailStep: EmailStep;
  /** The purchases, given the workload size; by default every second capture is declined. */
  readonly purchases?: (size: number) => readonly GiftPurchase[];
  /** Whether the email provider returns the recorded message for a repeated (saga, email). */
  readonly emailIdempotent?: boolean;
}

/** Gift purchases g-1, g-2, …: the odd ones are captured, the even ones declined at capture. */
export function giftPurchases(size: number): GiftPurchase[] {
  return Array.from({ length: size }, (_, i) => ({ id: `g-${i + 1}`, captureDeclined: i % 2 === 1 }));
}


const orchestratorNotes: Record<string, WindowNote> = {
  beforeStep: n('the orchestrator after restart (same key)', "SELECT saga_id, status, steps_done FROM saga_log WHERE status IN ('running', 'compensating');"),
  awaitingStep: n('the orchestrator on timeout (same key)', "SELECT saga_id FROM saga_log WHERE status = 'running' AND updated_at < now() - interval '30 minutes';"),
  afterStepReply: n('the orchestrator after restart: it asks again under the same key', 'the participant\u2019s operation for (saga_id, action) against saga_log.steps_done'),
  beforeCompensation: n('the orchestrator after restart (same key)', "SELECT saga_id, steps_undone FROM saga_log WHERE status = 'compensating';"),
  awaitingCompensation: n('the orchestrator on timeout (same key)', "SELECT saga_id FROM saga_log WHERE status = 'compensating';"),
  afterCompensationReply: n('the orchestrator after restart: it asks again under the same key', 'the participant\u2019s operation for (saga_id, compensation) against saga_log.steps_undone'),
  idle: n('nobody needed', 'none: every saga is completed or compensated'),
};

export function giftSaga(o: GiftSagaOptions): (w: { size: number }) => ComponentSpec[] {
  return ({ size }) => {
    const purchases = (o.purchases ?? giftPurchases)(size);
    const declines = purchases.filter((p) => p.captureDeclined).map((p) => `${p.id}:capture`);
    const participant = (name: string, input: ParticipantInput): ComponentSpec => ({
      name,
      machine: participantMachine,
      input: { ...input },
      process: true,
      notes: {
        serving: n('the orchestrator on timeout', 'none: nothing was performed'),
        afterEffect: n(
          input.idempotent ? 'the orchestrator on timeout; the repeat gets the recorded operation' : 'the orchestrator on timeout; the repeat is another operation',
          `SELECT op_id, saga_id, action FROM ${name}_operations WHERE saga_id = :saga_id;`,
        ),
      },
    });
    return [
      { name: 'orchestrator', machine: orchestratorMachine, input: { purchases, emailStep: o.emailStep }, process: true, notes: orchestratorNotes },
      participant('payments', { idempotent: true, declines }),
      participant('inventory', { idempotent: true }),
      participant('notifications', { idempotent: o.emailIdempotent ?? false }),
    ];
  };
}

// The claims: what the saga promises about each effect.

const ops = (v: WorldView, name: string) => participantOperations(v.durable<ParticipantDurable>(name));

/** Purchases whose order is committed and not compensated: the facts every effect answers to. */
export function confirmedPurchases(v: WorldView): string[] {
  return Object.entries(v.durable<OrchestratorDurable>('orchestrator').sagas)
    .filter(([, r]) => r.order === 'CONFIRMED')
    .map(([id]) => id);
}

/** Successful `action` operations per saga that no successful `undo` operation took back. */
function netOutcomes(v: WorldView, name: string, action: RemoteAction, undo: RemoteAction): Outcome[] {
  const all = ops(v, name).filter((op) => op.ok);
  const undone = new Map<string, number>();
  for (const op of all) if (op.action === undo) undone.set(op.saga, (undone.get(op.saga) ?? 0) + 1);
  const out: Outcome[] = [];
  for (const op of all) {
    if (op.action !== action) continue;
    const left = undone.get(op.saga) ?? 0;
    if (left > 0) undone.set(op.saga, left - 1);
    else out.push({ key: op.saga });
  }
  return out;
}

const sagaClaim = {
  key: ['gift_order_id'],
  lifetime: 'the lifetime of the gift order',
  differentIntent: 'does not arise: one gift order, one saga',
} as const;

/** No gift-code email without a committed purchase, and one for every committed purchase. */
export const giftEmailClaim: Claim = {
  ...sagaClaim,
  effect: 'gift-code email to the recipient',
  authority: 'the saga orchestrator, which must not email for a purchase that can still fail,',
  guarantee: 'atLeastOnce',
  sameIntent: 'another email (the provider has no key)',
  unknownCompletion: 'a repeated send: a second email is accepted, an email for a cancelled purchase is not',
  outcomes: (v) =>
    ops(v, 'notifications')
      .filter((op) => op.ok && op.action === 'email')
      .map((op) => ({ key: op.saga })),
  facts: confirmedPurchases,
};

/** One captured payment per committed purchase, net of refunds; none for a cancelled one. */
export const giftCaptureClaim: Claim = {
  ...sagaClaim,
  effect: 'captured payment, net of refunds',
  authority: 'Payments, keyed by (gift order, action),',
  sameIntent: 'the recorded capture',
  unknownCompletion: 'the orchestrator repeating the request under the same key',
  outcomes: (v) => netOutcomes(v, 'payments', 'capture', 'refund'),
  facts: confirmedPurchases,
};

/** One held e-book licence per committed purchase, net of releases; none for a cancelled one. */
export const giftLicenceClaim: Claim = {
  ...sagaClaim,
  effect: 'e-book licence held for the recipient, net of releases',
  authority: 'Inventory, keyed by (gift order, action),',
  sameIntent: 'the recorded reservation',
  unknownCompletion: 'the orchestrator repeating the request under the same key',
  outcomes: (v) => netOutcomes(v, 'inventory', 'reserve', 'release'),
  facts: confirmedPurchases,
};

export const giftSagaClaims: readonly Claim[] = [giftEmailClaim, giftCaptureClaim, giftLicenceClaim];

/** One line of durable evidence: each gift order and each participant's operations. */
export function sagaEvidence(durable: Readonly<Record<string, unknown>>): string {
  const parts: string[] = [];
  const o = durable['orchestrator'] as OrchestratorDurable | undefined;
  if (o) parts.push(`orders {${Object.entries(o.sagas).map(([id, r]) => `${id} ${r.order} [${r.done.join(', ')}${r.undone.length ? `; undone ${r.undone.join(', ')}` : ''}]`).join('; ') || 'none'}}`);
  for (const name of ['payments', 'inventory', 'notifications']) {
    const p = durable[name] as ParticipantDurable | undefined;
    if (p) parts.push(`${name} {${p.operations.map((op) => `${op.action} ${op.saga}${op.ok ? '' : ' declined'}`).join(', ') || 'none'}}`);
  }
  return parts.join(' · ');
}

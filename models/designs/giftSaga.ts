// The gift purchase saga of seed 004 (section 7, decision ED-03) as a design: the orchestrator
// (models/orchestrator.ts) and its three participants (models/participant.ts), the purchases of
// the workload, and what the saga promises about each effect. Design option `emailStep`: `last`
// (the template's decision) or `first`. Workload input: per purchase, whether Payments declines
// the capture.
import type { Claim, ClaimTable, ClaimTables, Outcome, TableView } from '../../src/checkers/claims.ts';
import { design, given, type DesignBuild } from '../../src/scenario/design.ts';
import { parseOptions, z } from '../../src/scenario/options.ts';
import type { WindowNote } from '../../src/scenario/scenario.ts';
import type { WorldView } from '../../src/kernel/worldView.ts';
import { orchestrator, OrchestratorOptions, type GiftPurchase, type OrchestratorDurable } from '../orchestrator.ts';
import { participant, participantOperations, ParticipantOptions, type ParticipantDurable, type RemoteAction } from '../participant.ts';
import { partOptions } from './partOptions.ts';
import { windowNote as n } from './windowNotes.ts';


/** The names the saga gives its components. */
export const GIFT_SAGA = { components: { orchestrator: 'orchestrator', payments: 'payments', inventory: 'inventory', notifications: 'notifications' } } as const;

/** A participant's own options as the saga takes them: its restart delay. */
const participantPart = (name: string) => partOptions('participant', ParticipantOptions, { name: true, notes: true, idempotent: true, declines: true }).meta({ description: `Any option of participant for ${name} but its name, idempotent and declines, which the saga sets.` });

export const GiftSagaOptions = z.strictObject({
  emailStep: z.enum(['first', 'last']),
  /** The purchases, given the workload size; by default every second capture is declined. */
  purchases: z.custom<(size: number) => readonly GiftPurchase[]>((v) => typeof v === 'function').optional(),
  /** Whether the email provider returns the recorded message for a repeated (saga, email). */
  emailIdempotent: z.boolean().optional(),
  orchestrator: partOptions('orchestrator', OrchestratorOptions, { name: true, notes: true, purchases: true, emailStep: true }),
  payments: participantPart('payments'),
  inventory: participantPart('inventory'),
  notifications: participantPart('notifications'),
});

export type GiftSagaOptions = z.input<typeof GiftSagaOptions>;

/** Gift purchases g-1, g-2, …: the odd ones are captured, the even ones declined at capture. */
export function giftPurchases(size: number): GiftPurchase[] {
  return Array.from({ length: size }, (_, i) => ({ id: `g-${i + 1}`, captureDeclined: i % 2 === 1 }));
}


const orchestratorNotes: Record<string, WindowNote> = {
  beforeStep: n('the orchestrator after restart (same key)'),
  awaitingStep: n('the orchestrator on timeout (same key)'),
  afterStepReply: n('the orchestrator after restart: it asks again under the same key'),
  beforeCompensation: n('the orchestrator after restart (same key)'),
  awaitingCompensation: n('the orchestrator on timeout (same key)'),
  afterCompensationReply: n('the orchestrator after restart: it asks again under the same key'),
  idle: n('nobody needed'),
};

export function giftSaga(options: GiftSagaOptions): DesignBuild {
  const o = parseOptions('giftSaga', GiftSagaOptions, options);
  const purchases = o.purchases ?? giftPurchases;
  const participantNotes = (idempotent: boolean) => ({
    serving: n('the orchestrator on timeout'),
    afterEffect: n(
      idempotent ? 'the orchestrator on timeout; the repeat gets the recorded operation' : 'the orchestrator on timeout; the repeat is another operation',
    ),
  });
  const emailIdempotent = o.emailIdempotent ?? false;
  const C = GIFT_SAGA.components;
  return design(
    orchestrator({ ...given(o.orchestrator ?? {}), purchases, emailStep: o.emailStep, notes: orchestratorNotes }),
    participant({
      ...given(o.payments ?? {}),
      name: C.payments,
      idempotent: true,
      declines: (size) => purchases(size).filter((p) => p.captureDeclined).map((p) => `${p.id}:capture`),
      notes: participantNotes(true),
    }),
    participant({ ...given(o.inventory ?? {}), name: C.inventory, idempotent: true, notes: participantNotes(true) }),
    participant({ ...given(o.notifications ?? {}), name: C.notifications, idempotent: emailIdempotent, notes: participantNotes(emailIdempotent) }),
  );
}

// The claims: what the saga promises about each effect.

const ops = (v: WorldView, name: string) => participantOperations(v.durable<ParticipantDurable>(name));

/** Purchases whose order is committed and not compensated: the facts every effect answers to. */
export function confirmedPurchases(v: WorldView): string[] {
  return Object.entries(v.durable<OrchestratorDurable>(GIFT_SAGA.components.orchestrator).sagas)
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
} as const;

/**
 * The saga's records as the tables a team would query: the orchestrator's gift orders, and each
 * participant's operations as the export of its own ledger, in the order it performed them.
 */
const OPERATION_COLUMNS = { seq: 'bigint', op_id: 'text', gift_order_id: 'text', action: 'text', ok: 'boolean', performed_at: 'bigint' } as const;
const operationsView = (table: string, participant: string): TableView => ({
  table,
  columns: OPERATION_COLUMNS,
  rows: (v) => ops(v, participant).map((op, i) => ({ seq: i + 1, op_id: op.op_id, gift_order_id: op.saga, action: op.action, ok: op.ok, performed_at: op.at })),
});
const GIFT_ORDERS: TableView = {
  table: 'gift_orders',
  columns: { gift_order_id: 'text', state: 'text', status: 'text' },
  rows: (v) => Object.entries(v.durable<OrchestratorDurable>(GIFT_SAGA.components.orchestrator).sagas).map(([id, r]) => ({ gift_order_id: id, state: r.order, status: r.status })),
};
/** Committed purchases: the facts every effect answers to. */
const CONFIRMED: ClaimTable = { table: 'gift_orders', key: ['gift_order_id'], where: "$state = 'CONFIRMED'" };

/**
 * A participant's successful `action` operations that no successful `undo` took back, as netOutcomes
 * counts them: the first as many of a gift order's actions as it has undos are the ones undone.
 */
function netTables(table: string, participant: string, action: RemoteAction, undo: RemoteAction): ClaimTables {
  return {
    effect: {
      table,
      key: ['gift_order_id'],
      where: `$ok AND $action = '${action}' AND (SELECT count(*) FROM ${table} b WHERE b.gift_order_id = $gift_order_id AND b.ok AND b.action = '${action}' AND b.seq < $seq) >= (SELECT count(*) FROM ${table} u WHERE u.gift_order_id = $gift_order_id AND u.ok AND u.action = '${undo}')`,
    },
    source: CONFIRMED,
    views: [operationsView(table, participant), GIFT_ORDERS],
  };
}

/** No gift-code email without a committed purchase, and one for every committed purchase. */
export const giftEmailClaim: Claim = {
  ...sagaClaim,
  effect: 'gift-code email to the recipient',
  authority: 'the saga orchestrator, which must not email for a purchase that can still fail,',
  guarantee: 'atLeastOnce',
  sameIntent: 'another email, which at least once allows',
  unknownCompletion: 'a repeated send: a second email is accepted, an email for a cancelled purchase is not',
  tables: { effect: { table: 'notification_operations', key: ['gift_order_id'], where: "$ok AND $action = 'email'" }, source: CONFIRMED, views: [operationsView('notification_operations', 'notifications'), GIFT_ORDERS] },
  outcomes: (v) =>
    ops(v, 'notifications')
      .filter((op) => op.ok && op.action === 'email')
      .map((op) => ({ key: op.saga })),
  facts: confirmedPurchases,
};

/**
 * The email once, not at least once: for a design that promises the recipient one gift-code
 * email (an email provider that keeps the (saga, email) key, `emailIdempotent: true`), claimed in
 * place of `giftEmailClaim`. A repeated send is then a duplicate effect, as it is for the capture.
 */
export const giftEmailOnceClaim: Claim = {
  ...giftEmailClaim,
  effect: 'gift-code email to the recipient, once',
  authority: 'the notifications provider, keyed by (gift order, action), and the saga orchestrator, which must not email for a purchase that can still fail,',
  guarantee: 'exactlyOnceEffect',
  sameIntent: 'the recorded email',
  unknownCompletion: 'the orchestrator repeating the request under the same key',
};

/** One captured payment per committed purchase, net of refunds; none for a cancelled one. */
export const giftCaptureClaim: Claim = {
  ...sagaClaim,
  effect: 'captured payment, net of refunds',
  authority: 'Payments, keyed by (gift order, action),',
  sameIntent: 'the recorded capture',
  unknownCompletion: 'the orchestrator repeating the request under the same key',
  tables: netTables('payment_operations', 'payments', 'capture', 'refund'),
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
  tables: netTables('inventory_operations', 'inventory', 'reserve', 'release'),
  outcomes: (v) => netOutcomes(v, 'inventory', 'reserve', 'release'),
  facts: confirmedPurchases,
};

export const giftSagaClaims: readonly Claim[] = [giftEmailClaim, giftCaptureClaim, giftLicenceClaim];

// A partner that feeds us facts through the broker and, like real partners, sends them again
// later: its own retry queue, a dead-letter redrive or a replay on its side, weeks afterwards.
// It publishes each of its facts once (resending until the broker acknowledges, so the log may
// hold a fact twice), waits `redeliverAfterTicks`, and publishes every fact again with the same
// event_id. Its durable state is which facts the broker acknowledged in each round and whether
// the wait is over; a restart resumes from there. A restart during the wait re-arms the whole
// wait (a machine has no clock to subtract from), so a redelivery is never earlier than
// `redeliverAfterTicks` after the first round, and later only by the time waited before the crash.
//
// `partnerFeed` composes it with the broker and a consumer whose inbox forgets: the inbox table
// has a time-to-live (seed 003's "seven-day deduplication record") and the effect, a loyalty
// credit, is an additive row with a surrogate id, so nothing but the inbox recognises a repeat.
// Waiting and publishing states are not tagged `idle`, so the world is not quiet (and the run
// does not end) while a redelivery is still to come.
import { assign, enqueueActions, setup } from 'xstate';
import { send, type Emitted, type PeerCrashed } from '../src/emitted.ts';
import type { Claim } from '../src/claims.ts';
import type { ComponentSpec, WindowNote } from '../src/world.ts';
import { brokerMachine, type BrokerReply, type Payload } from './broker.ts';
import { consumerMachine, type ConsumerInput } from './consumer.ts';
import { databaseMachine, rowsOf, type DatabaseDurable, type TableSpec } from './database.ts';
import { pipelineEvidence } from './orderPipeline.ts';
import { windowNote as n } from './windowNotes.ts';

export interface PartnerDurable {
  /** event_ids whose first publication the broker acknowledged, in order. */
  readonly published: readonly string[];
  /** event_ids whose redelivery the broker acknowledged, in order. */
  readonly redelivered: readonly string[];
  /** The wait is over: a restart resumes the redelivery at once instead of waiting again. */
  readonly redeliveryDue: boolean;
}

export interface PartnerInput {
  readonly broker: string;
  /** The facts, each with a stable `event_id`. */
  readonly facts: readonly Payload[];
  /** How long after the first round the partner publishes every fact again. */
  readonly redeliverAfterTicks: number;
  readonly timeoutTicks?: number;
  readonly durable?: PartnerDurable;
}

type Ctx = { durable: PartnerDurable; input: PartnerInput };

const idOf = (p: Payload) => String(p['event_id']);

/** The fact in hand: the next one of the first round, else of the redelivery round. */
function current(ctx: Ctx): { fact: Payload; round: 'first' | 'redelivery' } {
  const { published, redelivered } = ctx.durable;
  const facts = ctx.input.facts;
  return published.length < facts.length
    ? { fact: facts[published.length]!, round: 'first' }
    : { fact: facts[redelivered.length]!, round: 'redelivery' };
}

const refOf = (ctx: Ctx) => {
  const c = current(ctx);
  return `${idOf(c.fact)}#${c.round}`;
};

export const partnerMachine = setup({
  types: { context: {} as Ctx, input: {} as PartnerInput, events: {} as BrokerReply | PeerCrashed, emitted: {} as Emitted },
  delays: {
    timeout: ({ context }) => context.input.timeoutTicks ?? 20,
    redeliverAfter: ({ context }) => context.input.redeliverAfterTicks,
  },
  guards: {
    firstRoundLeft: ({ context }) => context.durable.published.length < context.input.facts.length,
    redeliveryLeft: ({ context }) => context.durable.redelivered.length < context.input.facts.length,
    redeliveryResumes: ({ context }) => context.durable.redeliveryDue && context.durable.redelivered.length < context.input.facts.length,
    isAck: ({ context, event }) => event.type === 'broker.ack' && event.ref === refOf(context),
  },
  actions: {
    publish: enqueueActions(({ context, enqueue }) => {
      const { fact } = current(context);
      enqueue.emit(send(context.input.broker, { type: 'broker.publish', ref: refOf(context), key: String(fact['member_id'] ?? idOf(fact)), payload: fact }));
    }),
    markDue: assign(({ context }) => ({ durable: { ...context.durable, redeliveryDue: true } })),
    recordAck: assign(({ context }) => {
      const { fact, round } = current(context);
      const d = context.durable;
      return { durable: round === 'first' ? { ...d, published: [...d.published, idOf(fact)] } : { ...d, redelivered: [...d.redelivered, idOf(fact)] } };
    }),
  },
}).createMachine({
  id: 'partner',
  context: ({ input }) => ({ durable: input.durable ?? { published: [], redelivered: [], redeliveryDue: false }, input }),
  initial: 'next',
  states: {
    next: {
      always: [
        { guard: 'firstRoundLeft', target: 'publishing' },
        { guard: 'redeliveryResumes', target: 'redelivering' },
        { guard: 'redeliveryLeft', target: 'waitingToRedeliver' },
        { target: 'done' },
      ],
    },
    // A fact is on its way to the broker; until the ack comes, the partner does not know.
    publishing: {
      entry: 'publish',
      on: { 'broker.ack': { guard: 'isAck', target: 'next', actions: 'recordAck' } },
      after: { timeout: { target: 'publishing', reenter: true } },
    },
    // Every fact was delivered once; the partner will send them all again.
    waitingToRedeliver: { after: { redeliverAfter: { target: 'redelivering', actions: 'markDue' } } },
    redelivering: {
      entry: 'publish',
      on: { 'broker.ack': { guard: 'isAck', target: 'nextRedelivery', actions: 'recordAck' } },
      after: { timeout: { target: 'redelivering', reenter: true } },
    },
    nextRedelivery: { always: [{ guard: 'redeliveryLeft', target: 'redelivering' }, { target: 'done' }] },
    done: { tags: ['idle'] },
  },
});

export interface PartnerFeedOptions {
  /** The partner redelivers every fact this many ticks after the first round. */
  readonly redeliverAfterTicks: number;
  /** The consumer's inbox forgets an event_id this many ticks after it first committed. */
  readonly inboxTtlTicks?: number;
}

/** The partner's facts: one loyalty accrual per unit of workload. */
export function partnerFacts(size: number): Payload[] {
  return Array.from({ length: size }, (_, i) => ({
    event_id: `evt-partner-${i + 1}`,
    source: 'partner.loyalty',
    member_id: `m-${i + 1}`,
    points: 100,
  }));
}

const dupCredits = 'SELECT fact_id, count(*) FROM loyalty_credits GROUP BY fact_id HAVING count(*) > 1;';

const partnerNotes: Record<string, WindowNote> = {
  publishing: n('partner (resends the same event_id until the broker acknowledges)', "SELECT event_id, count(*) FROM broker_events WHERE source = 'partner.loyalty' GROUP BY event_id HAVING count(*) > 1;"),
  waitingToRedeliver: n('partner (its redelivery is scheduled, whatever we do)', "SELECT event_id, first_seen_at FROM inbox WHERE first_seen_at < now() - interval '7 days'; -- evidence about to expire"),
  redelivering: n('partner (resends the same event_id until the broker acknowledges)', dupCredits),
  done: n('nobody: the partner has nothing left to send', dupCredits),
};

const creditNotes: Record<string, WindowNote> = {
  received: n('broker redelivery from the committed offset', 'none: nothing durable yet'),
  insertingInbox: n('broker redelivery from the committed offset', 'none: the transaction rolls back'),
  afterInboxInsert: n('broker redelivery from the committed offset', 'none: the transaction rolls back'),
  writingEffect: n('broker redelivery from the committed offset', 'none: the transaction rolls back'),
  committingEffect: n('broker redelivery from the committed offset', 'SELECT * FROM inbox WHERE event_id = :event_id; -- did the commit land?'),
  afterEffectCommit: n('broker redelivery (the inbox suppresses the repeat while its row lives)', dupCredits),
  beforeTransportProgress: n('broker redelivery (the inbox suppresses the repeat while its row lives)', dupCredits),
  duplicateSeen: n('broker redelivery from the committed offset', 'none: the repeat was suppressed'),
};

/** Partner → broker → loyalty consumer (inbox with a horizon, additive credit) → loyalty database. */
export function partnerFeed(o: PartnerFeedOptions): (w: { size: number }) => ComponentSpec[] {
  const inbox: TableSpec = { key: ['consumer_name', 'event_id'], ...(o.inboxTtlTicks === undefined ? {} : { ttlTicks: o.inboxTtlTicks }) };
  const consumerInput: ConsumerInput = {
    broker: 'broker',
    group: 'loyalty',
    consumerName: 'loyalty-credit-v1',
    db: 'loyaltyDb',
    inbox: 'sameTx',
    effect: { op: 'insert', table: 'loyalty_credits', columns: { fact_id: 'event_id', member_id: 'member_id', points: 'points' } },
    ack: 'afterCommit',
  };
  return ({ size }) => [
    { name: 'partner', machine: partnerMachine, input: { broker: 'broker', facts: partnerFacts(size), redeliverAfterTicks: o.redeliverAfterTicks }, process: true, notes: partnerNotes },
    { name: 'broker', machine: brokerMachine, input: {}, process: false },
    { name: 'consumer', machine: consumerMachine, input: consumerInput as unknown as Record<string, unknown>, process: true, notes: creditNotes },
    { name: 'loyaltyDb', machine: databaseMachine, input: { tables: { loyalty_credits: { key: ['id'], autoId: true }, inbox } }, process: false },
  ];
}

/** One loyalty credit per partner fact, for as long as the partner may send the fact again. */
export const loyaltyCreditClaim: Claim = {
  effect: 'loyalty credit per partner fact',
  key: ['event_id'],
  namespace: 'partner.loyalty',
  authority: "the loyalty consumer's inbox, in the credit's transaction",
  lifetime: 'as long as the partner may redeliver (30 days)',
  sameIntent: 'nothing new: the repeat is suppressed',
  differentIntent: 'is a different fact with its own event_id',
  unknownCompletion: 'nothing external: the credit is a local row',
  outcomes: (v) => rowsOf(v.durable<DatabaseDurable>('loyaltyDb'), 'loyalty_credits').map((r) => ({ key: String(r['fact_id']) })),
  facts: (v) => [...v.durable<PartnerDurable>('partner').published],
};

/** The pipeline evidence line, plus the inbox rows' first-seen ticks and the partner's progress. */
export function partnerEvidence(durable: Readonly<Record<string, unknown>>): string {
  const db = durable['loyaltyDb'] as DatabaseDurable | undefined;
  const seen = Object.values(db?.tables['inbox'] ?? {}).map((s) => `${s.row['event_id']} first seen t=${s.at}`);
  const p = durable['partner'] as PartnerDurable | undefined;
  const partner = p ? `partner {published: ${p.published.join(', ') || 'none'}; redelivered: ${p.redelivered.join(', ') || 'none'}}` : '';
  return [pipelineEvidence(durable), seen.length > 0 ? `inbox ages {${seen.join(', ')}}` : '', partner].filter(Boolean).join(' · ');
}

// Seed 003's partner feed as a design: a partner (models/partner.ts) that sends its facts again
// weeks later, the broker, and a loyalty consumer whose inbox forgets: the inbox table has a
// time-to-live (the "seven-day deduplication record") and the effect, a loyalty credit, is an
// additive row with a surrogate id, so nothing but the inbox recognises a repeat.
import type { Claim } from '../../src/claims.ts';
import type { DesignComponent, WindowNote } from '../../src/scenario.ts';
import { brokerEvidence, brokerMachine, type Payload } from '../broker.ts';
import { consumerMachine, type ConsumerInput } from '../consumer.ts';
import { rowsOf, type DatabaseDurable, type TableSpec } from '../database.ts';
import { databaseComponent } from './databaseComponent.ts';
import { partnerEvidence, partnerMachine, type PartnerDurable } from '../partner.ts';
import { windowNote as n } from './windowNotes.ts';

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
export function partnerFeed(o: PartnerFeedOptions): (w: { size: number }) => DesignComponent[] {
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
  const tables: Record<string, TableSpec> = { loyalty_credits: { key: ['id'], autoId: true }, inbox };
  return ({ size }) => [
    { name: 'partner', machine: partnerMachine, input: { broker: 'broker', facts: partnerFacts(size), redeliverAfterTicks: o.redeliverAfterTicks }, process: true, notes: partnerNotes, describe: partnerEvidence },
    { name: 'broker', machine: brokerMachine, input: {}, process: false, describe: brokerEvidence },
    { name: 'consumer', machine: consumerMachine, input: consumerInput as unknown as Record<string, unknown>, process: true, notes: creditNotes },
    databaseComponent('loyaltyDb', tables, { inbox: (r) => String(r['event_id']), loyalty_credits: (r) => `${r['member_id']} +${r['points']} for ${r['fact_id']}` }),
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
  outcomes: (v) => rowsOf(v.durable<DatabaseDurable>('loyaltyDb'), 'loyalty_credits').map((r) => ({ key: String(r['fact_id']) })),
  facts: (v) => [...v.durable<PartnerDurable>('partner').published],
};

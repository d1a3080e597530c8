// Seed 003's partner feed as a design: a partner (models/partner.ts) that sends its facts again
// weeks later, the broker, and a loyalty consumer whose inbox forgets: the inbox table has a
// time-to-live (the "seven-day deduplication record") and the effect, a loyalty credit, is an
// additive row with a surrogate id, so nothing but the inbox recognises a repeat.
import type { Claim } from '../../src/checkers/claims.ts';
import { design, given, type DesignBuild } from '../../src/scenario/design.ts';
import { duration, parseOptions, z } from '../../src/scenario/options.ts';
import type { WindowNote } from '../../src/scenario/scenario.ts';
import { broker, BrokerOptions, type Payload } from '../broker.ts';
import { consumer, ConsumerOptions } from '../consumer.ts';
import { rowsOf, type DatabaseDurable } from '../database.ts';
import { partner, PartnerOptions, type PartnerDurable } from '../partner.ts';
import { database } from './databaseComponent.ts';
import { changedTables, databaseOwn, partOptions, presetDatabase } from './partOptions.ts';
import { windowNote as n } from './windowNotes.ts';

/** The names the feed gives its components and tables. */
export const PARTNER_FEED = {
  components: { partner: 'partner', broker: 'broker', consumer: 'consumer', loyaltyDb: 'loyaltyDb' },
  tables: { loyaltyCredits: 'loyalty_credits', inbox: 'inbox' },
} as const;

export const PartnerFeedOptions = z.strictObject({
  /** How long after the first round the partner sends every fact again. */
  redeliverAfter: duration,
  /** How long the consumer's inbox remembers an event_id after it first committed (for ever). */
  inboxTtl: duration.optional(),
  partner: partOptions('partner', PartnerOptions, { name: true, notes: true, broker: true, facts: true, redeliverAfter: true }),
  broker: partOptions('broker', BrokerOptions, { name: true, notes: true }),
  consumer: partOptions('consumer', ConsumerOptions, { name: true, notes: true, broker: true, db: true, inboxDb: true, effect: true }),
  loyaltyDb: presetDatabase(PARTNER_FEED.components.loyaltyDb),
});

export type PartnerFeedOptions = z.input<typeof PartnerFeedOptions>;

/** The partner's facts: one loyalty accrual per unit of workload. */
export function partnerFacts(size: number): Payload[] {
  return Array.from({ length: size }, (_, i) => ({
    event_id: `evt-partner-${i + 1}`,
    source: 'partner.loyalty',
    member_id: `m-${i + 1}`,
    points: 100,
  }));
}


const partnerNotes: Record<string, WindowNote> = {
  publishing: n('partner (resends the same event_id until the broker acknowledges)'),
  waitingToRedeliver: n('partner (its redelivery is scheduled, whatever we do)'),
  redelivering: n('partner (resends the same event_id until the broker acknowledges)'),
  done: n('nobody: the partner has nothing left to send'),
};

const creditNotes: Record<string, WindowNote> = {
  received: n('broker redelivery from the committed offset'),
  insertingInbox: n('broker redelivery from the committed offset'),
  afterInboxInsert: n('broker redelivery from the committed offset'),
  writingEffect: n('broker redelivery from the committed offset'),
  committingEffect: n('broker redelivery from the committed offset'),
  afterEffectCommit: n('broker redelivery (the inbox suppresses the repeat while its row lives)'),
  beforeTransportProgress: n('broker redelivery (the inbox suppresses the repeat while its row lives)'),
  duplicateSeen: n('broker redelivery from the committed offset'),
};

/** Partner → broker → loyalty consumer (inbox with a horizon, additive credit) → loyalty database. */
export function partnerFeed(options: PartnerFeedOptions): DesignBuild {
  const o = parseOptions('partnerFeed', PartnerFeedOptions, options);
  const C = PARTNER_FEED.components;
  const T = PARTNER_FEED.tables;
  const tables = { [T.loyaltyCredits]: { key: ['id'], autoId: true }, [T.inbox]: { key: ['consumer_name', 'event_id'], ...(o.inboxTtl === undefined ? {} : { ttl: o.inboxTtl }) } };
  return design(
    partner({ ...given(o.partner ?? {}), facts: partnerFacts, redeliverAfter: o.redeliverAfter, notes: partnerNotes }),
    broker(given(o.broker ?? {})),
    consumer({
      group: 'loyalty',
      consumerName: 'loyalty-credit-v1',
      inbox: 'sameTx',
      ack: 'afterCommit',
      ...given(o.consumer ?? {}),
      db: C.loyaltyDb,
      effect: { op: 'insert', table: T.loyaltyCredits, columns: { fact_id: 'event_id', member_id: 'member_id', points: 'points' } },
      notes: creditNotes,
    }),
    database({
      name: C.loyaltyDb,
      tables: changedTables('partnerFeed option loyaltyDb', tables, o.loyaltyDb?.tables),
      rows: { inbox: (r) => String(r['event_id']), loyalty_credits: (r) => `${r['member_id']} +${r['points']} for ${r['fact_id']}` },
      ...databaseOwn(o.loyaltyDb),
    }),
  );
}

/** One loyalty credit per partner fact, for as long as the partner may send the fact again. */
export const loyaltyCreditClaim: Claim = {
  effect: 'loyalty credit per partner fact',
  key: ['event_id'],
  namespace: 'partner.loyalty',
  authority: "the loyalty consumer's inbox, in the credit's transaction",
  lifetime: 'as long as the partner may redeliver (30 days)',
  sameIntent: 'nothing new: the repeat is suppressed',
  // The facts are the events the partner published, as the feed's log of first deliveries a team
  // would query (the broker's record of what the partner sent), one row per event.
  tables: {
    effect: { table: 'loyalty_credits', key: ['fact_id'] },
    source: { table: 'partner_events', key: ['event_id'] },
    views: [{ table: 'partner_events', columns: { event_id: 'text' }, rows: (v) => v.durable<PartnerDurable>(PARTNER_FEED.components.partner).published.map((event_id) => ({ event_id })) }],
  },
  outcomes: (v) => rowsOf(v.durable<DatabaseDurable>(PARTNER_FEED.components.loyaltyDb), PARTNER_FEED.tables.loyaltyCredits).map((r) => ({ key: String(r['fact_id']) })),
  facts: (v) => [...v.durable<PartnerDurable>(PARTNER_FEED.components.partner).published],
};

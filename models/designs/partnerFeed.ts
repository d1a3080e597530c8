// Seed 003's partner feed as a design: a partner (models/partner.ts) that sends its facts again
// weeks later, the broker, and a loyalty consumer whose inbox forgets: the inbox table has a
// time-to-live (the "seven-day deduplication record") and the effect, a loyalty credit, is an
// additive row with a surrogate id, so nothing but the inbox recognises a repeat.
import type { Claim } from '../../src/claims.ts';
import { design, type DesignBuild } from '../../src/design.ts';
import { duration, parseOptions, z } from '../../src/options.ts';
import type { WindowNote } from '../../src/scenario.ts';
import { broker, type Payload } from '../broker.ts';
import { consumer } from '../consumer.ts';
import { rowsOf, type DatabaseDurable } from '../database.ts';
import { partner, type PartnerDurable } from '../partner.ts';
import { database } from './databaseComponent.ts';
import { windowNote as n } from './windowNotes.ts';

export const PartnerFeedOptions = z.strictObject({
  /** How long after the first round the partner sends every fact again. */
  redeliverAfter: duration,
  /** How long the consumer's inbox remembers an event_id after it first committed (for ever). */
  inboxTtl: duration.optional(),
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
  return design(
    partner({ facts: partnerFacts, redeliverAfter: o.redeliverAfter, notes: partnerNotes }),
    broker(),
    consumer({
      group: 'loyalty',
      consumerName: 'loyalty-credit-v1',
      db: 'loyaltyDb',
      inbox: 'sameTx',
      effect: { op: 'insert', table: 'loyalty_credits', columns: { fact_id: 'event_id', member_id: 'member_id', points: 'points' } },
      ack: 'afterCommit',
      notes: creditNotes,
    }),
    database({
      name: 'loyaltyDb',
      tables: { loyalty_credits: { key: ['id'], autoId: true }, inbox: { key: ['consumer_name', 'event_id'], ...(o.inboxTtl === undefined ? {} : { ttl: o.inboxTtl }) } },
      rows: { inbox: (r) => String(r['event_id']), loyalty_credits: (r) => `${r['member_id']} +${r['points']} for ${r['fact_id']}` },
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
    views: [{ table: 'partner_events', columns: { event_id: 'text' }, rows: (v) => v.durable<PartnerDurable>('partner').published.map((event_id) => ({ event_id })) }],
  },
  outcomes: (v) => rowsOf(v.durable<DatabaseDurable>('loyaltyDb'), 'loyalty_credits').map((r) => ({ key: String(r['fact_id']) })),
  facts: (v) => [...v.durable<PartnerDurable>('partner').published],
};

// The flow register of seed 004's decision-record template (Quillmere, EV-01..EV-04), one world
// per flow: a producer whose facts are committed with their publication intent, the broker, and
// the consuming service with its own database. Each flow states the semantics the register
// chose and the claim that follows from it; the scenario files pick a flow and say what the
// verdict teaches.
// What differs between the flows is where a repeat is stopped:
// - EV-01 review.posted: dedup by event id, twice over. The inbox (consumer, event_id), committed
//   with the notification, stops a redelivery before any work; the notification has a surrogate
//   id and records the event that caused it under a unique constraint, which stops a statement
//   repeated inside the transaction (the inbox row is already in that transaction's view).
// - EV-02 rating.changed: an upsert by rating id that only moves forwards in version, so a
//   repeat or a stale redelivery changes nothing: idempotent upsert.
// - EV-03 page.viewed: published at most once and acknowledged before it is counted, so views
//   can be lost, and that is declared; the view id still refuses an overcount.
// - EV-04 gift.payment.captured: the payment id is the key of the dispatch, so even a second
//   event for the same payment (Payments re-emits after its own reconciliation) dispatches once.
import type { Claim } from '../../src/checkers/claims.ts';
import { design, given, type DesignBuild } from '../../src/scenario/design.ts';
import { parseOptions, z } from '../../src/scenario/options.ts';
import type { WorldView } from '../../src/kernel/worldView.ts';
import { broker, BrokerOptions, type Payload } from '../broker.ts';
import { consumer, ConsumerOptions, type EffectSpec } from '../consumer.ts';
import { rowsOf, versionsOf, type DatabaseDurable } from '../database.ts';
import { publishedFacts, publisher, PublisherOptions, type PublisherDurable } from '../publisher.ts';
import { database, DatabaseOptions } from './databaseComponent.ts';
import { partOptions } from './partOptions.ts';
import { historyView, publishedView } from './tableViews.ts';

/** One flow of the register: what is published, how, and how the consuming service applies it. */
export const FlowDesign = z.strictObject({
  /** The register's id and event, e.g. `EV-01 review.posted`. */
  flow: z.string(),
  records: z.custom<(size: number) => readonly Payload[]>((v) => typeof v === 'function'),
  /** The payload field the broker partitions by (the ordering scope). */
  keyField: z.string(),
  delivery: z.enum(['atLeastOnce', 'atMostOnce']),
  consumer: ConsumerOptions.omit({ name: true, notes: true, broker: true, db: true }).meta({ partOf: 'consumer', description: 'Any option of consumer but its name, broker and db; group, inbox and effect are required.' }),
  /** The consuming service's database and its tables. */
  db: z.string(),
  tables: DatabaseOptions.shape.tables,
  /** The database's own options: whether it crashes or restores, its restart delay. */
  database: partOptions('database', DatabaseOptions, { name: true, tables: true, rows: true, notes: true }),
  publisher: partOptions('publisher', PublisherOptions, { name: true, notes: true, broker: true, records: true, keyField: true, delivery: true }),
  broker: partOptions('broker', BrokerOptions, { name: true, notes: true }),
});

/** The names a flow's world gives its components (its database is the flow's `db`). */
export const FLOW_PIPELINE = { components: { publisher: 'publisher', broker: 'broker', consumer: 'consumer' } } as const;

export type FlowDesign = z.input<typeof FlowDesign>;

export function flowPipeline(flow: FlowDesign): DesignBuild {
  const f = parseOptions('flowPipeline', FlowDesign, flow);
  return design(
    publisher({ ...given(f.publisher ?? {}), records: f.records, keyField: f.keyField, delivery: f.delivery }),
    broker(given(f.broker ?? {})),
    consumer({ ...f.consumer, db: f.db }),
    database({ ...given(f.database ?? {}), name: f.db, tables: f.tables }),
  );
}

const facts = (v: WorldView): readonly Payload[] => publishedFacts(v.durable<PublisherDurable>('publisher'));
const rows = (v: WorldView, db: string, table: string) => rowsOf(v.durable<DatabaseDurable>(db), table);
const distinct = (keys: readonly string[]) => [...new Set(keys)];

// EV-01, review posted: at-least-once delivery, deduplicated by event id.

const notification: EffectSpec = {
  op: 'insert',
  table: 'notifications',
  columns: { caused_by: 'event_id', review_id: 'review_id', author_id: 'author_id', kind: { const: 'review.posted' } },
};

export const reviewPosted: FlowDesign = {
  flow: 'EV-01 review.posted',
  records: (size) =>
    Array.from({ length: size }, (_, i) => ({ event_id: `evt-rev-${i + 1}`, review_id: `rev-${i + 1}`, book_id: `b-${i + 1}`, author_id: `u-${i + 1}` })),
  keyField: 'book_id',
  delivery: 'atLeastOnce',
  consumer: { group: 'notifications', consumerName: 'notifications-review-posted-v1', inbox: 'sameTx', ack: 'afterCommit', effect: notification },
  db: 'notificationsDb',
  // A surrogate id, and the causing event id unique: repeats are recognised by event id only.
  tables: { notifications: { key: ['id'], autoId: true, unique: [['caused_by']] }, inbox: { key: ['consumer_name', 'event_id'] } },
};

export const reviewNotificationClaim: Claim = {
  effect: "the followers' notification of a posted review",
  key: ['review_id'],
  namespace: 'consumer notifications-review-posted-v1',
  authority: "the notifications database: the inbox (consumer_name, event_id) committed with the notification, and the notification's unique causing event_id",
  lifetime: 'the inbox retention (7 days, beyond broker retention and replays)',
  sameIntent: 'nothing new: the inbox row says it was handled',
  // The facts are the producer's committed events, read as its outbox.
  tables: {
    effect: { table: 'notifications', key: ['review_id'] },
    source: { table: 'review_posted_events', key: ['review_id'] },
    views: [publishedView('review_posted_events', { event_id: 'text', review_id: 'text', book_id: 'text', author_id: 'text' })],
  },
  outcomes: (v) => rows(v, 'notificationsDb', 'notifications').map((r) => ({ key: String(r['review_id']) })),
  facts: (v) => distinct(facts(v).map((p) => String(p['review_id']))),
};

// EV-02, rating changed: at-least-once delivery, applied as an idempotent upsert.

const STARS = [3, 5, 4, 2];

export const ratingChanged: FlowDesign = {
  flow: 'EV-02 rating.changed',
  // One reader's rating of one book, changed `size` times: versions 1..size.
  records: (size) =>
    Array.from({ length: size }, (_, i) => ({
      event_id: `evt-rt-1-v${i + 1}`,
      rating_id: 'rt-1',
      user_id: 'u-1',
      book_id: 'b-1',
      stars: STARS[i % STARS.length]!,
      version: i + 1,
    })),
  keyField: 'book_id',
  delivery: 'atLeastOnce',
  consumer: {
    group: 'recommendations',
    inbox: 'none',
    ack: 'afterCommit',
    versionCheck: true,
    effect: { op: 'upsert', table: 'rating_features', columns: { rating_id: 'rating_id', book_id: 'book_id', stars: 'stars', version: 'version' } },
  },
  db: 'recommendationsDb',
  tables: { rating_features: { key: ['rating_id'], history: true } },
};

/**
 * EV-02 as a web tier might send it: each rating change fired once and forgotten (at most once),
 * pipelined over one connection, and upserted without a version check. Nothing is ever sent
 * twice and the connection keeps its order, so a change can be lost but never applied out of
 * order, unless a message is overtaken on the way.
 */
export const ratingChangedFireAndForget: FlowDesign = {
  ...ratingChanged,
  delivery: 'atMostOnce',
  consumer: { ...ratingChanged.consumer, ack: 'beforeCommit', versionCheck: false },
};

/** Outcome keys carry the applied version, so "every fact yields its effect" means the latest rating is the one counted. */
export const ratingFeatureClaim: Claim = {
  effect: "a rating's contribution to the book's feature",
  key: ['rating_id'],
  authority: 'the feature row keyed by rating_id, written by a version-checked upsert',
  lifetime: 'the lifetime of the rating',
  sameIntent: 'the same row, unchanged',
  // The facts are each rating's latest published change; any published change may be the one a
  // row stands at; the feature table's audit history shows a version applied after a later one.
  tables: {
    effect: { table: 'rating_features', key: ['rating_id', 'version'], format: '{0}@v{1}' },
    source: { table: 'rating_changed_events', key: ['rating_id', 'version'], where: '$version = (SELECT max(l.version) FROM rating_changed_events l WHERE l.rating_id = $rating_id)', format: '{0}@v{1}' },
    causes: { table: 'rating_changed_events', key: ['rating_id', 'version'] },
    history: { table: 'rating_features_history', key: ['rating_id'], version: 'version', order: 'seq' },
    views: [
      publishedView('rating_changed_events', { event_id: 'text', rating_id: 'text', user_id: 'text', book_id: 'text', stars: 'bigint', version: 'bigint' }),
      historyView('rating_features_history', 'recommendationsDb', 'rating_features', { rating_id: 'text', book_id: 'text', stars: 'bigint', version: 'bigint' }),
    ],
  },
  outcomes: (v) => rows(v, 'recommendationsDb', 'rating_features').map((r) => ({ key: `${r['rating_id']}@v${r['version']}` })),
  facts: (v) => {
    const latest = new Map<string, number>();
    for (const p of facts(v)) latest.set(String(p['rating_id']), Math.max(latest.get(String(p['rating_id'])) ?? 0, Number(p['version'])));
    return [...latest].map(([id, version]) => `${id}@v${version}`);
  },
  // A row left at an older version answers to a published change: stale, not a phantom.
  sources: (v) => facts(v).map((p) => `${p['rating_id']}@v${p['version']}`),
  versions: (v) => versionsOf(v.durable<DatabaseDurable>('recommendationsDb'), 'rating_features', 'rating_id'),
};

// EV-03, page viewed: at-most-once, where a lost view is accepted and declared.

export const pageViewed: FlowDesign = {
  flow: 'EV-03 page.viewed',
  records: (size) => Array.from({ length: size }, (_, i) => ({ event_id: `evt-pv-${i + 1}`, view_id: `pv-${i + 1}`, page: '/books/b-1' })),
  keyField: 'page',
  // The web tier fires the event and forgets it; analytics acknowledges before it counts.
  delivery: 'atMostOnce',
  consumer: {
    group: 'analytics',
    inbox: 'none',
    ack: 'beforeCommit',
    effect: { op: 'insert', table: 'page_views', columns: { view_id: 'view_id', page: 'page' } },
  },
  db: 'analyticsDb',
  tables: { page_views: { key: ['view_id'] } },
};

export const pageViewClaim: Claim = {
  effect: 'a counted page view',
  key: ['view_id'],
  authority: "the analytics table's primary key on view_id",
  lifetime: 'the reporting period',
  sameIntent: 'nothing new: the view is already counted',
  guarantee: 'atMostOnce',
  tables: {
    effect: { table: 'page_views', key: ['view_id'] },
    source: { table: 'page_viewed_events', key: ['view_id'] },
    views: [publishedView('page_viewed_events', { event_id: 'text', view_id: 'text', page: 'text' })],
  },
  outcomes: (v) => rows(v, 'analyticsDb', 'page_views').map((r) => ({ key: String(r['view_id']) })),
  facts: (v) => distinct(facts(v).map((p) => String(p['view_id']))),
};

// EV-04, gift payment captured: at-least-once delivery, idempotent by payment id.

export const giftPaymentCaptured: FlowDesign = {
  flow: 'EV-04 gift.payment.captured',
  // One capture per gift payment; Payments re-emits the first one under a new event id after
  // reconciling with its card processor (a distinct event for the same payment).
  records: (size) => {
    const captured = Array.from({ length: size }, (_, i) => ({ event_id: `evt-cap-${i + 1}`, payment_id: `pay-${i + 1}`, gift_order_id: `g-${i + 1}`, amount: 1_500 }));
    return [...captured, { ...captured[0]!, event_id: 'evt-cap-1-reemitted' }];
  },
  keyField: 'gift_order_id',
  delivery: 'atLeastOnce',
  consumer: {
    group: 'orders-gifts',
    inbox: 'none',
    ack: 'afterCommit',
    effect: { op: 'insert', table: 'gift_dispatches', columns: { payment_id: 'payment_id', gift_order_id: 'gift_order_id', state: { const: 'DISPATCHED' } } },
  },
  db: 'ordersDb',
  tables: { gift_dispatches: { key: ['payment_id'] } },
};

export const giftDispatchClaim: Claim = {
  effect: 'dispatch of a paid gift',
  key: ['payment_id'],
  authority: "the orders database's primary key on gift_dispatches.payment_id",
  lifetime: 'the lifetime of the gift order',
  sameIntent: 'the recorded dispatch',
  tables: {
    effect: { table: 'gift_dispatches', key: ['payment_id'] },
    source: { table: 'gift_payment_captured_events', key: ['payment_id'] },
    views: [publishedView('gift_payment_captured_events', { event_id: 'text', payment_id: 'text', gift_order_id: 'text', amount: 'bigint' })],
  },
  outcomes: (v) => rows(v, 'ordersDb', 'gift_dispatches').map((r) => ({ key: String(r['payment_id']) })),
  facts: (v) => distinct(facts(v).map((p) => String(p['payment_id']))),
};

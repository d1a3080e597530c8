// A consumer that meets a record it cannot process (seed 002, "Poison messages, retries, and
// dead letter queues"; seed 004, section 5, "Ordering, retries and dead letters"): Reviews
// publishes rating changes per book (partition key `book_id`), the stats service keeps one row
// per book at its latest version, and one record fails in the handler, for good (`poison`) or
// for its first four attempts (`transient`: a downstream outage of about 15 s under seed 004's schedule). The options are the rows of seed 004's table:
// - `retry: 'blocking'`: wait and retry inside the handler; every other book behind it waits too.
// - `retry: 'retryTopic'`: hand the record to a retry topic and move on; a retry consumer runs it
//   again when due. `parkKeys` makes later records of that book follow it through the retry
//   topic ("key is parked") instead of overtaking it.
// - `deadLetter`: after the last retry the record goes to a dead-letter topic with its error,
//   attempt count, original offset and owning team; without it the record is retried for ever.
// The backoff schedule is seed 004's (1, 2, 4, 8, 16, 32, 60, 60 s) unless the design gives one.
// Three claims watch it: per-book versions never move backwards, every record is applied or
// dead-lettered with an owner, and the books without a bad record are applied within a bound of
// their publication.
import type { Claim, ClaimTable, TableView } from '../../src/checkers/claims.ts';
import { design, given, type DesignBuild } from '../../src/scenario/design.ts';
import { TimeScale, type Duration } from '../../src/base/duration.ts';
import { duration, parseOptions, z } from '../../src/scenario/options.ts';
import type { WorldView } from '../../src/kernel/worldView.ts';
import { broker, BrokerOptions, recordsOf, type BrokerDurable, type Payload } from '../broker.ts';
import { consumer, ConsumerOptions, type EffectSpec } from '../consumer.ts';
import { historyOf, versionsOf, type DatabaseDurable } from '../database.ts';
import { publishedFacts, publisher, PublisherOptions, type PublisherDurable } from '../publisher.ts';
import { SEED_BACKOFF } from '../retryPolicy.ts';
import { database } from './databaseComponent.ts';
import { changedTables, databaseOwn, partOptions, presetDatabase } from './partOptions.ts';
import { historyView, publishedView, topicView } from './tableViews.ts';
import { handlerNotes } from './windowNotes.ts';

/** The names the pipeline gives its components and tables. */
export const POISON_PIPELINE = {
  components: { publisher: 'publisher', broker: 'broker', consumer: 'consumer', retryTopic: 'retryTopic', retryConsumer: 'retryConsumer', deadLetters: 'deadLetters', statsDb: 'statsDb' },
  tables: { bookStats: 'book_stats', inbox: 'inbox', parked: 'parked' },
} as const;

export const PoisonPipelineOptions = z.strictObject({
  retry: z.enum(['blocking', 'retryTopic']),
  parkKeys: z.boolean().optional(),
  deadLetter: z.boolean(),
  /** The wait before each retry (seed 004's schedule by default). */
  backoff: z.array(duration).optional(),
  /** How the bad record fails: every time (`poison`) or its first four attempts (`transient`). */
  bad: z.enum(['poison', 'transient']),
  /** The stats consumers' other options (both the consumer and, with a retry topic, its retry consumer). */
  consumer: partOptions('consumer', ConsumerOptions, { name: true, notes: true, broker: true, db: true, inboxDb: true, effect: true, retry: true, reads: true, group: true }),
  publisher: partOptions('publisher', PublisherOptions, { name: true, notes: true, broker: true, records: true, keyField: true }),
  broker: partOptions('broker', BrokerOptions, { name: true, notes: true }),
  statsDb: presetDatabase(POISON_PIPELINE.components.statsDb),
});

export type PoisonPipelineOptions = z.input<typeof PoisonPipelineOptions>;

/**
 * The time scale of the poison scenarios: a quarter of a second a tick, so the network's latency
 * and a record's processing (a few ticks) are short beside seed 004's 1 s first wait and 183 s
 * of backoff in all.
 */
export const POISON_TICK: Duration = '250ms';

/** The team that owns the dead-letter topic (seed 002: "a dead letter queue needs a named owning team"). */
export const DEAD_LETTER_OWNER = 'reviews-stats-oncall';

/**
 * Rating changes for `size` books (at least two), three versions each, published version by
 * version; the second version of book b-1 is the bad record.
 */
export function ratingChanges(bad: 'poison' | 'transient') {
  return (size: number): Payload[] => {
    const books = Math.max(2, size);
    const out: Payload[] = [];
    for (let v = 1; v <= 3; v++) {
      for (let b = 1; b <= books; b++) {
        const record: Record<string, string | number | boolean> = { event_id: `evt-b-${b}-v${v}`, book_id: `b-${b}`, version: v, stars: ((b + v) % 5) + 1 };
        if (b === 1 && v === 2) {
          if (bad === 'poison') record['poison'] = true;
          else record['failures'] = 4;
        }
        out.push(record);
      }
    }
    return out;
  };
}

const bookStats: EffectSpec = {
  op: 'upsert',
  table: 'book_stats',
  columns: { book_id: 'book_id', stars: 'stars', version: 'version', applied_at: { now: true } },
};

export function poisonPipeline(options: PoisonPipelineOptions): DesignBuild {
  const o = parseOptions('poisonPipeline', PoisonPipelineOptions, options);
  const backoff: Duration[] = [...(o.backoff ?? SEED_BACKOFF)];
  const retry = {
    mode: o.retry,
    backoff,
    ...(o.retry === 'retryTopic' ? { topic: 'retryTopic', parkKeys: o.parkKeys ?? false } : {}),
    ...(o.deadLetter ? { deadLetter: { topic: 'deadLetters', owner: DEAD_LETTER_OWNER } } : {}),
  };
  const C = POISON_PIPELINE.components;
  const T = POISON_PIPELINE.tables;
  const shared = { consumerName: 'stats-ratings-v1', inbox: 'sameTx' as const, ...given(o.consumer ?? {}), db: C.statsDb, effect: bookStats, retry };
  const notesOf = (reads?: 'retries') => handlerNotes({ retry, ...(reads === undefined ? {} : { reads, broker: C.retryTopic }) });
  const tables = {
    [T.bookStats]: { key: ['book_id'], history: true },
    [T.inbox]: { key: ['consumer_name', 'event_id'] },
    ...(o.parkKeys ? { [T.parked]: { key: ['park_key', 'event_id'] } } : {}),
  };
  return design(
    publisher({ ...given(o.publisher ?? {}), records: ratingChanges(o.bad), keyField: 'book_id' }),
    broker(given(o.broker ?? {})),
    consumer({ ...shared, group: 'stats', notes: notesOf() }),
    o.retry === 'retryTopic' && [broker({ name: C.retryTopic }), consumer({ ...shared, name: C.retryConsumer, broker: C.retryTopic, group: 'stats-retry', reads: 'retries', notes: notesOf('retries') })],
    o.deadLetter && broker({ name: C.deadLetters }),
    database({
      name: C.statsDb,
      tables: changedTables('poisonPipeline option statsDb', tables, o.statsDb?.tables),
      ...databaseOwn(o.statsDb),
      rows: {
        book_stats: (r) => `${r['book_id']} v${r['version']}`,
        inbox: (r) => String(r['event_id']),
        parked: (r) => `${r['park_key']}: ${r['event_id']}`,
      },
    }),
  );
}

const records = (v: WorldView) => publishedFacts(v.durable<PublisherDurable>(POISON_PIPELINE.components.publisher));
const recordKey = (p: Payload) => `${p['book_id']}@v${p['version']}`;
const stats = (v: WorldView) => v.durable<DatabaseDurable>(POISON_PIPELINE.components.statsDb);
const isBad = (p: Payload) => p['poison'] === true || Number(p['failures'] ?? 0) > 0;

/**
 * The tables the claims read: Reviews' committed rating changes as its outbox of events, the
 * stats table's audit history (every version applied, in commit order), the ratings topic and
 * the dead-letter topic as the tables their sink connectors fill.
 */
const RATING_EVENTS = publishedView('rating_change_events', { event_id: 'text', book_id: 'text', version: 'bigint', stars: 'bigint', poison: 'boolean', failures: 'bigint' });
const STATS_HISTORY = historyView('book_stats_history', 'statsDb', 'book_stats', { book_id: 'text', stars: 'bigint', version: 'bigint', applied_at: 'bigint' });
const RATINGS_TOPIC = topicView('ratings_topic', { event_id: 'text', book_id: 'text', version: 'bigint' });
const DEAD_LETTERS = topicView('dead_letters', { event_id: 'text', book_id: 'text', version: 'bigint', error: 'text', attempts: 'bigint', owner: 'text' }, 'deadLetters', true);
const POISON_VIEWS: readonly TableView[] = [RATING_EVENTS, STATS_HISTORY, RATINGS_TOPIC, DEAD_LETTERS];
/** A record's key, `b-1@v2`, from its book and version. */
const RECORD_FORMAT = '{0}@v{1}';
const PUBLISHED: ClaimTable = { table: 'rating_change_events', key: ['book_id', 'version'], format: RECORD_FORMAT };
const APPLIED: ClaimTable = { table: 'book_stats_history', key: ['book_id', 'version'], format: RECORD_FORMAT };

/** Per-book order (seed 004: "ordering scope per book_id"): the applied versions never move backwards. */
export const bookOrderClaim: Claim = {
  effect: "a book's rating statistics",
  key: ['book_id'],
  authority: 'the stats row per book, written in record order per book',
  lifetime: 'the lifetime of the book',
  sameIntent: 'the same row',
  guarantee: 'atLeastOnce',
  tables: {
    effect: { table: 'book_stats_history', key: ['book_id'] },
    source: { table: 'rating_change_events', key: ['book_id'] },
    history: { table: 'book_stats_history', key: ['book_id'], version: 'version', order: 'seq' },
    views: POISON_VIEWS,
  },
  outcomes: (v) => [...new Set(historyOf(stats(v), 'book_stats').map((r) => String(r['book_id'])))].map((key) => ({ key })),
  facts: (v) => [...new Set(records(v).map((p) => String(p['book_id'])))],
  versions: (v) => versionsOf(stats(v), 'book_stats', 'book_id'),
};

/**
 * No record lost (seed 002: "a dead letter queue is not a graveyard"): every published record is
 * applied, or dead-lettered with an owning team.
 */
export const recordAccountedClaim: Claim = {
  effect: 'a rating change, applied or dead-lettered with an owner',
  key: ['book_id', 'version'],
  authority: "the stats table's history, and the dead-letter topic",
  lifetime: 'until the dead-letter topic is triaged',
  guarantee: 'atLeastOnce',
  // A record dead-lettered with an owner is accounted for, so it owes no applied version. A dead
  // letter is a copy of a published record, never a phantom, so only the applied ones are judged.
  tables: {
    effect: APPLIED,
    source: { ...PUBLISHED, where: "NOT EXISTS (SELECT 1 FROM dead_letters d WHERE d.book_id = $book_id AND d.version = $version AND d.owner <> '')" },
    causes: PUBLISHED,
    views: POISON_VIEWS,
  },
  outcomes: (v) => {
    const applied = historyOf(stats(v), 'book_stats').map((r) => ({ key: `${r['book_id']}@v${r['version']}` }));
    const dead = recordsOf(deadLetters(v))
      .filter((r) => typeof r.payload['owner'] === 'string' && r.payload['owner'] !== '')
      .map((r) => ({ key: recordKey(r.payload) }));
    return [...applied, ...dead];
  },
  facts: (v) => records(v).map(recordKey),
};

function deadLetters(v: WorldView): BrokerDurable | undefined {
  try {
    return v.durable<BrokerDurable>('deadLetters');
  } catch {
    // A design without a dead-letter topic has dead-lettered nothing.
    return undefined;
  }
}

/**
 * Liveness within a bound (seed 002: "blocking a handler stalls the entire partition and turns
 * one bad message into a topic-wide outage"): every record of a book that has no bad record is
 * applied within `bound` of its publication, in ticks of the scenario's `tick`.
 */
export function otherBooksTimelyClaim(bound: Duration, tick: Duration): Claim {
  const time = new TimeScale(tick);
  const boundTicks = time.ticks('the timely claim’s bound', bound, 1);
  return {
    effect: `a rating change of another book, applied within ${time.format(boundTicks)} of publication`,
    key: ['book_id', 'version'],
    authority: 'the stats table: the tick each version was applied, against the tick the broker appended it',
    lifetime: `${time.format(boundTicks)} from publication`,
    guarantee: 'atLeastOnce',
    // Times are ticks of the scenario's clock; a book with a bad record owes nothing on time.
    tables: {
      effect: { ...APPLIED, where: `$applied_at - (SELECT min(t.appended_at) FROM ratings_topic t WHERE t.book_id = $book_id AND t.version = $version) <= ${boundTicks} /* ${time.format(boundTicks)} */` },
      source: { ...PUBLISHED, where: 'NOT EXISTS (SELECT 1 FROM rating_change_events b WHERE b.book_id = $book_id AND (coalesce(b.poison, false) OR coalesce(b.failures, 0) > 0))' },
      causes: PUBLISHED,
      views: POISON_VIEWS,
    },
    outcomes: (v) => {
      const published = new Map<string, number>();
      for (const r of recordsOf(v.durable<BrokerDurable>('broker'))) if (!published.has(recordKey(r.payload))) published.set(recordKey(r.payload), r.at);
      return historyOf(stats(v), 'book_stats')
        .filter((r) => {
          const key = `${r['book_id']}@v${r['version']}`;
          const at = published.get(key);
          return at !== undefined && Number(r['applied_at']) - at <= boundTicks;
        })
        .map((r) => ({ key: `${r['book_id']}@v${r['version']}` }));
    },
    facts: (v) => {
      const badBooks = new Set(records(v).filter(isBad).map((p) => String(p['book_id'])));
      return records(v)
        .filter((p) => !badBooks.has(String(p['book_id'])))
        .map(recordKey);
    },
    // Any published record's version may be applied, on time or not.
    sources: (v) => records(v).map(recordKey),
  };
}

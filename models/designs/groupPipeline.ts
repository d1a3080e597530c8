// A consumer group at work (seed 002, "Ordering, partitioning, and the hot-partition tax" and
// "Testing for the failures you cannot reproduce": rebalancing is where the bugs live): a
// producer whose reservation requests are committed with their intent to publish, a broker with
// several partitions, a group of consumers sharing them, and the inventory database the group
// writes reservations to. Each option is one line of the seeds:
// - `consumers`: how many members the group has; with two or more, a partition can move to
//   another member while a record of it is on its way (the `rebalance` fault).
// - `commits`: the broker accepts a previous owner's late commit (`naive`) or refuses it (`fenced`).
// - `inbox`: the consumed event_id kept in the same transaction as the reservation (`sameTx`),
//   in each member's memory (`localCache`), or nowhere (`none`).
// - `handler`: one atomic insert, or a lookup and then an insert (`checkThenInsert`).
// - `effectKey`: the reservation table's key is the reservation itself (`semantic`), or a
//   surrogate id with no unique key on the reservation (`none`).
import type { Claim } from '../../src/checkers/claims.ts';
import { design, given, type DesignBuild } from '../../src/scenario/design.ts';
import { parseOptions, z } from '../../src/scenario/options.ts';
import type { WorldView } from '../../src/kernel/worldView.ts';
import { broker, BrokerOptions, type Payload } from '../broker.ts';
import { consumerGroup, ConsumerGroupOptions, type ConsumerInput, type EffectSpec } from '../consumer.ts';
import { rowsOf, type DatabaseDurable } from '../database.ts';
import { publishedFacts, publisher, PublisherOptions, type PublisherDurable } from '../publisher.ts';
import { database } from './databaseComponent.ts';
import { changedTables, databaseOwn, partOptions, presetDatabase } from './partOptions.ts';
import { publishedView } from './tableViews.ts';
import { consumerNotes, handlerNotes } from './windowNotes.ts';

/** The names the pipeline gives its components (the group's members are `consumer1` … `consumerK`) and tables. */
export const GROUP_PIPELINE = {
  components: { publisher: 'publisher', broker: 'broker', consumer: 'consumer', inventoryDb: 'inventoryDb' },
  tables: { reservations: 'reservations', inbox: 'inbox' },
} as const;

export const GroupPipelineOptions = z.strictObject({
  consumers: z.number().int().min(1).max(16),
  partitions: z.number().int().min(1).max(64).optional(),
  commits: z.enum(['naive', 'fenced']).optional(),
  inbox: z.enum(['sameTx', 'localCache', 'none']),
  handler: z.enum(['atomic', 'checkThenInsert']).optional(),
  effectKey: z.enum(['semantic', 'none']),
  /** The members' other options: any option of consumerGroup but those above and its wiring. */
  consumer: partOptions('consumerGroup', ConsumerGroupOptions, { notes: true, broker: true, db: true, inboxDb: true, effect: true, consumers: true, inbox: true, handler: true }),
  publisher: partOptions('publisher', PublisherOptions, { name: true, notes: true, broker: true, records: true, keyField: true }),
  broker: partOptions('broker', BrokerOptions, { name: true, notes: true, partitions: true, commits: true }),
  inventoryDb: presetDatabase(GROUP_PIPELINE.components.inventoryDb),
});

export type GroupPipelineOptions = z.input<typeof GroupPipelineOptions>;

/** One reservation request per order: o-1, o-2, … each asking for reservation version 1. */
export function reservationRequests(size: number): Payload[] {
  return Array.from({ length: size }, (_, i) => ({ event_id: `evt-o-${i + 1}`, order_id: `o-${i + 1}`, reservation_version: 1 }));
}

const reservation: EffectSpec = {
  op: 'insert',
  table: 'reservations',
  columns: { order_id: 'order_id', reservation_version: 'reservation_version', state: { const: 'HELD' } },
};

export function groupPipeline(options: GroupPipelineOptions): DesignBuild {
  const o = parseOptions('groupPipeline', GroupPipelineOptions, options);
  const C = GROUP_PIPELINE.components;
  const T = GROUP_PIPELINE.tables;
  const member = {
    group: 'inventory',
    consumerName: 'inventory-reservation-v3',
    ...given(o.consumer ?? {}),
    db: C.inventoryDb,
    inbox: o.inbox,
    effect: reservation,
    ...(o.handler === undefined ? {} : { handler: o.handler }),
  };
  const input = { broker: C.broker, ...member } as ConsumerInput;
  const tables = {
    [T.reservations]: o.effectKey === 'semantic' ? { key: ['order_id', 'reservation_version'] } : { key: ['id'], autoId: true },
    [T.inbox]: { key: ['consumer_name', 'event_id'] },
  };
  return design(
    publisher({ ...given(o.publisher ?? {}), records: reservationRequests, keyField: 'order_id' }),
    broker({ ...given(o.broker ?? {}), partitions: o.partitions ?? 2, ...(o.commits === undefined ? {} : { commits: o.commits }) }),
    consumerGroup({ consumers: o.consumers, ...member, notes: { ...consumerNotes(input, o.effectKey === 'semantic'), ...handlerNotes(input) } }),
    database({
      name: C.inventoryDb,
      tables: changedTables('groupPipeline option inventoryDb', tables, o.inventoryDb?.tables),
      rows: { reservations: (r) => `${r['order_id']}/${r['reservation_version']}`, inbox: (r) => String(r['event_id']) },
      ...databaseOwn(o.inventoryDb),
    }),
  );
}

/** Seed 000's reservation claim, over the group's database: one reservation per requested order. */
export const groupReservationClaim: Claim = {
  effect: 'inventory reservation',
  key: ['order_id', 'reservation_version'],
  authority: "the inventory database: the reservation's unique key, or the inbox in the reservation's transaction",
  lifetime: 'the lifetime of the order',
  sameIntent: 'the stored reservation',
  // The facts are the producer's committed requests, read as its outbox of events.
  tables: {
    effect: { table: 'reservations', key: ['order_id', 'reservation_version'] },
    source: { table: 'reservation_requests', key: ['order_id', 'reservation_version'] },
    views: [publishedView('reservation_requests', { event_id: 'text', order_id: 'text', reservation_version: 'bigint' })],
  },
  outcomes: (v: WorldView) => rowsOf(v.durable<DatabaseDurable>(GROUP_PIPELINE.components.inventoryDb), GROUP_PIPELINE.tables.reservations).map((r) => ({ key: `${r['order_id']}|${r['reservation_version']}` })),
  facts: (v: WorldView) => publishedFacts(v.durable<PublisherDurable>(GROUP_PIPELINE.components.publisher)).map((p) => `${p['order_id']}|${p['reservation_version']}`),
};

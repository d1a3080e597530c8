// The Mercury order pipeline as a composition of the component machines: a client accepting
// orders, the order service and its database, an optional outbox relay, the broker, and the
// inventory consumer with its database. Each design option of the seeds is one field here, so a
// scenario file states a design in a few lines.
import type { Claim, TableView } from '../../src/checkers/claims.ts';
import { design, given, type DesignBuild } from '../../src/scenario/design.ts';
import { duration, parseOptions, z } from '../../src/scenario/options.ts';
import { broker, BrokerOptions, recordsOf, type BrokerDurable } from '../broker.ts';
import { client as clientComponent, ClientOptions, type ClientDurable, type ClientReplyRecord, type Command } from '../client.ts';
import { consumer, consumerGroup, ConsumerGroupOptions, type ConsumerInput, type EffectSpec } from '../consumer.ts';
import { rowsOf, versionsOf, type DatabaseDurable, type RowFormats } from '../database.ts';
import { cdcConnector } from '../cdcConnector.ts';
import { InputError } from '../../src/base/inputError.ts';
import { outboxCleaner, OutboxCleanerOptions } from '../outboxCleaner.ts';
import { relay, RelayOptions } from '../relay.ts';
import { source, SourceOptions } from '../source.ts';
import { changedTables, databaseOwn, partOptions, presetDatabase } from './partOptions.ts';
import { database } from './databaseComponent.ts';
import { historyView, pick, topicView } from './tableViews.ts';
import { agedOutNotes, cdcNotes, claimingRelayNotes, cleanerNotes, consumerNotes, relayNotes, sourceNotes } from './windowNotes.ts';

/**
 * The names the pipeline gives its components and tables, for claims and checks written against
 * it: `rowsOf(v.durable(ORDER_PIPELINE.components.inventoryDb), ORDER_PIPELINE.tables.reservations)`.
 * A consumer group of K members names them `consumer1` … `consumerK`; several relay workers,
 * `relay`, `relay2`, …
 */
export const ORDER_PIPELINE = {
  components: {
    client: 'client',
    source: 'source',
    ordersDb: 'ordersDb',
    relay: 'relay',
    connector: 'connector',
    cleaner: 'cleaner',
    broker: 'broker',
    consumer: 'consumer',
    inventoryDb: 'inventoryDb',
    inboxDb: 'inboxDb',
  },
  tables: { orders: 'orders', outbox: 'outbox', checkoutKeys: 'checkout_keys', reservations: 'reservations', orderStatus: 'order_status', inbox: 'inbox' },
} as const;

const C = ORDER_PIPELINE.components;
const T = ORDER_PIPELINE.tables;

/** The pipeline's options: each design option of the seeds is one field, and each part takes its own options; durations in their units. */
export const OrderPipelineOptions = z.strictObject({
  design: z.enum(['dualWriteCommitFirst', 'dualWritePublishFirst', 'outbox']),
  relay: RelayOptions.omit({ name: true, notes: true, db: true, broker: true, table: true })
    .partial()
    .extend({
      /** Relay workers polling the one outbox, named relay, relay2, …; more than one needs no coordination only with `claim: 'skipLocked'`. */
      workers: z.number().int().min(1).max(8).optional(),
      /** A polling publisher (`relay`, the default) or a change-data-capture connector (`connector`) tailing the outbox's commit log. */
      type: z.enum(['polling', 'cdc']).optional(),
      /** With `type: 'cdc'`: the connector's offset moves past a change after the broker's ack, or before the send. */
      offsetCommit: z.enum(['afterAck', 'beforeAck']).optional(),
    })
    .meta({ partOf: 'relay', description: 'Any option of relay but name, db, broker and table, which the preset sets; and workers, type and offsetCommit.' })
    .optional(),
  /** An outbox cleanup job (`cleaner`) deleting rows older than `retention`, only published ones unless `rows: 'all'`. */
  cleanup: OutboxCleanerOptions.omit({ name: true, notes: true, db: true, table: true })
    .partial()
    .extend({ retention: duration })
    .meta({ partOf: 'outboxCleaner', description: 'Any option of outboxCleaner but name, db and table, which the preset sets; retention is required.' })
    .optional(),
  /** The inventory consumer: any option of consumerGroup (`consumers: 2` draws a group of two, `inbox: 'localCache'` a process-local cache). */
  consumer: partOptions('consumerGroup', ConsumerGroupOptions, { notes: true, broker: true, db: true, inboxDb: true, effect: true }),
  /** The effect table's key: the semantic key (`(order_id, reservation_version)`) or a surrogate id. */
  effectKey: z.enum(['semantic', 'none']).optional(),
  /** The effect: a reservation row per order (insert) or an order-status projection (upsert). */
  effect: z.enum(['reservation', 'projection']).optional(),
  client: partOptions('client', ClientOptions, { name: true, notes: true, target: true, commands: true }),
  source: partOptions('source', SourceOptions, { name: true, notes: true, design: true, db: true, broker: true, aggregateTable: true, outboxTable: true, checkoutKeys: true }),
  checkoutKeys: z.union([z.boolean(), z.enum(['intentBound', 'honoured'])]).optional(),
  broker: partOptions('broker', BrokerOptions, { name: true, notes: true }),
  ordersDb: presetDatabase(C.ordersDb),
  inventoryDb: presetDatabase(C.inventoryDb),
  /** The servers that crash and restart at their own windows (none): as their `crashes` option. */
  crashes: z.array(z.enum(['ordersDb', 'inventoryDb', 'broker'])).optional(),
  /**
   * The servers a `restore` fault can set back to their snapshot (none): `broker`, its group
   * offsets to where they stood before the workload (the log kept, so the consumer reads it all
   * again); `inventoryDb`, its tables to the backup taken before the workload;
   * `inventoryDbWithOffsets`, both at once as one fault (the inventory database restorable with
   * the broker restored with it): the consumer's data and its input position as one snapshot.
   */
  restores: z.array(z.enum(['inventoryDb', 'broker', 'inventoryDbWithOffsets'])).optional(),
  /** The commands the client sends, given the workload size; one acceptance per order by default. */
  commands: z.custom<(size: number) => readonly Command[]>((v) => typeof v === 'function').optional(),
});

export type OrderPipelineOptions = z.input<typeof OrderPipelineOptions>;

/**
 * The eight failure-window drills of seed 000 ("Crash before source commit, after source commit,
 * after relay send, after broker acceptance, after relay progress, after consumer inbox insert,
 * after effect commit, and before transport progress"), as the outbox pipeline's windows.
 */
export const MERCURY_DRILLS = [
  'source.beforeSourceCommit',
  'source.afterSourceCommit',
  'relay.afterRelaySend',
  'relay.afterBrokerAccept',
  'relay.afterRelayProgress',
  'consumer.afterInboxInsert',
  'consumer.afterEffectCommit',
  'consumer.beforeTransportProgress',
] as const;

export function acceptOrders(size: number): Command[] {
  return Array.from({ length: size }, (_, i) => {
    const id = `o-${i + 1}`;
    return { intent: `accept ${id}`, aggregate_id: id, version: 1, status: 'ACCEPTED', event_type: 'OrderAccepted', data: { order_id: id, reservation_version: 1 } };
  });
}

/**
 * Per order, an acceptance (v1) and a re-acceptance (v2): two distinct facts, two event_ids,
 * both requesting reservation version 1 (seed 000's "two distinct events request the same
 * version").
 */
export function acceptTwice(size: number): Command[] {
  return Array.from({ length: size }, (_, i) => {
    const id = `o-${i + 1}`;
    const data = { order_id: id, reservation_version: 1 };
    return [
      { intent: `accept ${id}`, aggregate_id: id, version: 1, status: 'ACCEPTED', event_type: 'OrderAccepted', data },
      { intent: `re-accept ${id}`, aggregate_id: id, version: 2, status: 'ACCEPTED', event_type: 'OrderAccepted', data },
    ];
  }).flat();
}

/** One checkout attempt per unit of workload; the intent is the checkout key seed 003 names. */
export function checkouts(size: number): Command[] {
  return Array.from({ length: size }, (_, i) => ({
    intent: `customer-84/cart-19/attempt-${i + 1}`,
    aggregate_id: 'o',
    version: 1,
    status: 'ACCEPTED',
    event_type: 'OrderAccepted',
    data: { reservation_version: 1 },
  }));
}

/**
 * The checkouts, then one more attempt that reuses the first attempt's key for another cart:
 * a different intent under an existing key (a client bug, or a key derived too coarsely), which
 * seed 000 says must be refused as a conflict rather than answered with the first order.
 */
export function checkoutsReusingAKey(size: number): Command[] {
  const first = checkouts(size);
  return [...first, { ...first[0]!, intent: 'customer-84/cart-20/attempt-1', key: first[0]!.intent }];
}

/** Per order, its lifecycle as three versions: ACCEPTED (v1), PACKED (v2), DELIVERED (v3). */
export function orderLifecycle(size: number): Command[] {
  const steps = [
    ['ACCEPTED', 'OrderAccepted', 'accept'],
    ['PACKED', 'OrderPacked', 'pack'],
    ['DELIVERED', 'OrderDelivered', 'deliver'],
  ] as const;
  return Array.from({ length: size }, (_, i) => {
    const id = `o-${i + 1}`;
    return steps.map(([status, event_type, verb], v) => ({ intent: `${verb} ${id}`, aggregate_id: id, version: v + 1, status, event_type, data: { order_id: id, reservation_version: 1 } }));
  }).flat();
}

const reservationEffect: EffectSpec = {
  op: 'insert',
  table: 'reservations',
  columns: { order_id: 'aggregate_id', reservation_version: 'reservation_version', state: { const: 'HELD' } },
};

const projectionEffect: EffectSpec = {
  op: 'upsert',
  table: 'order_status',
  columns: { order_id: 'aggregate_id', status: 'status', version: 'aggregate_version' },
};

export function orderPipeline(options: OrderPipelineOptions): DesignBuild {
  const o = parseOptions('orderPipeline', OrderPipelineOptions, options);
  const effect = o.effect === 'projection' ? projectionEffect : reservationEffect;
  const together = o.restores?.includes('inventoryDbWithOffsets') ?? false;
  const server = (name: 'ordersDb' | 'inventoryDb' | 'broker', own: { readonly crashes?: boolean | undefined; readonly restorable?: boolean | undefined } | undefined) => ({
    ...(o.crashes?.includes(name) || own?.crashes ? { crashes: true } : {}),
    ...((name !== 'ordersDb' && (o.restores?.includes(name) || together)) || own?.restorable ? { restorable: true } : {}),
    ...(name === 'inventoryDb' && together ? { restoreWith: [C.broker] } : {}),
  });
  const { consumers = 1, ...consumerOwn } = o.consumer ?? {};
  const inbox = consumerOwn.inbox ?? 'sameTx';
  const effectTable = o.effect === 'projection' ? { key: ['order_id'], history: true } : o.effectKey === 'none' ? { key: ['id'], autoId: true } : { key: ['order_id', 'reservation_version'] };
  const consumerOptions = {
    group: 'inventory',
    consumerName: 'inventory-reservation-v3',
    versionCheck: false,
    ack: 'afterCommit',
    ...given(consumerOwn),
    db: C.inventoryDb,
    ...(inbox === 'separateTx' ? { inboxDb: C.inboxDb } : {}),
    inbox,
    effect,
  } as const;
  const ordersTables = { [T.orders]: { key: ['order_id'] }, [T.outbox]: { key: ['event_id'], ...(o.relay?.type === 'cdc' ? { history: true } : {}) }, [T.checkoutKeys]: { key: ['checkout_key'] } };
  const inventoryTables = { [effect.table]: effectTable, [T.inbox]: { key: ['consumer_name', 'event_id'] } };
  return design(
    clientComponent({ commands: o.commands ?? acceptOrders, ...o.client }),
    source({ ...given(o.source ?? {}), design: o.design, checkoutKeys: o.checkoutKeys ?? false, notes: sourceNotes(o.design, (o.client?.retry ?? 'none') !== 'none') }),
    // A CDC connector streams the outbox's commit log, which the database keeps as its history.
    database({ name: C.ordersDb, tables: changedTables('orderPipeline option ordersDb', ordersTables, o.ordersDb?.tables), rows: PIPELINE_ROWS, ...databaseOwn(o.ordersDb), ...server('ordersDb', o.ordersDb) }),
    o.design === 'outbox' && relayWorkers(o.relay ?? {}, o.cleanup?.rows === 'all'),
    o.design === 'outbox' && o.cleanup && outboxCleaner({ ...given(o.cleanup), retention: o.cleanup.retention, notes: cleanerNotes(o.cleanup.rows ?? 'published') }),
    broker({ ...given(o.broker ?? {}), ...server('broker', o.broker) }),
    consumers > 1
      ? consumerGroup({ ...consumerOptions, consumers, notes: consumerNotes({ broker: C.broker, ...consumerOptions } as ConsumerInput, o.effectKey !== 'none') })
      : consumer({ ...consumerOptions, notes: consumerNotes({ broker: C.broker, ...consumerOptions } as ConsumerInput, o.effectKey !== 'none') }),
    database({ name: C.inventoryDb, tables: changedTables('orderPipeline option inventoryDb', inventoryTables, o.inventoryDb?.tables), rows: PIPELINE_ROWS, ...databaseOwn(o.inventoryDb), ...server('inventoryDb', o.inventoryDb) }),
    inbox === 'separateTx' && database({ name: C.inboxDb, tables: { [T.inbox]: { key: ['consumer_name', 'event_id'] } }, rows: PIPELINE_ROWS }),
  );
}

/** The outbox's relay workers: `relay`, then `relay2`, `relay3`, … when there are several; or its CDC connector. */
function relayWorkers(options: NonNullable<OrderPipelineOptions['relay']>, cleanupByAge: boolean) {
  const { workers = 1, type = 'polling', offsetCommit, ...rest } = options;
  if (type === 'cdc') {
    const polling = (['mark', 'concurrency', 'claim', 'heads', 'batch'] as const).find((k) => rest[k] !== undefined) ?? (options.workers !== undefined ? 'workers' : undefined);
    if (polling !== undefined) throw new InputError(`orderPipeline: relay.${polling} is a polling publisher's option; a CDC connector takes offsetCommit, poll and restartAfter`);
    return [cdcConnector({ offsetCommit, poll: rest.poll, restartAfter: rest.restartAfter, notes: cdcNotes(offsetCommit ?? 'afterAck') })];
  }
  if (offsetCommit !== undefined) throw new InputError(`orderPipeline: relay.offsetCommit is a CDC connector's option; give relay.type 'cdc' with it`);
  const own = rest.claim === 'skipLocked' ? claimingRelayNotes() : relayNotes(rest.mark ?? 'afterSend');
  const notes = cleanupByAge ? agedOutNotes(own) : own;
  return Array.from({ length: workers }, (_, i) => relay({ ...rest, name: i === 0 ? 'relay' : `relay${i + 1}`, notes }));
}

const db = (view: { durable<T>(n: string): T }, name: string) => view.durable<DatabaseDurable>(name);

/**
 * The outbox's publication as an effect of its own: one record in the broker's log per outbox
 * row. Seed 004's idempotent producer is its authority; without it the claim cannot hold, since
 * a producer that got no ack appends the record again.
 */
export const publishedEventClaim: Claim = {
  effect: 'published order event',
  key: ['event_id'],
  authority: "the broker's idempotent producer, by event_id within the partition",
  lifetime: "the topic's retention",
  // The topic is read as the table its sink connector fills (order_events); the outbox is a table.
  tables: {
    effect: { table: 'order_events', key: ['event_id'] },
    source: { table: T.outbox, key: ['event_id'] },
    views: [topicView('order_events', { event_id: 'text', aggregate_id: 'text', event_type: 'text' })],
  },
  outcomes: (v) => recordsOf(v.durable<BrokerDurable>(C.broker)).map((r) => ({ key: String(r.payload['event_id']) })),
  facts: (v) => rowsOf(db(v, C.ordersDb), T.outbox).map((r) => String(r['event_id'])),
};

/** The seed's inventory reservation claim, observed in the pipeline's databases. */
export const reservationClaim: Claim = {
  effect: 'inventory reservation',
  key: ['order_id', 'reservation_version'],
  authority: "the inventory database's unique constraint",
  lifetime: 'the lifetime of the order plus its audit horizon',
  sameIntent: 'the stored reservation state',
  differentIntent: 'conflicts and does not change the existing reservation',
  tables: {
    effect: { table: T.reservations, key: ['order_id', 'reservation_version'] },
    source: { table: T.orders, key: ['order_id', '1'], where: "$status = 'ACCEPTED'" },
  },
  outcomes: (v) => rowsOf(db(v, C.inventoryDb), T.reservations).map((r) => ({ key: `${r['order_id']}|${r['reservation_version']}` })),
  facts: (v) =>
    rowsOf(db(v, C.ordersDb), T.orders)
      .filter((r) => r['status'] === 'ACCEPTED')
      .map((r) => `${r['order_id']}|1`),
};

/**
 * The reservation claim when several commands may request one reservation (a re-acceptance that
 * carries the same `reservation_version`, so two distinct events ask for one effect): each
 * committed acceptance in the outbox is a fact naming the reservation it requests, instead of
 * reservation version 1 per accepted order. For the outbox design only.
 */
export const requestedReservationClaim: Claim = {
  ...reservationClaim,
  tables: { effect: reservationClaim.tables!.effect, source: { table: T.outbox, key: ['aggregate_id', 'reservation_version'], where: "$event_type = 'OrderAccepted'" } },
  facts: (v) => [
    ...new Set(
      rowsOf(db(v, C.ordersDb), T.outbox)
        .filter((r) => r['event_type'] === 'OrderAccepted')
        .map((r) => `${r['aggregate_id']}|${r['reservation_version']}`),
    ),
  ],
};

const client = (v: { durable<T>(n: string): T }) => v.durable<ClientDurable>(C.client);

/**
 * What the checkout client sent and what it was told, as the request log of the checkout API a
 * team would query (an access log loaded into a table): one row per attempt sent
 * (`checkout_requests`) and one per reply, in the order they came (`checkout_replies`).
 */
const REPLY_COLUMNS = { seq: 'bigint', intent: 'text', checkout_key: 'text', ok: 'boolean', outcome: 'text', replayed: 'boolean' } as const;
const CHECKOUT_VIEWS: readonly TableView[] = [
  { table: 'checkout_requests', columns: { intent: 'text' }, rows: (v) => client(v).attempted.map((intent) => ({ intent })) },
  { table: 'checkout_replies', columns: REPLY_COLUMNS, rows: (v) => client(v).replies.map((r, i) => pick({ ...r, seq: i + 1, checkout_key: r.key }, REPLY_COLUMNS)) },
];

/** The last reply an attempt got, as SQL over a row naming its `$intent`. */
const lastReply = (column: string) => `(SELECT r.${column} FROM checkout_replies r WHERE r.intent = $intent ORDER BY r.seq DESC LIMIT 1)`;

/** The last reply the client got for each intent, by intent. */
function lastReplies(v: { durable<T>(n: string): T }): Map<string, ClientReplyRecord> {
  const last = new Map<string, ClientReplyRecord>();
  for (const r of client(v).replies) last.set(r.intent, r);
  return last;
}

/**
 * Seed 003's sentence: for one checkout key, the order database contains one committed order.
 * Outcomes are the orders grouped by the checkout attempt (the intent) they were created for;
 * replies are what the client was told, so a retry must get the recorded order back. Every
 * attempt the client was told succeeded must have its order (liveness); an order may answer to
 * any attempt the client made (phantom); an attempt whose order committed while the client's
 * last answer was a failure is an unknown completion the retries never resolved; and an attempt
 * that reused another intent's key must be refused, not answered with that intent's order.
 */
export const checkoutClaim: Claim = {
  effect: 'order per checkout attempt',
  key: ['checkout_key'],
  namespace: 'customer checkouts',
  authority: "the order database's unique constraint on checkout_keys, in the order's transaction",
  lifetime: 'as long as the key is retained',
  sameIntent: 'the recorded order',
  differentIntent: 'is refused as a conflict, not answered with the recorded order',
  unknownCompletion: 'the client retrying with the same key, which returns the recorded order',
  tables: {
    effect: { table: T.orders, key: ['intent'] },
    source: { table: 'checkout_replies', key: ['intent'], where: '$ok' },
    causes: { table: 'checkout_requests', key: ['intent'] },
    // An attempt told two different orders.
    replays: { table: 'checkout_replies', key: ['intent'], where: '$ok AND EXISTS (SELECT 1 FROM checkout_replies o WHERE o.intent = $intent AND o.ok AND o.outcome <> $outcome)' },
    // An attempt answered with the order of another intent its key is bound to.
    conflicts: {
      table: 'checkout_replies',
      key: ['checkout_key', 'intent'],
      where: "$ok AND $outcome <> 'conflict' AND EXISTS (SELECT 1 FROM checkout_keys k WHERE k.checkout_key = $checkout_key AND k.intent <> $intent)",
      format: '{0} ({1})',
    },
    // An attempt whose order committed while the last thing the client heard was a failure.
    unresolved: [
      {
        table: 'checkout_requests',
        key: ['intent', `coalesce(${lastReply('outcome')}, 'nothing')`],
        where: `EXISTS (SELECT 1 FROM orders o WHERE o.intent = $intent) AND coalesce(${lastReply('ok')}, false) = false`,
        format: '{0} (order committed, client last told {1})',
      },
    ],
    views: CHECKOUT_VIEWS,
  },
  outcomes: (v) => rowsOf(db(v, C.ordersDb), T.orders).map((r) => ({ key: String(r['intent']), intent: String(r['intent']) })),
  facts: (v) => [...new Set(client(v).replies.filter((r) => r.ok).map((r) => r.intent))],
  sources: (v) => [...client(v).attempted],
  replies: (v) => client(v).replies.map((r) => ({ intent: r.intent, outcome: r.outcome, ok: r.ok })),
  unresolved: (v) => {
    const ordered = new Set(rowsOf(db(v, C.ordersDb), T.orders).map((r) => String(r['intent'])));
    const last = lastReplies(v);
    return client(v).attempted.filter((i) => ordered.has(i) && last.get(i)?.ok !== true).map((i) => `${i} (order committed, client last told ${last.get(i)?.outcome ?? 'nothing'})`);
  },
  conflicts: (v) => {
    // A reply is a different-intent attempt when the key it carried is bound, in the order
    // database, to another intent: the authority's binding, not the order the client sent things
    // in (a key whose first attempt never committed is free, and the next intent may take it).
    const bound = new Map(rowsOf(db(v, C.ordersDb), T.checkoutKeys).map((r) => [String(r['checkout_key']), String(r['intent'])]));
    return client(v)
      .replies.filter((r) => r.key !== null && bound.has(r.key) && bound.get(r.key) !== r.intent && (r.ok || r.outcome === 'conflict'))
      .map((r) => ({ key: `${r.key} (${r.intent})`, refused: r.outcome === 'conflict' }));
  },
};

/** Per-aggregate ordering: the order-status projection must never move backwards. */
export const projectionClaim: Claim = {
  effect: 'order status projection',
  key: ['order_id'],
  authority: 'the projection row and its version check',
  lifetime: 'the lifetime of the order',
  sameIntent: 'the stored status',
  guarantee: 'atLeastOnce',
  // Where the row stands shows no regression that was later overtaken: its audit history does.
  tables: {
    effect: { table: T.orderStatus, key: ['order_id'] },
    source: { table: T.orders, key: ['order_id'] },
    history: { table: 'order_status_history', key: ['order_id'], version: 'version', order: 'seq' },
    views: [historyView('order_status_history', C.inventoryDb, T.orderStatus, { order_id: 'text', status: 'text', version: 'bigint' })],
  },
  outcomes: (v) => rowsOf(db(v, C.inventoryDb), T.orderStatus).map((r) => ({ key: String(r['order_id']) })),
  facts: (v) => rowsOf(db(v, C.ordersDb), T.orders).map((r) => String(r['order_id'])),
  versions: (v) => versionsOf(db(v, C.inventoryDb), T.orderStatus, 'order_id'),
};

/** How the pipeline's tables read in evidence. */
export const PIPELINE_ROWS: RowFormats = {
  outbox: (r) => `${r['event_id']}${r['published'] ? ' (published)' : ' (pending)'}`,
  inbox: (r) => String(r['event_id']),
  orders: (r) => `${r['order_id']} ${r['status']} v${r['version']}`,
  reservations: (r) => `${r['order_id']}/${r['reservation_version']}`,
  order_status: (r) => `${r['order_id']} ${r['status']} v${r['version']}`,
};

// Orders to shipments to a carrier pickup, in twelve components. The orders service commits each
// order with an outbox row; two relay workers claim pending rows FOR UPDATE SKIP LOCKED and
// publish them; a consumer group of two records each order's shipment, the inbox row and the
// shipment row in one transaction; and the shipping service commits a pickup row, then books the
// pickup with the carrier under the order's key, which the carrier keeps 24 hours, retrying with
// backoff for up to two days. The carrier can be down for 30 hours after a crash.
import { compose, defineScenario, type Claim, type WorldView } from 'faultline';
import { broker } from 'faultline/models/broker.js';
import { client } from 'faultline/models/client.js';
import { commitThenCall, commitThenCallTable } from 'faultline/models/commitThenCall.js';
import { consumerGroup } from 'faultline/models/consumer.js';
import { rowsOf, type DatabaseDurable } from 'faultline/models/database.js';
import { database } from 'faultline/models/designs/databaseComponent.js';
import { acceptOrders } from 'faultline/models/designs/orderPipeline.js';
import { operationsOf, provider, type ProviderDurable } from 'faultline/models/provider.js';
import { relay } from 'faultline/models/relay.js';
import { source } from 'faultline/models/source.js';

/** Every order the orders service accepted: each must get one shipment row and one carrier pickup. */
const accepted = (v: WorldView) =>
  rowsOf(v.durable<DatabaseDurable>('ordersDb'), 'orders')
    .filter((r) => r['status'] === 'ACCEPTED')
    .map((r) => String(r['order_id']));

const shipmentClaim: Claim = {
  effect: 'shipment row',
  key: ['order_id'],
  authority: "the shipments table's primary key, with the inbox row in the same transaction",
  lifetime: 'the lifetime of the order',
  tables: {
    effect: { table: 'shipments', key: ['order_id'] },
    source: { table: 'orders', key: ['order_id'], where: "$status = 'ACCEPTED'" },
  },
  outcomes: (v) => rowsOf(v.durable<DatabaseDurable>('shipmentsDb'), 'shipments').map((r) => ({ key: String(r['order_id']) })),
  facts: accepted,
};

const pickupClaim: Claim = {
  effect: 'carrier pickup',
  key: ['order_id'],
  authority: "the carrier's idempotency key, the order id, kept 24 hours",
  lifetime: 'the lifetime of the order',
  unknownCompletion: 'a status lookup by key before each retry, retried with backoff for up to two days',
  tables: {
    effect: { table: 'carrier_pickups', key: ['idempotency_key'] },
    source: { table: 'orders', key: ['order_id'], where: "$status = 'ACCEPTED'" },
    views: [
      {
        table: 'carrier_pickups',
        columns: { op_id: 'text', idempotency_key: 'text' },
        rows: (v) => operationsOf(v.durable<ProviderDurable>('carrier')).map((op) => ({ op_id: op.op_id, idempotency_key: op.key })),
      },
    ],
  },
  // The shipping service sends the order id as the key, so each booking names its order.
  outcomes: (v) => operationsOf(v.durable<ProviderDurable>('carrier')).map((op) => ({ key: String(op.key), intent: op.intent })),
  facts: accepted,
  // A pickup row the service gave up on, or never settled, is an outcome nobody knows.
  unresolved: (v) =>
    rowsOf(v.durable<DatabaseDurable>('shippingDb'), 'pickups')
      .filter((r) => r['status'] !== 'SUCCEEDED')
      .map((r) => `${String(r['order_id'])} (${String(r['status'])})`),
};

export default defineScenario({
  name: 'orders-shipping',
  title: 'Orders, two SKIP LOCKED relays, a shipment group and a carrier booked under a 24-hour key, retried for two days',
  source: 'design review',
  lesson: 'A key the carrier forgets after 24 hours does not cover a retry schedule of two days: once an outage outlasts the key, the carrier no longer knows the first booking, and the next retry books a second pickup.',
  tick: '1m',
  build: compose(
    client({ commands: acceptOrders }),
    source({ design: 'outbox' }),
    database({ name: 'ordersDb', tables: { orders: { key: ['order_id'] }, outbox: { key: ['event_id'] } } }),
    relay({ claim: 'skipLocked' }),
    relay({ name: 'relay2', claim: 'skipLocked' }),
    broker({ partitions: 2 }),
    consumerGroup({
      name: 'shipments',
      consumers: 2,
      group: 'shipments',
      db: 'shipmentsDb',
      inbox: 'sameTx',
      effect: { op: 'insert', table: 'shipments', columns: { order_id: 'order_id', status: { const: 'TO_BOOK' } } },
    }),
    database({ name: 'shipmentsDb', tables: { shipments: { key: ['order_id'] }, inbox: { key: ['consumer_name', 'event_id'] } } }),
    commitThenCall({
      name: 'shipping',
      group: 'shipping',
      db: 'shippingDb',
      table: 'pickups',
      provider: 'carrier',
      effectKey: ['order_id'],
      sendKey: true,
      statusLookup: true,
      existingRow: 'resume',
      retry: { backoff: '1m', factor: 2, cap: '6h', until: '2d' },
    }),
    database({ name: 'shippingDb', tables: { pickups: commitThenCallTable(['order_id']) } }),
    provider({ name: 'carrier', idempotency: 'intentBound', statusLookup: 'byKey', keyRetention: '24h', restartAfter: '30h' }),
  ),
  workload: { size: 2 },
  // Long enough for the carrier's outage and the whole retry schedule to play out.
  world: { safetyPhase: '3d', livenessPhase: '3d' },
  claims: [shipmentClaim, pickupClaim],
  expect: { verdict: 'violated', violations: ['duplicate effect'], claims: ['carrier pickup'] },
});

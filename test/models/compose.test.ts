// compose(), the public way to draw a design: parts and lists of parts in, the flat components
// out, typed without casts, and the drawing checked before any run. Every name a component sends
// to, every table it writes and every payload field it keys on must exist, each refusal one line
// naming the nearest valid name.
import { describe, expect, it } from 'vitest';
import { compose, type Part } from 'faultline';
import { SECONDS } from '../../src/base/duration.ts';
import { broker } from '../../models/broker.ts';
import { caller, CALLER_TABLES } from '../../models/caller.ts';
import { consumer, consumerGroup } from '../../models/consumer.ts';
import { database, databaseComponent } from '../../models/designs/databaseComponent.ts';
import { provider } from '../../models/provider.ts';
import { publisher } from '../../models/publisher.ts';
import { source } from '../../models/source.ts';
import { relay } from '../../models/relay.ts';
import { cdcConnector } from '../../models/cdcConnector.ts';
import { commitThenCall } from '../../models/commitThenCall.ts';

const shipments = (size: number) => Array.from({ length: size }, (_, i) => ({ event_id: `evt-${i + 1}`, order_id: `o-${i + 1}`, shipment_id: `s-${i + 1}` }));
const ship = { op: 'insert', table: 'shipments', columns: { order_id: 'order_id', shipment_id: 'shipment_id' } } as const;

/** The parts of a design: a publisher, a broker, a consumer group of two and its database; `over` replaces the group. */
function parts(over: { group?: Part; db?: Part } = {}): Part[] {
  return [
    publisher({ records: shipments, keyField: 'order_id' }),
    broker({ partitions: 2 }),
    over.group ?? consumerGroup({ consumers: 2, group: 'shipping', db: 'shipmentDb', inbox: 'sameTx', effect: ship }),
    over.db ?? database({ name: 'shipmentDb', tables: { shipments: { key: ['order_id'] }, inbox: { key: ['consumer_name', 'event_id'] } } }),
  ];
}

const build = (...p: Part[]) => compose(...p)({ size: 2 }, SECONDS);

describe('compose()', () => {
  it('takes factories, lists of them (a consumer group’s members), components drawn by hand and parts left out', () => {
    const components = build(...parts(), false, undefined, [null, [() => databaseComponent('auditDb', { audit: { key: ['id'] } })]]);
    expect(components.map((c) => c.name)).toEqual(['publisher', 'broker', 'consumer1', 'consumer2', 'shipmentDb', 'auditDb']);
  });

  it('types a database drawn with the caller’s own tables', () => {
    // `tables: CALLER_TABLES` once failed to type-check (readonly key lists); tsc over this file says it does now.
    const components = build(database({ name: 'callerDb', tables: CALLER_TABLES }));
    expect(components[0]!.tables).toEqual(['effect_intents', 'effect_outcomes']);
  });

  it.each<[string, () => unknown, string]>([
    [
      'a consumer whose db names a component the design does not have',
      () => build(...parts({ db: database({ name: 'shipmentsDb', tables: { shipments: { key: ['order_id'] } } }) })),
      'consumer1 talks to shipmentDb, which the design does not have (did you mean shipmentsDb?); components: publisher, broker, consumer1, consumer2, shipmentsDb',
    ],
    [
      'a consumer writing a table its database does not hold',
      () => build(...parts({ group: consumer({ group: 'shipping', db: 'shipmentDb', inbox: 'none', effect: { ...ship, table: 'shipment' } }) })),
      'consumer: effect table: shipmentDb has no table shipment (did you mean shipments?); its tables: shipments, inbox',
    ],
    [
      'an inbox in a database that has no inbox table',
      () => build(...parts({ db: database({ name: 'shipmentDb', tables: { shipments: { key: ['order_id'] } } }) })),
      'consumer1: inbox table: shipmentDb has no table inbox; its tables: shipments',
    ],
    [
      'an effect column read from a field no published record carries',
      () => build(...parts({ group: consumer({ group: 'shipping', db: 'shipmentDb', inbox: 'none', effect: { ...ship, columns: { order_id: 'orderId' } } }) })),
      'consumer: effect column field orderId is a field of no record published to broker (did you mean order_id?); fields: event_id, order_id, shipment_id',
    ],
    [
      'a caller keyed on a field no published record carries, whose database lacks its tables',
      () =>
        build(
          ...parts({ group: caller({ group: 'shipping', db: 'shipmentDb', effectKey: ['order_id', 'shipmentid'], sendKey: true, statusLookup: true, recordIntent: true }) }),
          provider({ idempotency: 'honoured', statusLookup: 'byKey' }),
        ),
      'caller: shipmentDb has no table effect_intents; its tables: shipments, inbox; caller: shipmentDb has no table effect_outcomes; its tables: shipments, inbox; caller: effectKey field shipmentid is a field of no record published to broker (did you mean shipment_id?)',
    ],
    [
      'an order service and a relay whose database holds no outbox, and a commitThenCall whose database lacks its row table',
      () =>
        build(
          source({ design: 'outbox' }),
          database({ name: 'ordersDb', tables: { orders: { key: ['order_id'] } } }),
          relay(),
          broker(),
          commitThenCall({ group: 'g', db: 'ordersDb', table: 'pickups', effectKey: ['order_id'], sendKey: true, statusLookup: false, existingRow: 'skip' }),
          provider({ idempotency: 'honoured', statusLookup: 'none' }),
        ),
      'source: outbox table: ordersDb has no table outbox; its tables: orders; relay: outbox table: ordersDb has no table outbox; its tables: orders; service: row table: ordersDb has no table pickups; its tables: orders',
    ],
    [
      'a change-data-capture connector streaming a table that keeps no log of its changes, and one streaming a table its database lacks',
      () =>
        build(
          source({ design: 'outbox' }),
          database({ name: 'ordersDb', tables: { orders: { key: ['order_id'] }, outbox: { key: ['event_id'] } } }),
          cdcConnector(),
          cdcConnector({ name: 'connector2', table: 'outbx' }),
          broker(),
        ),
      'connector: streamed table: ordersDb.outbox keeps no history, so it has no log of changes to stream: declare it with history: true; connector2: streamed table: ordersDb has no table outbx (did you mean outbox?); its tables: orders, outbox',
    ],
    ['two components of one name', () => build(broker(), broker()), 'the design has two components named broker'],
    [
      'a member drawn by hand whose group membership is not one, and one that names a broker the design does not have',
      () =>
        build(
          ...parts({
            group: [
              (ctx) => ({ ...([consumer({ name: 'm1', group: 'shipping', db: 'shipmentDb', inbox: 'sameTx', effect: ship })(ctx)].flat()[0]!), subscribes: 'broker' as never }),
              (ctx) => ({ ...([consumer({ name: 'm2', group: 'shipping', db: 'shipmentDb', inbox: 'sameTx', effect: ship })(ctx)].flat()[0]!), subscribes: [{ from: 'brokr', group: 'shipping', type: 'broker.deliver' }] }),
            ],
          }),
        ),
      `m1's subscribes is "broker", not a membership: give { from: <broker>, group: <group>, type: 'broker.deliver' } (groupMember(broker, group)), or a list of them; m2 says it joins a group at brokr, which the design does not have (did you mean broker?); components: publisher, broker, m1, m2, shipmentDb`,
    ],
  ])('refuses %s, before any run', (_, drawing, message) => {
    expect(drawing).toThrow(message);
  });
});

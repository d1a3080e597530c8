// Designs as a user draws them: every option of every component factory and preset is checked
// when the design is drawn, durations come to whole ticks of the scenario's time scale, and a
// drawing that names a component the design does not have is refused before any run.
import { describe, expect, it } from 'vitest';
import { design } from '../../src/design.ts';
import { SECONDS, TimeScale } from '../../src/duration.ts';
import { broker } from '../../models/broker.ts';
import { consumer } from '../../models/consumer.ts';
import { relay } from '../../models/relay.ts';
import { source } from '../../models/source.ts';
import { client } from '../../models/client.ts';
import { database } from '../../models/designs/databaseComponent.ts';
import { orderPipeline, acceptOrders } from '../../models/designs/orderPipeline.ts';
import { partnerFeed } from '../../models/designs/partnerFeed.ts';
import { providerPipeline } from '../../models/designs/providerPipeline.ts';

describe('preset options', () => {
  it.each<[() => unknown, string]>([
    [() => orderPipeline({ design: 'outbox', relay: { mark: 'beforeSnd' as never } }), 'orderPipeline option relay.mark has no value "beforeSnd" (did you mean beforeSend?)'],
    [() => orderPipeline({ design: 'telepathy' as never }), 'orderPipeline option design has no value "telepathy"'],
    [() => orderPipeline({ design: 'outbox', consumr: {} } as never), 'orderPipeline has no option consumr (did you mean consumer?)'],
    [() => orderPipeline({ design: 'outbox', broker: { redelivery: 30 as never } }), "orderPipeline option broker.redelivery must be a duration with its unit, such as '250ms', '30s', '15m', '24h', '7d' or '3 ticks', got 30"],
    [() => partnerFeed({ redeliverAfter: '30 days' }), "partnerFeed option redeliverAfter: a duration with its unit"],
    [
      () => providerPipeline({ records: () => [], keyField: 'k', group: 'g', caller: { effectKey: ['k'], sendKey: true, statusLookup: true, recordIntent: true }, provider: { idempotency: 'intentbound' as never, statusLookup: 'byKey' } }),
      'providerPipeline option provider.idempotency has no value "intentbound" (did you mean intentBound?)',
    ],
  ])('refuses a typo with the nearest valid value: %#', (draw, message) => {
    expect(draw).toThrow(message);
  });
});

describe('component factories', () => {
  it('turn durations into ticks of the scenario’s tick, or refuse what does not divide', () => {
    const [c] = [relay({ poll: '30s', timeout: '2m', restartAfter: '1h' })({ size: 1, time: SECONDS })].flat();
    expect(c!.input).toMatchObject({ pollTicks: 30, timeoutTicks: 120 });
    expect(c!.restartDelayTicks).toBe(3600);
    const hours = new TimeScale('1h');
    expect(() => relay({ poll: '30s' })({ size: 1, time: hours })).toThrow('relay option poll is 30s, which is not a whole number of ticks of 1 h');
    const [b] = [broker({ retention: '7d', redelivery: '1h' })({ size: 1, time: hours })].flat();
    expect(b!.input).toMatchObject({ retentionTicks: 168, redeliveryTicks: 1 });
  });

  it('leaves a machine its own defaults for options the design does not give', () => {
    const [c] = [relay()({ size: 1, time: SECONDS })].flat();
    expect(c!.input).toEqual({ db: 'ordersDb', broker: 'broker' });
  });

  it('refuse an unknown option of any component', () => {
    expect(() => broker({ partitons: 2 } as never)).toThrow('broker has no option partitons (did you mean partitions?)');
    expect(() => database({ name: 'db', tables: { t: { key: ['id'], tll: '7d' } } } as never)).toThrow('database option tables.t has no option tll (did you mean ttl?)');
  });
});

describe('design()', () => {
  const drawn = (relayDb: string) =>
    design(
      client({ commands: acceptOrders }),
      source({ design: 'outbox' }),
      database({ name: 'ordersDb', tables: { orders: { key: ['order_id'] }, outbox: { key: ['event_id'] } } }),
      relay({ name: 'relay1', db: relayDb }),
      relay({ name: 'relay2' }),
      broker({ partitions: 2 }),
      consumer({ group: 'inventory', db: 'inventoryDb', inbox: 'sameTx', effect: { op: 'insert', table: 'reservations', columns: { order_id: 'aggregate_id' } } }),
      database({ name: 'inventoryDb', tables: { reservations: { key: ['order_id'] }, inbox: { key: ['consumer_name', 'event_id'] } } }),
    );

  it('composes a design no preset covers: two relay workers over two partitions', () => {
    const components = drawn('ordersDb')({ size: 2 }, SECONDS);
    expect(components.map((c) => c.name)).toEqual(['client', 'source', 'ordersDb', 'relay1', 'relay2', 'broker', 'consumer', 'inventoryDb']);
  });

  it('refuses a peer the design does not have, naming the nearest one', () => {
    expect(() => drawn('orderDb')({ size: 2 }, SECONDS)).toThrow('relay1 talks to orderDb, which the design does not have (did you mean ordersDb?)');
  });

  it('refuses two components of the same name', () => {
    expect(() => design(broker(), broker())({ size: 1 }, SECONDS)).toThrow('the design has two components named broker');
  });
});

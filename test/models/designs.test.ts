// Designs as a user draws them: every option of every component factory and preset is checked
// when the design is drawn, durations come to whole ticks of the scenario's time scale, and a
// drawing that names a component the design does not have is refused before any run.
import { groupMember } from '../../models/subscription.ts';
import { describe, expect, it } from 'vitest';
import { design } from '../../src/scenario/design.ts';
import { SECONDS, TimeScale } from '../../src/base/duration.ts';
import { broker } from '../../models/broker.ts';
import { consumer } from '../../models/consumer.ts';
import { relay } from '../../models/relay.ts';
import { source } from '../../models/source.ts';
import { client } from '../../models/client.ts';
import { database } from '../../models/designs/databaseComponent.ts';
import { orderPipeline, acceptOrders, ORDER_PIPELINE } from '../../models/designs/orderPipeline.ts';
import { partnerFeed, PARTNER_FEED } from '../../models/designs/partnerFeed.ts';
import { providerPipeline, PROVIDER_PIPELINE, type ProviderPipelineOptions } from '../../models/designs/providerPipeline.ts';
import { groupPipeline } from '../../models/designs/groupPipeline.ts';
import { giftSaga, GIFT_SAGA } from '../../models/designs/giftSaga.ts';
import { pickupRequests } from '../../models/designs/carrier.ts';
import type { DesignComponent } from '../../src/scenario/scenario.ts';

/** A carrier-like provider pipeline with some of its parts' own options. */
const carrierLike = (more: Partial<ProviderPipelineOptions>) =>
  providerPipeline({ records: pickupRequests, keyField: 'order_id', group: 'fulfillment', caller: { effectKey: ['order_id'], sendKey: true, statusLookup: true, recordIntent: true }, provider: { idempotency: 'honoured', statusLookup: 'byKey' }, ...more })({ size: 2 }, SECONDS);

describe('preset options', () => {
  it.each<[() => unknown, string]>([
    [() => orderPipeline({ design: 'outbox', relay: { mark: 'beforeSnd' as never } }), 'orderPipeline option relay.mark has no value "beforeSnd" (did you mean beforeSend?)'],
    [() => orderPipeline({ design: 'telepathy' as never }), 'orderPipeline option design has no value "telepathy"'],
    [() => orderPipeline({ design: 'outbox', consumr: {} } as never), 'orderPipeline has no option consumr (did you mean consumer?)'],
    [() => orderPipeline({ design: 'outbox', broker: { redelivery: 30 as never } }), "orderPipeline option broker.redelivery must be a duration with its unit, such as '250ms', '30s', '15m', '24h', '7d' or '3 ticks', or \"never\", got 30"],
    [() => partnerFeed({ redeliverAfter: '30 days' }), "partnerFeed option redeliverAfter: a duration with its unit"],
    [
      () => providerPipeline({ records: () => [], keyField: 'k', group: 'g', caller: { effectKey: ['k'], sendKey: true, statusLookup: true, recordIntent: true }, provider: { idempotency: 'intentbound' as never, statusLookup: 'byKey' } }),
      'providerPipeline option provider.idempotency has no value "intentbound" (did you mean intentBound?)',
    ],
  ])('refuses a typo with the nearest valid value: %#', (draw, message) => {
    expect(draw).toThrow(message);
  });
});

describe('a preset takes every option of the parts it is made of', () => {
  const built = (o: Parameters<typeof orderPipeline>[0]) => orderPipeline(o)({ size: 2 }, SECONDS);

  it('draws a consumer group with a process-local cache and an inbox that forgets, without rebuilding the pipeline', () => {
    const components = built({ design: 'outbox', consumer: { consumers: 2, inbox: 'localCache', timeout: '5s' }, inventoryDb: { tables: { inbox: { ttl: '7d' } }, crashes: true } });
    const members = components.filter((c) => c.name.startsWith('consumer'));
    expect(members.map((c) => c.name)).toEqual(['consumer1', 'consumer2']);
    expect(members[0]!.input).toMatchObject({ group: 'inventory', inbox: 'localCache', db: 'inventoryDb', timeoutTicks: 5 });
    expect(members.map((c) => c.subscribes)).toEqual([groupMember('broker', 'inventory'), groupMember('broker', 'inventory')]);
    const inventory = components.find((c) => c.name === ORDER_PIPELINE.components.inventoryDb)!;
    expect(inventory.crashes).toBe(true);
    expect((inventory.input as { tables: Record<string, unknown> }).tables[ORDER_PIPELINE.tables.inbox]).toEqual({ key: ['consumer_name', 'event_id'], ttlTicks: 604_800 });
  });

  it('passes a part’s own options through: a relay’s timeout, a client’s gap, the source’s restart delay, the broker’s commits', () => {
    const components = built({ design: 'outbox', relay: { timeout: '30s' }, client: { gap: '2s' }, source: { restartAfter: '1m' }, broker: { commits: 'fenced' } });
    const of = (name: string) => components.find((c) => c.name === name)!;
    expect(of('relay').input).toMatchObject({ timeoutTicks: 30 });
    expect(of('client').input).toMatchObject({ gapTicks: 2 });
    expect(of('source').restartDelayTicks).toBe(60);
    expect(of('broker').input).toMatchObject({ commits: 'fenced' });
  });

  it('names its components and tables as constants, the ones it draws', () => {
    const components = built({ design: 'outbox', effect: 'reservation' });
    const names = components.map((c) => c.name);
    for (const n of ['client', 'source', 'ordersDb', 'relay', 'broker', 'consumer', 'inventoryDb'] as const) expect(names).toContain(ORDER_PIPELINE.components[n]);
    const tables = components.flatMap((c) => c.tables ?? []);
    for (const t of ['orders', 'outbox', 'checkoutKeys', 'reservations', 'inbox'] as const) expect(tables).toContain(ORDER_PIPELINE.tables[t]);
  });

  it.each<[string, () => readonly DesignComponent[], string, Record<string, unknown>]>([
    ['groupPipeline', () => groupPipeline({ consumers: 2, inbox: 'sameTx', effectKey: 'semantic', consumer: { ack: 'beforeCommit' }, broker: { redelivery: '1m' } })({ size: 2 }, SECONDS), 'consumer2', { ack: 'beforeCommit' }],
    ['partnerFeed', () => partnerFeed({ redeliverAfter: '1h', consumer: { inbox: 'localCache' }, partner: { timeout: '7s' } })({ size: 2 }, SECONDS), 'consumer', { inbox: 'localCache', db: PARTNER_FEED.components.loyaltyDb }],
    [
      'providerPipeline',
      () => carrierLike({ callerDb: { tables: { effect_outcomes: { ttl: '1d' } } }, publisher: { delivery: 'atMostOnce' } }),
      PROVIDER_PIPELINE.components.callerDb,
      { tables: { effect_intents: { key: ['key', 'intent'] }, effect_outcomes: { key: ['key', 'intent'], ttlTicks: 86_400 } } },
    ],
    ['giftSaga', () => giftSaga({ emailStep: 'last', orchestrator: { timeout: '9s' } })({ size: 2 }, SECONDS), GIFT_SAGA.components.orchestrator, { timeoutTicks: 9 }],
  ])('%s passes a part’s own option through', (_, built, component, input) => {
    expect(built().find((c) => c.name === component)!.input).toMatchObject(input);
  });

  it.each<[Parameters<typeof orderPipeline>[0], string]>([
    [{ design: 'outbox', consumer: { timout: '5s' } as never }, 'orderPipeline option consumer has no option timout (did you mean timeout?)'],
    [{ design: 'outbox', consumer: { db: 'elsewhere' } as never }, 'orderPipeline option consumer has no option db'],
    [{ design: 'outbox', inventoryDb: { tables: { inbx: { ttl: '7d' } } } }, 'orderPipeline option inventoryDb: the preset declares no table inbx (did you mean inbox?); its tables: reservations, inbox'],
    [{ design: 'outbox', inventoryDb: { tables: { inbox: { tll: '7d' } as never } } }, 'orderPipeline option inventoryDb.tables.inbox has no option tll (did you mean ttl?)'],
  ])('refuses %j', (o, message) => {
    expect(() => built(o)).toThrow(message);
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

// One topic, two consumer groups. Inventory reserves stock per order behind an
// inbox in the reservation's transaction; loyalty credits points with a surrogate id and no
// inbox, so a redelivery credits the order again. No preset draws two groups on one topic, so
// the design lists its components itself: each is a machine, its input (durations in ticks of
// the scenario's time scale), whether it is a process that can crash, and the peers it talks to.
import { defineScenario, type Claim } from 'faultline';
import { brokerEvidence, brokerMachine, type Payload } from 'faultline/models/broker.ts';
import { consumerMachine, type ConsumerInput } from 'faultline/models/consumer.ts';
import { rowsOf, type DatabaseDurable } from 'faultline/models/database.ts';
import { databaseComponent } from 'faultline/models/designs/databaseComponent.ts';
import { publishedFacts, publisherEvidence, publisherMachine, type PublisherDurable } from 'faultline/models/publisher.ts';

const orders = (size: number): Payload[] => Array.from({ length: size }, (_, i) => ({ event_id: `evt-o-${i + 1}`, order_id: `o-${i + 1}`, points: 10 }));

const reserver: ConsumerInput = {
  broker: 'broker',
  group: 'inventory',
  db: 'inventoryDb',
  inbox: 'sameTx',
  effect: { op: 'insert', table: 'reservations', columns: { order_id: 'order_id', state: { const: 'HELD' } } },
};

const crediter: ConsumerInput = {
  broker: 'broker',
  group: 'loyalty',
  db: 'loyaltyDb',
  inbox: 'none',
  effect: { op: 'insert', table: 'credits', columns: { order_id: 'order_id', points: 'points' } },
};

// Every order the publisher owns must yield each effect exactly once.
const published: Claim['facts'] = (v) => publishedFacts(v.durable<PublisherDurable>('publisher')).map((p) => String(p['order_id']));

const reservationClaim: Claim = {
  effect: 'inventory reservation',
  key: ['order_id'],
  authority: "the reservation's primary key and the inbox in its transaction",
  lifetime: 'the lifetime of the order',
  outcomes: (v) => rowsOf(v.durable<DatabaseDurable>('inventoryDb'), 'reservations').map((r) => ({ key: String(r['order_id']) })),
  facts: published,
};

const creditClaim: Claim = {
  effect: 'loyalty credit',
  key: ['order_id'],
  authority: 'nothing: the credit has a surrogate id and there is no inbox',
  lifetime: 'the lifetime of the order',
  outcomes: (v) => rowsOf(v.durable<DatabaseDurable>('loyaltyDb'), 'credits').map((r) => ({ key: String(r['order_id']) })),
  facts: published,
};

export default defineScenario({
  name: 'order-fan-out',
  title: 'One topic, two consumer groups: a guarded reservation and an unguarded credit',
  source: 'design review',
  lesson: 'Each group owns its own duplicates: the inbox that guards inventory does nothing for loyalty.',
  build: (workload, time) => [
    {
      name: 'publisher',
      machine: publisherMachine,
      input: { broker: 'broker', records: orders(workload.size), keyField: 'order_id', timeoutTicks: time.ticks('publisher timeout', '20s') },
      process: true,
      peers: ['broker'],
      describe: publisherEvidence,
    },
    {
      name: 'broker',
      machine: brokerMachine,
      input: { partitions: 2, redeliveryTicks: time.ticks('broker redelivery', '30s') },
      process: false,
      describe: brokerEvidence,
    },
    { name: 'inventory', machine: consumerMachine, input: { ...reserver }, process: true, peers: ['broker', 'inventoryDb'] },
    { name: 'loyalty', machine: consumerMachine, input: { ...crediter }, process: true, peers: ['broker', 'loyaltyDb'] },
    databaseComponent('inventoryDb', { reservations: { key: ['order_id'] }, inbox: { key: ['consumer_name', 'event_id'] } }),
    databaseComponent('loyaltyDb', { credits: { key: ['id'], autoId: true } }),
  ],
  workload: { size: 2 },
  claims: [reservationClaim, creditClaim],
  expect: { verdict: 'violated', violations: ['duplicate effect'] },
});

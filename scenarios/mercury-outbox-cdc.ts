// Seed 002, "A CDC connector such as Debezium tails the database write-ahead log and streams
// outbox inserts straight to the broker", and seed 000, "'CDC' names a mechanism; it does not
// remove the relay's ownership": the Mercury outbox design with a change-data-capture connector
// in place of the polling relay. The connector reads the outbox's committed inserts in commit
// order from its own durable offset, publishes each, and moves the offset past a change only
// once the broker has acknowledged it. A crash between the ack and the offset commit streams the
// change again; the inventory consumer's inbox suppresses the repeat.
import { defineScenario } from '../src/scenario/scenario.ts';
import { orderPipeline, reservationClaim } from '../models/designs/orderPipeline.ts';

export default defineScenario({
  name: 'mercury-outbox-cdc',
  title: 'Mercury order acceptance: outbox streamed by a CDC connector committing its offset after the ack',
  source: '002 · Change data capture; 000 · “CDC” names a mechanism; it does not remove the relay’s ownership',
  lesson: 'A connector that commits its offset after the broker’s ack is an at-least-once relay: it owns the retry from its offset, and the inbox absorbs what it streams twice.',
  build: orderPipeline({ design: 'outbox', relay: { type: 'cdc', offsetCommit: 'afterAck' } }),
  workload: { size: 2 },
  claims: [reservationClaim],
  expect: { verdict: 'holds' },
});

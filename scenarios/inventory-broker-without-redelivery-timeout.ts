// Seed 002, "At-least-once — the producer or broker retries until an acknowledgement arrives",
// with a broker that does not: it redelivers what a consumer has not acknowledged only when that
// consumer reconnects, never on a timeout. The Mercury outbox pipeline is otherwise the repaired
// one (outbox, relay, inbox in the effect's transaction, offset after commit). A consumer crash
// is healed by the reconnect's redelivery; a delivery the network loses is retried by nobody,
// since the consumer never saw it and the broker waits for an acknowledgement that cannot come.
// The verdict depends on the lose fault alone: the at-least-once promise needs a retry on
// silence, not only on reconnection.
import { defineScenario } from '../src/scenario/scenario.ts';
import { orderPipeline, reservationClaim } from '../models/designs/orderPipeline.ts';

export default defineScenario({
  name: 'inventory-broker-without-redelivery-timeout',
  title: 'Outbox pipeline on a broker that redelivers only on reconnect',
  source: '002 · Delivery semantics (at-least-once: retry until an acknowledgement arrives); 000 · Applied repair',
  lesson: 'At-least-once delivery needs someone who retries on silence: a broker that redelivers only on reconnect loses the delivery the network drops.',
  build: orderPipeline({ design: 'outbox', broker: { redelivery: 'never' } }),
  workload: { size: 2 },
  claims: [reservationClaim],
  expect: { verdict: 'violated', violations: ['lost effect'] },
});

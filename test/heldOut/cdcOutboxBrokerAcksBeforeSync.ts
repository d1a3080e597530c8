// The Mercury outbox streamed by a change-data-capture connector (Debezium-style: it tails the
// outbox's commit log and moves its own offset past a change once the broker acknowledged it),
// into a broker tuned for latency: idempotent producer on, but appends acknowledged before they
// are flushed to disk (flush 5 s later), and the broker host can lose power.
//
// Reasoned verdict, before running: violated, lost effect (on both claims).
// - The connector's afterAck offset is right for a durable ack: a crash of the connector or a
//   lost ack makes it stream the change again, and the idempotent producer keeps the topic at one
//   record per outbox row (seed 004: "the idempotent producer removes duplicates caused by
//   producer retries").
// - But the ack here is given before the record is on disk. A crash of the broker at
//   broker.beforeSync (flush due, not done) loses the acknowledged record; the connector's offset
//   is already past the change and nobody streams it again. The consumer that had been handed
//   the record drops it with its session and resubscribes to a log without it. The topic misses
//   the event (published-event claim) and the reservation is never made (reservation claim).
// - No duplicate: the idempotent producer and the inbox absorb every resend.
import { defineScenario } from 'faultline';
import { orderPipeline, publishedEventClaim, reservationClaim } from 'faultline/models/designs/orderPipeline.ts';

export default defineScenario({
  name: 'heldout-cdc-outbox-broker-acks-before-sync',
  title: 'CDC outbox connector (offset after ack) into a broker that acks before it syncs',
  source: '000 · Change-data-capture systems … do not remove the relay’s ownership; 004 · Apache Kafka delivery semantics (idempotent producer)',
  lesson: 'An offset moved after the ack is only as durable as the ack: a broker that acknowledges before it syncs turns a power failure into a lost event.',
  build: orderPipeline({ design: 'outbox', relay: { type: 'cdc', offsetCommit: 'afterAck' }, crashes: ['broker'], broker: { syncBeforeAck: false, producerDedup: true } }),
  workload: { size: 2 },
  claims: [reservationClaim, publishedEventClaim],
  expect: { verdict: 'violated', violations: ['lost effect'] },
});

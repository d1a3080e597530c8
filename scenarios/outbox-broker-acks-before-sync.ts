// Seed 003, "The consumer acknowledges the message only after the durable local work required by
// its delivery contract ... Acknowledging first would trade duplicates for possible loss", and
// seed 002, "the event cannot be lost — it is durably stored with the state change that caused
// it": the same trade, made by the broker. It acknowledges an append at once and writes it to
// disk a flush interval later (`syncBeforeAck: false`), and its host loses power before the flush
// (`broker.beforeSync`). The relay has its ack and marks the outbox row published; the restarted
// broker's log no longer has the record, so nobody ever publishes it again and the reservation
// is never made. The outbox kept the event durable only as far as the broker's ack meant it.
// outbox-broker-syncs-before-ack is the repair.
import { defineScenario } from '../src/scenario/scenario.ts';
import { orderPipeline, reservationClaim } from '../models/designs/orderPipeline.ts';

export default defineScenario({
  name: 'outbox-broker-acks-before-sync',
  title: 'Outbox pipeline whose broker acknowledges before its disk has the record',
  source: '003 · 5. The consumer acknowledges only after the durable local work; 002 · the event cannot be lost',
  lesson: 'An acknowledgement is a promise about durability: a broker that acks before it syncs hands the relay a promise a power failure breaks, and the outbox, marked published, never sends the event again.',
  build: orderPipeline({ design: 'outbox', crashes: ['broker'], broker: { syncBeforeAck: false } }),
  workload: { size: 2 },
  claims: [reservationClaim],
  expect: { verdict: 'violated', violations: ['lost effect'] },
});

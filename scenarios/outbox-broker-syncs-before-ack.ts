// Seed 002, "the event cannot be lost — it is durably stored with the state change that caused
// it", with the broker keeping its end of it: the crashing broker of
// outbox-broker-acks-before-sync, but each append is on disk before its ack (`syncBeforeAck`,
// the default). A crash before the append loses a record nobody was told of, and the relay sends
// it again; a crash after it keeps the record. Nothing acknowledged is lost.
import { defineScenario } from '../src/scenario/scenario.ts';
import { orderPipeline, reservationClaim } from '../models/designs/orderPipeline.ts';

export default defineScenario({
  name: 'outbox-broker-syncs-before-ack',
  title: 'Outbox pipeline whose broker syncs each append before it acknowledges',
  source: '002 · the event cannot be lost; 003 · 5. The consumer acknowledges only after the durable local work',
  lesson: 'When the ack means "on disk", every crash of the broker falls before the append (the producer resends) or after it (the record survives): the outbox’s promise holds end to end.',
  build: orderPipeline({ design: 'outbox', crashes: ['broker'], broker: { syncBeforeAck: true } }),
  workload: { size: 2 },
  claims: [reservationClaim],
  expect: { verdict: 'holds' },
});

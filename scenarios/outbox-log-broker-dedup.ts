// Seed 004 §2, "The idempotent producer removes duplicates caused by producer retries within the
// log", taken further: the broker itself recognises a record by its event_id
// (`producerDedup: true`, duplicate detection by message id, as Azure Service Bus and NATS
// JetStream offer), whoever sends it and however often its producer restarted. The relay's resend
// after `broker.afterAppend`, and its republish after its own crash past the broker's acceptance,
// both find the event_id already in the partition and are acknowledged with the first record's
// offset instead of being appended again.
import { defineScenario } from '../src/scenario/scenario.ts';
import { orderPipeline, publishedEventClaim } from '../models/designs/orderPipeline.ts';

export default defineScenario({
  name: 'outbox-log-broker-dedup',
  title: 'Outbox relay publishing to a crashing broker that detects duplicates by event id',
  source: '004 · 2. Delivery semantics (idempotent producer); 000 · Retry does not repair the ambiguity',
  lesson: 'The producer’s resend stays harmless to the log when the broker keys the append by the event’s identity: one record per outbox row, whichever side crashed.',
  build: orderPipeline({ design: 'outbox', crashes: ['broker'], broker: { producerDedup: true } }),
  workload: { size: 2 },
  claims: [publishedEventClaim],
  expect: { verdict: 'holds' },
});

// Seed 004 §2, "The idempotent producer removes duplicates caused by producer retries within the
// log": the same crashing broker as outbox-log-producer-resends, with Kafka's idempotent producer
// (`producerDedup: 'session'`). The relay's resend after `broker.afterAppend` is a retry in the
// same producer session, so the broker acknowledges it with the first record's offset instead of
// appending it again. But a relay that crashes after the broker accepted its record comes back as
// a new producer session (Kafka gives it a new producer id), and what it publishes again is no
// retry: the log holds it twice. The repair that covers both is outbox-log-broker-dedup.
import { defineScenario } from '../src/scenario/scenario.ts';
import { orderPipeline, publishedEventClaim } from '../models/designs/orderPipeline.ts';

export default defineScenario({
  name: 'outbox-log-idempotent-producer',
  title: 'Outbox relay publishing to a crashing broker with an idempotent producer',
  source: '004 · 2. Delivery semantics (idempotent producer); 000 · Retry does not repair the ambiguity',
  lesson: 'An idempotent producer removes its own retries, not the republish of a relay that restarted: that is a new producer session, and the log holds the record twice.',
  build: orderPipeline({ design: 'outbox', crashes: ['broker'], broker: { producerDedup: 'session' } }),
  workload: { size: 2 },
  claims: [publishedEventClaim],
  expect: { verdict: 'violated', violations: ['duplicate effect'] },
});

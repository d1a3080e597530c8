// Seed 004 §2, "The idempotent producer removes duplicates caused by producer retries within the
// log": the same crashing broker as outbox-log-producer-resends, with producer-side dedup on.
// The relay's resend after `broker.afterAppend` (and after its own crash past the broker's
// acceptance) finds the event_id already in the partition and is acknowledged with the first
// record's offset instead of being appended again.
import { defineScenario } from '../src/scenario/scenario.ts';
import { orderPipeline, publishedEventClaim } from '../models/designs/orderPipeline.ts';

export default defineScenario({
  name: 'outbox-log-idempotent-producer',
  title: 'Outbox relay publishing to a crashing broker with an idempotent producer',
  source: '004 · 2. Delivery semantics (idempotent producer); 000 · Retry does not repair the ambiguity',
  lesson: 'The producer’s resend stays harmless to the log when the broker keys the append by the event’s identity: one record per outbox row, whichever side crashed.',
  build: orderPipeline({ design: 'outbox', crashes: ['broker'], broker: { producerDedup: true } }),
  workload: { size: 2 },
  claims: [publishedEventClaim],
  expect: { verdict: 'holds' },
});

// Seed 000, "If the broker accepted but its acknowledgment was lost, retry may publish another
// record", and seed 004 §2, "when a producer gets no reply it cannot know whether the write was
// committed, so resending gives at-least-once behaviour": the broker crashes after it appends
// the relay's record and before its ack leaves (`broker.afterAppend`). The record survives the
// crash in the log; the relay, with no ack, publishes it again, and the log holds it twice.
// (A relay crash after the broker accepted does the same, which is why the seeds put the
// duplicate in the outbox's design rather than in the broker's.) outbox-log-idempotent-producer
// repairs the first (a retry) but not the second (a new producer session); outbox-log-broker-dedup
// repairs both.
import { defineScenario } from '../src/scenario/scenario.ts';
import { orderPipeline, publishedEventClaim } from '../models/designs/orderPipeline.ts';

export default defineScenario({
  name: 'outbox-log-producer-resends',
  title: 'Outbox relay publishing to a crashing broker, no idempotent producer',
  source: '000 · Retry does not repair the ambiguity; 004 · 2. Delivery semantics (idempotent producer)',
  lesson: 'A broker that crashes between append and ack leaves its producer the same doubt as a lost ack: the resend that makes publication at-least-once also makes a second record, unless the broker recognises the producer’s repeat.',
  build: orderPipeline({ design: 'outbox', crashes: ['broker'] }),
  workload: { size: 2 },
  claims: [publishedEventClaim],
  expect: { verdict: 'violated', violations: ['duplicate effect'] },
});

// Seed 000, "Event time makes result meaning explicit": "Mercury sets an operational watermark
// from the maximum observed event time minus two minutes for a bounded source class. It emits a
// provisional 10-minute demand aggregate when the watermark passes the window end, accepts
// corrections for 15 additional minutes, and then routes later facts to a correction workflow."
// Two devices upload demand facts; a device that crashes stays down for thirty minutes, and a
// partition silent for five minutes is left out of the watermark, so the other device's facts
// keep the windows moving and the silent device's facts, uploaded when it is back, arrive late.
//
// Analysis. It holds under every single fault and every pair, and its finality clause is judged
// in most runs, the fault-free one included: device1 is silent long enough before f1-3 (45 ticks
// against five minutes) that its partition is left out, device0's end marker carries the
// watermark to the end, window 2 closes empty, and f1-3 comes after it; the policy routes it to
// review and the closed bucket stands, which the finality clause judges. Restoring the aggregator
// to an older checkpoint breaks it: stream-event-time-mercury-restored.
import { defineScenario } from '../src/scenario/scenario.ts';
import { closedPeriodClaim, factCountedOnceClaim, resultDeliveryClaim, STREAM_TICK, streamPipeline, type StreamPipelineOptions } from '../models/designs/streamPipeline.ts';

/** The design's options, which its restore drill (stream-event-time-mercury-restored) runs too. */
export const mercuryPolicy: StreamPipelineOptions = { sink: 'transactional', watermarkDelay: '2m', window: '10m', lateness: '15m', late: 'review', idleAfter: '5m', device: { restartAfter: '30m' } };

export default defineScenario({
  name: 'stream-event-time-mercury',
  title: "Mercury's event-time policy: 2-minute watermark, 10-minute windows, 15 minutes of corrections, then review",
  source: '000 · Event time makes result meaning explicit',
  lesson: 'Every fact is counted once in its own window: on time, as a revision within the fifteen minutes, or in the correction workflow after them; a displayed bucket changes only under a new version.',
  tick: STREAM_TICK,
  build: streamPipeline(mercuryPolicy),
  workload: { size: 3 },
  claims: [factCountedOnceClaim(), closedPeriodClaim('dashboard'), resultDeliveryClaim('the demand dashboard')],
  expect: { verdict: 'holds' },
});

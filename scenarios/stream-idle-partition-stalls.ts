// Seed 000, "With multiple inputs, progress is commonly constrained by the slowest non-idle input;
// an idle partition can stall all windows unless idleness is detected safely." A device that
// crashes stays down for thirty minutes, and nothing tells the aggregator its partition is idle.
//
// Analysis. A crash of either device (at any of its windows) keeps it down for thirty minutes; its
// partition's latest event time stays where it was, the watermark follows it, and window 0 gets
// its first result only after the device is back, well past fifteen minutes. A crash of the
// aggregator while it stages results, or a fetch held back, adds the replay or the wait to an
// already slow watermark and also misses the bound. The design is at fault: nothing detects the
// idle partition (stream-idle-partition-detected does).
import { defineScenario } from '../src/scenario/scenario.ts';
import { STREAM_TICK, streamPipeline, timelyResultClaim } from '../models/designs/streamPipeline.ts';

export default defineScenario({
  name: 'stream-idle-partition-stalls',
  title: 'A silent partition holds the watermark, and every window waits for it',
  source: '000 · Event time makes result meaning explicit (an idle partition can stall all windows)',
  lesson: 'The watermark is the slowest partition’s: while one device is down no window closes, and results come half an hour late.',
  tick: STREAM_TICK,
  build: streamPipeline({ sink: 'transactional', late: 'review', device: { restartAfter: '30m' } }),
  workload: { size: 3 },
  claims: [timelyResultClaim('15m')],
  expect: { verdict: 'violated', violations: ['lost effect'] },
});

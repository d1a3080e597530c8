// Seed 000, "Event timestamps also need source and uncertainty semantics. Device clocks can be
// wrong", and seed 003, "Wall-clock time is what a particular machine believes now". A device's
// clock can jump fifteen minutes ahead (a `skew` fault); the aggregator trusts the event times
// devices stamp.
//
// Analysis. A skew at any of a device's windows (before its first fact, between facts, or with
// an upload in hand) stamps the facts that occur after it fifteen minutes fast: each lands in a
// later window than the one it happened in, a phantom there and lost from its own. The watermark
// is the least over the partitions, so the fast clock cannot pull it ahead while the other device
// keeps sending: the other device's facts are not made late. The engine is not at fault: the
// aggregator trusts device time, which is the design's choice.
import { defineScenario } from '../src/scenario/scenario.ts';
import { factCountedOnceClaim, STREAM_TICK, streamPipeline } from '../models/designs/streamPipeline.ts';

export default defineScenario({
  name: 'stream-clock-skew',
  title: 'A device clock fifteen minutes fast, trusted as event time',
  source: '000 · Event time makes result meaning explicit (device clocks can be wrong); 003 · One order has several times',
  lesson: 'Facts stamped by a fast clock land in a later window than the one they happened in: counted, but in the wrong period, and missing from their own.',
  tick: STREAM_TICK,
  build: streamPipeline({ sink: 'transactional', late: 'review', device: { skew: '15m' } }),
  workload: { size: 3 },
  claims: [factCountedOnceClaim()],
  expect: { verdict: 'violated', violations: ['phantom effect', 'lost effect'] },
});

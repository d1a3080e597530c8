// Seed 000, "an idle partition can stall all windows unless idleness is detected safely": the
// design of stream-idle-partition-stalls, with a partition silent for five minutes left out of
// the watermark until it sends again.
//
// Analysis. Under one fault it holds: a device that crashes is left out after five minutes, the
// other device's facts move the watermark, and the crashed device's facts, uploaded when it is
// back, arrive late and go to review. Under two faults (`windows --pairs`) it does not: crash both
// devices (device0.starting, then device1.uploading its first fact) and every partition is idle
// at once. A watermark with nothing to follow stays where it is, as Flink's does, so window 0
// (whose one on-time fact was uploaded before device1 crashed) gets its result only after device0
// is back from its thirty minutes down: committed at t=229, 28 minutes past the window's end
// (t=60), against the twenty-five minutes promised below. The engine and the model are not at
// fault: idleness detection is a guess about silent inputs, and with all of them silent there is
// nothing left to guess from.
//
// The promise is twenty-five minutes from a window's end to the window's first result, because
// less does not survive one fault. Without faults window 0's result is visible 13.8 minutes after
// the window's end with the simulated latencies (10 minutes with none); one crash of the
// aggregator, or one held, lost or reordered message on the checkpoint that carries the result,
// adds up to the 6.67 minutes a delay fault holds a link plus a two-minute retry. Fifteen minutes
// is broken by all of those (stream-idle-partition-tight-budget keeps fifteen and holds their
// analysis); twenty by a held sink.commit of that checkpoint (its fourth occurrence: visible at
// t=183 against t=180). Twenty-five holds in windows mode striking every occurrence up to the
// fourth (and up to the eighth, tried once), in check mode over every interleaving with one
// fault, and under explore.
import { defineScenario } from '../src/scenario/scenario.ts';
import { factCountedOnceClaim, STREAM_TICK, streamPipeline, timelyResultClaim, type StreamPipelineOptions } from '../models/designs/streamPipeline.ts';

/** The design, shared with stream-idle-partition-tight-budget, which holds it to fifteen minutes. */
export const idleDetected: StreamPipelineOptions = { sink: 'transactional', late: 'review', idleAfter: '5m', device: { restartAfter: '30m' } };

export default defineScenario({
  name: 'stream-idle-partition-detected',
  title: 'A silent partition left out of the watermark after five minutes',
  source: '000 · Event time makes result meaning explicit (an idle partition can stall all windows)',
  lesson: 'Windows keep closing on time while a device is down; its facts arrive late and go to the correction workflow, still counted once.',
  tick: STREAM_TICK,
  build: streamPipeline(idleDetected),
  workload: { size: 3 },
  claims: [timelyResultClaim('25m'), factCountedOnceClaim()],
  // Up to the fourth occurrence, so the checkpoint that carries window 0's result is struck too.
  windows: { maxOccurrence: 4 },
  expect: {
    single: { verdict: 'holds' },
    pairs: { verdict: 'violated', violations: ['lost effect'] },
    why: "design: with both devices down at once (crashes at device0.starting and device1.uploading) every partition is idle, and a watermark with no partition to follow cannot advance without guessing, so the first window waits for a device to come back (28 minutes past its end), past the twenty-five minutes promised; idleness detection keeps windows moving only while some partition still sends",
  },
});

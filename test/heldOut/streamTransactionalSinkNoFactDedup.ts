// Seed 000's stream processor done "right" at the sink and wrong at the source: tumbling 10-minute
// windows in event time, checkpoints every 30 s that bind positions, window state and the sink's
// epoch (a transactional sink: results become visible only with the checkpoint that covers them),
// but the operator does not deduplicate fact ids (`dedup: false`), on the belief that "the
// checkpoint makes it exactly once".
//
// Reasoned verdict, before running: violated, duplicate effect, on the fact-counted-once claim only.
// - Checkpoint and sink together make the result delivery exactly once: a crash or restore of
//   the aggregator replays from positions whose results were never made visible, so each window's
//   result version is posted once (resultDeliveryClaim holds).
// - A device uploads until the log acknowledges; a lost or delayed log->device ack makes it upload
//   the fact again, so the log holds the fact twice at two positions. The checkpoint's exactly-once
//   is per log position, not per fact, so both copies are counted: the window's final result
//   lists the fact twice, a duplicate of the fact's count.
// - Nothing is lost: every fact the log took in is in its window's result.
import { defineScenario } from 'faultline';
import { factCountedOnceClaim, resultDeliveryClaim, STREAM_TICK, streamPipeline } from 'faultline/models/designs/streamPipeline.ts';

export default defineScenario({
  name: 'heldout-stream-transactional-sink-no-fact-dedup',
  title: 'Checkpointed windows into a transactional sink, without deduplicating resent facts',
  source: '000 · Stateful processors recover from positions plus consistent state; Deduplication has a scope',
  lesson: "The checkpoint's exactly-once covers log positions; a fact a device resent sits at two positions and is counted twice.",
  tick: STREAM_TICK,
  build: streamPipeline({ sink: 'transactional', checkpointEvery: '30s', dedup: false }),
  workload: { size: 3 },
  claims: [resultDeliveryClaim('the transactional results store'), factCountedOnceClaim()],
  expect: { verdict: 'violated', violations: ['duplicate effect'], claims: ["a fact's count in its window's final result"] },
});

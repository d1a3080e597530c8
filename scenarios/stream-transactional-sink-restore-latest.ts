// Seed 000, "Stateful processors recover from positions plus consistent state" ("On failure, the
// processor restores a completed checkpoint and replays source records after its recorded
// positions"): the design of stream-checkpoint-transactional-sink (results staged under the
// checkpoint's epoch, visible once it completes), with the aggregator restorable to its latest
// completed checkpoint, as an operator restarting the job from its last checkpoint would.
//
// Analysis. Every single fault holds, the restores among them, at every window. A restore to the
// latest checkpoint is what a crash restores, struck at any moment of any process: the aggregator
// goes down, restarts from the checkpoint's positions, window state, watermark and epoch, commits
// that epoch again (the sink has it already: guard `epochCommitted`), and stages what it reads
// after those positions under new epochs. Nothing it committed is staged twice, so readers see each
// window's result once. stream-transactional-sink-restore-ten-minutes-back restores an older one.
import { defineScenario } from '../src/scenario/scenario.ts';
import { factCountedOnceClaim, resultDeliveryClaim, STREAM_TICK, streamPipeline } from '../models/designs/streamPipeline.ts';

export default defineScenario({
  name: 'stream-transactional-sink-restore-latest',
  title: 'A transactional sink, and the aggregator restored to its latest checkpoint',
  source: '000 · Stateful processors recover from positions plus consistent state',
  lesson: 'Restored to its latest checkpoint, a processor whose sink commits with its checkpoints replays only what no epoch committed yet: every result is seen once.',
  tick: STREAM_TICK,
  build: streamPipeline({ sink: 'transactional', restoreTo: 'latest' }),
  workload: { size: 3 },
  claims: [resultDeliveryClaim('the transactional results store'), factCountedOnceClaim()],
  expect: { verdict: 'holds' },
});

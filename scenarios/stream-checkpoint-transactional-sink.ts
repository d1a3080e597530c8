// Seed 000, "A useful checkpoint binds … destination commit or transaction state when the sink
// participates": the windowed aggregator stages its results in the sink under the epoch of the
// checkpoint that covers them, and commits the epoch once the checkpoint has completed; a restart
// commits its checkpoint's epoch again (a commit that is already done changes nothing) and
// discards what was staged after it. The processor checkpoints every 30 seconds, as Mercury's does
// in seed 000 ("completes a checkpoint every 30 seconds"), so the decision record's replay figures
// (270,000 events on average, 540,000 at worst) are this run's interval.
import { defineScenario } from '../src/scenario/scenario.ts';
import { factCountedOnceClaim, resultDeliveryClaim, STREAM_TICK, streamPipeline } from '../models/designs/streamPipeline.ts';

export default defineScenario({
  name: 'stream-checkpoint-transactional-sink',
  title: 'Checkpointed windows committed to the sink with the checkpoint',
  source: '000 · Stateful processors recover from positions plus consistent state (the sink participates)',
  lesson: 'Results become visible only with the checkpoint that covers them, so a crash anywhere replays nothing readers have seen.',
  tick: STREAM_TICK,
  build: streamPipeline({ sink: 'transactional', checkpointEvery: '30s' }),
  workload: { size: 3 },
  claims: [resultDeliveryClaim('the transactional results store'), factCountedOnceClaim()],
  expect: { verdict: 'holds' },
});

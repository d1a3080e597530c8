// Seed 000, "A useful checkpoint binds … destination commit or transaction state when the sink
// participates": the windowed aggregator stages its results in the sink under the epoch of the
// checkpoint that covers them, and commits the epoch once the checkpoint has completed; a restart
// commits its checkpoint's epoch again (a commit that is already done changes nothing) and
// discards what was staged after it.
import { defineScenario } from '../src/scenario.ts';
import { factCountedOnceClaim, resultDeliveryClaim, STREAM_TICK, streamPipeline } from '../models/designs/streamPipeline.ts';

export default defineScenario({
  name: 'stream-checkpoint-transactional-sink',
  title: 'Checkpointed windows committed to the sink with the checkpoint',
  source: '000 · Stateful processors recover from positions plus consistent state (the sink participates)',
  lesson: 'Results become visible only with the checkpoint that covers them, so a crash anywhere replays nothing readers have seen.',
  tick: STREAM_TICK,
  build: streamPipeline({ sink: 'transactional' }),
  workload: { size: 3 },
  claims: [resultDeliveryClaim('the transactional results store'), factCountedOnceClaim()],
  expect: { verdict: 'holds' },
});

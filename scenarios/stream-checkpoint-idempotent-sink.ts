// Seed 000, "Stateful processors recover from positions plus consistent state" and "Applied
// repair" ("A checkpoint may restore and replay. The inventory effect remains one because its
// authority recognizes the semantic key"): the windowed aggregator of
// stream-checkpoint-external-sink, posting to a store that upserts each result by window and
// version. The aggregator is also restorable: a `restore` sets it back to the checkpoint before
// its latest, as an operator restoring an older checkpoint would.
import { defineScenario } from '../src/scenario/scenario.ts';
import { factCountedOnceClaim, resultDeliveryClaim, STREAM_TICK, streamPipeline } from '../models/designs/streamPipeline.ts';

export default defineScenario({
  name: 'stream-checkpoint-idempotent-sink',
  title: 'Checkpointed windows posted to a store keyed by window and version',
  source: '000 · Stateful processors recover from positions plus consistent state; Applied repair',
  lesson: 'The replay after a crash or a restore posts the same results again, and the sink recognises each by its window and version, so readers see every result once.',
  tick: STREAM_TICK,
  build: streamPipeline({ sink: 'idempotent', restorable: true }),
  workload: { size: 3 },
  claims: [resultDeliveryClaim('the results store'), factCountedOnceClaim()],
  expect: { verdict: 'holds' },
});

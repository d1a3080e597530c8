// Seed 000, "Test restore and migration before deployment": the upgrade of
// stream-state-schema-changed, with code that migrates a checkpoint of the schema before its own.
import { defineScenario } from '../src/scenario/scenario.ts';
import { factCountedOnceClaim, resultDeliveryClaim, STREAM_TICK, streamPipeline } from '../models/designs/streamPipeline.ts';

export default defineScenario({
  name: 'stream-state-schema-migrated',
  title: 'An upgrade whose code migrates the checkpoint it restores',
  source: '000 · Reprocessing is a new versioned production run (the code that restores checkpointed state)',
  lesson: 'The new code reads the old schema and rewrites it, so the savepoint restores and every window keeps its result across the upgrade.',
  tick: STREAM_TICK,
  build: streamPipeline({ sink: 'idempotent', upgrade: { at: '20m', migrates: true } }),
  workload: { size: 3 },
  claims: [resultDeliveryClaim('the results store'), factCountedOnceClaim()],
  expect: { verdict: 'holds' },
});

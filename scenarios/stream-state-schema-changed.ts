// Seed 000, "Historical compatibility includes the code that restores checkpointed state.
// Removing a serializer or changing key structure can make the last good checkpoint unreadable.
// Test restore and migration before deployment, not during an incident." New code with a new
// state schema is deployed after twenty minutes, after a savepoint, and it cannot read the
// schema the savepoint was written in.
//
// Analysis. Every run, the fault-free one included, ends the same way: at the upgrade the new code
// finds the savepoint in schema 1, which it cannot read, and stops in
// `aggregator.unreadableCheckpoint` (stuck); the windows still open then never get a result (lost
// effects). No fault is needed; the design is at fault, and the run says so in its stuck reason
// and in the `checkpoint unreadable` note.
import { defineScenario } from '../src/scenario/scenario.ts';
import { factCountedOnceClaim, resultDeliveryClaim, STREAM_TICK, streamPipeline } from '../models/designs/streamPipeline.ts';

export default defineScenario({
  name: 'stream-state-schema-changed',
  title: 'An upgrade whose code cannot read the checkpoint it must restore',
  source: '000 · Reprocessing is a new versioned production run (the code that restores checkpointed state)',
  lesson: 'The new code finds the savepoint unreadable and the processor stops there: every window after the upgrade goes without its result.',
  tick: STREAM_TICK,
  build: streamPipeline({ sink: 'idempotent', upgrade: { at: '20m', migrates: false } }),
  workload: { size: 3 },
  claims: [resultDeliveryClaim('the results store'), factCountedOnceClaim()],
  expect: { verdict: 'violated', violations: ['lost effect', 'stuck'] },
});

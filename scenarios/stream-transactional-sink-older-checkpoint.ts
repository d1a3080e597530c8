// Seed 000, "Stateful processors recover from positions plus consistent state": the design of
// stream-checkpoint-transactional-sink, with the aggregator restorable from the checkpoint before
// its latest, as an operator restoring an older checkpoint would.
//
// Analysis. Crashes hold, as in stream-checkpoint-transactional-sink: a crash restores the latest
// checkpoint, whose epoch the sink has committed or will commit once. The restore does not: once
// device1 is done (`device1.done`) the latest checkpoint has committed the results of every window
// so far, and the restore goes back to the checkpoint before it, so the replay stages those
// results again under new epochs (the checkpoint counter never goes back), and the sink commits
// them a second time. The engine is not at fault; the design is: the sink transaction is bound
// to one checkpoint, not to the results themselves, so it cannot recognise a replay that starts
// earlier. A sink keyed by window and version (stream-checkpoint-idempotent-sink) holds under the
// same restore.
import { defineScenario } from '../src/scenario/scenario.ts';
import { factCountedOnceClaim, resultDeliveryClaim, STREAM_TICK, streamPipeline } from '../models/designs/streamPipeline.ts';

export default defineScenario({
  name: 'stream-transactional-sink-older-checkpoint',
  title: 'A transactional sink, and the aggregator restored from an older checkpoint',
  source: '000 · Stateful processors recover from positions plus consistent state',
  lesson: 'A sink transaction protects the results of the checkpoint being restored, not those committed after an older one: restoring that replays them into new epochs, and readers see them twice.',
  tick: STREAM_TICK,
  build: streamPipeline({ sink: 'transactional', restorable: true }),
  workload: { size: 3 },
  claims: [resultDeliveryClaim('the transactional results store'), factCountedOnceClaim()],
  expect: { verdict: 'violated', violations: ['duplicate effect'] },
});

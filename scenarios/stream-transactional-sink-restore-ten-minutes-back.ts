// Seed 000, "Stateful processors recover from positions plus consistent state" and the drill
// "Restore processor state … Verify … sink transactions … after restore": the design of
// stream-transactional-sink-restore-latest, but a restore sets the aggregator back to the newest
// completed checkpoint at least ten minutes old (the aggregator keeps the checkpoints such a
// restore can reach), as an operator rolling a job back "to ten minutes ago" would.
//
// Analysis. A restore once device1 is done (`device1.done`, occurrence 1, t = 23 m 50 s) breaks the
// result claim (`duplicate effect`). Checkpoint #4 (taken at 23 m 10 s) has just committed its
// epoch; the newest checkpoint at least ten minutes old is #2 (taken at 11 m 40 s), so the
// aggregator restarts from its positions and window state, commits epoch 2 again (the sink has it:
// guard `epochCommitted`), and reads again what epochs 3 and 4 had committed: windows 0 and 1 are
// staged again under epoch 5 (the checkpoint counter never goes back) and committed a second time,
// so readers see w0@v1 and w1@v1 twice. Earlier restores hold: ten minutes back from them is a
// checkpoint whose later results were not committed yet. The engine and the model are not at
// fault; the design is: the sink transaction is bound to the epoch of one checkpoint, so it
// recognises the replay of the latest checkpoint and not of an older one; a sink keyed by window
// and version (stream-checkpoint-idempotent-sink) holds under the same restore.
import { defineScenario } from '../src/scenario/scenario.ts';
import { factCountedOnceClaim, resultDeliveryClaim, STREAM_TICK, streamPipeline } from '../models/designs/streamPipeline.ts';

export default defineScenario({
  name: 'stream-transactional-sink-restore-ten-minutes-back',
  title: 'A transactional sink, and the aggregator restored to a checkpoint ten minutes old',
  source: '000 · Stateful processors recover from positions plus consistent state; Restore processor state (verify sink transactions after restore)',
  lesson: 'Which checkpoint a processor is restored to decides what its sink sees again: a transactional sink recognises the latest checkpoint\'s epoch, not the results an older one replays.',
  tick: STREAM_TICK,
  build: streamPipeline({ sink: 'transactional', restoreTo: '10m' }),
  workload: { size: 3 },
  claims: [resultDeliveryClaim('the transactional results store'), factCountedOnceClaim()],
  expect: { verdict: 'violated', violations: ['duplicate effect'] },
});

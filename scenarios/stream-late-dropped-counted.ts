// Seed 000, late-data policies: "drop it only when the lost contribution is declared acceptable
// and measured". Facts later than the allowed lateness are dropped, and each drop is posted
// beside the results, so the loss is declared and counted.
import { defineScenario } from '../src/scenario/scenario.ts';
import { factCountedOnceClaim, STREAM_TICK, streamPipeline } from '../models/designs/streamPipeline.ts';

export default defineScenario({
  name: 'stream-late-dropped-counted',
  title: 'Late facts dropped, each drop recorded beside the results',
  source: '000 · Event time makes result meaning explicit (drop only when declared and measured)',
  lesson: 'The results miss the late facts, but every one is accounted for in the drop count, so the loss is measured.',
  tick: STREAM_TICK,
  build: streamPipeline({ sink: 'transactional', late: 'drop', idleAfter: '5m', device: { restartAfter: '30m' } }),
  workload: { size: 3 },
  claims: [factCountedOnceClaim()],
  expect: { verdict: 'holds' },
});

// Seed 000, late-data policies: "drop it only when the lost contribution is declared acceptable
// and measured". Facts later than the allowed lateness are dropped, and nothing records them.
//
// Analysis. A device crash (at any of its windows) keeps it down for thirty minutes; the other
// partition carries the watermark past every window, they close, and the crashed device's facts
// arrive after that. The policy drops them and records nothing (lost effects); a held-back upload
// (`device1->log:log.append` delayed) has the same result for its fact. The design is at fault:
// stream-late-dropped-counted drops the same facts and counts them.
import { defineScenario } from '../src/scenario/scenario.ts';
import { factCountedOnceClaim, STREAM_TICK, streamPipeline } from '../models/designs/streamPipeline.ts';

export default defineScenario({
  name: 'stream-late-dropped-uncounted',
  title: 'Late facts dropped without a count',
  source: '000 · Event time makes result meaning explicit (drop only when declared and measured)',
  lesson: 'A fact that arrives after its window closed vanishes without a trace: nobody can tell how much the results miss.',
  tick: STREAM_TICK,
  build: streamPipeline({ sink: 'transactional', late: 'ignore', idleAfter: '5m', device: { restartAfter: '30m' } }),
  workload: { size: 3 },
  claims: [factCountedOnceClaim()],
  expect: { verdict: 'violated', violations: ['lost effect'] },
});

// Seed 000, "A dashboard may update a displayed bucket" and "update or retract a prior result,
// requiring sinks and readers to understand versions": a late fact revises its closed window
// under the next version.
import { defineScenario } from '../src/scenario/scenario.ts';
import { closedPeriodClaim, factCountedOnceClaim, STREAM_TICK, streamPipeline } from '../models/designs/streamPipeline.ts';

export default defineScenario({
  name: 'stream-dashboard-versions',
  title: 'A dashboard whose closed buckets are revised under a new version',
  source: '000 · Event time makes result meaning explicit (update or retract a prior result)',
  lesson: 'A late fact changes its bucket under a version readers can see, and is counted once.',
  tick: STREAM_TICK,
  build: streamPipeline({ sink: 'transactional', late: 'revise', idleAfter: '5m', device: { restartAfter: '30m' } }),
  workload: { size: 3 },
  claims: [closedPeriodClaim('dashboard'), factCountedOnceClaim()],
  expect: { verdict: 'holds' },
});

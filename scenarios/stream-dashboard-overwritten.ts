// Seed 000, "update or retract a prior result, requiring sinks and readers to understand
// versions": the dashboard of stream-dashboard-versions, but a late fact's revision is written
// under the version readers already have.
//
// Analysis. A device crash (at any of its windows), or one of its uploads held back, makes its
// facts arrive after their windows closed, and the policy posts the revised total under the
// version readers already have: a silent revision. The design is at fault;
// stream-dashboard-versions posts it under the next version.
import { defineScenario } from '../src/scenario/scenario.ts';
import { closedPeriodClaim, STREAM_TICK, streamPipeline } from '../models/designs/streamPipeline.ts';

export default defineScenario({
  name: 'stream-dashboard-overwritten',
  title: 'A dashboard whose closed buckets are overwritten under the same version',
  source: '000 · Event time makes result meaning explicit (update or retract a prior result)',
  lesson: 'Readers holding version 1 cannot tell that version 1 changed: a revision needs a version of its own.',
  tick: STREAM_TICK,
  build: streamPipeline({ sink: 'transactional', late: 'overwrite', idleAfter: '5m', device: { restartAfter: '30m' } }),
  workload: { size: 3 },
  claims: [closedPeriodClaim('dashboard')],
  expect: { verdict: 'violated', violations: ['silent revision'] },
});

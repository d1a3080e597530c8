// Seed 000, late-data policies: "update or retract a prior result, requiring sinks and readers to
// understand versions", and "A dashboard may update a displayed bucket". A late fact, within the
// lateness or after its window closed, first withdraws the version readers hold (a retraction
// naming it), then posts the replacement under the next version.
//
// Analysis. It holds under every single fault and every pair (`windows --pairs`, 6,329 runs), and
// the finality clause is judged in most of them: even without a fault, device1 is silent long
// enough before f1-3 that its partition is left out, window 2 closes empty, and f1-3 arrives
// after it, so the dashboard shows `w2@v1 retracted` and then `w2@v2` with f1-3; a device crash
// does the same to the windows it leaves behind. A retraction that named a version readers do
// not hold would be a silent revision (the claim's test in test/models/stream.test.ts).
import { defineScenario } from '../src/scenario/scenario.ts';
import { closedPeriodClaim, factCountedOnceClaim, STREAM_TICK, streamPipeline } from '../models/designs/streamPipeline.ts';

export default defineScenario({
  name: 'stream-dashboard-retractions',
  title: 'A dashboard that retracts a closed bucket and posts its replacement under a new version',
  source: '000 · Event time makes result meaning explicit (update or retract a prior result)',
  lesson: 'Readers are told which version to withdraw before its replacement arrives under the next one, so a closed bucket changes in the open and every fact is counted once.',
  tick: STREAM_TICK,
  build: streamPipeline({ sink: 'transactional', late: 'retract', idleAfter: '5m', device: { restartAfter: '30m' } }),
  workload: { size: 3 },
  claims: [closedPeriodClaim('dashboard'), factCountedOnceClaim()],
  expect: { verdict: 'holds' },
});

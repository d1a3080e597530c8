// Seed 000, "A financial ledger may never silently revise a closed period": the ledger of
// stream-ledger-corrections, but a late fact revises the closed period's total instead.
//
// Analysis. A device crash (at any of its windows), or one of its uploads held back, makes its
// facts arrive after their windows closed, and the policy posts a new total for a closed period:
// a silent revision for a ledger, while every fact is still counted once. The design is at fault;
// stream-ledger-corrections posts a correction instead.
import { defineScenario } from '../src/scenario/scenario.ts';
import { closedPeriodClaim, factCountedOnceClaim, STREAM_TICK, streamPipeline } from '../models/designs/streamPipeline.ts';

export default defineScenario({
  name: 'stream-ledger-revised-in-place',
  title: 'A ledger whose closed periods are revised when a late fact arrives',
  source: '000 · Event time makes result meaning explicit (finality is a product policy)',
  lesson: 'The fact is counted, but a period readers took as closed changes under them: a ledger needs a correction, not a new total.',
  tick: STREAM_TICK,
  build: streamPipeline({ sink: 'transactional', late: 'revise', idleAfter: '5m', device: { restartAfter: '30m' } }),
  workload: { size: 3 },
  claims: [closedPeriodClaim('ledger'), factCountedOnceClaim()],
  expect: { verdict: 'violated', violations: ['silent revision'] },
});

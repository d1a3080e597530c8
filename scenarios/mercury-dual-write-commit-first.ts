// Seed 000, opening incident and seed 002, "The dual-write problem": commit order.status =
// ACCEPTED, then publish OrderAccepted. The verdict teaches that a crash or a lost publish
// between the two commits leaves an accepted order that fulfilment never hears of (the 312
// lost orders): no retry repairs it, because the intent to publish lived only in memory.
import { defineScenario } from '../src/scenario/scenario.ts';
import { orderPipeline, reservationClaim } from '../models/designs/orderPipeline.ts';

export default defineScenario({
  name: 'mercury-dual-write-commit-first',
  title: 'Mercury order acceptance: dual write, commit then publish',
  source: '000 · Mercury’s order service (312 accepted orders never reached fulfilment); 002 · The dual-write problem',
  lesson: 'Two independent commits cannot be made atomic by ordering them: commit-then-publish loses facts when the process dies between them.',
  build: orderPipeline({ design: 'dualWriteCommitFirst' }),
  workload: { size: 2 },
  claims: [reservationClaim],
  expect: { verdict: 'violated', violations: ['lost effect'] },
});

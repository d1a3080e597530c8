// Seed 000, "Never reinterpret an absent old field using a current default without checking
// semantics": the rebuild of reprocess-versioned-adapters, with no adapter for schema 1, whose
// records have no quantity field (each was one unit); today's code reads the absent field as its
// default, 0. The promoter still compares before the cutover.
import { defineScenario } from '../src/scenario.ts';
import { alertOnceClaim, promotionClaim, reprocessing, servedTotalsClaim } from '../models/designs/reprocessing.ts';
import { STREAM_TICK } from '../models/designs/streamPipeline.ts';

export default defineScenario({
  name: 'reprocess-current-default',
  title: "A rebuild that reads an absent old field as today's default, caught by the comparison",
  source: '000 · Reprocessing is a new versioned production run (never reinterpret an absent field with a current default)',
  lesson: 'The rebuilt totals are short by every schema-1 order; the comparison finds the windows that differ and refuses the cutover, so readers keep the right totals and the rebuild is never promoted.',
  tick: STREAM_TICK,
  build: reprocessing({ adapters: 'missingForSchema1', compare: true, gated: true }),
  workload: { size: 3 },
  claims: [servedTotalsClaim, alertOnceClaim, promotionClaim],
  expect: { verdict: 'violated', violations: ['lost effect'] },
});

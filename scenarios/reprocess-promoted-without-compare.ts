// Seed 000, "compares old and new results, and promotes through an explicit cutover": the rebuild
// of reprocess-current-default (no adapter for schema 1), promoted as soon as it has caught up,
// without comparing its results with the live ones.
import { defineScenario } from '../src/scenario.ts';
import { alertOnceClaim, promotionClaim, reprocessing, servedTotalsClaim } from '../models/designs/reprocessing.ts';
import { STREAM_TICK } from '../models/designs/streamPipeline.ts';

export default defineScenario({
  name: 'reprocess-promoted-without-compare',
  title: 'A rebuild promoted without comparing its results',
  source: '000 · Reprocessing is a new versioned production run (compare, then cut over)',
  lesson: 'Nothing stops the short totals: after the cutover readers are served windows that no longer add up to their facts.',
  tick: STREAM_TICK,
  build: reprocessing({ adapters: 'missingForSchema1', compare: false, gated: true }),
  workload: { size: 3 },
  claims: [servedTotalsClaim, alertOnceClaim, promotionClaim],
  expect: { verdict: 'violated', violations: ['replay mismatch'] },
});

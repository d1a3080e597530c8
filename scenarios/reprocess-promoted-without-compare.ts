// Seed 000, "compares old and new results, and promotes through an explicit cutover": the rebuild
// of reprocess-current-default (no adapter for schema 1), promoted as soon as it has caught up,
// without comparing its results with the live ones.
//
// Analysis. The violation needs no fault: the promoter cuts over as soon as the rebuild has
// closed every window, and the windows with a schema-1 order are then served short of the facts
// they count (replay mismatch: the same facts, a different total). The design is at fault twice
// over: the missing adapter, and a cutover with no comparison to catch it.
import { defineScenario } from '../src/scenario/scenario.ts';
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
  // Two operators, a promoter and four sinks make each run long, so the sweep strikes the first
  // occurrence of each window and message only. Striking the first two (82,112 runs with
  // --pairs for the four reprocessing scenarios) gave the same verdicts.
  windows: { maxOccurrence: 1 },
  claims: [servedTotalsClaim, alertOnceClaim, promotionClaim],
  expect: { verdict: 'violated', violations: ['replay mismatch'] },
});

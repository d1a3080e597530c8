// Seed 000, "Never reinterpret an absent old field using a current default without checking
// semantics": the rebuild of reprocess-versioned-adapters, with no adapter for schema 1, whose
// records have no quantity field (each was one unit); today's code reads the absent field as its
// default, 0. The promoter still compares before the cutover.
//
// Analysis. The violation needs no fault: the rebuild reads every schema-1 order as 0 units, so
// each window with one is short; the promoter finds those windows different from the live ones and
// refuses the cutover (the promotion claim's lost effect). The served totals hold (readers keep
// the live results) and no alert repeats. The comparison did its job; the design's missing
// adapter is at fault.
import { defineScenario } from '../src/scenario/scenario.ts';
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
  // Two operators, a promoter and four sinks make each run long, so the sweep strikes the first
  // occurrence of each window and message only. Striking the first two (82,112 runs with
  // --pairs for the four reprocessing scenarios) gave the same verdicts.
  windows: { maxOccurrence: 1 },
  claims: [servedTotalsClaim, alertOnceClaim, promotionClaim],
  expect: { verdict: 'violated', violations: ['lost effect'] },
});

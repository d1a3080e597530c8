// Seed 000, "The reader must handle historical field presence, defaults, unknown enum values,
// renamed meanings …" and "write an adapter per historical version": the rebuild of
// reprocess-versioned-adapters with no adapter for schema 2, whose quantity field is named `qty`;
// today's code looks for `quantity`, finds none, and reads the current default, 0. The promoter
// compares before the cutover.
//
// Analysis. The violation needs no fault: f0-2, device0's schema-2 order of 3 units, is read as 0,
// so the rebuilt window 1 totals 18 where the live one totals 21 over the same three facts; the
// promoter compares the two runs window by window, finds w1, and refuses the cutover (the
// promotion claim's lost effect). Readers keep the live totals, so the served totals hold, and no
// alert repeats. Every single fault and every pair (`windows --pairs`, 6,106 runs) gives the same
// verdict and no other violation. The comparison did its job; the design's missing adapter is at
// fault, as in reprocess-current-default for a field that is absent rather than renamed.
import { defineScenario } from '../src/scenario/scenario.ts';
import { alertOnceClaim, promotionClaim, reprocessing, servedTotalsClaim } from '../models/designs/reprocessing.ts';
import { STREAM_TICK } from '../models/designs/streamPipeline.ts';

export default defineScenario({
  name: 'reprocess-renamed-field-not-adapted',
  title: 'A rebuild that misses a renamed field, caught by the comparison',
  source: '000 · Reprocessing is a new versioned production run (renamed meanings; an adapter per historical version)',
  lesson: 'The rebuild reads every schema-2 order as zero units; the comparison finds the window that differs and refuses the cutover, so readers keep the right totals.',
  tick: STREAM_TICK,
  build: reprocessing({ adapters: 'missingForSchema2', compare: true, gated: true }),
  workload: { size: 3 },
  // As for the other reprocessing scenarios, each run is long, so the sweep strikes the first
  // occurrence of each window and message only.
  windows: { maxOccurrence: 1 },
  claims: [servedTotalsClaim, alertOnceClaim, promotionClaim],
  expect: { verdict: 'violated', violations: ['lost effect'] },
});

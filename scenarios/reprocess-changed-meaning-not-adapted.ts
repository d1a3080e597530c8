// Seed 000, "If a schema evolution changes meaning, write an adapter per historical version or
// produce a versioned normalized fact": the rebuild of reprocess-versioned-adapters with no
// adapter for schema 3, whose `quantity` counts dozens where today's counts units; today's code
// reads the field by its name and takes the number as units. The promoter compares before the
// cutover.
//
// Analysis. The violation needs no fault: schema 3 counts in dozens, and without its adapter f1-1
// (2 dozen, 24 units) and f0-3 (1 dozen) are read as 2 and 1 units, so the rebuilt windows 0 and 1
// total 3 and 10 where the live ones total 25 and 21 over the same facts; the promoter finds w0
// and w1 different and refuses the cutover (the promotion claim's lost effect). Readers keep the
// live totals and no alert repeats. Every single fault and every pair (`windows --pairs`, 6,106
// runs) gives the same verdict and no other violation. The comparison caught it; the design is at
// fault: a field whose name survived while its meaning changed needs an adapter as much as a
// missing one does, and nothing in the record's shape says so.
import { defineScenario } from '../src/scenario/scenario.ts';
import { alertOnceClaim, promotionClaim, reprocessing, servedTotalsClaim } from '../models/designs/reprocessing.ts';
import { STREAM_TICK } from '../models/designs/streamPipeline.ts';

export default defineScenario({
  name: 'reprocess-changed-meaning-not-adapted',
  title: 'A rebuild that reads a field whose meaning changed as today’s, caught by the comparison',
  source: '000 · Reprocessing is a new versioned production run (a schema evolution that changes meaning)',
  lesson: 'Orders counted in dozens are read as units, so the rebuilt totals fall short; the comparison finds the windows that differ and refuses the cutover, so readers keep the right totals.',
  tick: STREAM_TICK,
  build: reprocessing({ adapters: 'missingForSchema3', compare: true, gated: true }),
  workload: { size: 3 },
  // As for the other reprocessing scenarios, each run is long, so the sweep strikes the first
  // occurrence of each window and message only.
  windows: { maxOccurrence: 1 },
  claims: [servedTotalsClaim, alertOnceClaim, promotionClaim],
  expect: { verdict: 'violated', violations: ['lost effect'] },
});

// Seed 000, "Reprocess without rewriting history": "Select one old event schema and one changed
// rule. Pin schema adapters, code, reference data, event-time policy, and output namespace. Run a
// bounded range, compare invariants, then design cutover. Ensure no email, payment, carrier, or
// irreversible effect is repeated accidentally." The rebuild runs under its own identity with an
// adapter per historical schema (a field missing, one renamed, one whose meaning changed), writes
// to its own namespace with its alert emails gated off, and is promoted only after its results
// match the live ones window by window.
import { defineScenario } from '../src/scenario/scenario.ts';
import { alertOnceClaim, promotionClaim, reprocessing, servedTotalsClaim } from '../models/designs/reprocessing.ts';
import { STREAM_TICK } from '../models/designs/streamPipeline.ts';

export default defineScenario({
  name: 'reprocess-versioned-adapters',
  title: 'A rebuild with an adapter per historical schema, compared before its cutover',
  source: '000 · Reprocessing is a new versioned production run; Reprocess without rewriting history',
  lesson: 'Read through the right adapters, the rebuild reproduces every window’s total, is promoted, and sends no alert a second time.',
  tick: STREAM_TICK,
  build: reprocessing({ adapters: 'perVersion', compare: true, gated: true }),
  workload: { size: 3 },
  // Two operators, a promoter and four sinks make each run long, so the sweep strikes the first
  // occurrence of each window and message only. Striking the first two (82,112 runs with
  // --pairs for the four reprocessing scenarios) gave the same verdicts.
  windows: { maxOccurrence: 1 },
  claims: [servedTotalsClaim, alertOnceClaim, promotionClaim],
  expect: { verdict: 'holds' },
});

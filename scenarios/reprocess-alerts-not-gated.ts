// Seed 003, "A replay that rebuilds an internal order projection should not resend confirmations
// or recapture payments. Side-effect gates, deterministic output identities, versioned
// transformations, checkpoints, and reconciliation turn replay into controlled repair": the
// rebuild of reprocess-versioned-adapters with its alert emails left on.
//
// Analysis. The violation needs no fault: the rebuild closes every window again and, with its
// alerts not gated, sends each one's alert under its own run's message id, so the mail gateway
// cannot recognise it and the planning team gets every alert twice. The totals and the cutover
// hold. The design is at fault: an irreversible effect needs a gate on replay.
import { defineScenario } from '../src/scenario/scenario.ts';
import { alertOnceClaim, promotionClaim, reprocessing, servedTotalsClaim } from '../models/designs/reprocessing.ts';
import { STREAM_TICK } from '../models/designs/streamPipeline.ts';

export default defineScenario({
  name: 'reprocess-alerts-not-gated',
  title: 'A rebuild that sends its alert emails again',
  source: '003 · Late facts need a way back into the truth (side-effect gates); 000 · Reprocess without rewriting history',
  lesson: 'The rebuilt totals are right, but every window closes twice and the planning team gets every alert twice: an irreversible effect needs a gate on replay.',
  tick: STREAM_TICK,
  build: reprocessing({ adapters: 'perVersion', compare: true, gated: false }),
  workload: { size: 3 },
  // Two operators, a promoter and four sinks make each run long, so the sweep strikes the first
  // occurrence of each window and message only. Striking the first two (82,112 runs with
  // --pairs for the four reprocessing scenarios) gave the same verdicts.
  windows: { maxOccurrence: 1 },
  claims: [servedTotalsClaim, alertOnceClaim, promotionClaim],
  expect: { verdict: 'violated', violations: ['duplicate effect'] },
});

// Seed 000, "Ensure no email, payment, carrier, or irreversible effect is repeated accidentally",
// and seed 003, "A replay that rebuilds an internal order projection should not … recapture
// payments": the rebuild of reprocess-versioned-adapters where the live run also charges each
// closed window's total to the partner through a payment provider (a settlement capture, keyed by
// window and run), and the rebuild's captures are gated off like its alert emails.
//
// Analysis. It holds under every single fault (119 runs) and every pair (`windows --pairs`, 7,022
// runs). The rebuild never calls the payment provider, so each window is charged once, by the
// live run; when the provider's answer is lost (`payments->aggregator:sink.posted`), the live
// run charges again under the same key (window and run `live`) and the provider returns the
// capture it made (the `resultKey` guard). The live run waits for the provider's answer before it
// moves on, so a held-back answer only makes it later.
import { defineScenario } from '../src/scenario/scenario.ts';
import { alertOnceClaim, captureOnceClaim, promotionClaim, reprocessing, servedTotalsClaim } from '../models/designs/reprocessing.ts';
import { STREAM_TICK } from '../models/designs/streamPipeline.ts';

export default defineScenario({
  name: 'reprocess-captures-gated',
  title: 'A rebuild with its payment captures gated off',
  source: '000 · Reprocess without rewriting history (no payment repeated); 003 · Late facts need a way back into the truth (side-effect gates)',
  lesson: 'The rebuild recomputes every window and is promoted, and the partner is charged once per window: the replay never reaches the payment provider.',
  tick: STREAM_TICK,
  build: reprocessing({ adapters: 'perVersion', compare: true, gated: true, captures: 'gated' }),
  workload: { size: 3 },
  // As for the other reprocessing scenarios, each run is long, so the sweep strikes the first
  // occurrence of each window and message only.
  windows: { maxOccurrence: 1 },
  claims: [servedTotalsClaim, alertOnceClaim, captureOnceClaim, promotionClaim],
  expect: { verdict: 'holds' },
});

// Seed 003, "A replay that rebuilds an internal order projection should not resend confirmations
// or recapture payments": the design of reprocess-captures-gated with the rebuild's alert emails
// gated and its payment captures left on.
//
// Analysis. The violation needs no fault: the rebuild closes windows 0, 1 and 2 again and charges
// each under its own run's key, which the provider cannot recognise as the live run's capture, so
// the partner is charged twice for every window (duplicate effects on the capture claim). The
// alerts, the served totals and the cutover hold. Every single fault and every pair
// (`windows --pairs`, 8,002 runs) gives the same verdict and no other violation. The design is at
// fault: each irreversible effect needs its own gate on replay, and the alert's gate does not
// cover the payment (seed 000: "Ensure no email, payment, carrier, or irreversible effect is
// repeated accidentally").
import { defineScenario } from '../src/scenario/scenario.ts';
import { alertOnceClaim, captureOnceClaim, promotionClaim, reprocessing, servedTotalsClaim } from '../models/designs/reprocessing.ts';
import { STREAM_TICK } from '../models/designs/streamPipeline.ts';

export default defineScenario({
  name: 'reprocess-captures-not-gated',
  title: 'A rebuild that charges the partner again',
  source: '003 · Late facts need a way back into the truth (side-effect gates); 000 · Reprocess without rewriting history',
  lesson: 'Gating the emails is not enough: every window the rebuild closes is charged again under the rebuild’s own key, and the partner pays twice.',
  tick: STREAM_TICK,
  build: reprocessing({ adapters: 'perVersion', compare: true, gated: true, captures: 'notGated' }),
  workload: { size: 3 },
  // As for the other reprocessing scenarios, each run is long, so the sweep strikes the first
  // occurrence of each window and message only.
  windows: { maxOccurrence: 1 },
  claims: [servedTotalsClaim, alertOnceClaim, captureOnceClaim, promotionClaim],
  // Only the captures repeat: the alert gate, the served totals and the cutover must still hold,
  // so a broken alert gate would not hide behind the duplicate charges this design shows.
  expect: { verdict: 'violated', violations: ['duplicate effect'], claims: ["a closed window's settlement capture"] },
});

// Seed 000, "emit an explicit correction fact linked to the prior result", and seed 003's "Which
// side effects are disabled or given deterministic identities during replay?": the ledger of
// stream-corrections-derived-id, but each correction's identity is drawn when it is processed (a
// random id minted by the operator), not derived from what it corrects.
//
// Analysis. A crash of the aggregator after the correction is acknowledged and before the next
// checkpoint breaks the claim (`duplicate effect`): at `aggregator.waiting` (occurrence 18,
// t = 27 m 10 s; the sweep strikes every occurrence up to the twentieth) f1-3's correction, posted
// at 25 m, is in the store. The aggregator restarts from checkpoint #4 (taken at 23 m 50 s), reads
// f1-3 again, finds window 2 closed, and makes the correction again under a newly drawn identity;
// the store, keyed by identity, takes it as a new correction, and window 2 is corrected for f1-3
// twice. A crash at the aggregator's other windows between the correction and the next checkpoint
// (`polling`, `processing`, `emitting`, `checkpointing`) does the same. A resend after a lost
// acknowledgement holds: it carries the identity drawn the first time. The engine and the model
// are not at fault; the design is: an identity drawn at processing time names the attempt, not
// the fact, so a replay, which processes again, cannot be recognised.
import { defineScenario } from '../src/scenario/scenario.ts';
import { closedPeriodClaim, correctionOnceClaim, STREAM_TICK, streamPipeline } from '../models/designs/streamPipeline.ts';
import { correctionsLedger } from './stream-corrections-derived-id.ts';

export default defineScenario({
  name: 'stream-corrections-drawn-id',
  title: 'Ledger corrections whose identity is drawn when they are processed',
  source: '000 · Event time makes result meaning explicit (a correction fact linked to the prior result); 003 · Late facts need a way back into the truth (deterministic identities on replay)',
  lesson: 'A correction with a freshly drawn identity is a new correction every time a replay makes it: the store keeps both, and the closed window is corrected twice for one late fact.',
  tick: STREAM_TICK,
  build: streamPipeline(correctionsLedger('drawn')),
  workload: { size: 3 },
  claims: [closedPeriodClaim('ledger'), correctionOnceClaim()],
  expect: { verdict: 'violated', violations: ['duplicate effect'] },
});

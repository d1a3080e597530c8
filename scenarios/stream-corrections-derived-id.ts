// Seed 000, "emit an explicit correction fact linked to the prior result" and "A financial ledger
// may never silently revise a closed period; it posts an adjusting entry", with seed 003's "Which
// side effects are disabled or given deterministic identities during replay?": the ledger of
// stream-ledger-corrections (a late fact becomes one correction linked to the closed period),
// posted to a store that keeps each post once by its identity, and each correction's identity
// derived from its window and the fact it carries.
//
// Analysis. Every single fault holds, at every occurrence up to the twentieth (so the crash after
// the correction is posted is struck too), and so does every interleaving check mode explores. In
// every windows run f1-3 comes after window 2 closed (device1 is silent long enough before it) and
// becomes a correction. A crash of the aggregator once that correction is acknowledged and before
// the next checkpoint (`aggregator.waiting`, occurrence 18, t = 27 m 10 s) restores checkpoint #4,
// reads f1-3 again, finds it late again, and posts the correction again; its identity is the same
// (window 2, f1-3), so the store recognises it (guard `resultKey`): one correction. The claim is
// the correction's alone: which facts are late depends on the run (in some interleavings a replay
// finds f1-3 on time, the flip stream-ledger-corrections-restored shows), so it promises no fact a
// correction, only that none gets two. stream-corrections-drawn-id draws the identity instead.
import { defineScenario } from '../src/scenario/scenario.ts';
import { closedPeriodClaim, correctionOnceClaim, STREAM_TICK, streamPipeline, type StreamPipelineOptions } from '../models/designs/streamPipeline.ts';

/** The ledger posted to a store keyed by each post's identity, its corrections' identity derived or drawn. */
export function correctionsLedger(correctionId: 'derived' | 'drawn'): StreamPipelineOptions {
  return { sink: 'idempotent', late: 'correction', idleAfter: '5m', device: { restartAfter: '30m' }, correctionId };
}

export default defineScenario({
  name: 'stream-corrections-derived-id',
  title: 'Ledger corrections whose identity is derived from the window and the fact',
  source: '000 · Event time makes result meaning explicit (a correction fact linked to the prior result); 003 · Late facts need a way back into the truth (deterministic identities on replay)',
  lesson: 'A correction identified by its window and its fact is the same correction when a replay makes it again, so the store keeps it once.',
  tick: STREAM_TICK,
  build: streamPipeline(correctionsLedger('derived')),
  workload: { size: 3 },
  claims: [closedPeriodClaim('ledger'), correctionOnceClaim()],
  expect: { verdict: 'holds' },
});

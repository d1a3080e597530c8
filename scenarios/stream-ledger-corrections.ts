// Seed 000, "'Final' is a product policy. A financial ledger may never silently revise a closed
// period; it posts an adjusting entry", and "emit an explicit correction fact linked to the prior
// result": a late fact, after its window closed, becomes one correction linked to the closed
// result, posted to a store keyed by the fact it corrects. Restoring the aggregator to an older
// checkpoint breaks it: stream-ledger-corrections-restored.
import { defineScenario } from '../src/scenario/scenario.ts';
import { closedPeriodClaim, factCountedOnceClaim, STREAM_TICK, streamPipeline, type StreamPipelineOptions } from '../models/designs/streamPipeline.ts';

/** The design's options, which its restore drill (stream-ledger-corrections-restored) runs too. */
export const ledgerPolicy: StreamPipelineOptions = { sink: 'transactional', late: 'correction', idleAfter: '5m', device: { restartAfter: '30m' } };

export default defineScenario({
  name: 'stream-ledger-corrections',
  title: 'A ledger: late facts become corrections linked to the closed period',
  source: '000 · Event time makes result meaning explicit (late-data policies, finality)',
  lesson: 'A closed period keeps the total readers saw; each late fact is one adjusting entry linked to it, so the fact is counted once and nothing is revised in place.',
  tick: STREAM_TICK,
  build: streamPipeline(ledgerPolicy),
  workload: { size: 3 },
  claims: [closedPeriodClaim('ledger'), factCountedOnceClaim()],
  expect: { verdict: 'holds' },
});

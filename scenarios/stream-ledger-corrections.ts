// Seed 000, "'Final' is a product policy. A financial ledger may never silently revise a closed
// period; it posts an adjusting entry", and "emit an explicit correction fact linked to the prior
// result": a late fact, after its window closed, becomes one correction linked to the closed
// result, posted to a store keyed by the fact it corrects. The aggregator is restorable: a
// `restore` sets it back to the checkpoint before its latest (seed 000's drill, "Restore
// processor state … Verify timers, watermark, sink transactions, and state schema after restore").
//
// Analysis. Every crash and message fault holds: f1-3, late in every run (device1 is silent long
// enough before it that window 2 closes empty), becomes one correction linked to the closed
// period. A restore at `device1.done` (t=143) does not hold. Checkpoint #4 (taken at t=139) had
// just committed every period's total and close and f1-3's correction; the restore goes back to
// checkpoint #3 (t=107, positions 2/2, watermark 53), the restarted aggregator reads f0-3, f1-3
// and both end markers in one poll, counts f1-3 on time in window 2, and commits every period's
// total and close again under a new epoch at t=171. The ledger then shows each period closed
// twice (duplicate effects), totals posted after their close (silent revisions), f1-3 both in a
// correction and in period 2's total, and period 2's version 1 with two contents (a replay
// mismatch). Its pairs (`windows --pairs`, 10,441 runs) give nothing else. The engine and the
// model are not at fault; the design is: the sink transaction is bound to one checkpoint, not to
// the entries (stream-transactional-sink-older-checkpoint), and the restored watermark lets the
// replay decide lateness differently from the first run, so the entries it writes are not the ones
// it repeats. Before this design was restorable it held under every fault.
import { defineScenario } from '../src/scenario.ts';
import { closedPeriodClaim, factCountedOnceClaim, STREAM_TICK, streamPipeline } from '../models/designs/streamPipeline.ts';

export default defineScenario({
  name: 'stream-ledger-corrections',
  title: 'A ledger: late facts become corrections linked to the closed period',
  source: '000 · Event time makes result meaning explicit (late-data policies, finality)',
  lesson: 'Through crashes and message faults a closed period keeps the total readers saw and each late fact is one adjusting entry linked to it; restoring an older checkpoint posts every period again and counts a corrected fact a second time, in place.',
  tick: STREAM_TICK,
  build: streamPipeline({ sink: 'transactional', restorable: true, late: 'correction', idleAfter: '5m', device: { restartAfter: '30m' } }),
  workload: { size: 3 },
  claims: [closedPeriodClaim('ledger'), factCountedOnceClaim()],
  expect: { verdict: 'violated', violations: ['duplicate effect', 'replay mismatch', 'silent revision'] },
});

// Seed 000's drill, "Restore processor state … Verify timers, watermark, sink transactions, and
// state schema after restore", on the ledger: the design of stream-ledger-corrections (a late fact
// becomes one correction linked to the closed period), with the aggregator restorable: a
// `restore` sets it back to the checkpoint before its latest.
//
// Analysis. Every crash and message fault holds, as in stream-ledger-corrections: f1-3, late in
// every run (device1 is silent long enough before it that window 2 closes empty), becomes one
// correction linked to the closed period. A restore at `device1.done` (t=143) does not hold.
// Checkpoint #4 (taken at t=139) had just committed every period's total and close and f1-3's
// correction; the restore goes back to checkpoint #3 (t=107, positions 2/2, watermark 53), the
// restarted aggregator reads f0-3, f1-3 and both end markers in one poll, counts f1-3 on time in
// window 2, and commits every period's total and close again under a new epoch at t=171. The
// ledger then shows each period closed twice (duplicate effects), totals posted after their close
// (silent revisions), f1-3 both in a correction and in period 2's total, and period 2's version 1
// with two contents (a replay mismatch). Every pair (`windows --pairs`, 10,441 runs) gives nothing
// else. The engine and the model are not at fault; the design is: the sink transaction is bound to
// one checkpoint, not to the entries (stream-transactional-sink-older-checkpoint), and the
// restored watermark lets the replay decide lateness otherwise than the first run did, so the
// entries it writes are not the ones it repeats.
import { defineScenario } from '../src/scenario/scenario.ts';
import { STREAM_TICK, streamPipeline } from '../models/designs/streamPipeline.ts';
import ledger, { ledgerPolicy } from './stream-ledger-corrections.ts';

export default defineScenario({
  name: 'stream-ledger-corrections-restored',
  title: 'A corrections ledger whose aggregator is restored to an older checkpoint',
  source: '000 · Restore processor state (verify timers, watermark, sink transactions after restore); Event time makes result meaning explicit (finality)',
  lesson: 'Restoring an older checkpoint posts every closed period again, and the replay counts a fact that was already a correction on time, in place: the ledger revises closed periods and counts one fact twice.',
  tick: STREAM_TICK,
  build: streamPipeline({ ...ledgerPolicy, restorable: true }),
  workload: ledger.workload,
  claims: ledger.claims,
  expect: { verdict: 'violated', violations: ['duplicate effect', 'replay mismatch', 'silent revision'] },
});

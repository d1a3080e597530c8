// Seed 000, "Event time makes result meaning explicit": "Mercury sets an operational watermark
// from the maximum observed event time minus two minutes for a bounded source class. It emits a
// provisional 10-minute demand aggregate when the watermark passes the window end, accepts
// corrections for 15 additional minutes, and then routes later facts to a correction workflow."
// Two devices upload demand facts; a device that crashes stays down for thirty minutes, and a
// partition silent for five minutes is left out of the watermark, so the other device's facts
// keep the windows moving and the silent device's facts, uploaded when it is back, arrive late.
// The aggregator is restorable (seed 000's drill: "Restore processor state … Verify timers,
// watermark, sink transactions, and state schema after restore"): a `restore` sets it back to the
// checkpoint before its latest, as an operator restoring an older checkpoint would.
//
// Analysis. Finality is judged in most runs, the fault-free one included: device1 is silent long
// enough before f1-3 (45 ticks against five minutes) that its partition is left out, device0's
// end marker carries the watermark to the end, window 2 closes empty, and f1-3 comes after it; the
// policy routes it to review and the closed bucket stands, which the finality clause judges. No
// crash, loss, duplicate, delay or reorder breaks a claim, and no restore does until the last
// checkpoint: a restore at `device1.done` (t=143) does. The latest checkpoint (#4) was taken at
// t=139, completed at t=142, and its epoch committed at t=143: every window's result and close,
// and f1-3 in review. The restore goes back to checkpoint #3 (t=107, positions 2/2, watermark
// 53); the restarted aggregator reads f0-3, f1-3 and both end markers in one poll, so f1-3 is on
// time this time and counted in window 2, and every window is posted and closed again under a new
// epoch, committed at t=171. Readers see each close twice (duplicate effects), version 1 of every
// bucket written again after its close (silent revisions), window 2's version 1 empty and then
// with f1-3 (a replay mismatch the sink does not refuse), and f1-3 both in review and in window 2.
// The same restore and its pairs (`windows --pairs`, 10,441 runs) give nothing else. The engine
// and the model are not at fault; the design is, twice: the sink transaction is bound to one
// checkpoint, not to the results (as stream-transactional-sink-older-checkpoint shows), and the
// watermark the older checkpoint brings back, with idleness judged by processing time, lets the
// replay decide lateness differently from the first run. A sink keyed by window and version does
// not mend the second: it recognises the repeated results but refuses the replay's different
// one, and under a pair (device0 down from its start, the restore at its return) loses the facts
// only that result counted. Before this design was restorable it held under every fault.
import { defineScenario } from '../src/scenario.ts';
import { closedPeriodClaim, factCountedOnceClaim, resultDeliveryClaim, STREAM_TICK, streamPipeline } from '../models/designs/streamPipeline.ts';

export default defineScenario({
  name: 'stream-event-time-mercury',
  title: "Mercury's event-time policy: 2-minute watermark, 10-minute windows, 15 minutes of corrections, then review",
  source: '000 · Event time makes result meaning explicit',
  lesson: 'Through crashes and message faults every fact is counted once in its own window, and a late one goes to the correction workflow while the closed bucket stands; restoring an older checkpoint commits every bucket again and decides lateness anew, so a fact already reviewed is counted a second time.',
  tick: STREAM_TICK,
  build: streamPipeline({ sink: 'transactional', restorable: true, watermarkDelay: '2m', window: '10m', lateness: '15m', late: 'review', idleAfter: '5m', device: { restartAfter: '30m' } }),
  workload: { size: 3 },
  claims: [factCountedOnceClaim(), closedPeriodClaim('dashboard'), resultDeliveryClaim('the demand dashboard')],
  expect: { verdict: 'violated', violations: ['duplicate effect', 'conflict mishandled', 'replay mismatch', 'silent revision'] },
});

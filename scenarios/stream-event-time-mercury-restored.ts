// Seed 000's drill, "Restore processor state … Verify timers, watermark, sink transactions, and
// state schema after restore", on Mercury's event-time policy: the design of
// stream-event-time-mercury (2-minute watermark delay, 10-minute windows, 15 minutes of
// corrections, later facts to review, a partition silent five minutes left out), with the
// aggregator restorable: a `restore` sets it back to the checkpoint before its latest, as an
// operator restoring an older checkpoint would.
//
// Analysis. No crash, loss, duplicate, delay or reorder breaks a claim (as in
// stream-event-time-mercury), and no restore does until the last checkpoint: a restore at
// `device1.done` (t=143) does. The latest checkpoint (#4) was taken at t=139, completed at t=142,
// and its epoch committed at t=143: every window's result and close, and f1-3, which came after
// window 2 had closed, in review. The restore goes back to checkpoint #3 (t=107, positions 2/2,
// watermark 53); the restarted aggregator reads f0-3, f1-3 and both end markers in one poll, so
// f1-3 is on time this time and counted in window 2, and every window is posted and closed again
// under a new epoch, committed at t=171. Readers see each close twice (duplicate effects), version
// 1 of every bucket written again after its close (silent revisions), window 2's version 1 empty
// and then with f1-3 (a replay mismatch, and a different result under one key the sink does not
// refuse), and f1-3 both in review and in window 2. Every pair (`windows --pairs`, 10,441 runs)
// gives nothing else. The engine and the model are not at fault; the design is, twice: the sink
// transaction is bound to one checkpoint, not to the results (as
// stream-transactional-sink-older-checkpoint shows), and the watermark the older checkpoint
// brings back, with idleness judged by processing time, lets the replay decide lateness otherwise
// than the first run did. A sink keyed by window and version does not mend the second: it
// recognises the repeated results but refuses the replay's different one, and under a pair
// (device0 down from its start, the restore at its return) loses the facts only that result
// counted.
import { defineScenario } from '../src/scenario/scenario.ts';
import { STREAM_TICK, streamPipeline } from '../models/designs/streamPipeline.ts';
import mercury, { mercuryPolicy } from './stream-event-time-mercury.ts';

export default defineScenario({
  name: 'stream-event-time-mercury-restored',
  title: "Mercury's event-time policy, its aggregator restored to an older checkpoint",
  source: '000 · Restore processor state (verify timers, watermark, sink transactions after restore); Event time makes result meaning explicit',
  lesson: 'Restoring an older checkpoint commits every bucket again and brings back a watermark under which the replay decides lateness anew: a fact already routed to review is counted a second time, in a bucket readers took as closed.',
  tick: STREAM_TICK,
  build: streamPipeline({ ...mercuryPolicy, restorable: true }),
  workload: mercury.workload,
  claims: mercury.claims,
  expect: { verdict: 'violated', violations: ['duplicate effect', 'conflict mishandled', 'replay mismatch', 'silent revision'] },
});

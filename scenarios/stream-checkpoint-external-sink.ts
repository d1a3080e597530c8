// Seed 000, "Stateful processors recover from positions plus consistent state": "Exactly-once
// processor state means the restored state reflects each source record once according to the
// engine's protocol. It does not automatically retract an HTTP call, email, file write, or
// database mutation performed outside the checkpoint transaction."
//
// Analysis. The counting claim holds under every fault: the restored state counts each record
// once. The delivery claim does not, and the design is at fault, as the seed says: a crash at
// `aggregator.emitting` (the results sent, their acknowledgements not yet back) restores the last
// checkpoint, which predates those results, and the replay posts them again; a lost or late
// acknowledgement (`sink->aggregator:sink.posted`), or a post the network duplicates or holds back,
// makes the aggregator post again too. The endpoint keeps every post, so readers see a window's
// result twice.
//
// The aggregator is also restorable (seed 000's drill, "Restore processor state"): a `restore`
// sets it back to the checkpoint before its latest. It adds nothing the crashes had not shown,
// only more of it: restored at `aggregator.emitting` (w0's result in flight), the aggregator goes
// back past checkpoint #3 and posts w0 again; restored at `device1.done`, after w0's and w1's
// results were posted, it posts both again. Every other restore strikes before anything was
// posted after the checkpoint it goes back to, and holds. The counting claim holds under every
// restore too; the verdict and its violation are the same with the restore as without, under
// single faults and pairs (`windows --pairs`, 8,002 runs).
import { defineScenario } from '../src/scenario/scenario.ts';
import { factCountedOnceClaim, resultDeliveryClaim, STREAM_TICK, streamPipeline } from '../models/designs/streamPipeline.ts';

export default defineScenario({
  name: 'stream-checkpoint-external-sink',
  title: 'Checkpointed windows posted to an external endpoint outside the checkpoint',
  source: '000 · Stateful processors recover from positions plus consistent state',
  lesson: 'A restore counts every record once in the state, but the results posted since the checkpoint are posted again: the endpoint sees them twice.',
  tick: STREAM_TICK,
  build: streamPipeline({ sink: 'external', restorable: true }),
  workload: { size: 3 },
  claims: [resultDeliveryClaim("the partner's endpoint"), factCountedOnceClaim()],
  expect: { verdict: 'violated', violations: ['duplicate effect'] },
});

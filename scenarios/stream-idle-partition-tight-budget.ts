// Seed 000, "an idle partition can stall all windows unless idleness is detected safely": the
// design of stream-idle-partition-detected, held to fifteen minutes from a window's end to its
// first result instead of twenty.
//
// Analysis. Without a fault the budget is already nearly spent: window 0 ends at 10 minutes; its
// result is worked out once device0 has been silent for five minutes (or device1's facts move the
// watermark past it), waits for the next checkpoint (every five minutes), and becomes visible when
// that checkpoint's transaction commits in the sink. With the simulated latencies of 10 to 30
// seconds that is 13.8 minutes after the window's end (t=143 for a window ending at t=60); with
// messages landing at once (check mode) it is 10 minutes. One fault on that checkpoint's path,
// or on the checkpoint before it (which the aggregator must finish first), then pushes it past
// fifteen minutes. Windows mode, striking each occurrence up to the fourth, finds:
// - a crash of the aggregator while it checkpoints or prepares: the restart (1.67 minutes), the
//   replay from the last completed checkpoint and the wait for the next one;
// - a lost, delayed (the link held 6.67 minutes) or reordered sink.prepare or sink.commit, and a
//   lost, delayed or reordered sink.prepared reply: the aggregator asks again after its
//   two-minute timeout, and a retry on a held link waits behind the held message;
// - a delayed sink.committed reply of the checkpoint before: the next checkpoint cannot start.
// Check mode (every interleaving, one fault) also finds a held log.fetch while window 0's result
// waits for its checkpoint: the poll cannot finish and the checkpoint at t=120 is missed
// (`npx faultline replay stream-idle-partition-tight-budget --faults 1 --choices 303x0.1.6.168x0`,
// the fetch's 76th occurrence, committed at t=151 against a deadline of t=150).
// The engine and the model are not at fault: a link held for 6.67 minutes is what the delay fault
// means (an outage of that link, which a retry on a new connection would not cross either), and a
// transactional sink makes results visible only when a checkpoint commits. The design is: its
// budget has less slack (a little over a minute with real latencies, five minutes without) than
// one fault costs. stream-idle-partition-detected gives the same design twenty minutes, which
// covers the fault-free 13.8 minutes plus one held link.
import { defineScenario } from '../src/scenario/scenario.ts';
import { factCountedOnceClaim, STREAM_TICK, streamPipeline, timelyResultClaim } from '../models/designs/streamPipeline.ts';
import { idleDetected } from './stream-idle-partition-detected.ts';

export default defineScenario({
  name: 'stream-idle-partition-tight-budget',
  title: 'Idleness detected, but results promised within fifteen minutes',
  source: '000 · Event time makes result meaning explicit (an idle partition can stall all windows)',
  lesson: 'A timeliness promise must cover the fault-free latency plus what one fault costs: here one held link on the checkpoint path makes the first window’s result late.',
  tick: STREAM_TICK,
  build: streamPipeline(idleDetected),
  workload: { size: 3 },
  claims: [timelyResultClaim('15m'), factCountedOnceClaim()],
  windows: { maxOccurrence: 4 },
  expect: { verdict: 'violated', violations: ['lost effect'] },
});

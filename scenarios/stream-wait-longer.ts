// Seed 000, late-data policies: "wait longer, increasing result latency and retained state". The
// dashboard of stream-event-time-mercury (2-minute watermark delay, 10-minute windows, a partition
// silent five minutes left out), but it posts nothing provisional: each window's one result waits
// until the watermark has passed its end plus thirty minutes, long enough for a device that is
// down for thirty, and is final at once; a fact later still goes to the correction workflow. The
// workload runs six facts a device so that windows keep closing while others wait.
//
// Analysis. What waiting buys: every fact is counted once in its window's one result, and no
// bucket readers see ever changes. With device1 crashed at its second `device1.waiting`, the
// seed's policy posts window 1 and 2 without f1-2 and f1-3 and revises both to version 2 later;
// here each window gets one result with every fact in it. What it costs, and why the verdict is
// violated with no fault at all: the first 15-minute timeliness claim fails for windows 0, 1 and
// 2 (lost effects), since the fault-free run posts window 0 at t=272, 212 ticks (35 minutes) after
// its end, where the seed's policy posts it at t=143, 13.8 minutes after; the 45-minute claim
// holds under every single fault and every pair. The state held grows too: the aggregator held
// five windows open at once (its `held open` evidence) where the seed's policy held four. The
// engine and the model are not at fault; the latency is the policy's own price, declared here.
import { defineScenario } from '../src/scenario/scenario.ts';
import { closedPeriodClaim, factCountedOnceClaim, STREAM_TICK, streamPipeline, timelyResultClaim } from '../models/designs/streamPipeline.ts';

export default defineScenario({
  name: 'stream-wait-longer',
  title: 'A dashboard that waits thirty minutes for late facts before it posts anything',
  source: '000 · Event time makes result meaning explicit (wait longer, increasing result latency and retained state)',
  lesson: 'Waiting out a device’s outage counts every fact in one result that never changes, but no result comes within fifteen minutes of its window’s end, and more windows are held open meanwhile.',
  tick: STREAM_TICK,
  build: streamPipeline({ sink: 'transactional', late: 'wait', lateness: '30m', idleAfter: '5m', device: { restartAfter: '30m' } }),
  workload: { size: 6 },
  claims: [factCountedOnceClaim(), closedPeriodClaim('dashboard'), timelyResultClaim('15m'), timelyResultClaim('45m')],
  // Only the 15-minute promise fails, and in every run: the other three claims must hold, so a
  // fact miscounted or a closed total revised would not hide behind its lost effects.
  expect: { verdict: 'violated', violations: ['lost effect'], claims: ["a window's first result, posted within 15 m of its end"] },
});

// A watch on a command stuck in a scenario's own code. A file that loops for ever while it loads
// is stopped by the load watchdog (cli/loadOptions.ts); this one watches what runs after: an
// observer that loops for ever in some end state, a machine whose step never ends. The command's
// thread counts two things in shared memory: the engine's beats (src/base/heartbeat.ts: a run
// started, a state expanded) and a tick its event loop gives every second. A worker thread looks
// every `limit` milliseconds: when neither count moved, the thread has been running the same code
// for that long without the engine getting anywhere, and the worker stops it (the inspector's
// Runtime.terminateExecution, which interrupts a running loop) and marks that it did, and the
// process ends with one line and exit code 2 (cli/runProcess.ts). A long search beats, and a
// command waiting for its sweep threads ticks, so neither is stopped. Should the thread not come
// back within three seconds, the worker says so itself and ends the process with SIGKILL.
// Code run on sweep threads (--workers) is not watched.
import { Worker } from 'node:worker_threads';
import { countBeatsIn } from '../base/heartbeat.ts';

/** How long the engine may make no progress before the command is ended: a minute, unless FAULTLINE_STALL_MS says otherwise. */
export const DEFAULT_STALL_MS = 60_000;

/** The line the process ends with once the watch stopped it. */
export function stallLine(ms: number): string {
  return `faultline: a scenario's code ran ${ms / 1000} s without returning (an endless loop in an observer or a machine?); the command is ended`;
}

/** What the process asks of a watch it started. */
export interface StallWatch {
  /** Whether the watch stopped the command's thread. */
  stopped(): boolean;
  /**
   * Said by the command's thread as it ends after the watch stopped it: the worker then closes the
   * inspector session it stopped it with (a second at most is waited for), so the process ends
   * with its one line, and not with Node's "Waiting for the debugger to disconnect...".
   */
  back(): void;
}

/** Starts the watch. Shared words: 0 beats, 1 ticks, 2 what the watch did (0 nothing, 1 stopped the thread, 2 closed its session, 3 the thread came back), 3 engine stretches without beats now open. */
export function watchStalls(ms: number): StallWatch {
  const words = new Int32Array(new SharedArrayBuffer(16));
  countBeatsIn(words);
  const line = `${stallLine(ms)}\n`;
  const worker = new Worker(
    `const { workerData: { words, ms, line } } = require('node:worker_threads');
const nap = (t) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, t);
let seen = [Atomics.load(words, 0), Atomics.load(words, 1)];
for (;;) {
  nap(ms);
  const now = [Atomics.load(words, 0), Atomics.load(words, 1)];
  if (now[0] !== seen[0] || now[1] !== seen[1] || Atomics.load(words, 3) > 0) {
    seen = now;
    continue;
  }
  Atomics.store(words, 2, 1);
  let session;
  try {
    session = new (require('node:inspector').Session)();
    session.connectToMainThread();
    session.post('Runtime.terminateExecution');
  } catch {
    session = undefined;
  }
  // The thread comes back (word 2 becomes 3) once the loop is stopped and it ends.
  if (session !== undefined && Atomics.wait(words, 2, 1, 3000) !== 'timed-out' && Atomics.load(words, 2) === 3) {
    session.disconnect();
    Atomics.store(words, 2, 2);
    Atomics.notify(words, 2);
    break;
  }
  require('node:fs').writeSync(2, line);
  process.kill(process.pid, 'SIGKILL');
}`,
    { eval: true, workerData: { words, ms, line }, stdout: false, stderr: false },
  );
  worker.unref();
  // The event loop's tick: a thread that waits (for its sweep threads, for a file) is not stuck.
  const tick = setInterval(() => Atomics.add(words, 1, 1), Math.min(1000, Math.max(1, Math.floor(ms / 4))));
  tick.unref();
  return {
    stopped: () => Atomics.load(words, 2) !== 0,
    back: () => {
      Atomics.store(words, 2, 3);
      Atomics.notify(words, 2);
      Atomics.wait(words, 2, 3, 1000);
    },
  };
}

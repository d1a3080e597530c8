// How the command line loads a user's scenario files: within a time limit, 20 s unless
// FAULTLINE_LOAD_TIMEOUT_MS says otherwise (a slow machine, or a test of the limit itself). A
// file whose top-level await never settles is reported once the limit passes; the limit's timer
// does not keep the process alive by itself, so when nothing else can settle the load the
// process reports that at once instead (cli/runProcess.ts). A file stuck in a loop that never
// yields is ended by a watchdog thread. Each loaded file is then run once without faults, and
// its claims read over that run's rows (src/run/referenceProbe.ts).
import { Worker } from 'node:worker_threads';
import type { LoadOptions } from '../scenario/catalogue.ts';
import { InputError } from '../base/inputError.ts';
import { checkReference } from '../run/referenceProbe.ts';
import type { CliIo } from './io.ts';

export const DEFAULT_LOAD_TIMEOUT_MS = 20_000;

/**
 * A watchdog for a load that never gives the event loop back (an endless loop at the top of a
 * file), which no timer of this thread can interrupt: a worker thread waits a second past the
 * limit and, unless the load has ended, stops the script this thread is running (the inspector's
 * Runtime.terminateExecution, which interrupts a running loop), and marks that it did. The load's
 * timer then fires and refuses the file like any other, with exit code 2. Should this thread
 * still not come back within three seconds more (or the inspector be missing), the worker says so
 * on stderr and ends the process with SIGKILL (exit status 137; no handler a scenario installed
 * can hold that signal back). A load that merely awaits is refused by the timer first. One worker
 * serves every load of the process; they talk through shared memory, since a stuck thread reads
 * no messages. Shared words: 0 armed (1) or not (0), 1 a counter each arm and disarm bumps, 2 the
 * wait in milliseconds, 3 the byte length of the line to print, which follows in its own buffer,
 * 4 set once the worker has stopped a script, 5 set once it has closed the inspector session it
 * stopped the script with.
 */
let shared: { readonly words: Int32Array; readonly text: Uint8Array } | undefined;

function watchdog(): NonNullable<typeof shared> {
  if (shared) return shared;
  const words = new Int32Array(new SharedArrayBuffer(24));
  const text = new Uint8Array(new SharedArrayBuffer(4096));
  const worker = new Worker(
    `const { workerData: { words, text } } = require('node:worker_threads');
const stopMain = () => {
  try {
    const session = new (require('node:inspector').Session)();
    session.connectToMainThread();
    session.post('Runtime.terminateExecution');
    return session;
  } catch {
    return undefined;
  }
};
const stuck = (turn, ms) => Atomics.wait(words, 1, turn, ms) === 'timed-out' && Atomics.load(words, 1) === turn && Atomics.load(words, 0) === 1;
for (;;) {
  while (Atomics.load(words, 0) === 0) Atomics.wait(words, 0, 0);
  const turn = Atomics.load(words, 1);
  if (!stuck(turn, Atomics.load(words, 2))) continue;
  Atomics.store(words, 4, 1);
  const session = stopMain();
  if (session !== undefined && !stuck(turn, 3000)) {
    // Connected, the inspector would hold the process open at its exit, and Node would say so on
    // stderr ("Waiting for the debugger to disconnect..."): disconnect, and tell the main thread.
    session.disconnect();
    Atomics.store(words, 5, 1);
    Atomics.notify(words, 5);
    continue;
  }
  require('node:fs').writeSync(2, Buffer.from(text.slice(0, Atomics.load(words, 3))));
  process.kill(process.pid, 'SIGKILL');
}`,
    { eval: true, workerData: { words, text }, stdout: false, stderr: false },
  );
  worker.unref();
  shared = { words, text };
  return shared;
}

function arm(ms: number, line: string): void {
  const { words, text } = watchdog();
  const bytes = new TextEncoder().encode(line).slice(0, text.length);
  text.set(bytes);
  Atomics.store(words, 3, bytes.length);
  Atomics.store(words, 2, ms);
  Atomics.store(words, 4, 0);
  Atomics.store(words, 5, 0);
  Atomics.add(words, 1, 1);
  Atomics.store(words, 0, 1);
  Atomics.notify(words, 0);
  Atomics.notify(words, 1);
}

function disarm(): void {
  const { words } = watchdog();
  Atomics.store(words, 0, 0);
  Atomics.add(words, 1, 1);
  Atomics.notify(words, 1);
  // Where the worker stopped a script, its inspector session is still open: wait (a second at
  // most) for it to close, so the process ends with the refusal's one line and nothing after it.
  if (Atomics.load(words, 4) === 1) Atomics.wait(words, 5, 0, 1000);
}

/** Settles as `load` does, or rejects with an InputError once `ms` milliseconds pass. */
export function withinLimit(ms: number): <T>(load: Promise<T>, origin: string) => Promise<T> {
  return <T>(load: Promise<T>, origin: string) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const limit = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        // Past the limit either its await never settled, or the watchdog stopped a loop that never yielded.
        const why = shared !== undefined && Atomics.load(shared.words, 4) === 1 ? ' and does not yield (an endless loop?)' : ' (a top-level await that never settles?)';
        reject(new InputError(`malformed scenario ${origin}: it did not finish loading within ${ms / 1000} s${why}`));
      }, ms);
      timer.unref();
    });
    arm(ms + 1000, `faultline: malformed scenario ${origin}: it did not finish loading within ${ms / 1000} s and does not yield (an endless loop?); the process is ended\n`);
    return Promise.race([load, limit]).finally(() => {
      clearTimeout(timer);
      disarm();
    });
  };
}

export function loadOptions(io?: Pick<CliIo, 'err'>, env: NodeJS.ProcessEnv = process.env): LoadOptions {
  // A folder's module that is no scenario is skipped, and the user told so in one line each.
  const told: Pick<LoadOptions, 'onSkipped'> = io === undefined ? {} : { onSkipped: (file, why) => io.err(`faultline: skipped ${file}: ${why}`) };
  const raw = env['FAULTLINE_LOAD_TIMEOUT_MS'];
  if (raw === undefined || raw === '') return { within: withinLimit(DEFAULT_LOAD_TIMEOUT_MS), afterLoad: checkReference, ...told };
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(n) || n < 1 || n > 3_600_000) throw new InputError(`FAULTLINE_LOAD_TIMEOUT_MS must be a whole number of milliseconds from 1 to 3600000, got ${JSON.stringify(raw)}`);
  return { within: withinLimit(n), afterLoad: checkReference, ...told };
}

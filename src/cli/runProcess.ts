// The command line as a process: main() on the real stdout and stderr, and a process that ends
// the way the command says whatever a scenario file does. A reader that goes away (`| head -1`)
// ends the command quietly with exit code 0; a scenario that ends the process from a timer, or
// whose loading leaves nothing to wait for, is reported as such with exit code 2 instead of
// passing for a clean exit; and once main() has answered, the process ends even if a scenario
// left a timer running.
import { loadingNow } from '../base/loadingNow.ts';
import { describeUserFault } from '../faults/userFault.ts';
import { ExitCalled } from './exitTrap.ts';
import { main } from './main.ts';
import { userOutputToStderr } from '../base/userOutput.ts';
import { DEFAULT_STALL_MS, stallLine, watchStalls } from './stallWatch.ts';
import { InputError } from '../base/inputError.ts';

const realExit = process.exit.bind(process);

/** Writes `line` to stderr synchronously, for the moments when the process is about to end. */
function lastWords(line: string): void {
  try {
    process.stderr.write(`${line}\n`);
  } catch {
    // stderr is gone too: nothing more can be said.
  }
}

export async function runProcess(argv: readonly string[]): Promise<void> {
  userOutputToStderr();
  let stallMs = DEFAULT_STALL_MS;
  let stalls: ReturnType<typeof watchStalls> | undefined;
  try {
    stallMs = stallLimit(process.env['FAULTLINE_STALL_MS']);
    stalls = watchStalls(stallMs);
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    lastWords(`faultline: ${error.message}`);
    realExit(2);
  }
  // Set once main() has answered or the process has said why it ends, so nothing is said twice.
  let finished = false;
  const onPipeError = (error: NodeJS.ErrnoException) => {
    // The reader has gone (`faultline list | head -1`): there is no one left to tell.
    if (error.code === 'EPIPE' || error.code === 'ERR_STREAM_DESTROYED') realExit(0);
    realExit(2);
  };
  process.stdout.on('error', onPipeError);
  process.stderr.on('error', onPipeError);
  const outside = (error: unknown) => {
    // Only code outside main's own awaits lands here: a scenario's timer, callback or a promise
    // it rejected without waiting for it.
    finished = true;
    if (error instanceof ExitCalled) lastWords(`faultline: ${error.describe()}`);
    else lastWords(`faultline: ${describeUserFault(error) ?? `a callback failed outside any run: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`}`);
    realExit(2);
  };
  process.on('uncaughtException', outside);
  process.on('unhandledRejection', outside);
  process.on('exit', () => {
    if (finished) return;
    // The stall watch stopped a scenario's code that never returned; the command ends here.
    if (stalls?.stopped()) {
      stalls.back();
      lastWords(stallLine(stallMs));
      process.exitCode = 2;
      return;
    }
    // The event loop emptied while main() was still waiting: a top-level await that never settles.
    const loading = loadingNow();
    lastWords(`faultline: ${loading === undefined ? 'the command' : `loading ${loading}`} never finished: it waits on a promise that nothing will ever settle`);
    process.exitCode = 2;
  });
  let code: number;
  try {
    code = await main(argv);
  } finally {
    // A harness bug escapes with its stack trace; it is not a load that never finished.
    finished = true;
  }
  // Let stdout drain, then end the process, so a timer a scenario left running cannot keep it alive.
  process.stdout.write('', () => realExit(code));
}

/** The stall watch's limit: FAULTLINE_STALL_MS when set (a slow machine, or a test of the watch itself), else a minute. */
function stallLimit(raw: string | undefined): number {
  if (raw === undefined || raw === '') return DEFAULT_STALL_MS;
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(n) || n < 100 || n > 3_600_000) throw new InputError(`FAULTLINE_STALL_MS must be a whole number of milliseconds from 100 to 3600000, got ${JSON.stringify(raw)}`);
  return n;
}

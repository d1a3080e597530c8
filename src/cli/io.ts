// Where the command line writes: stdout for results, stderr for refusals and progress. Commands
// take it as a parameter, so tests run them in-process and read what they printed. It also says
// what the streams are: whether stdout and stderr are terminals (progress is drawn only on a
// terminal's stderr), the colour level stdout takes, and the time, which only the command line
// reads (for a progress line's rate), never the engine.
import { performance } from 'node:perf_hooks';
import { stdoutColorLevel, type ColorLevel } from './style.ts';

export interface CliIo {
  out(text: string): void;
  err(text: string): void;
  /** Writes to stderr as is (no newline added): a progress line that redraws itself. */
  progress(text: string): void;
  /** Whether stdout is a terminal. */
  readonly isTTY: boolean;
  /** Whether stderr is a terminal: a progress line is drawn only there. */
  readonly errIsTTY: boolean;
  /** The colour level stdout takes (see style.ts). */
  readonly colorLevel: ColorLevel;
  /** Milliseconds on a monotonic clock, for a progress line's rate and estimate. */
  now(): number;
}

export const processIo: CliIo = {
  out: (text) => process.stdout.write(text.endsWith('\n') ? text : `${text}\n`),
  err: (text) => process.stderr.write(text.endsWith('\n') ? text : `${text}\n`),
  progress: (text) => process.stderr.write(text),
  get isTTY() {
    return Boolean(process.stdout.isTTY);
  },
  get errIsTTY() {
    return Boolean(process.stderr.isTTY);
  },
  get colorLevel() {
    return stdoutColorLevel();
  },
  now: () => performance.now(),
};

/** What a test's io pretends: terminals or not, a colour level, a clock. */
export interface BufferIoOptions {
  readonly errIsTTY?: boolean;
  readonly colorLevel?: ColorLevel;
  /** The clock; by default one that advances a second at every reading, so rates are round. */
  readonly now?: () => number;
}

/** An io that keeps what a command printed, for tests and for callers that render it themselves. */
export function bufferIo(isTTY = false, options: BufferIoOptions = {}): CliIo & { readonly stdout: string; readonly stderr: string } {
  let stdout = '';
  let stderr = '';
  let tick = 0;
  return {
    out: (text) => (stdout += text.endsWith('\n') ? text : `${text}\n`),
    err: (text) => (stderr += text.endsWith('\n') ? text : `${text}\n`),
    progress: (text) => (stderr += text),
    isTTY,
    errIsTTY: options.errIsTTY ?? isTTY,
    colorLevel: options.colorLevel ?? (isTTY ? 1 : 0),
    now: options.now ?? (() => (tick += 1000)),
    get stdout() {
      return stdout;
    },
    get stderr() {
      return stderr;
    },
  };
}

// Where the command line writes: stdout for results, stderr for refusals and progress. Commands
// take it as a parameter, so tests run them in-process and read what they printed.

export interface CliIo {
  out(text: string): void;
  err(text: string): void;
  /** Writes to stderr as is (no newline added): a progress line that redraws itself. */
  progress(text: string): void;
  readonly isTTY: boolean;
}

export const processIo: CliIo = {
  out: (text) => process.stdout.write(text.endsWith('\n') ? text : `${text}\n`),
  err: (text) => process.stderr.write(text.endsWith('\n') ? text : `${text}\n`),
  progress: (text) => process.stderr.write(text),
  get isTTY() {
    return Boolean(process.stdout.isTTY);
  },
};

/** An io that keeps what a command printed, for tests and for callers that render it themselves. */
export function bufferIo(isTTY = false): CliIo & { readonly stdout: string; readonly stderr: string } {
  let stdout = '';
  let stderr = '';
  return {
    out: (text) => (stdout += text.endsWith('\n') ? text : `${text}\n`),
    err: (text) => (stderr += text.endsWith('\n') ? text : `${text}\n`),
    progress: (text) => (stderr += text),
    isTTY,
    get stdout() {
      return stdout;
    },
    get stderr() {
      return stderr;
    },
  };
}

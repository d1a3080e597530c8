// Where a scenario's own console output goes: to stderr. A command's stdout is its answer (a
// JSON document, a table, a replay's trace), and a `console.log` at the top of a scenario file
// or in an observer, printed into it, would break a reader of `--json`. The command's own output
// is written to stdout directly, never through the console.

/** Sends console.log, console.info and console.debug to stderr, as console.error and console.warn already go. */
export function userOutputToStderr(): void {
  const toStderr = console.error.bind(console);
  console.log = toStderr;
  console.info = toStderr;
  console.debug = toStderr;
}

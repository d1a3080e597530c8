// Holds SIGINT and SIGTERM back while a step that must finish as a whole runs (swapping a report
// set into place), then lets them take effect: an interrupted command still ends as interrupted,
// but after the step, not in its middle. The step is synchronous, so a signal that arrives
// during it waits in the event loop; after it, the loop is given a turn to deliver that signal
// before the handlers are removed and the signal raised again with its default effect.
export async function deferSignals<T>(step: () => T): Promise<T> {
  const caught: NodeJS.Signals[] = [];
  const hold = (signal: NodeJS.Signals) => caught.push(signal);
  process.on('SIGINT', hold);
  process.on('SIGTERM', hold);
  try {
    return step();
  } finally {
    await new Promise((r) => setImmediate(r));
    await new Promise((r) => setImmediate(r));
    process.off('SIGINT', hold);
    process.off('SIGTERM', hold);
    if (caught.length > 0) process.kill(process.pid, caught[0]);
  }
}

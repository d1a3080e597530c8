// How the engine shows a long command is still getting somewhere: it counts a beat as each run
// starts and as a search expands each state. The command line's stall watch (src/cli/stallWatch.ts)
// reads the count from another thread and ends a command whose count stands still while its
// thread is stuck, as a scenario's own code stuck in an endless loop (an observer that never
// returns, a machine that steps for ever) would leave it. Without a watch, a beat is nothing.
// Engine code that runs long without a beat and without the scenario's code (fast-check stepping
// over the runs before the one a path names) says so, and the watch waits for it.

let words: Int32Array | undefined;

/** Where beats are counted: word 0 of `shared`; undefined stops counting. */
export function countBeatsIn(shared: Int32Array | undefined): void {
  words = shared;
}

/** One step of progress. */
export function beat(): void {
  if (words !== undefined) Atomics.add(words, 0, 1);
}

/**
 * Marks engine work that runs long without beats and without the scenario's code (word 3 of
 * `shared` counts such stretches open); the returned function ends the stretch, once.
 */
export function beatless(): () => void {
  const at = words;
  if (at === undefined) return () => undefined;
  Atomics.add(at, 3, 1);
  let open = true;
  return () => {
    if (open) Atomics.sub(at, 3, 1);
    open = false;
  };
}

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

/** One step of progress. It ends a stretch without beats, if one is open: the engine got somewhere. */
export function beat(): void {
  if (words === undefined) return;
  Atomics.add(words, 0, 1);
  if (stretchOpen) endStretch();
}

let stretchOpen = false;

function endStretch(): void {
  stretchOpen = false;
  if (words !== undefined) Atomics.store(words, 3, 0);
}

/**
 * Marks engine work that runs long without beats and without the scenario's code (word 3 of
 * `shared` is 1 while it lasts). It ends at the next beat, which comes before any of the
 * scenario's code runs (each run beats as it starts), or when the returned function is called.
 */
export function beatless(): () => void {
  if (words === undefined) return () => undefined;
  Atomics.store(words, 3, 1);
  stretchOpen = true;
  return () => {
    if (stretchOpen) endStretch();
  };
}

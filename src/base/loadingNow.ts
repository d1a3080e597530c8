// Which user's scenario file is loading right now: what the process names if it ends in the
// middle of a load (a top-level await that nothing will settle). Kept apart from the loader so
// the command line's process entry can ask without loading the loader and the engine with it.
let current: string | undefined;

export function loadingNow(): string | undefined {
  return current;
}

export function setLoading(origin: string | undefined): void {
  current = origin;
}

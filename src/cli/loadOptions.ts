// How the command line loads a user's scenario files: within a time limit, 20 s unless
// FAULTLINE_LOAD_TIMEOUT_MS says otherwise (a slow machine, or a test of the limit itself). A
// file whose top-level await never settles is reported once the limit passes; the limit's timer
// does not keep the process alive by itself, so when nothing else can settle the load the
// process reports that at once instead (cli/runProcess.ts).
import type { LoadOptions } from '../catalogue.ts';
import { InputError } from '../inputError.ts';

export const DEFAULT_LOAD_TIMEOUT_MS = 20_000;

/** Settles as `load` does, or rejects with an InputError once `ms` milliseconds pass. */
export function withinLimit(ms: number): <T>(load: Promise<T>, origin: string) => Promise<T> {
  return <T>(load: Promise<T>, origin: string) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const limit = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new InputError(`malformed scenario ${origin}: it did not finish loading within ${ms / 1000} s (a top-level await that never settles?)`)), ms);
      timer.unref();
    });
    return Promise.race([load, limit]).finally(() => clearTimeout(timer));
  };
}

export function loadOptions(env: NodeJS.ProcessEnv = process.env): LoadOptions {
  const raw = env['FAULTLINE_LOAD_TIMEOUT_MS'];
  if (raw === undefined || raw === '') return { within: withinLimit(DEFAULT_LOAD_TIMEOUT_MS) };
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(n) || n < 1 || n > 3_600_000) throw new InputError(`FAULTLINE_LOAD_TIMEOUT_MS must be a whole number of milliseconds from 1 to 3600000, got ${JSON.stringify(raw)}`);
  return { within: withinLimit(n) };
}

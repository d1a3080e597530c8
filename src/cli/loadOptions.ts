// How the command line loads a user's scenario files: the loading time limit, which
// FAULTLINE_LOAD_TIMEOUT_MS may change (a slow machine, or a test of the limit itself).
import { DEFAULT_LOAD_TIMEOUT_MS, type LoadOptions } from '../catalogue.ts';
import { InputError } from '../inputError.ts';

export function loadOptions(env: NodeJS.ProcessEnv = process.env): LoadOptions {
  const raw = env['FAULTLINE_LOAD_TIMEOUT_MS'];
  if (raw === undefined || raw === '') return { timeoutMs: DEFAULT_LOAD_TIMEOUT_MS };
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(n) || n < 1 || n > 3_600_000) throw new InputError(`FAULTLINE_LOAD_TIMEOUT_MS must be a whole number of milliseconds from 1 to 3600000, got ${JSON.stringify(raw)}`);
  return { timeoutMs: n };
}

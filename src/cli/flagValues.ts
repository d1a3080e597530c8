// Reading the values of the command line's flags. Each refusal is an InputError naming the flag
// and the value, so the user sees one clear line and exit code 2.
import { FAULT_KINDS, type FaultKind, type FaultPlan } from '../faults/faults.ts';
import { readPlan } from '../faults/readPlan.ts';
import { InputError } from '../base/inputError.ts';
import { didYouMean } from '../base/nearest.ts';
import { thousands } from '../report/thousands.ts';
import type { ReportForm } from '../report/writeReports.ts';

/** A whole number between `min` and `max`; undefined when the flag was not given. */
export function wholeNumber(flag: string, value: string | true | undefined, min = 0, max = Number.MAX_SAFE_INTEGER): number | undefined {
  if (value === undefined) return undefined;
  if (value === true || !/^-?\d+$/.test(value.trim())) throw new InputError(`${flag} must be a whole number, got ${JSON.stringify(value)}`);
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n > max) throw new InputError(`${flag} is too large, got ${value} (at most ${thousands(max)})`);
  if (n < min) throw new InputError(`${flag} must be at least ${min}, got ${value}`);
  return n;
}

/** A string flag's value, or undefined. */
export function text(value: string | true | undefined): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** A fault plan given as JSON (the form replay lines carry). */
export function planFlag(value: string | true | undefined): FaultPlan | undefined {
  if (value === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(String(value));
  } catch {
    throw new InputError(`--plan must be a JSON array of faults, got ${JSON.stringify(value)}`);
  }
  return readPlan(parsed, '--plan');
}

/** Fault kinds joined by commas: `crash,lose`. */
export function kindsFlag(value: string | true | undefined): FaultKind[] | undefined {
  if (value === undefined) return undefined;
  const list = String(value).split(',').map((k) => k.trim());
  if (value === true || list.length === 0 || list.some((k) => k === '')) throw new InputError(`--kinds must be fault kinds joined by commas (${FAULT_KINDS.join(',')}), got ${JSON.stringify(value)}`);
  for (const k of list) if (!FAULT_KINDS.includes(k as FaultKind)) throw new InputError(`--kinds: no fault kind ${JSON.stringify(k)}${didYouMean(k, FAULT_KINDS)}; valid: ${FAULT_KINDS.join(', ')}`);
  return FAULT_KINDS.filter((k) => list.includes(k));
}

/** The names `--reporter` takes, each for the forms it writes. */
const REPORTERS: Readonly<Record<string, readonly ReportForm[]>> = {
  html: ['html'],
  md: ['md'],
  markdown: ['md'],
  json: ['json'],
  'json.gz': ['json.gz'],
  junit: ['junit'],
  all: ['md', 'html', 'json', 'junit'],
};

/** `--reporter html,junit`: the report forms to write, in the set's order; undefined when not given. */
export function reportersFlag(flag: string, value: string | true | undefined): ReportForm[] | undefined {
  if (value === undefined) return undefined;
  const names = String(value).split(',').map((n) => n.trim());
  const known = Object.keys(REPORTERS);
  if (value === true || names.some((n) => n === '')) throw new InputError(`${flag} must be report forms joined by commas (${known.join(', ')}), got ${JSON.stringify(value)}`);
  for (const n of names) if (!Object.hasOwn(REPORTERS, n)) throw new InputError(`${flag}: no report form ${JSON.stringify(n)}${didYouMean(n, known)}; valid: ${known.join(', ')}`);
  const forms = new Set(names.flatMap((n) => REPORTERS[n]!));
  return (['md', 'html', 'json', 'json.gz', 'junit'] as const).filter((f) => forms.has(f));
}

// Parsing of the figures the command line accepts. Each refusal is an InputError naming the
// flag and the value, so the user sees one clear line and exit code 2.
import { InputError } from '../inputError.ts';
import { FAULT_KINDS, type Fault, type FaultPlan } from '../faults.ts';

export function wholeNumber(flag: string, value: string | undefined, min = 0): number | undefined {
  if (value === undefined) return undefined;
  if (!/^-?\d+$/.test(value.trim())) throw new InputError(`${flag} must be a whole number, got ${JSON.stringify(value)}`);
  const n = Number(value);
  if (!Number.isSafeInteger(n)) throw new InputError(`${flag} is too large, got ${value}`);
  if (n < min) throw new InputError(`${flag} must be at least ${min}, got ${value}`);
  return n;
}

export function planFlag(value: string | undefined): FaultPlan | undefined {
  if (value === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    throw new InputError(`--plan must be a JSON array of faults, got ${JSON.stringify(value)}`);
  }
  if (!Array.isArray(parsed)) throw new InputError('--plan must be a JSON array of faults');
  return parsed.map((f: Partial<Fault> & Record<string, unknown>, i) => {
    const where = `--plan fault ${i + 1}`;
    if (!f || typeof f !== 'object' || !FAULT_KINDS.includes(f.kind as never)) throw new InputError(`${where}: kind must be one of ${FAULT_KINDS.join(', ')}`);
    if (!Number.isInteger(f.occurrence) || (f.occurrence as number) < 1) throw new InputError(`${where}: occurrence must be a positive whole number`);
    if (f.kind === 'crash') {
      if (typeof f['window'] !== 'string') throw new InputError(`${where}: a crash needs a window`);
      return { kind: 'crash', window: f['window'], occurrence: f.occurrence as number };
    }
    if (typeof f['point'] !== 'string') throw new InputError(`${where}: a ${f.kind} fault needs a point`);
    return { kind: f.kind, point: f['point'], occurrence: f.occurrence as number } as Fault;
  });
}

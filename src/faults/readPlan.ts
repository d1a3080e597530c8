// A fault plan as a caller gives it: parsed JSON from `--plan`, or an array handed to `replay`,
// `runScenario` or `sweepPlan` through the API. Both are read by the same rules, so a misspelt
// kind or field is the same one-line InputError whichever way the plan came in, never a TypeError
// from deep inside the run. Each fault is read by its kind's own descriptor.
import { FAULT_KINDS, faultDescriptor, type Fault, type FaultDescriptor, type FaultPlan } from './faults.ts';
import type { PlanEntry } from './faultKind.ts';
import { InputError } from '../base/inputError.ts';
import { didYouMean } from '../base/nearest.ts';

/** The most faults a plan may hold: more than any search strikes in one run. */
export const MOST_PLANNED_FAULTS = 64;

/** Reads a plan, each refusal naming `label` (`--plan`, `replay: plan`) and the fault by its place in the list. */
export function readPlan(parsed: unknown, label: string): FaultPlan {
  if (!Array.isArray(parsed)) throw new InputError(`${label} must be a JSON array of faults`);
  if (parsed.length > MOST_PLANNED_FAULTS) throw new InputError(`${label} has ${parsed.length} faults; at most ${MOST_PLANNED_FAULTS} are accepted`);
  return parsed.map((f: Partial<Fault> & Record<string, unknown>, i) => {
    const where = `${label} fault ${i + 1}`;
    if (!f || typeof f !== 'object') throw new InputError(`${where}: must be an object such as {"kind":"crash","window":"relay.afterBrokerAccept","occurrence":1}`);
    if (!FAULT_KINDS.includes(f.kind as never)) throw new InputError(`${where}: kind must be one of ${FAULT_KINDS.join(', ')}, got ${JSON.stringify(f.kind)}${didYouMean(String(f.kind), FAULT_KINDS)}`);
    if (!Number.isSafeInteger(f.occurrence) || (f.occurrence as number) < 1) throw new InputError(`${where}: occurrence must be a positive whole number`);
    const kind = faultDescriptor(String(f.kind))!;
    refuseUnknownFields(where, f, kind);
    const fail = (message: string): never => {
      throw new InputError(`${where}: ${message}`);
    };
    return kind.read(f as PlanEntry, fail) as Fault;
  });
}

/** The fields a fault of its kind has: a field beyond them is a mistake (a misspelt `occurence`), never ignored. */
function refuseUnknownFields(where: string, f: Record<string, unknown>, kind: FaultDescriptor): void {
  const fields = ['kind', ...kind.fields, 'occurrence'];
  const extra = Object.keys(f).find((k) => !fields.includes(k));
  if (extra !== undefined) throw new InputError(`${where}: a ${String(f['kind'])} fault has no field ${JSON.stringify(extra)}${didYouMean(extra, fields)} (its fields: ${fields.join(', ')})`);
}

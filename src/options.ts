// Checking the options a design is drawn with. Each design builder and component factory
// declares its options as a zod schema (typed, so an editor completes them; strict, so an
// unknown key is an error), and parses what the scenario gave it here: the first problem becomes
// one line naming the option, what was given and the nearest valid key or value, as bad input
// (exit code 2). A typo such as `mark: 'beforeSnd'` can then never run the default design.
import { z } from 'zod';
import { InputError } from './inputError.ts';
import { didYouMean } from './nearest.ts';

/** A duration written with its unit ('30s', '24h', '7d', '3 ticks'); converted to ticks when the design is built. */
export const duration = z
  .string()
  .regex(/^\s*\d+(?:\.\d+)?\s*(ms|s|m|h|d|ticks?)\s*$/, "a duration with its unit, such as '250ms', '30s', '15m', '24h', '7d' or '3 ticks'");

/** The object schema at a path of a schema, through optional, default and nullable wrappers. */
function objectAt(schema: z.ZodType, path: readonly PropertyKey[]): z.ZodObject | undefined {
  let s: z.ZodType | undefined = schema;
  for (let i = 0; i <= path.length && s; i++) {
    for (let unwrap = 0; unwrap < 8 && s; unwrap++) {
      const def: { type?: string; innerType?: z.ZodType } | undefined = (s as { _zod?: { def?: { type?: string; innerType?: z.ZodType } } })._zod?.def;
      if (def?.type === 'optional' || def?.type === 'default' || def?.type === 'nullable' || def?.type === 'readonly') s = def.innerType;
      else break;
    }
    if (i === path.length) break;
    const seg = path[i];
    if (s instanceof z.ZodObject) s = (s.shape as Record<string, z.ZodType>)[String(seg)];
    else if (s instanceof z.ZodArray) s = s.element as z.ZodType;
    else if (s instanceof z.ZodRecord) s = (s as unknown as { _zod: { def: { valueType: z.ZodType } } })._zod.def.valueType;
    else return undefined;
  }
  return s instanceof z.ZodObject ? s : undefined;
}

function name(where: string, path: readonly PropertyKey[]): string {
  return path.length === 0 ? where : `${where} option ${path.map(String).join('.')}`;
}

/** Parses `value` with `schema`, or throws one InputError line about the first problem. */
export function parseOptions<S extends z.ZodType>(where: string, schema: S, value: unknown): z.output<S> {
  // Without zod's compiled fast path: it writes a parser with `new Function` on an object
  // schema's first parse, which pays only over many parses, and each schema here parses a few
  // option objects while a design is built.
  const r = schema.safeParse(value, { jitless: true });
  if (r.success) return r.data;
  const issue = r.error.issues[0]!;
  const at = name(where, issue.path);
  switch (issue.code) {
    case 'unrecognized_keys': {
      const key = String(issue.keys[0]);
      const known = Object.keys(objectAt(schema, issue.path)?.shape ?? {});
      throw new InputError(`${at === where ? where : at} has no option ${key}${didYouMean(key, known)}${known.length ? `; options: ${known.join(', ')}` : ''}`);
    }
    case 'invalid_value': {
      const given = lookup(value, issue.path);
      const values = issue.values.map(String);
      throw new InputError(`${at} has no value ${JSON.stringify(given)}${didYouMean(String(given), values)}; expected ${values.map((v) => JSON.stringify(v)).join(', ')}`);
    }
    case 'invalid_type': {
      const given = lookup(value, issue.path);
      throw new InputError(`${at} must be ${issue.expected === 'int' ? 'a whole number' : `a ${issue.expected}`}, got ${given === undefined ? 'nothing' : JSON.stringify(given)}`);
    }
    default:
      throw new InputError(`${at}: ${issue.message}${issue.path.length ? `, got ${JSON.stringify(lookup(value, issue.path))}` : ''}`);
  }
}

function lookup(value: unknown, path: readonly PropertyKey[]): unknown {
  let v = value;
  for (const seg of path) v = v !== null && typeof v === 'object' ? (v as Record<PropertyKey, unknown>)[seg] : undefined;
  return v;
}

export { z };

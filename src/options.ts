// Checking the options a design is drawn with. Each design builder and component factory
// declares its options as a schema (src/schema.ts: zod's names and shapes, typed, so an editor
// completes them; strict, so an unknown key is an error), and parses what the scenario gave it
// here: the first problem becomes one line naming the option, what was given and the nearest
// valid key or value, as bad input (exit code 2). A typo such as `mark: 'beforeSnd'` can then
// never run the default design.
import { InputError } from './inputError.ts';
import { didYouMean } from './nearest.ts';
import * as z from './schema.ts';

/** A duration written with its unit ('30s', '24h', '7d', '3 ticks'); converted to ticks when the design is built. */
export const duration = z
  .string()
  .regex(/^\s*\d+(?:\.\d+)?\s*(ms|s|m|h|d|ticks?)\s*$/, "a duration with its unit, such as '250ms', '30s', '15m', '24h', '7d' or '3 ticks'");

/** The object schema at a path of a schema, through optional wrappers, lists, tuples and records. */
function objectAt(schema: z.Schema, path: readonly PropertyKey[]): z.ObjectSchema<Readonly<Record<string, z.Schema>>> | undefined {
  let s: z.Schema | undefined = schema;
  for (let i = 0; i <= path.length && s; i++) {
    s = z.unwrapOptional(s);
    if (i === path.length) break;
    const seg = path[i];
    if (s instanceof z.ObjectSchema) s = (s.shape as Readonly<Record<string, z.Schema>>)[String(seg)];
    else if (s instanceof z.ArraySchema) s = s.element as z.Schema;
    else if (s instanceof z.TupleSchema) s = (s.items as readonly z.Schema[])[Number(seg)];
    else if (s instanceof z.RecordSchema) s = s.valueType as z.Schema;
    else return undefined;
  }
  return s instanceof z.ObjectSchema ? (s as z.ObjectSchema<Readonly<Record<string, z.Schema>>>) : undefined;
}

function name(where: string, path: readonly PropertyKey[]): string {
  return path.length === 0 ? where : `${where} option ${path.map(String).join('.')}`;
}

/** Parses `value` with `schema`, or throws one InputError line about the first problem. */
export function parseOptions<S extends z.Schema<unknown, unknown>>(where: string, schema: S, value: unknown): z.output<S> {
  const r = schema.safeParse(value);
  if (r.success) return r.data as z.output<S>;
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
      const expected = issue.values.map((v) => JSON.stringify(v)).join(', ');
      if (given === undefined) throw new InputError(`${at} is missing; expected ${expected}`);
      throw new InputError(`${at} has no value ${JSON.stringify(given)}${didYouMean(String(given), values)}; expected ${expected}`);
    }
    case 'invalid_type': {
      const given = lookup(value, issue.path);
      throw new InputError(`${at} ${issue.message}, got ${given === undefined ? 'nothing' : JSON.stringify(given)}`);
    }
    default: {
      // A bound's own wording ("must be at least 1") follows the option's name; a schema's message is quoted after a colon.
      const given = issue.path.length ? `, got ${JSON.stringify(lookup(value, issue.path))}` : '';
      throw new InputError(`${at}${issue.message.startsWith('must ') ? ' ' : ': '}${issue.message}${given}`);
    }
  }
}

function lookup(value: unknown, path: readonly PropertyKey[]): unknown {
  let v = value;
  for (const seg of path) v = v !== null && typeof v === 'object' ? (v as Record<PropertyKey, unknown>)[seg] : undefined;
  return v;
}

export { z };

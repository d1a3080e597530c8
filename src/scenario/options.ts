// Checking the options a design is drawn with. Each design builder and component factory
// declares its options as a schema (src/base/schema.ts: zod's names and shapes, typed, so an editor
// completes them; strict, so an unknown key is an error), and parses what the scenario gave it
// here: the first problem becomes one line naming the option, what was given and the nearest
// valid key or value, as bad input (exit code 2). A typo such as `mark: 'beforeSnd'` can then
// never run the default design.
import { InputError } from '../base/inputError.ts';
import { didYouMean } from '../base/nearest.ts';
import * as z from '../base/schema.ts';

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

/** How an input names its parts in a message: a design's options, or a scenario's and a record's fields. */
export type Noun = 'option' | 'field';

function name(where: string, path: readonly PropertyKey[], noun: Noun): string {
  if (path.length === 0) return where;
  // A design's options read `relay option tables.t.key`; a scenario's fields `claims[0].facts`.
  if (noun === 'option') return `${where} option ${path.map(String).join('.')}`;
  const field = path.map((seg, i) => (typeof seg === 'number' ? `[${seg}]` : i === 0 ? String(seg) : `.${String(seg)}`)).join('');
  return where === '' ? field : `${where} ${field}`;
}

/** Parses `value` with `schema`, or throws one InputError line naming every problem, each at its path. */
export function parseOptions<S extends z.Schema<unknown, unknown>>(where: string, schema: S, value: unknown, noun: Noun = 'option'): z.output<S> {
  const r = schema.safeParse(value);
  if (r.success) return r.data as z.output<S>;
  throw new InputError(problemsOf(where, schema, value, r.error.issues, noun).join('; '));
}

/**
 * What a workload option (a client's commands, a publisher's records: a function of the
 * workload's size) gives for `size`, checked against `schema`. The function is called only when
 * the design is built, so its result is checked there: a misspelt field or a value of the wrong
 * shape is refused in one line, rather than run as a command no service understands, which
 * reads as a phantom effect or as a claim nothing exercised.
 */
export function sizedValue<S extends z.Schema<unknown, unknown>>(where: string, schema: S, fn: (size: number) => unknown, size: number): z.output<S> {
  const value = fn(size);
  const r = schema.safeParse(value);
  if (r.success) return r.data as z.output<S>;
  // The first item at fault is enough to mend the rest: a misspelt field is misspelt in every one.
  const first = r.error.issues[0]!.path[0];
  const issues = r.error.issues.filter((i) => i.path[0] === first);
  throw new InputError(problemsOf(`${where}(${size})`, schema, value, issues, 'field').join('; '));
}

/** A record a workload publishes or uploads: flat, each field text, a number, a boolean or null. */
export const payloads = z.array(z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])));

/** Each problem of a refused value as the phrase a user reads, in the order the schema lists its keys. */
export function problemsOf(where: string, schema: z.Schema, value: unknown, issues: readonly z.Issue[], noun: Noun = 'option'): string[] {
  return issues.map((issue) => problemOf(where, schema, value, issue, noun));
}

function problemOf(where: string, schema: z.Schema, value: unknown, issue: z.Issue, noun: Noun): string {
  const at = name(where, issue.path, noun);
  switch (issue.code) {
    case 'unrecognized_keys': {
      const key = String(issue.keys[0]);
      const known = issue.known.length > 0 ? issue.known : Object.keys(objectAt(schema, issue.path)?.shape ?? {});
      const more = issue.keys.length > 1 ? ` (nor ${issue.keys.slice(1).map(String).join(', ')})` : '';
      return `${at} has no ${noun} ${key}${didYouMean(key, known)}${more}${known.length ? `; ${noun}s: ${known.join(', ')}` : ''}`;
    }
    case 'invalid_value': {
      const given = lookup(value, issue.path);
      const values = issue.values.map(String);
      const expected = issue.values.map((v) => JSON.stringify(v)).join(', ');
      if (given === undefined) return `${at} is missing; expected ${expected}`;
      return `${at} has no value ${JSON.stringify(given)}${didYouMean(String(given), values)}; expected ${expected}`;
    }
    case 'invalid_type': {
      const given = lookup(value, issue.path);
      return `${at} ${issue.message}, got ${given === undefined ? 'nothing' : shown(given)}`;
    }
    case 'invalid_union':
      return `${at} must be ${issue.message.replace(/^expected /, '')}, got ${shown(lookup(value, issue.path))}`;
    default: {
      // A bound's own wording ("must be at least 1") follows the option's name; a schema's message is quoted after a colon.
      const given = issue.path.length ? `, got ${shown(lookup(value, issue.path))}` : '';
      return `${at}${issue.message.startsWith('must ') ? ' ' : ': '}${issue.message}${given}`;
    }
  }
}

/** A value as a message quotes it: JSON, or what it is when JSON has no word for it (a function). */
function shown(value: unknown): string {
  if (typeof value === 'function') return 'a function';
  if (value === undefined) return 'nothing';
  // JSON writes NaN and the infinities as null, which is not what the user wrote.
  if (typeof value === 'number' && !Number.isFinite(value)) return String(value);
  const json = JSON.stringify(value);
  return json === undefined ? String(value) : json.length > 60 ? `${json.slice(0, 57)}...` : json;
}

function lookup(value: unknown, path: readonly PropertyKey[]): unknown {
  let v = value;
  for (const seg of path) v = v !== null && typeof v === 'object' ? (v as Record<PropertyKey, unknown>)[seg] : undefined;
  return v;
}

export { z };

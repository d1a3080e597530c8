// The JSON Schema (draft 2020-12) of an input, generated from the schema that validates it
// (src/base/schema.ts), so the two can never disagree: the scenario, a design's options, the decision
// record. Editors read it to complete and check a file; `faultline init` writes its starting files
// from it, with each field's description as a comment. A value JSON cannot hold (a scenario's
// `build`, a claim's observers) is described by its TypeScript type under `x-typescript`.
import * as z from './schema.ts';

/** A JSON Schema, as plain data. */
export type JsonSchema = { readonly [key: string]: unknown };

const DRAFT = 'https://json-schema.org/draft/2020-12/schema';

/** The JSON Schema of `schema`, with `$schema`, `$id` and `title` at its top. */
export function toJSONSchema(schema: z.Schema, top: { readonly id: string; readonly title: string }): JsonSchema {
  return { $schema: DRAFT, $id: top.id, title: top.title, ...jsonOf(schema) };
}

/** One schema's JSON Schema, with its description and TypeScript type when it has them. */
export function jsonOf(schema: z.Schema): JsonSchema {
  const meta = { ...z.unwrapOptional(schema).metadata, ...schema.metadata };
  return {
    ...(meta.description === undefined ? {} : { description: meta.description }),
    ...bodyOf(z.unwrapOptional(schema)),
    ...(meta.typescript === undefined ? {} : { 'x-typescript': meta.typescript }),
  };
}

function bodyOf(s: z.Schema): JsonSchema {
  if (s instanceof z.StringSchema) return stringOf(s);
  if (s instanceof z.NumberSchema) return numberOf(s);
  if (s instanceof z.BooleanSchema) return { type: 'boolean' };
  if (s instanceof z.NullSchema) return { type: 'null' };
  if (s instanceof z.ValuesSchema) return s.kind === 'literal' ? { const: s.values[0] } : { enum: [...s.values] };
  if (s instanceof z.ArraySchema) return { type: 'array', items: jsonOf(s.element as z.Schema), ...sizes(s.bounds, 'Items') };
  if (s instanceof z.TupleSchema) {
    const items = s.items as readonly z.Schema[];
    return { type: 'array', prefixItems: items.map(jsonOf), minItems: items.length, maxItems: items.length };
  }
  if (s instanceof z.RecordSchema) return { type: 'object', propertyNames: jsonOf(s.keyType as z.Schema), additionalProperties: jsonOf(s.valueType as z.Schema) };
  if (s instanceof z.UnionSchema) return { anyOf: (s.options as readonly z.Schema[]).map(jsonOf) };
  if (s instanceof z.ObjectSchema) return objectOf(s as z.ObjectSchema<Readonly<Record<string, z.Schema>>>);
  // A custom check: JSON says nothing of it; its description and TypeScript type do.
  return {};
}

function stringOf(s: z.StringSchema): JsonSchema {
  const out: Record<string, unknown> = { type: 'string', ...sizes(s.bounds, 'Length') };
  // JSON Schema takes one pattern; several must all match, which allOf says.
  const patterns = s.patterns.map((p) => p.re.source);
  if (patterns.length === 1) out['pattern'] = patterns[0];
  if (patterns.length > 1) out['allOf'] = patterns.map((pattern) => ({ pattern }));
  return out;
}

function numberOf(s: z.NumberSchema): JsonSchema {
  const out: Record<string, unknown> = { type: s.whole ? 'integer' : 'number' };
  for (const b of s.bounds) {
    if (b.code === 'too_small') out[b.inclusive ? 'minimum' : 'exclusiveMinimum'] = b.limit;
    else out[b.inclusive ? 'maximum' : 'exclusiveMaximum'] = b.limit;
  }
  return out;
}

/** The bounds of a string's or a list's length: `minLength`, `maxItems`… */
function sizes(bounds: readonly z.Bound[], unit: 'Length' | 'Items'): JsonSchema {
  const out: Record<string, number> = {};
  for (const b of bounds) {
    if (b.code === 'too_small') out[`min${unit}`] = b.inclusive ? b.limit : b.limit + 1;
    else out[`max${unit}`] = b.inclusive ? b.limit : b.limit - 1;
  }
  return out;
}

function objectOf(s: z.ObjectSchema<Readonly<Record<string, z.Schema>>>): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const [key, field] of Object.entries(s.shape)) {
    properties[key] = jsonOf(field);
    if (!(field instanceof z.OptionalSchema)) required.push(key);
  }
  return { type: 'object', properties, ...(required.length > 0 ? { required } : {}), additionalProperties: false };
}

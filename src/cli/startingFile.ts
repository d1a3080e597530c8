// A starting file written from an input's schema: every field the schema has, in its order, each
// after its description as a comment; the fields given a value are written with it, the others
// are written commented out with a value of their type, so the file is complete (nothing a user
// could set is missing from it) and runs as it is. `faultline init` writes the scenario and the
// decision record this way, so a new field of either appears in the files it writes.
import { duration } from '../scenario/options.ts';
import * as z from '../base/schema.ts';

/** What a field is given: TypeScript source (a line starting `// ` stands for the field whole), the fields of an object, or the items of a list. */
export type Given = string | GivenObject | readonly Given[];
export interface GivenObject {
  readonly [key: string]: Given;
}

type Shape = Readonly<Record<string, z.Schema>>;

const WIDTH = 100;

/** How deep commented-out objects are written field by field; deeper ones are written as their shape on one line. */
const OPEN_DEPTH = 2;

/**
 * The lines of an object literal for `schema`, at `indent`, with the fields `given` has; `off`
 * says how many commented-out objects it is inside (0: it is written as code).
 */
export function objectLines(schema: z.ObjectSchema<Shape>, given: GivenObject, indent: string, off = 0): string[] {
  const lines: string[] = [];
  for (const [key, field] of Object.entries(schema.shape)) {
    const value = given[key];
    lines.push(...describe(field, indent));
    const inner = z.unwrapOptional(field);
    // A line given whole (a comment pointing elsewhere) stands for the field.
    if (typeof value === 'string' && value.startsWith('// ')) {
      lines.push(`${indent}${value}`);
      continue;
    }
    const mark = off > 0 || value === undefined ? '// ' : '';
    const depth = value === undefined ? off + 1 : off;
    if (value === undefined && off === 0 && !(field instanceof z.OptionalSchema)) throw new Error(`a starting file needs a value for ${key}`);
    if (inner instanceof z.ObjectSchema && value === undefined && depth > OPEN_DEPTH) {
      lines.push(`${indent}${mark}${key}: ${shapeOf(inner)},`);
    } else if (inner instanceof z.ObjectSchema && (value === undefined || isObject(value))) {
      lines.push(`${indent}${mark}${key}: {`, ...objectLines(inner as z.ObjectSchema<Shape>, value ?? {}, `${indent}  `, depth), `${indent}${mark}},`);
    } else if (inner instanceof z.ArraySchema && (Array.isArray(value) || (value === undefined && depth <= OPEN_DEPTH && z.unwrapOptional(inner.element as z.Schema) instanceof z.ObjectSchema))) {
      lines.push(`${indent}${mark}${key}: [`, ...listLines(inner.element as z.Schema, (value ?? []) as readonly Given[], `${indent}  `, depth), `${indent}${mark}],`);
    } else {
      lines.push(`${indent}${mark}${key}: ${typeof value === 'string' ? value : placeholder(inner)},${hint(inner, value)}`);
    }
  }
  return lines;
}

/** A list's items; a list of objects none of whose items shows its fields gets one more, commented out, that does. */
function listLines(element: z.Schema, items: readonly Given[], indent: string, off: number): string[] {
  const mark = off > 0 ? '// ' : '';
  const object = z.unwrapOptional(element);
  const lines = items.flatMap((item) => {
    if (typeof item === 'string') return [`${indent}${mark}${item},`];
    if (object instanceof z.ObjectSchema && isObject(item)) return [`${indent}${mark}{`, ...objectLines(object as z.ObjectSchema<Shape>, item, `${indent}  `, off), `${indent}${mark}},`];
    throw new Error('a starting file lists items of the list’s own kind');
  });
  if (object instanceof z.ObjectSchema && !items.some(isObject)) {
    lines.push(`${indent}// {`, ...objectLines(object as z.ObjectSchema<Shape>, {}, `${indent}  `, off + 1), `${indent}// },`);
  }
  return lines;
}

function isObject(g: Given | undefined): g is GivenObject {
  return typeof g === 'object' && g !== null && !Array.isArray(g);
}

/** A field's description as comment lines, wrapped; a union of objects lists the shapes it takes. */
function describe(field: z.Schema, indent: string): string[] {
  const meta = { ...z.unwrapOptional(field).metadata, ...field.metadata };
  const inner = z.unwrapOptional(field);
  const shapes = inner instanceof z.UnionSchema ? (inner.options as readonly z.Schema[]).map(shapeOf).filter((s): s is string => s !== undefined) : [];
  const text = [meta.description ?? '', ...(shapes.length > 0 ? [`One of: ${shapes.join(' | ')}.`] : [])].join(' ').trim();
  return text === '' ? [] : wrap(text, WIDTH - indent.length - 3).map((l) => `${indent}// ${l}`);
}

/** An object's shape in one line: `{ verdict: 'violated', violations: [...], claims?: [...] }`. */
function shapeOf(schema: z.Schema): string | undefined {
  const s = z.unwrapOptional(schema);
  if (s instanceof z.ObjectSchema) {
    const fields = Object.entries(s.shape as Shape).map(([k, f]) => `${k}${f instanceof z.OptionalSchema ? '?' : ''}: ${placeholder(z.unwrapOptional(f))}`);
    return `{ ${fields.join(', ')} }`;
  }
  if (s instanceof z.UnionSchema) return (s.options as readonly z.Schema[]).map(shapeOf).join(' | ');
  return undefined;
}

/** A value of a schema's type, as source: what a commented-out field shows. */
function placeholder(s: z.Schema): string {
  if (s instanceof z.StringSchema) return s.patterns.some((p) => p.re === duration.patterns[0]!.re) ? "'30s'" : "'...'";
  if (s instanceof z.NumberSchema) {
    const least = s.bounds.find((b) => b.code === 'too_small');
    return String(least === undefined ? 0 : least.inclusive ? least.limit : least.limit + 1);
  }
  if (s instanceof z.BooleanSchema) return 'false';
  if (s instanceof z.ValuesSchema) return JSON.stringify(s.values[0]).replaceAll('"', "'");
  if (s instanceof z.ArraySchema) return '[...]';
  if (s instanceof z.TupleSchema) return `[${(s.items as readonly z.Schema[]).map(placeholder).join(', ')}]`;
  if (s instanceof z.ObjectSchema) return shapeOf(s)!;
  if (s instanceof z.RecordSchema) return '{ ... }';
  if (s instanceof z.UnionSchema) return placeholder(s.options[0] as z.Schema);
  return s.metadata?.typescript ?? 'undefined';
}

/** What else a field could be, when it is one of a few values. */
function hint(s: z.Schema, given: Given | undefined): string {
  if (!(s instanceof z.ValuesSchema) || s.kind !== 'enum') return '';
  const shown = typeof given === 'string' ? given : placeholder(s);
  const others = s.values.map((v) => `'${String(v)}'`).filter((v) => v !== shown);
  return others.length > 0 ? ` // or ${others.join(', ')}` : '';
}

function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  if (line !== '') lines.push(line);
  return lines;
}

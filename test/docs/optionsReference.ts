// The options reference, docs/options.md, rendered from the schemas that validate a design's
// options (the ones `faultline schema` prints) and the prose of test/docs/optionNotes.ts: every
// option path, whether it is required, and the values it takes come from the schema; what it
// changes and its default come from the notes. An option the notes do not explain, or a note for
// an option no schema has, stops the rendering with the path named, so the page cannot fall
// behind the code: test/docs/optionsReference.test.ts compares the committed page with a fresh
// rendering. `npm run docs:options` writes the page again.
import { readFileSync, writeFileSync } from 'node:fs';
import { inputSchemas } from '../../src/cli/schemaCommand.ts';
import { componentFields } from '../../src/scenario/design.ts';
import { z } from '../../src/scenario/options.ts';
import { ScenarioSchema, WORLD_SETTINGS } from '../../src/scenario/scenarioSchema.ts';
import { GROUPS, PAGE_INTRO, type OptionNote, type SectionNotes } from './optionNotes.ts';

type ObjectSchema = z.ObjectSchema<Readonly<Record<string, z.Schema>>>;

/** Where the page lives, from the repository's root. */
export const OPTIONS_PAGE = new URL('../../docs/options.md', import.meta.url);

/** One documented option: its path, its schema, and how a row shows it. */
export interface OptionPath {
  readonly path: string;
  readonly field: z.Schema;
  /** Required where it stands: at the top, or once its parent object is given. */
  readonly required: boolean;
  /** The optional object it sits in, for "required with `parent`". */
  readonly parent: string | undefined;
  /** A part's own options taken whole (`relay: { …any relay option }`), or another section's schema. */
  readonly refers: { readonly section: string; readonly whole: boolean } | undefined;
}

/** The fields every component factory takes, as a schema of their own for their section. */
const FACTORY = z.strictObject(componentFields);

/** The schemas the page documents, by the name `faultline schema` gives each, and the world's settings. */
export async function documentedSchemas(): Promise<Map<string, z.Schema>> {
  const all = await inputSchemas();
  all.delete('scenario');
  all.delete('record');
  all.set('world', WORLD_SETTINGS);
  all.set('factory', FACTORY);
  return all;
}

/**
 * Every option path of a schema: a nested object's fields as `a.b`, a record's values as
 * `a.*.b`. A field that takes a part's own options, or a schema the page documents in a section
 * of its own, is one path referring there. The fields every component factory shares are
 * documented once, in their own section, so a schema that takes them unchanged skips them.
 */
export function optionPaths(schema: ObjectSchema, named: ReadonlyMap<z.Schema, string>, prefix = '', parent?: string, expandRecords = true): OptionPath[] {
  const out: OptionPath[] = [];
  for (const [key, field] of Object.entries(schema.shape)) {
    if (prefix === '' && schema !== FACTORY && (componentFields as Record<string, unknown>)[key] === field) continue;
    const path = `${prefix}${key}`;
    const inner = z.unwrapOptional(field);
    const required = !(field instanceof z.OptionalSchema);
    const partOf = field.metadata?.partOf ?? inner.metadata?.partOf;
    const elsewhere = named.get(inner);
    if (partOf !== undefined || elsewhere !== undefined) {
      out.push({ path, field, required, parent, refers: { section: partOf ?? elsewhere!, whole: partOf !== undefined } });
      continue;
    }
    if (inner instanceof z.ObjectSchema) {
      out.push(...optionPaths(inner as ObjectSchema, named, `${path}.`, required ? parent : path, expandRecords));
      continue;
    }
    out.push({ path, field, required, parent, refers: undefined });
    const value = expandRecords && inner instanceof z.RecordSchema ? z.unwrapOptional(inner.valueType as z.Schema) : undefined;
    if (value instanceof z.ObjectSchema) out.push(...optionPaths(value as ObjectSchema, named, `${path}.*.`, required ? parent : path));
  }
  return out;
}

/** The duration schema's pattern, to call such a string what it is. */
const DURATION = z.unwrapOptional(componentFields.restartAfter) as z.StringSchema;
const NAME = z.unwrapOptional(componentFields.name) as z.StringSchema;

/** The values an enumerated option allows, through unions (`checkoutKeys: boolean | 'intentBound' | …`). */
export function enumValues(s: z.Schema): string[] {
  const t = z.unwrapOptional(s);
  if (t instanceof z.ValuesSchema) return t.values.map(String);
  if (t instanceof z.UnionSchema) return (t.options as readonly z.Schema[]).flatMap(enumValues);
  return [];
}

/** The values a schema allows, in the words of the values column. */
export function valuesOf(s: z.Schema): string {
  const t = z.unwrapOptional(s);
  if (t instanceof z.ValuesSchema) return t.values.map((v) => `\`${String(v)}\``).join(', ');
  if (t instanceof z.BooleanSchema) return 'boolean';
  if (t instanceof z.StringSchema) {
    if (t.patterns.some((p) => DURATION.patterns.some((d) => d.re.source === p.re.source))) return 'duration';
    if (t.patterns.some((p) => NAME.patterns.some((d) => d.re.source === p.re.source))) return 'a name: letters, digits and `_`, starting with a letter';
    return t.bounds.some((b) => b.code === 'too_small') ? 'non-empty string' : 'string';
  }
  if (t instanceof z.NumberSchema) return numberOf(t);
  if (t instanceof z.ArraySchema) return `list of ${plural(valuesOf(t.element as z.Schema))}`;
  if (t instanceof z.TupleSchema) return `[${(t.items as readonly z.Schema[]).map(valuesOf).join(', ')}]`;
  if (t instanceof z.RecordSchema) return `{ [${valuesOf(t.keyType as z.Schema)}]: ${z.unwrapOptional(t.valueType as z.Schema) instanceof z.ObjectSchema ? 'options' : valuesOf(t.valueType as z.Schema)} }`;
  if (t instanceof z.UnionSchema) return (t.options as readonly z.Schema[]).map(valuesOf).join(', or ');
  if (t instanceof z.ObjectSchema) return `{ ${Object.keys(t.shape as object).join(', ')} }`;
  const ts = t.metadata?.typescript ?? s.metadata?.typescript;
  return ts === undefined ? '' : `\`${ts}\``;
}

function numberOf(n: z.NumberSchema): string {
  const noun = n.whole ? 'whole number' : 'number';
  const min = n.bounds.find((b) => b.code === 'too_small');
  const max = n.bounds.find((b) => b.code === 'too_big');
  if (min && max && min.inclusive && max.inclusive) return `${noun} ${min.limit}–${max.limit}`;
  const parts = [min && `${min.inclusive ? '≥' : '>'} ${min.limit}`, max && `${max.inclusive ? '≤' : '<'} ${max.limit}`].filter(Boolean);
  return parts.length ? `${noun} ${parts.join(' and ')}` : noun;
}

const plural = (v: string) => v.replace(/^(string|duration|boolean|whole number|number|list)\b/, '$1s').replace(/^non-empty string\b/, 'non-empty strings');

/** Escapes a cell's pipes, which would end it. */
const cell = (s: string) => s.replace(/\|/g, '\\|');

/** The heading anchor GitHub gives a title. */
export const anchor = (title: string) =>
  title
    .toLowerCase()
    .replace(/[^a-z0-9 _-]/g, '')
    .replace(/ /g, '-');

/** What a part taken whole allows: any of its options, but those the preset sets itself. */
function partValues(p: OptionPath, all: ReadonlyMap<string, z.Schema>, titleOf: (schema: string) => string): string {
  const part = all.get(p.refers!.section);
  const own = z.unwrapOptional(p.field);
  const link = `[${titleOf(p.refers!.section)}](#${anchor(titleOf(p.refers!.section))})`;
  if (!(part instanceof z.ObjectSchema) || !(own instanceof z.ObjectSchema)) return `as ${link}`;
  const partShape = part.shape as Readonly<Record<string, z.Schema>>;
  const ownShape = own.shape as Readonly<Record<string, z.Schema>>;
  if (partShape === ownShape) return `as ${link}`;
  const but = Object.keys(partShape).filter((k) => !Object.hasOwn(ownShape, k) && k !== 'notes');
  return `any option of ${link}${but.length ? ` but ${but.map((k) => `\`${k}\``).join(', ')}` : ''}`;
}

/** The options a preset adds to a part it takes whole (`relay.workers`), or changes (`inventoryDb.tables`). */
export function addedToPart(p: OptionPath, all: ReadonlyMap<string, z.Schema>, named: ReadonlyMap<z.Schema, string>): OptionPath[] {
  const part = all.get(p.refers!.section);
  const own = z.unwrapOptional(p.field);
  if (!(part instanceof z.ObjectSchema) || !(own instanceof z.ObjectSchema)) return [];
  const partShape = part.shape as Readonly<Record<string, z.Schema>>;
  const added: Record<string, z.Schema> = {};
  for (const [k, f] of Object.entries(own.shape as Readonly<Record<string, z.Schema>>)) {
    const mine = partShape[k];
    if (mine === undefined || z.unwrapOptional(mine) !== z.unwrapOptional(f)) added[k] = f;
  }
  // A changed record (a preset database's `tables`) is one row: its entries are the part's own.
  return optionPaths(new z.ObjectSchema(added) as ObjectSchema, named, `${p.path}.`, p.path, false);
}

/** Renders one section: its heading, introduction and table, or why it has none. */
function renderSection(s: SectionNotes, all: ReadonlyMap<string, z.Schema>, named: ReadonlyMap<z.Schema, string>, titleOf: (schema: string) => string, problems: string[]): string[] {
  const out = [`### ${s.title}`, '', s.intro.trim(), ''];
  const rows = sectionRows(s, all, named, problems);
  if (rows.length > 0) {
    out.push('| option | values | default | what it changes |', '| --- | --- | --- | --- |');
    for (const { paths, note } of rows) out.push(renderRow(paths, note, all, titleOf, problems));
    out.push('');
  }
  if (s.after !== undefined) out.push(s.after.trim(), '');
  return out;
}

/** The section's options in schema order, each path with its note; a note may cover several paths (`ordersDb, inventoryDb`). */
export function sectionRows(s: SectionNotes, all: ReadonlyMap<string, z.Schema>, named: ReadonlyMap<z.Schema, string>, problems: string[]): { paths: OptionPath[]; note: OptionNote }[] {
  const paths = documentedPaths(s, all, named, problems);
  const byPath = new Map<string, { key: string; note: OptionNote }>();
  for (const [key, note] of Object.entries(s.options)) for (const p of key.split(', ')) byPath.set(p, { key, note });
  const missing = paths.filter((p) => !byPath.has(p.path)).map((p) => p.path);
  if (missing.length) {
    problems.push(`${s.title} has no note for ${missing.join(', ')}`);
    return [];
  }
  const known = new Set(paths.map((p) => p.path));
  const stray = [...byPath.keys()].filter((p) => !known.has(p));
  if (stray.length) problems.push(`${s.title} has notes for ${stray.join(', ')}, which no schema of it has`);
  const rows: { key: string; paths: OptionPath[]; note: OptionNote }[] = [];
  for (const p of paths) {
    const { key, note } = byPath.get(p.path)!;
    const row = rows.find((r) => r.key === key);
    if (row) row.paths.push(p);
    else rows.push({ key, paths: [p], note });
  }
  return rows;
}

/** The paths of the section's schemas: the first's all, each other's those the first lacks (consumerGroup's `consumers`). */
function documentedPaths(s: SectionNotes, all: ReadonlyMap<string, z.Schema>, named: ReadonlyMap<z.Schema, string>, problems: string[]): OptionPath[] {
  const out: OptionPath[] = [];
  for (const name of s.schemas) {
    const schema = all.get(name);
    if (!(schema instanceof z.ObjectSchema)) {
      problems.push(`${s.title} names ${name}, which is no option schema`);
      continue;
    }
    const others = new Map([...named].filter(([, n]) => !s.schemas.includes(n)));
    for (const p of optionPaths(schema as ObjectSchema, others)) {
      if (out.some((q) => q.path === p.path)) continue;
      out.push(p);
      if (p.refers?.whole) out.push(...addedToPart(p, all, others).filter((q) => !out.some((r) => r.path === q.path)));
    }
  }
  return out;
}

function renderRow(paths: readonly OptionPath[], note: OptionNote, all: ReadonlyMap<string, z.Schema>, titleOf: (schema: string) => string, problems: string[]): string {
  const p = paths[0]!;
  const where = paths.map((q) => `\`${q.path}\``).join(', ');
  const generated = p.refers !== undefined ? partValues(p, all, titleOf) : valuesOf(p.field);
  if (note.values !== undefined && enumValues(p.field).length > 0) problems.push(`${p.path} lists its values in the schema; its note may not replace them`);
  const values = note.values ?? generated;
  if (values === '') problems.push(`${p.path} takes a value the schema cannot name; give its note values`);
  const required = p.required ? (p.parent === undefined ? 'required' : `required with \`${p.parent}\``) : undefined;
  if (required !== undefined && note.default !== undefined) problems.push(`${p.path} is required; its note may not give a default`);
  const dflt = required ?? note.default;
  if (dflt === undefined) problems.push(`${p.path} is optional; its note must say what happens without it (default)`);
  return `| ${where} | ${cell(values)} | ${cell(dflt ?? '')} | ${cell(note.text)} |`;
}

/** The scenario's own fields, from the scenario schema's descriptions. */
function scenarioFields(): string[] {
  const out = ['| field | values | description |', '| --- | --- | --- |'];
  const walk = (schema: ObjectSchema, prefix: string) => {
    for (const [key, field] of Object.entries(schema.shape)) {
      const inner = z.unwrapOptional(field);
      const description = field.metadata?.description ?? inner.metadata?.description ?? '';
      const values = key === 'claims' ? 'list of claims: see [Claims](claims.md)' : key === 'world' ? 'see [World settings](#world-settings)' : key === 'record' ? 'see [The decision record](record.md)' : key === 'expect' ? '`{ verdict: \'holds\' }`, or `{ verdict: \'violated\', violations, claims? }`, or `{ single, pairs, why }`' : valuesOf(field);
      out.push(`| \`${prefix}${key}\` | ${cell(values)} | ${cell(`${field instanceof z.OptionalSchema ? '' : 'Required. '}${description}`)} |`);
      if (inner instanceof z.ObjectSchema && !['world', 'expect', 'record'].includes(key)) walk(inner as ObjectSchema, `${prefix}${key}.`);
    }
  };
  walk(ScenarioSchema as unknown as ObjectSchema, '');
  return out;
}

/** Whether a note's text is a placeholder left for prose (a line in capitals alone, `PAGE INTRO`). */
export function isPlaceholder(text: string): boolean {
  return /^[A-Z]{2,}(?: [A-Z]{2,})+$/m.test(text);
}

/** The whole page. */
export async function renderOptionsReference(): Promise<string> {
  const all = await documentedSchemas();
  const named = new Map<z.Schema, string>([...all].map(([n, s]) => [s, n]));
  const titles = new Map<string, string>();
  for (const g of GROUPS) for (const s of g.sections) for (const n of s.schemas) if (!titles.has(n)) titles.set(n, s.title);
  const undocumented = [...all.keys()].filter((n) => !titles.has(n));
  const problems: string[] = [];
  if (undocumented.length) problems.push(`no section documents ${undocumented.join(', ')}`);
  const titleOf = (n: string) => titles.get(n) ?? n;
  const out = [PAGE_INTRO.trim(), ''];
  // A note still in its draft form (`PRESETS INTRO`) would be published as it stands.
  for (const [where, text] of [['the page', PAGE_INTRO], ...GROUPS.flatMap((g) => [[g.title, g.intro], ...g.sections.map((s) => [s.title, s.intro])])] as const) {
    if (isPlaceholder(text)) problems.push(`the introduction of ${where} is a placeholder: ${text.trim()}`);
  }
  for (const g of GROUPS) {
    out.push(`## ${g.title}`, '', g.intro.trim(), '');
    for (const s of g.sections) out.push(...renderSection(s, all, named, titleOf, problems));
  }
  if (problems.length > 0) throw new Error(`docs/options.md cannot be written:\n- ${problems.join('\n- ')}`);
  out.push('## Scenario fields', '', 'A scenario file\'s default export, `defineScenario({...})`, takes these fields (`faultline schema scenario` prints them as a JSON Schema, and `faultline init` writes a starting file with every one):', '', ...scenarioFields(), '');
  return `${out.join('\n').replace(/\n{3,}/g, '\n\n').trimEnd()}\n`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const page = await renderOptionsReference();
  if (process.argv.includes('--write')) writeFileSync(OPTIONS_PAGE, page);
  else if (readFileSync(OPTIONS_PAGE, 'utf8') !== page) {
    console.error('docs/options.md is stale: npm run docs:options writes it again');
    process.exit(1);
  }
}

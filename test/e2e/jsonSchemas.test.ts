// Every `--json` document names its shape and version (`"schema": "faultline/<command>@1"`), and
// the JSON Schema of that shape ships in the package (schemas/, exported as
// faultline/schemas/<command>.schema.json). Each command's real output is checked against its
// schema here, by a validator of the few keywords the schemas use, so a key the code drops or
// renames without the schema saying so fails this file.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bufferIo } from '../../src/cli/io.ts';
import { main } from '../../src/cli/main.ts';

const root = join(import.meta.dirname, '..', '..');
const schemas = join(root, 'schemas');
type Schema = { readonly [k: string]: unknown };

function load(file: string): Schema {
  return JSON.parse(readFileSync(join(schemas, file), 'utf8')) as Schema;
}

/** The schema a `$ref` points at: `#/$defs/x` in the same file, or `other.schema.json#/$defs/x`. */
function resolve(ref: string, file: string): { schema: Schema; file: string } {
  const [target, pointer] = ref.split('#') as [string, string | undefined];
  const at = target === '' ? file : target;
  let node: unknown = load(at);
  for (const part of (pointer ?? '').split('/').filter((p) => p !== '')) node = (node as Schema)[part];
  return { schema: node as Schema, file: at };
}

function typeOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

/** Where `value` does not fit `schema`: type, const, enum, required, properties, additionalProperties, items, oneOf, $ref. */
function validate(value: unknown, schema: Schema, file: string, path = '$'): string[] {
  if (typeof schema['$ref'] === 'string') {
    const r = resolve(schema['$ref'], file);
    return validate(value, r.schema, r.file, path);
  }
  const errors: string[] = [];
  const type = schema['type'];
  if (type !== undefined) {
    const allowed = (Array.isArray(type) ? type : [type]) as string[];
    const t = typeOf(value);
    if (!allowed.includes(t) && !(t === 'integer' && allowed.includes('number'))) return [`${path}: ${t}, not ${allowed.join(' or ')}`];
  }
  if ('const' in schema && value !== schema['const']) errors.push(`${path}: ${JSON.stringify(value)}, not ${JSON.stringify(schema['const'])}`);
  if (Array.isArray(schema['enum']) && !schema['enum'].includes(value)) errors.push(`${path}: ${JSON.stringify(value)} is none of ${JSON.stringify(schema['enum'])}`);
  if (Array.isArray(schema['oneOf'])) {
    const fits = (schema['oneOf'] as Schema[]).filter((s) => validate(value, s, file, path).length === 0).length;
    if (fits !== 1) errors.push(`${path}: fits ${fits} of oneOf's schemas, not exactly one`);
  }
  if (typeOf(value) === 'object') {
    const obj = value as Record<string, unknown>;
    for (const k of (schema['required'] as string[] | undefined) ?? []) if (!(k in obj)) errors.push(`${path}: no ${k}`);
    const props = (schema['properties'] as Record<string, Schema> | undefined) ?? {};
    for (const [k, v] of Object.entries(obj)) {
      if (props[k] !== undefined) errors.push(...validate(v, props[k], file, `${path}.${k}`));
      else if (typeof schema['additionalProperties'] === 'object') errors.push(...validate(v, schema['additionalProperties'] as Schema, file, `${path}.${k}`));
    }
  }
  if (Array.isArray(value) && schema['items'] !== undefined) value.forEach((v, i) => errors.push(...validate(v, schema['items'] as Schema, file, `${path}[${i}]`)));
  return errors;
}

async function json(args: readonly string[]): Promise<unknown> {
  const io = bufferIo();
  const code = await main(args, io);
  expect(io.stderr).toBe('');
  expect(code).toBe(0);
  return JSON.parse(io.stdout) as unknown;
}

const out = () => mkdtempSync(join(tmpdir(), 'faultline-schema-'));

describe('the --json documents and their schemas', () => {
  it.each([
    ['windows', ['windows', 'mercury-dual-write-commit-first', '--json', '--out']],
    ['check', ['check', 'flow-page-viewed', '--json', '--out']],
    ['explore', ['explore', 'mercury-dual-write-commit-first', '--runs', '30', '--json']],
    ['explore', ['explore', 'flow-page-viewed', 'mercury-outbox', '--runs', '10', '--json']],
    ['replay', ['replay', 'mercury-dual-write-commit-first', '--seed', '1', '--plan', '[{"kind":"crash","window":"source.committing","occurrence":1}]', '--json']],
    ['calc', ['calc', 'dedup', '--rate', '18000', '--window', '12h', '--entry-bytes', '96', '--json']],
    ['calc', ['calc', 'retry', '--base', '1s', '--factor', '2', '--cap', '60s', '--retries', '8', '--json']],
  ] as const)('%s carries its schema name and fits schemas/%s.schema.json', async (command, args) => {
    const argv = args.at(-1) === '--out' ? [...args, out()] : [...args];
    const doc = (await json(argv)) as { schema: string };
    expect(doc.schema).toBe(`faultline/${command}@1`);
    expect(validate(doc, load(`${command}.schema.json`), `${command}.schema.json`)).toEqual([]);
  }, 60_000);

  it('list, an array as its contract has always been, fits schemas/list.schema.json', async () => {
    const doc = await json(['list', '--json']);
    expect(Array.isArray(doc)).toBe(true);
    expect(validate(doc, load('list.schema.json'), 'list.schema.json')).toEqual([]);
  });

  it('finds what does not fit: a missing key, a wrong type, a value outside its enum', () => {
    const schema = load('windows.schema.json');
    expect(validate({ schema: 'faultline/windows@1' }, schema, 'windows.schema.json')).toEqual(['$: no scenarios']);
    expect(validate({ schema: 'faultline/windows@2', scenarios: {} }, schema, 'windows.schema.json')).toEqual(['$.schema: "faultline/windows@2", not "faultline/windows@1"', '$.scenarios: object, not array']);
  });

  it('ships every schema in the package, each named as the documents name it', () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { files: string[]; exports: Record<string, unknown> };
    expect(pkg.files).toContain('schemas/');
    // Built beside the input schemas, so `faultline/schemas/windows.schema.json` resolves as `faultline/schemas/scenario.schema.json` does.
    expect(pkg.exports['./schemas/*.json']).toBe('./dist/schemas/*.json');
    expect((JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: { build: string } }).scripts.build).toContain("copyFileSync('schemas/' + f, 'dist/schemas/' + f)");
    for (const c of ['list', 'windows', 'check', 'explore', 'replay', 'calc']) expect(load(`${c}.schema.json`)['$id']).toBe(`faultline/${c}@1`);
  });
});

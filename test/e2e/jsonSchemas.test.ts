// Every `--json` document names its shape and version (`"schema": "faultline/<command>@1"`), and
// the JSON Schema of that shape ships in the package (schemas/, exported as
// faultline/schemas/<command>.schema.json). Each command's real output is checked against its
// schema here by Ajv, a standard validator, with the schemas loaded as a user loads them (each by
// its own `$id`, the others' references resolved through it), so a key the code drops or renames
// without the schema saying so fails this file, and so does a schema a validator cannot load.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { bufferIo } from '../../src/cli/io.ts';
import { main } from '../../src/cli/main.ts';

const root = join(import.meta.dirname, '..', '..');
const schemas = join(root, 'schemas');
type Schema = { readonly [k: string]: unknown };
const COMMANDS = ['list', 'windows', 'check', 'explore', 'replay', 'calc'] as const;

function load(file: string): Schema {
  return JSON.parse(readFileSync(join(schemas, file), 'utf8')) as Schema;
}

/** Every shipped schema in one validator, as a user's code adds them; strict, so a keyword Ajv does not know is an error too. */
const ajv = new Ajv2020({ allErrors: true, schemas: COMMANDS.map((c) => load(`${c}.schema.json`)) });

/** Where `value` does not fit the schema of `command`, as Ajv says it. */
function validate(value: unknown, command: (typeof COMMANDS)[number]): string[] {
  const check = ajv.getSchema(`faultline/${command}@1`)!;
  return check(value) ? [] : (check.errors ?? []).map((e) => `${e.instancePath || '$'} ${e.message}${e.params && 'allowedValues' in e.params ? ` ${JSON.stringify(e.params['allowedValues'])}` : ''}`);
}

async function json(args: readonly string[], exitCode = 0): Promise<unknown> {
  const io = bufferIo();
  const code = await main(args, io);
  expect(io.stderr).toBe('');
  expect(code).toBe(exitCode);
  return JSON.parse(io.stdout) as unknown;
}

const out = () => mkdtempSync(join(tmpdir(), 'faultline-schema-'));

describe('the --json documents and their schemas', () => {
  it.each([
    ['windows', ['windows', 'mercury-dual-write-commit-first', '--json', '--out']],
    ['check', ['check', 'flow-page-viewed', '--json', '--out']],
    // Inconclusive (exit code 3): a verdict and clause statuses of its own.
    ['check', ['check', 'mercury-outbox', '--max-states', '50', '--json', '--out'], 3],
    ['explore', ['explore', 'mercury-dual-write-commit-first', '--runs', '30', '--json']],
    ['explore', ['explore', 'flow-page-viewed', 'mercury-outbox', '--runs', '10', '--json']],
    ['replay', ['replay', 'mercury-dual-write-commit-first', '--seed', '1', '--plan', '[{"kind":"crash","window":"source.committing","occurrence":1}]', '--json']],
    ['calc', ['calc', 'dedup', '--rate', '18000', '--window', '12h', '--entry-bytes', '96', '--json']],
    ['calc', ['calc', 'retry', '--base', '1s', '--factor', '2', '--cap', '60s', '--retries', '8', '--json']],
  ] as const)('%s carries its schema name and fits its schema (%j)', async (command: (typeof COMMANDS)[number], args: readonly string[], exitCode: number = 0) => {
    const argv = args.at(-1) === '--out' ? [...args, out()] : [...args];
    const doc = (await json(argv, exitCode)) as { schema: string };
    expect(doc.schema).toBe(`faultline/${command}@1`);
    expect(validate(doc, command)).toEqual([]);
  }, 60_000);

  it('list, an array as its contract has always been, fits schemas/list.schema.json', async () => {
    const doc = await json(['list', '--json']);
    expect(Array.isArray(doc)).toBe(true);
    expect(validate(doc, 'list')).toEqual([]);
  });

  it('finds what does not fit: a missing key, a wrong type, a value outside its enum', () => {
    expect(validate({ schema: 'faultline/windows@1' }, 'windows')).toEqual(["$ must have required property 'scenarios'"]);
    expect(validate({ schema: 'faultline/windows@2', scenarios: {} }, 'windows')).toEqual(['/schema must be equal to constant', '/scenarios must be array']);
  });

  it('ships every schema in the package, each named as the documents name it', () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { files: string[]; exports: Record<string, unknown> };
    expect(pkg.files).toContain('schemas/');
    // Built beside the input schemas, so `faultline/schemas/windows.schema.json` resolves as `faultline/schemas/scenario.schema.json` does.
    expect(pkg.exports['./schemas/*.json']).toBe('./dist/schemas/*.json');
    expect((JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: { build: string } }).scripts.build).toContain("copyFileSync('schemas/' + f, 'dist/schemas/' + f)");
    for (const c of COMMANDS) expect(load(`${c}.schema.json`)['$id']).toBe(`faultline/${c}@1`);
  });
});

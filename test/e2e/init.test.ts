// `faultline init` writes its starting files from the schemas that validate them, so each is
// complete (every field of its input, the optional ones commented out, each after its
// description) and loads as it is; `faultline schema` prints and writes the JSON Schema of every
// input, generated from the same definitions, which Ajv accepts as draft 2020-12.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, describe, expect, it } from 'vitest';
import { bufferIo } from '../../src/cli/io.ts';
import { main } from '../../src/cli/main.ts';
import { RecordSpecSchema } from '../../src/scenario/recordSpec.ts';
import { ClaimSchema, ScenarioSchema } from '../../src/scenario/scenarioSchema.ts';
import type { Schema } from '../../src/base/schema.ts';
import catalogueRecord from '../../scenarios/record.ts';

const root = join(import.meta.dirname, '..', '..');
// Inside the repository, so the files' `import … from 'faultline'` resolves as in a user's project.
const work = join(root, 'test-artifacts', 'init');
afterAll(() => rmSync(work, { recursive: true, force: true }));

async function cli(...args: string[]) {
  const io = bufferIo(false);
  const code = await main(args, io);
  return { code, out: io.stdout, err: io.stderr };
}

/** Every field of an object schema, each as code (`key:`) or commented out (`// key:`), after its description's first words. */
function expectEveryField(file: string, shape: Readonly<Record<string, Schema>>): void {
  for (const [key, field] of Object.entries(shape)) {
    expect(file, key).toMatch(new RegExp(`^\\s*(// )?${key}:`, 'm'));
    const description = field.metadata?.description ?? (field as { inner?: Schema }).inner?.metadata?.description;
    if (description !== undefined) expect(file, key).toContain(description.split(' ').slice(0, 4).join(' '));
  }
}

describe('faultline init', () => {
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });

  it('writes a scenario with every field a scenario and a claim take, which loads as it is', async () => {
    const r = await cli('init', 'our-relay', '--dir', work);
    expect(r.code).toBe(0);
    const file = readFileSync(join(work, 'our-relay.ts'), 'utf8');
    expectEveryField(file, ScenarioSchema.shape);
    expectEveryField(file, ClaimSchema.shape);
    expect(file).toContain("  // world: {\n    // How long a message takes: the least and the most.\n    // latency: ['30s', '30s'],");
    // A run stepsMax cuts is inconclusive, and the template says so rather than call it stuck.
    expect(file).toMatch(/\/\/ How many steps a run may take before it is cut[^\n]*\n[^\n]*inconclusive, never stuck/);
    expect(file).not.toMatch(/livelock as stuck/);
    const list = await cli('list', join(work, 'our-relay.ts'));
    expect(list.err).toBe('');
    expect(list.out).toMatch(/^our-relay\s+violated/m);
  });

  it('writes the folder’s decision record with --record: every field, one flow tied to the scenario’s claim, and it fills', async () => {
    const r = await cli('init', 'our-relay', '--dir', work, '--record');
    expect(r.code).toBe(0);
    expect(r.out).toContain('next: npx faultline record ');
    expect(readdirSync(work).sort()).toEqual(['our-relay.test.ts', 'our-relay.ts', 'record.ts']);
    const file = readFileSync(join(work, 'record.ts'), 'utf8');
    expectEveryField(file, RecordSpecSchema.shape);
    expectEveryField(file, RecordSpecSchema.shape.document.shape);
    expect(file).toMatch(/scenario: 'our-relay',\n\s+\/\/ The claim of that scenario[^\n]*\n[^\n]*\n\s+claim: 'inventory reservation',/);
    expect(await cli('init', 'our-relay', '--dir', work, '--record')).toMatchObject({ code: 2, err: expect.stringMatching(/record\.ts already exists; nothing was written/) });
    // It fills from the scenario's verdict: the template's relay loses events, so its flow is not met.
    const record = await cli('record', work, '--out', join(work, 'out'));
    expect(record.err).toBe('');
    expect(record.out).toMatch(/^ED-01: Repair flow EV-01 order\.accepted or change its semantics: declared effectively-once, but its claim "inventory reservation" is violated \(lost effect\)$/m);
    expect(record.code).toBe(1);
  }, 60_000);

  it('refuses --record for a folder that holds no scenario, or not the one named, in one line, and writes nothing', async () => {
    const empty = join(work, 'empty');
    mkdirSync(empty);
    expect(await cli('init', '--record', '--dir', empty)).toEqual({ code: 2, out: '', err: `faultline: init --record: ${empty} holds no scenario for the record to cite (faultline init <name> --dir ${empty} writes one)\n` });
    expect(await cli('init', '--record', '--dir', join(work, 'missing'))).toMatchObject({ code: 2, out: '', err: expect.stringMatching(/^faultline: init --record: \S+missing is not a folder;[^\n]*\n$/) });
    expect(readdirSync(empty)).toEqual([]);
    const one = join(work, 'one');
    expect((await cli('init', 'our-relay', '--dir', one)).code).toBe(0);
    expect(await cli('init', 'other-relay', '--record', '--dir', one)).toMatchObject({ code: 2, out: '', err: `faultline: init --record: ${one} holds no scenario other-relay (did you mean our-relay?); its scenarios: our-relay\n` });
    // No name: the folder's only scenario, which the record it writes fills from.
    const r = await cli('init', '--record', '--dir', one);
    expect(r.code, r.err).toBe(0);
    expect(readFileSync(join(one, 'record.ts'), 'utf8')).toMatch(/scenario: 'our-relay',\n\s+\/\/ The claim of that scenario[^\n]*\n[^\n]*\n\s+claim: 'inventory reservation',/);
    expect((await cli('record', one, '--out', join(one, 'out'))).err).toBe('');
  }, 60_000);
});

describe('faultline schema', () => {
  const ajv = new Ajv2020({ strict: false });

  it('prints one input’s JSON Schema, which accepts what the validator accepts', async () => {
    const r = await cli('schema', 'record');
    expect(r.code).toBe(0);
    const schema = JSON.parse(r.out) as { $id: string; properties: Record<string, unknown> };
    expect(schema.$id).toBe('urn:faultline:schema:record');
    const valid = ajv.compile(schema);
    expect(valid(catalogueRecord)).toBe(true);
    expect(valid({ ...catalogueRecord, figures: undefined })).toBe(true);
    expect(valid({ ...catalogueRecord, flows: [{ ...catalogueRecord.flows[0], semantics: 'exactly-once' }] })).toBe(false);
    expect(await cli('schema', 'orderpipeline')).toMatchObject({ code: 2, err: expect.stringMatching(/^faultline: schema: no input named orderpipeline \(did you mean orderPipeline\?\)/) });
  });

  it('writes every input’s schema: the scenario, the record and every design part’s options', async () => {
    const out = join(work, 'schemas');
    expect((await cli('schema', '--out', out)).code).toBe(0);
    const files = readdirSync(out);
    expect(files).toEqual(expect.arrayContaining(['scenario.schema.json', 'record.schema.json', 'orderPipeline.schema.json', 'consumerGroup.schema.json', 'database.schema.json', 'providerPipeline.schema.json']));
    for (const f of files) expect(() => new Ajv2020({ strict: false }).compile(JSON.parse(readFileSync(join(out, f), 'utf8')) as object), f).not.toThrow();
    // Again into the folder it wrote; never over a file of the user's.
    expect((await cli('schema', '--out', out)).code).toBe(0);
    const mine = join(work, 'my-schemas');
    mkdirSync(mine);
    writeFileSync(join(mine, 'broker.schema.json'), '{"mine":1}\n');
    expect(await cli('schema', '--out', mine)).toMatchObject({ code: 2, err: `faultline: schema: --out ${mine} holds a file faultline did not write (broker.schema.json); give a new or empty folder, or one faultline wrote\n` });
    expect(readFileSync(join(mine, 'broker.schema.json'), 'utf8')).toBe('{"mine":1}\n');
  });
});

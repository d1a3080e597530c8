// Every option a design can be drawn with is documented in docs/options.md, and the page is the
// one its generator writes today. The generator (test/docs/optionsReference.ts) renders the
// schemas `faultline schema` knows; the schemas here are found, not listed: every strict-object
// schema a module of models/ or models/designs/ exports, and the scenario's world settings, so a
// schema exported but left out of the generator's list fails too. Each must have its section, and
// every option path in it (`relay.mark`, `tables.*.ttl`) and every value an enumerated option
// allows must appear there in backticks.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { componentFields } from '../../src/scenario/design.ts';
import { z } from '../../src/scenario/options.ts';
import { WORLD_SETTINGS } from '../../src/scenario/scenario.ts';
import { docsPage, markdownSection } from './markdownSection.ts';
import { isPlaceholder, OPTIONS_PAGE, renderOptionsReference } from './optionsReference.ts';

/** The section of docs/options.md that documents each schema, by the schema's exported name. */
const SUBSECTION: Readonly<Record<string, string>> = {
  OrderPipelineOptions: 'orderPipeline',
  ProviderPipelineOptions: 'providerPipeline',
  FlowDesign: 'flowPipeline',
  GiftSagaOptions: 'giftSaga',
  PartnerFeedOptions: 'partnerFeed',
  GroupPipelineOptions: 'groupPipeline',
  PoisonPipelineOptions: 'poisonPipeline',
  ReadProcessWriteOptions: 'readProcessWrite',
  StreamPipelineOptions: 'streamPipeline',
  ReprocessingOptions: 'reprocessing',
  DeviceOptions: 'device',
  BrokerOptions: 'broker',
  CallerOptions: 'caller',
  CommitThenCallOptions: 'commitThenCall',
  ClientOptions: 'client',
  ConsumerOptions: 'consumer',
  ConsumerGroupOptions: 'consumer',
  DatabaseOptions: 'database',
  BackupOptions: 'database backups',
  OperatorOptions: 'operator',
  OrchestratorOptions: 'orchestrator',
  ParticipantOptions: 'participant',
  PartnerOptions: 'partner',
  ProviderOptions: 'provider',
  PublisherOptions: 'publisher',
  ReconcilerOptions: 'reconciler',
  RelayOptions: 'relay',
  OutboxCleanerOptions: 'outboxCleaner',
  CdcConnectorOptions: 'cdcConnector',
  SourceOptions: 'source',
  RetryOptions: 'retryPolicy',
  CallRetryOptions: 'callRetry',
  WORLD_SETTINGS: 'World settings',
};

/** Every exported object schema of the model modules, by export name. */
async function optionSchemas(): Promise<Map<string, ObjectSchema>> {
  const found = new Map<string, ObjectSchema>([['WORLD_SETTINGS', WORLD_SETTINGS]]);
  for (const dir of ['models', 'models/designs']) {
    const url = new URL(`../../${dir}/`, import.meta.url);
    for (const file of readdirSync(url).filter((f) => f.endsWith('.ts')).sort()) {
      const module = (await import(new URL(file, url).href)) as Record<string, unknown>;
      for (const [name, value] of Object.entries(module)) if (value instanceof z.ObjectSchema) found.set(name, value as ObjectSchema);
    }
  }
  return found;
}

type ObjectSchema = z.ObjectSchema<Readonly<Record<string, z.Schema>>>;

const schemas = await optionSchemas();
/** The schemas with a section of their own, which another schema's option may refer to. */
const documentedElsewhere = new Set<z.Schema>(schemas.values());

/** The values an enumerated option allows, through unions (`checkoutKeys: boolean | 'intentBound' | …`). */
function enumValues(s: z.Schema): string[] {
  const t = z.unwrapOptional(s);
  if (t instanceof z.ValuesSchema && t.kind === 'enum') return t.values.map(String);
  if (t instanceof z.UnionSchema) return (t.options as readonly z.Schema[]).flatMap(enumValues);
  return [];
}

interface Documented {
  readonly path: string;
  readonly values: readonly string[];
}

/**
 * Every option path of a schema: a nested object's fields as `a.b`, a record's values as `a.*.b`.
 * The fields every component factory shares are documented once, so a schema that takes them as
 * they are skips them; one that redefines a field (a database's required name) documents its own.
 * A preset's option that takes a part's own options (`consumer: { …any consumer option }`) is
 * one path, documented by reference to the part's own subsection.
 */
function optionPaths(schema: ObjectSchema, prefix = ''): Documented[] {
  const out: Documented[] = [];
  for (const [key, field] of Object.entries(schema.shape)) {
    if (prefix === '' && (componentFields as Record<string, unknown>)[key] === field) continue;
    const path = `${prefix}${key}`;
    const inner = z.unwrapOptional(field);
    // A preset's option that takes a part's own options is documented by reference to the part.
    // So is one that takes another documented schema whole (a caller's `retry`, a database's `backups`).
    if ((field.metadata?.partOf ?? inner.metadata?.partOf) !== undefined || (prefix === '' && documentedElsewhere.has(inner) && inner !== schema)) {
      out.push({ path, values: [] });
      continue;
    }
    if (inner instanceof z.ObjectSchema) {
      out.push(...optionPaths(inner as ObjectSchema, `${path}.`));
      continue;
    }
    out.push({ path, values: enumValues(field) });
    const value = inner instanceof z.RecordSchema ? z.unwrapOptional(inner.valueType as z.Schema) : undefined;
    if (value instanceof z.ObjectSchema) out.push(...optionPaths(value as ObjectSchema, `${path}.*.`));
  }
  return out;
}

/** The documentation a schema lacks in its subsection: option paths and allowed values not in backticks. */
function undocumented(schema: ObjectSchema, text: string): string[] {
  const missing: string[] = [];
  for (const { path, values } of optionPaths(schema)) {
    if (!text.includes(`\`${path}\``)) missing.push(path);
    for (const v of values) if (!text.includes(`\`${v}\``)) missing.push(`${path} = ${v}`);
  }
  return missing;
}


const section = docsPage('options');

describe('docs/options.md documents every option', () => {
  it('is the page its generator writes from the schemas today (npm run docs:options writes it again)', async () => {
    expect(readFileSync(OPTIONS_PAGE, 'utf8')).toBe(await renderOptionsReference());
  });

  it('holds no placeholder where its prose should be, and its generator refuses to write one', async () => {
    expect(readFileSync(OPTIONS_PAGE, 'utf8').split('\n').filter(isPlaceholder)).toEqual([]);
    expect(isPlaceholder('PRESETS INTRO')).toBe(true);
    expect(isPlaceholder('A preset draws a whole design.\nSQL and HTTP are named')).toBe(false);
  });

  it('finds the option schemas of the presets, the components and the world', () => {
    expect(schemas.size).toBeGreaterThanOrEqual(24);
    expect([...schemas.keys()]).toEqual(expect.arrayContaining(['OrderPipelineOptions', 'RelayOptions', 'DatabaseOptions', 'WORLD_SETTINGS']));
  });

  it('has a subsection for every schema, and a schema for every subsection it names', () => {
    expect([...schemas.keys()].filter((name) => SUBSECTION[name] === undefined)).toEqual([]);
    expect(Object.keys(SUBSECTION).filter((name) => !schemas.has(name))).toEqual([]);
  });

  it('names the fields every component factory takes', () => {
    const text = markdownSection('Every component factory', section);
    expect(Object.keys(componentFields).filter((k) => !text.includes(`\`${k}\``))).toEqual([]);
  });

  for (const [name, title] of Object.entries(SUBSECTION)) {
    it(`documents every option of ${name} under "${title}"`, () => {
      const schema = schemas.get(name);
      if (schema === undefined) return; // reported by the subsection test above
      expect(undocumented(schema, markdownSection(title, section))).toEqual([]);
    });
  }

  it('would notice an option left out', () => {
    const text = markdownSection('relay', section);
    const relay = schemas.get('RelayOptions')!;
    expect(undocumented(relay, text)).toEqual([]);
    expect(undocumented(relay, text.replace(/^\| `poll` .*$/m, ''))).toEqual(['poll']);
    expect(undocumented(relay, text.replace(/`beforeSend`/g, 'beforeSend'))).toEqual(['mark = beforeSend']);
  });
});

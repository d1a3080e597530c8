// `faultline schema [name] [--out DIR]`: the JSON Schema of each input faultline reads, generated
// from the schema that validates it, so an editor or a tool checks a file as the command line
// does: `scenario`, `record`, and the options of every component factory and preset the models
// export (`orderPipeline`, `consumerGroup`, `broker`, …). One name prints its schema; `--out`
// writes every one as DIR/<name>.schema.json, which is how the package ships them (dist/schemas/).
import { readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describeFsError } from '../base/fsError.ts';
import { InputError } from '../base/inputError.ts';
import { toJSONSchema, type JsonSchema } from '../base/jsonSchema.ts';
import { makeDirs } from '../base/makeDirs.ts';
import { didYouMean } from '../base/nearest.ts';
import { z } from '../scenario/options.ts';
import { parseArgv } from '../base/parseArgv.ts';
import { RecordSpecSchema } from '../scenario/recordSpec.ts';
import { ScenarioSchema } from '../scenario/scenarioSchema.ts';
import type { Command } from './command.ts';
import { text } from './flagValues.ts';

/** The models' folders, beside src/ in the sources and in the compiled package alike. */
const MODEL_DIRS = [new URL('../../models/', import.meta.url), new URL('../../models/designs/', import.meta.url)];
/** The models' files have this module's own extension: `.ts` in the sources, `.js` when compiled. */
const EXT = extname(fileURLToPath(import.meta.url));

/** A design's options by the name a user calls it: `OrderPipelineOptions` is orderPipeline's. */
function optionsName(exported: string): string {
  const base = exported.replace(/Options$/, '');
  return base.charAt(0).toLowerCase() + base.slice(1);
}

/** Every input's schema by name: the scenario, the record, then each exported option schema of the models, by name. */
export async function inputSchemas(): Promise<Map<string, z.Schema>> {
  const found = new Map<string, z.Schema>([
    ['scenario', ScenarioSchema],
    ['record', RecordSpecSchema],
  ]);
  const options: [string, z.Schema][] = [];
  for (const dir of MODEL_DIRS) {
    for (const file of readdirSync(dir).filter((f) => f.endsWith(EXT) && !f.endsWith(`.d${EXT}`)).sort()) {
      const module = (await import(new URL(file, dir).href)) as Record<string, unknown>;
      for (const [name, value] of Object.entries(module)) if (value instanceof z.ObjectSchema && /Options$|^FlowDesign$/.test(name)) options.push([optionsName(name), value]);
    }
  }
  for (const [name, schema] of options.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) found.set(name, schema);
  return found;
}

/** The JSON Schema of one input, as the package ships it. */
export function schemaJson(name: string, schema: z.Schema): JsonSchema {
  const title = name === 'scenario' ? 'A faultline scenario' : name === 'record' ? 'A faultline decision record' : `The options of ${name}`;
  return toJSONSchema(schema, { id: `urn:faultline:schema:${name}`, title });
}

/**
 * Refuses a folder that is a file or holds a file faultline did not write: `--out` replaces the
 * schemas it finds, and a user's own file of the same name would be lost. A schema faultline
 * wrote names itself by its `$id`.
 */
function refuseForeignFiles(out: string): void {
  let entries: string[];
  try {
    if (!statSync(out).isDirectory()) throw new InputError(`schema: --out ${out} is not a writable folder: it is a file`);
    entries = readdirSync(out);
  } catch (error) {
    if (error instanceof InputError) throw error;
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw new InputError(`schema: --out ${out} is not a writable folder: ${describeFsError(error) ?? String(error)}`);
  }
  const ours = (entry: string) => {
    // A schema whose write was cut short is ours too: the next write replaces it.
    if (entry.endsWith('.schema.json.tmp')) return true;
    if (!entry.endsWith('.schema.json')) return false;
    try {
      return String((JSON.parse(readFileSync(join(out, entry), 'utf8')) as { $id?: unknown }).$id).startsWith('urn:faultline:schema:');
    } catch {
      return false;
    }
  };
  const foreign = entries.filter((e) => !ours(e));
  if (foreign.length > 0) throw new InputError(`schema: --out ${out} holds ${foreign.length === 1 ? 'a file' : 'files'} faultline did not write (${foreign.slice(0, 3).join(', ')}${foreign.length > 3 ? ', …' : ''}); give a new or empty folder, or one faultline wrote`);
}

export const command: Command = {
  usage: 'schema [name] [--out DIR]',
  spec: {
    command: 'schema',
    flags: { out: { type: 'string', value: 'DIR', help: 'write every schema as DIR/<name>.schema.json instead of printing one' } },
    positionals: { min: 0, max: 1, name: 'input name (scenario, record, or a design part such as orderPipeline)' },
  },
  async run(args, io) {
    const { values, positionals } = parseArgv(args, this.spec);
    const schemas = await inputSchemas();
    const out = text(values['out']);
    const name = positionals[0];
    if (out === undefined) {
      if (name === undefined) throw new InputError(`schema: name the input (${[...schemas.keys()].join(', ')}), or give --out DIR for every one`);
      const schema = schemas.get(name);
      if (schema === undefined) throw new InputError(`schema: no input named ${name}${didYouMean(name, schemas.keys())}; inputs: ${[...schemas.keys()].join(', ')}`);
      io.out(JSON.stringify(schemaJson(name, schema), null, 2));
      return 0;
    }
    if (name !== undefined) throw new InputError('schema: --out writes every schema; give no name with it');
    refuseForeignFiles(out);
    try {
      makeDirs(out);
      for (const [n, schema] of schemas) {
        // Each file whole or not at all: written beside, then renamed over the old one.
        const file = join(out, `${n}.schema.json`);
        writeFileSync(`${file}.tmp`, `${JSON.stringify(schemaJson(n, schema), null, 2)}\n`);
        renameSync(`${file}.tmp`, file);
      }
    } catch (error) {
      throw new InputError(`schema: cannot write into ${out}: ${describeFsError(error) ?? String(error)}`);
    }
    io.out(`wrote ${schemas.size} schemas to ${out}`);
    return 0;
  },
};

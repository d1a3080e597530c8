// Finds scenarios: the catalogue is every file in scenarios/, and a user may name the path of
// their own scenario file instead (an architect keeps their design in their own repository).
import { existsSync, readdirSync } from 'node:fs';
import { basename, isAbsolute, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { tsImport } from 'tsx/esm/api';
import { InputError } from './inputError.ts';
import { defineScenario, type Scenario } from './scenario.ts';

const CATALOGUE_DIR = new URL('../scenarios/', import.meta.url);

export interface CatalogueEntry {
  readonly scenario: Scenario;
  readonly file: string;
}

async function importScenario(url: string, origin: string, userFile = false): Promise<Scenario> {
  let mod: Record<string, unknown>;
  try {
    // A user's file may sit outside any ESM package; tsx's loader compiles it either way.
    mod = (userFile ? await tsImport(url, import.meta.url) : await import(url)) as Record<string, unknown>;
  } catch (error) {
    // A design option refused while the file was evaluated (orderPipeline({...}) runs at import)
    // is already one line; it gets the file's name in front, like every other problem with it.
    const first = (error instanceof Error ? error.message : String(error)).split('\n')[0];
    throw new InputError(first?.startsWith('malformed scenario ') ? first : `malformed scenario ${origin}: ${first}`);
  }
  let candidate = (mod['default'] ?? mod['scenario']) as Record<string, unknown> | undefined;
  // A file compiled as CommonJS arrives wrapped once more in a namespace object.
  if (candidate && typeof candidate === 'object' && !('name' in candidate)) candidate = (candidate['default'] ?? candidate['scenario']) as Record<string, unknown> | undefined;
  if (candidate === undefined) throw new InputError(`malformed scenario ${origin}: it has no default export`);
  return defineScenario(candidate as unknown as Scenario, origin);
}

/** The file beside a folder's scenarios that holds its decision record's metadata, not a scenario. */
export const RECORD_FILE = 'record.ts';

/** The scenario files of a folder, in scenario-name order (a file is named after its scenario): `a` before `a-b`. */
function scenarioFiles(dir: string | URL): string[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts') && f !== RECORD_FILE)
    .sort((x, y) => (x.slice(0, -3) < y.slice(0, -3) ? -1 : x.slice(0, -3) > y.slice(0, -3) ? 1 : 0));
}

/** Every catalogue scenario, in file-name order. */
export async function loadCatalogue(): Promise<CatalogueEntry[]> {
  const out: CatalogueEntry[] = [];
  for (const f of scenarioFiles(CATALOGUE_DIR)) {
    const url = new URL(f, CATALOGUE_DIR).href;
    out.push({ scenario: await importScenario(url, `scenarios/${f}`), file: `scenarios/${f}` });
  }
  return out;
}

/** Every scenario file of a user's folder, in file-name order. */
export async function loadFolder(dir: string): Promise<CatalogueEntry[]> {
  const path = isAbsolute(dir) ? dir : resolve(process.cwd(), dir);
  const out: CatalogueEntry[] = [];
  for (const f of scenarioFiles(path)) {
    const file = join(dir, f);
    out.push({ scenario: await importScenario(pathToFileURL(join(path, f)).href, file, true), file });
  }
  return out;
}

/** The catalogue's own folder, where its `record.ts` lives. */
export function catalogueDir(): URL {
  return CATALOGUE_DIR;
}

/** A catalogue scenario by name, or a scenario file by path. */
export async function loadScenario(ref: string): Promise<CatalogueEntry> {
  if (ref.endsWith('.ts') || ref.endsWith('.js') || ref.includes('/')) {
    const path = isAbsolute(ref) ? ref : resolve(process.cwd(), ref);
    if (!existsSync(path)) throw new InputError(`no scenario file ${ref}`);
    return { scenario: await importScenario(pathToFileURL(path).href, ref, true), file: ref };
  }
  const file = new URL(`${basename(ref)}.ts`, CATALOGUE_DIR);
  if (!existsSync(file)) throw new InputError(`unknown scenario ${ref} (faultline list shows the catalogue)`);
  return { scenario: await importScenario(file.href, `scenarios/${ref}.ts`), file: `scenarios/${ref}.ts` };
}

// Finds and loads scenarios: the catalogue is every file in scenarios/, and a user names their
// own scenario files instead (an architect keeps their design in their own repository): one
// file, several, a folder of them or a pattern. Every command that takes scenarios loads them
// here, so each refuses the same mistakes the same way, as one InputError line.
//
// The catalogue is compiled with the package and imported as it is. A user's TypeScript file
// is compiled on the fly by tsx, which is loaded only then, so a command that never touches a
// user's file never pays for it. A user's file is not trusted to behave: it is read only when it
// is a regular file with a scenario's extension, its loading is bounded in time by the caller
// (the command line's limit, cli/loadOptions.ts: a top-level await that never settles is
// reported, not waited on for ever), and the command line traps process.exit while it runs
// (cli/exitTrap.ts).
import { rememberRef } from './scenarioRef.ts';
import { accessSync, constants, existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, extname, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describeFsError } from '../base/fsError.ts';
import { expandGlob, isGlob } from '../base/glob.ts';
import { InputError } from '../base/inputError.ts';
import { setLoading } from '../base/loadingNow.ts';
import { didYouMean } from '../base/nearest.ts';
import { defineScenario, type Scenario } from './scenario.ts';
import { shownPath } from '../base/shownPath.ts';
import { registerUserFile, userFrame } from '../faults/userFault.ts';

const CATALOGUE_DIR = new URL('../../scenarios/', import.meta.url);
/** The catalogue's files have this module's own extension: `.ts` in the sources, `.js` when compiled. */
const CATALOGUE_EXT = extname(fileURLToPath(import.meta.url));
/** The extensions a user's scenario file may have. */
export const SCENARIO_EXTENSIONS = ['.ts', '.mts', '.cts', '.js', '.mjs', '.cjs'] as const;
/** The file beside a folder's scenarios that holds its decision record's metadata, not a scenario. */
export const RECORD_FILE = 'record.ts';
/** The catalogue's own record file, compiled with it as its scenarios are. */
export const CATALOGUE_RECORD_FILE = `record${CATALOGUE_EXT}`;

export interface CatalogueEntry {
  readonly scenario: Scenario;
  /** `scenarios/<name>.ts` for the catalogue, the path as the user gave it for their own file. */
  readonly file: string;
  /** How a replay line names it: a catalogue scenario by its name, a user's file by its path. */
  readonly ref: string;
}

export interface LoadOptions {
  /**
   * Bounds the loading of one user's file in time: it settles as `load` does, or rejects once
   * the limit passes. The command line gives one (cli/loadOptions.ts); the engine keeps no clock.
   */
  readonly within?: <T>(load: Promise<T>, origin: string) => Promise<T>;
  /** Runs once every reference is found and before any file is loaded: the command's own checks. */
  readonly beforeLoad?: () => void;
  /**
   * Told of each file of a folder or a pattern that was skipped as no scenario (a module of
   * shared claims or records, with no default export), and why; the command line prints it.
   */
  readonly onSkipped?: (file: string, why: string) => void;
  /**
   * Checks each user's scenario once it is loaded, by what no load-time check can see (its claims
   * over the rows of a run: src/run/referenceProbe.ts); throws an InputError to refuse it.
   */
  readonly afterLoad?: (entry: CatalogueEntry) => void;
}

/** Why a module is no scenario at all: it has no default export (nor a `scenario` one). */
const NO_DEFAULT_EXPORT = 'it has no default export';

/** The module's scenario export: the default export, or `scenario`; CommonJS wraps it once more. */
function scenarioExport(mod: Record<string, unknown>, origin: string): Scenario {
  const candidate = scenarioCandidate(mod);
  if (candidate === undefined) throw new InputError(`malformed scenario ${origin}: ${NO_DEFAULT_EXPORT}`);
  // A second scenario beside it would never run, and nothing would say so.
  const others = Object.keys(mod).filter((k) => k !== 'default' && k !== 'scenario' && mod[k] !== candidate && looksLikeScenario(mod[k]));
  if (others.length > 0) throw new InputError(`malformed scenario ${origin}: it exports another scenario besides its default (${others.join(', ')}), which would never run; a scenario file exports one scenario, as its default (put each in a file of its own)`);
  return defineScenario(candidate as unknown as Scenario, origin);
}

/** Whether an export is a scenario: a name, a design to build and claims to judge. */
function looksLikeScenario(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return false;
  const v = value as Record<string, unknown>;
  return typeof v['name'] === 'string' && typeof v['build'] === 'function' && Array.isArray(v['claims']);
}

function scenarioCandidate(mod: Record<string, unknown>): Record<string, unknown> | undefined {
  let candidate = (mod['default'] ?? mod['scenario']) as Record<string, unknown> | undefined;
  if (candidate && typeof candidate === 'object' && !('name' in candidate) && ('default' in candidate || 'scenario' in candidate)) candidate = (candidate['default'] ?? candidate['scenario']) as Record<string, unknown> | undefined;
  return candidate;
}

/** One line for a failure to load a user's file: a syntax error with its location, or the first frame in their file. */
function loadFailure(error: unknown, origin: string, path: string): InputError {
  // An InputError from another copy of faultline (the user's import of it) is still bad input.
  if (error instanceof Error && error.name === 'InputError') {
    // A build() that threw carries its error as the cause: name the user's line it came from.
    const at = error.cause === undefined ? undefined : userFrame(error.cause);
    const where = at === undefined ? '' : ` (at ${at.where}${at.fn ? ` in ${at.fn}` : ''})`;
    // defineScenario's refusal names the scenario; a file's is named by the file, as every other load error is.
    const malformed = (error as { malformed?: unknown }).malformed;
    if (typeof malformed === 'string') return new InputError(`malformed scenario ${origin}: ${malformed.split('\n')[0]}${where}`);
    const message = `${error.message.split('\n')[0]}${where}`;
    return new InputError(message.startsWith('malformed scenario') ? message : `malformed scenario ${origin}: ${message}`);
  }
  if (error instanceof Error && error.name === 'ExitCalled') return new InputError(`malformed scenario ${origin}: ${(error as Error & { describe(): string }).describe()}`);
  const message = error instanceof Error ? error.message : String(error);
  // esbuild (through tsx): "Transform failed with 1 error:\n/abs/file.ts:3:7: ERROR: Expected …".
  const transform = /^(.+?):(\d+):(\d+): ERROR: (.*)$/m.exec(message);
  // The file is the one esbuild names (a module the scenario imports has its own errors), whose
  // extension may be tsx's rewrite (.mts read as .ts): the file of that stem that exists.
  if (transform) {
    const named = transform[1]!;
    const file = [named, ...['.mts', '.cts', '.tsx', '.mjs', '.cjs', '.js'].map((ext) => named.replace(/\.[^./]+$/, ext))].find((f) => existsSync(f)) ?? path;
    return new InputError(`malformed scenario ${origin}: syntax error at ${shownPath(file)}:${transform[2]}:${transform[3]}: ${transform[4]}`);
  }
  // Node's own SyntaxError for a JavaScript file puts the location on the first line of the stack.
  if (error instanceof SyntaxError && typeof error.stack === 'string') {
    const at = /^(file:\/\/\S+?|\/\S+?):(\d+)$/m.exec(error.stack);
    if (at) {
      const file = at[1]!.startsWith('file:') ? fileURLToPath(at[1]!) : at[1]!;
      return new InputError(`malformed scenario ${origin}: syntax error at ${shownPath(file)}:${at[2]}: ${message.split('\n')[0]}`);
    }
  }
  const frame = userFrame(error);
  const first = message.split('\n')[0];
  const name = error instanceof Error && error.name !== 'Error' ? `${error.name}: ` : '';
  return new InputError(`malformed scenario ${origin}: ${frame ? `${frame.where}: ` : ''}${name}${first}`);
}

/** Whether a `.ts` or `.js` file is an ES module: its extension, or the nearest package.json's type. */
function isEsm(path: string): boolean {
  const ext = extname(path);
  if (ext === '.mts' || ext === '.mjs') return true;
  if (ext === '.cts' || ext === '.cjs') return false;
  for (let dir = dirname(path); ; dir = dirname(dir)) {
    try {
      return (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { type?: unknown }).type === 'module';
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT' && (error as NodeJS.ErrnoException).code !== 'ENOTDIR') return false;
    }
    if (dirname(dir) === dir) return false;
  }
}

let scoped: Promise<(specifier: string, parent: string) => Promise<unknown>> | undefined;

/**
 * One tsx namespace for every user file a command loads: the modules they share (the models a
 * folder of scenarios all import) are transpiled and evaluated once, where a namespace per file
 * would load them again for each.
 */
function tsxImport(): Promise<(specifier: string, parent: string) => Promise<unknown>> {
  scoped ??= import('tsx/esm/api').then(({ register }) => register({ namespace: 'faultline-scenarios' }).import);
  return scoped;
}

/** Imports a user's file: JavaScript natively, TypeScript through tsx, as the file's own module kind. */
async function importUserFile(path: string): Promise<Record<string, unknown>> {
  const ext = extname(path);
  if (ext === '.js' || ext === '.mjs' || ext === '.cjs') return (await import(pathToFileURL(path).href)) as Record<string, unknown>;
  // tsx keeps its hooks to the files loaded through it (a namespace), and maps stack traces back
  // to the TypeScript source. A CommonJS-scoped file goes through its require hook, the one that
  // keeps source maps for such files.
  if (isEsm(path)) return (await (await tsxImport())(pathToFileURL(path).href, import.meta.url)) as Record<string, unknown>;
  const { require: tsxRequire } = await import('tsx/cjs/api');
  return tsxRequire(path, import.meta.url) as Record<string, unknown>;
}

/**
 * Loads one user's file, within the time limit the options give. A file a folder or a pattern
 * found (`found`) that has no default export is a module the scenarios share, not a scenario:
 * undefined. A file named directly must be a scenario.
 */
async function loadUserFile(path: string, origin: string, options: LoadOptions, found = false): Promise<Scenario | undefined> {
  registerUserFile(path);
  setLoading(origin);
  try {
    const load = importUserFile(path);
    const mod = await (options.within ? options.within(load, origin) : load);
    if (found && scenarioCandidate(mod) === undefined) return undefined;
    return scenarioExport(mod, origin);
  } catch (error) {
    throw loadFailure(error, origin, path);
  } finally {
    setLoading(undefined);
  }
}

/** Checks a user's path before anything reads it: a regular, readable file with a scenario's extension. */
function checkUserFile(ref: string, path: string): void {
  let stat;
  try {
    stat = statSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') throw new InputError(`no scenario file ${ref}`);
    throw new InputError(`cannot read scenario file ${ref}: ${describeFsError(error, 'read') ?? String(error)}`);
  }
  // A device, a pipe or a socket (/dev/stdin, /proc/kmsg's kind) could block for ever when read.
  if (!stat.isFile()) throw new InputError(`${ref} is not a regular file`);
  if (!(SCENARIO_EXTENSIONS as readonly string[]).includes(extname(path))) throw new InputError(`${ref} is not a scenario file: it must end in ${SCENARIO_EXTENSIONS.join(', ')}`);
  try {
    accessSync(path, constants.R_OK);
  } catch (error) {
    throw new InputError(`cannot read scenario file ${ref}: ${describeFsError(error, 'read') ?? String(error)}`);
  }
}

/** The catalogue's scenario names, in name order (a file is named after its scenario): `a` before `a-b`. */
export function catalogueNames(): string[] {
  return readdirSync(CATALOGUE_DIR)
    .filter((f) => f.endsWith(CATALOGUE_EXT) && !f.endsWith(`.d${CATALOGUE_EXT}`) && f !== CATALOGUE_RECORD_FILE)
    .map((f) => f.slice(0, -CATALOGUE_EXT.length))
    .sort();
}

async function loadCatalogueFile(name: string): Promise<CatalogueEntry> {
  const file = `scenarios/${name}${CATALOGUE_EXT}`;
  const mod = (await import(new URL(`${name}${CATALOGUE_EXT}`, CATALOGUE_DIR).href)) as Record<string, unknown>;
  return { scenario: scenarioExport(mod, file), file, ref: name };
}

/** Every catalogue scenario, in scenario-name order. */
export async function loadCatalogue(): Promise<CatalogueEntry[]> {
  const out: CatalogueEntry[] = [];
  for (const name of catalogueNames()) out.push(await loadCatalogueFile(name));
  return out;
}

/** Whether `ref` names a file or folder rather than a catalogue scenario. */
function isPathRef(ref: string): boolean {
  return ref.includes('/') || ref.includes('\\') || ref.startsWith('.') || (SCENARIO_EXTENSIONS as readonly string[]).includes(extname(ref));
}

/** The scenario files a folder holds (not its subfolders), sorted. */
function folderFiles(ref: string, path: string): string[] {
  let names: string[];
  try {
    names = readdirSync(path);
  } catch (error) {
    throw new InputError(`cannot read folder ${ref}: ${describeFsError(error, 'read') ?? String(error)}`);
  }
  const files = names
    .filter(isScenarioFileName)
    .sort()
    .map((f) => join(path, f));
  if (files.length === 0) throw new InputError(`folder ${ref} holds no scenario files (${SCENARIO_EXTENSIONS.join(', ')})`);
  return files;
}

/** Whether a file name in a folder or a pattern's matches is a scenario: not a declaration, a test, a hidden file or the folder's record. */
function isScenarioFileName(f: string): boolean {
  return (SCENARIO_EXTENSIONS as readonly string[]).includes(extname(f)) && !/\.d\.[cm]?ts$/.test(f) && !/\.(test|spec)\.[cm]?[jt]s$/.test(f) && !f.startsWith('.') && f !== RECORD_FILE;
}

/**
 * Where one reference leads: the catalogue, catalogue names, or user's files as [shown name,
 * absolute path]; `found` when a folder or a pattern found the files rather than the user naming one.
 */
function expand(ref: string): { readonly catalogue: readonly string[]; readonly files: readonly (readonly [string, string])[]; readonly found: boolean } {
  if (ref === 'all') return { catalogue: catalogueNames(), files: [], found: false };
  if (isGlob(ref)) {
    const files = expandGlob(ref).filter((f) => isScenarioFileName(basename(f)));
    if (files.length === 0) throw new InputError(`no scenario file matches ${ref}`);
    return { catalogue: [], files: files.map((f) => [shownPath(f), f] as const), found: true };
  }
  const path = isAbsolute(ref) ? ref : resolve(process.cwd(), ref);
  let stat;
  try {
    stat = statSync(path);
  } catch {
    // Not there: a catalogue name, or a missing file refused below.
  }
  if (stat?.isDirectory()) return { catalogue: [], files: folderFiles(ref, path).map((f) => [join(ref, basename(f)), f] as const), found: true };
  if (isPathRef(ref)) return { catalogue: [], files: [[ref, path]], found: false };
  const names = catalogueNames();
  // A file that is there but has no scenario's extension (`notes.sh`) is checked as the file it is, not looked up as a name.
  if (!names.includes(ref) && stat !== undefined) return { catalogue: [], files: [[ref, path]], found: false };
  if (!names.includes(ref)) throw new InputError(`unknown scenario ${ref}${didYouMean(ref, names)} (faultline list shows the catalogue)`);
  return { catalogue: [ref], files: [], found: false };
}

/**
 * Loads every scenario the references name, in order, each once: `all` (the catalogue), a
 * catalogue name, a file, a folder or a pattern. Two files whose scenarios share a name are
 * refused, since reports and replay lines name a scenario by its name.
 */
export async function loadScenarios(refs: readonly string[], options: LoadOptions = {}): Promise<CatalogueEntry[]> {
  const out: CatalogueEntry[] = [];
  const seen = new Set<string>();
  const plan = refs.map(expand);
  // Every path is checked before any file runs: a typo in the last name costs no loading.
  for (const { files } of plan) for (const [shown, path] of files) checkUserFile(shown, path);
  options.beforeLoad?.();
  for (const [i, { catalogue, files, found }] of plan.entries()) {
    for (const name of catalogue) {
      const key = `catalogue:${name}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(await loadCatalogueFile(name));
    }
    const skipped: string[] = [];
    for (const [shown, path] of files) {
      if (seen.has(path)) continue;
      seen.add(path);
      const scenario = await loadUserFile(path, shown, options, found);
      if (scenario === undefined) {
        skipped.push(shown);
        continue;
      }
      const entry = { scenario, file: shown, ref: shown };
      rememberRef(scenario, shown);
      options.afterLoad?.(entry);
      out.push(entry);
    }
    refuseOnlyModules(refs[i]!, files.length, skipped, options);
  }
  const byName = new Map<string, string>();
  for (const { scenario, file } of out) {
    const other = byName.get(scenario.name);
    if (other !== undefined) throw new InputError(`two scenarios are named ${scenario.name}: ${other} and ${file}`);
    byName.set(scenario.name, file);
  }
  return out;
}

/**
 * Tells of the modules a folder or a pattern held that are no scenarios, and refuses one that
 * held nothing else: a folder run needs at least one scenario.
 */
function refuseOnlyModules(ref: string, files: number, skipped: readonly string[], options: LoadOptions): void {
  if (skipped.length > 0 && skipped.length === files) {
    const its = isGlob(ref) ? ['the one file it matches', 'the files it matches'] : ['its one file', 'its files'];
    const what = skipped.length === 1 ? `${its[0]}, ${skipped[0]}, has no default export` : `none of ${its[1]} (${skipped.length}) has a default export`;
    throw new InputError(`${ref} ${isGlob(ref) ? 'matches' : 'holds'} no scenario: ${what}`);
  }
  for (const file of skipped) options.onSkipped?.(file, `${NO_DEFAULT_EXPORT}, so it is a module the scenarios share, not a scenario`);
}

/**
 * How each scenario the references name is named for loading, without loading any: catalogue
 * names and the paths of scenario files, in the order loadScenarios takes them, each once.
 */
export function scenarioRefs(refs: readonly string[]): string[] {
  // Each once, as loadScenarios takes them: a catalogue name by its name, a file by its absolute path.
  const seen = new Map<string, string>();
  for (const { catalogue, files } of refs.map(expand)) {
    for (const name of catalogue) if (!seen.has(`catalogue:${name}`)) seen.set(`catalogue:${name}`, name);
    for (const [shown, path] of files) if (!seen.has(path)) seen.set(path, shown);
  }
  return [...seen.values()];
}

/** A catalogue scenario by name, or a scenario file by path: exactly one scenario. */
export async function loadScenario(ref: string, options: LoadOptions = {}): Promise<CatalogueEntry> {
  const entries = await loadScenarios([ref], options);
  if (entries.length !== 1) throw new InputError(`${ref} names ${entries.length} scenarios; give one`);
  return entries[0]!;
}

/** Every scenario file of a user's folder, in file-name order, without its record.ts. */
export async function loadFolder(dir: string, options: LoadOptions = {}): Promise<CatalogueEntry[]> {
  return loadScenarios([dir], options);
}

/** Where a loaded scenario's file is on disk: a catalogue scenario's in the catalogue's folder, a user's as given, from the working folder. */
export function entryPath(entry: CatalogueEntry): string {
  return entry.ref !== entry.file ? fileURLToPath(new URL(`${entry.ref}${CATALOGUE_EXT}`, CATALOGUE_DIR)) : resolve(entry.file);
}

/** The catalogue's own folder, where its record file lives. */
export function catalogueDir(): URL {
  return CATALOGUE_DIR;
}

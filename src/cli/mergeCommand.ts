// `faultline merge <part>…`: joins the parts that `windows`, `explore` or `check` wrote with
// `--shard i/n` on n machines into the result one unsharded run gives: the same summary, the
// same report set, byte for byte, and the same exit code. Parts of different sweeps (another
// command, seed, fault depth or scenario list, another faultline version) or an incomplete set
// of shards are refused, one line, exit code 2.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { loadScenarios, type CatalogueEntry } from '../scenario/catalogue.ts';
import type { CheckResult } from '../modes/check/check.ts';
import { finishExplore, mergeExploreParts, type ExploreOptions } from '../modes/explore.ts';
import { describeFsError } from '../base/fsError.ts';
import { InputError } from '../base/inputError.ts';
import { recordOf, shapeProblem, tupleOf } from '../base/shapeOf.ts';
import { parseArgv } from '../base/parseArgv.ts';
import { checkReportDir, MANIFEST } from '../report/writeReports.ts';
import { PART_FILE, scenarioFingerprint, type CheckPartFile, type ExplorePartFile, type PartFile, type WindowsPartFile } from '../sweep/sweepParts.ts';
import { finishWindows, sweepSettings, type WindowsOptions } from '../modes/windows.ts';
import { emptyPart, mergeWindowsParts, sweepPlan } from '../modes/windowsPart.ts';
import { DEFAULT_OUT as CHECK_OUT, presentCheck, type TimedCheck } from './checkCommand.ts';
import type { Command } from './command.ts';
import { presentExplore } from './exploreCommand.ts';
import { text } from './flagValues.ts';
import { filesOf, formsFlag, REPORT_FLAGS } from './reportFlags.ts';
import { loadOptions } from './loadOptions.ts';
import { version } from './main.ts';
import { DEFAULT_OUT as WINDOWS_OUT, presentWindows } from './windowsCommand.ts';

export const command: Command = {
  usage: 'merge <part folder|part file>… [--out DIR] [--reporter|--format LIST] [--json]',
  spec: {
    command: 'merge',
    flags: {
      out: { type: 'string', value: 'DIR', help: 'the folder the report set replaces (default the command\'s own: faultline-reports/ or faultline-check/)' },
      ...REPORT_FLAGS,
      json: { type: 'boolean', help: 'print the JSON document the unsharded command prints with --json' },
    },
    positionals: { min: 1, max: Infinity, name: 'the folders (or part.json files) the shards wrote' },
  },
  async run(args, io) {
    const { values, positionals } = parseArgv(args, this.spec);
    const parts = positionals.map(readPart);
    const first = parts[0]!;
    for (const [i, p] of parts.entries()) {
      const where = positionals[i]!;
      if (p.version !== version()) throw new InputError(`${where} was written by faultline ${p.version}; this is ${version()}, and parts merge only with the version that ran them`);
      if (p.command !== first.command) throw new InputError(`${where} is a part of ${p.command}, ${positionals[0]} of ${first.command}: parts of one sweep only`);
      if (p.shard.count !== first.shard.count) throw new InputError(`${where} is shard ${p.shard.index}/${p.shard.count}, ${positionals[0]} shard ${first.shard.index}/${first.shard.count}: parts of one sweep only`);
      if (JSON.stringify(p.settings) !== JSON.stringify(first.settings)) throw new InputError(`${where} ran with ${JSON.stringify(p.settings)}, ${positionals[0]} with ${JSON.stringify(first.settings)}: parts of one sweep only`);
      if (JSON.stringify(p.refs) !== JSON.stringify(first.refs)) throw new InputError(`${where} ran other scenarios than ${positionals[0]}: parts of one sweep only`);
      const changed = p.refs.find((_, k) => p.fingerprints[k] !== first.fingerprints[k]);
      if (changed !== undefined) throw new InputError(`${changed} changed between the shards that wrote ${positionals[0]} and ${where}: parts of one sweep only`);
    }
    const byIndex = new Map<number, PartFile>();
    for (const [i, p] of parts.entries()) {
      if (byIndex.has(p.shard.index)) throw new InputError(`shard ${p.shard.index}/${p.shard.count} is given twice (${positionals[i]})`);
      byIndex.set(p.shard.index, p);
    }
    const missing = Array.from({ length: first.shard.count }, (_, k) => k + 1).filter((k) => !byIndex.has(k));
    if (missing.length > 0) throw new InputError(`shard${missing.length === 1 ? '' : 's'} ${missing.map((k) => `${k}/${first.shard.count}`).join(', ')} missing: a merge needs every part`);
    const ordered = [...byIndex.keys()].sort((a, b) => a - b).map((k) => byIndex.get(k)!);
    const json = values['json'] === true;
    const out = text(values['out']);
    if (first.command === 'explore' && out !== undefined) throw new InputError('--out: an explore writes no report set');
    if (first.command === 'explore' && (values['reporter'] !== undefined || values['format'] !== undefined)) throw new InputError(`--${values['reporter'] !== undefined ? 'reporter' : 'format'}: an explore writes no report set`);
    const forms = formsFlag(values);
    const outDir = out ?? (first.command === 'check' ? CHECK_OUT : WINDOWS_OUT);
    // The report set replaces its folder: one that holds a part being merged would lose it.
    const partFolders = positionals.map((p) => resolve(existsSync(p) && statSync(p).isDirectory() ? p : dirname(p)));
    if (first.command !== 'explore' && partFolders.includes(resolve(outDir))) throw new InputError(`--out ${outDir} holds a part being merged, which the report set would replace; give another folder`);
    const entries = await loadScenarios(first.refs, { ...loadOptions(io), ...(first.command === 'explore' ? {} : { beforeLoad: () => checkReportDir(outDir) }) });
    // The scenarios as they are now must be the ones the shards ran.
    for (const [k, { scenario, ref }] of entries.entries()) if (scenarioFingerprint(scenario) !== first.fingerprints[k]) throw new InputError(`${ref} changed since the shards ran: merge parts of the scenarios as they are, or run the shards again`);
    const files = filesOf(entries);
    if (first.command === 'windows') return presentWindows(asInput(() => mergeWindows(ordered as WindowsPartFile[], entries)), { json, outDir, forms, files }, io);
    if (first.command === 'explore') return presentExplore(asInput(() => mergeExplore(ordered as ExplorePartFile[], entries)), { json, files }, io);
    return presentCheck(mergeCheck(ordered as CheckPartFile[], entries), { json, outDir, forms, files }, io);
  },
};

/**
 * Why `where` holds no part to read, in the reader's terms: it does not exist, or it is a folder
 * without a part file (empty, a report set, or something else); undefined when it may hold one.
 */
function noPartAt(where: string): string | undefined {
  if (!existsSync(where)) return `${where} does not exist`;
  if (!statSync(where).isDirectory() || existsSync(join(where, PART_FILE))) return undefined;
  const entries = readdirSync(where);
  const what = entries.length === 0 ? 'it is empty' : entries.includes(MANIFEST) ? 'it is a report set, not a part' : entries.length === 1 ? 'it holds one file, which is not a part' : `it holds ${entries.length} files, none of them a part`;
  return `${where} holds no ${PART_FILE} (${what}; a part is the folder windows, explore or check wrote with --shard)`;
}

/** A part, from the folder a shard wrote or the file itself. */
function readPart(where: string): PartFile {
  let file = where;
  let text: string;
  try {
    const missing = noPartAt(where);
    if (missing !== undefined) throw new InputError(missing);
    if (statSync(where).isDirectory()) file = join(where, PART_FILE);
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if (error instanceof InputError) throw error;
    throw new InputError(`cannot read the part ${where}: ${describeFsError(error, 'read') ?? String(error)}`);
  }
  let part: Partial<PartFile>;
  try {
    part = JSON.parse(text) as Partial<PartFile>;
  } catch {
    throw new InputError(`${where} is not a faultline part: it is not JSON`);
  }
  const not = (why: string) => new InputError(`${where} is not a faultline part (one that windows, explore or check wrote with --shard): ${why}`);
  if (part === null || typeof part !== 'object' || part.format !== 'faultline-part') throw not('it does not say it is one');
  if (!['windows', 'explore', 'check'].includes(part.command as string)) throw not(`no command ${JSON.stringify(part.command)}`);
  const { shard, refs, fingerprints, scenarios } = part;
  if (typeof part.version !== 'string' || typeof part.settings !== 'object' || part.settings === null) throw not('its version or settings are missing');
  if (!shard || !Number.isSafeInteger(shard.index) || !Number.isSafeInteger(shard.count) || shard.index < 1 || shard.index > shard.count) throw not('its shard is not i/n');
  if (!Array.isArray(refs) || !refs.every((r) => typeof r === 'string') || !Array.isArray(fingerprints) || fingerprints.length !== refs.length) throw not('its scenario list is broken');
  if (!Array.isArray(scenarios) || !scenarios.every((x) => x !== null && typeof x === 'object' && typeof x.ref === 'string')) throw not('its scenarios are broken');
  // Windows and explore parts hold every scenario, a check part the ones its shard searched.
  if (part.command !== 'check' && (scenarios.length !== refs.length || scenarios.some((x, k) => x.ref !== refs[k] || typeof (x as { part?: unknown }).part !== 'object'))) throw not('its scenarios do not match its scenario list');
  if (part.command === 'check' && scenarios.some((x) => !Number.isSafeInteger((x as { index?: unknown }).index) || refs[(x as { index: number }).index] !== x.ref || typeof (x as { result?: unknown }).result !== 'object')) throw not('its searches do not match its scenario list');
  // Each tally has the fields a tally of its command has, each of its type.
  const reference = part.command === 'windows' ? { total: 0, part: windowsPartShape() } : part.command === 'explore' ? { part: explorePartShape() } : undefined;
  for (const [k, x] of scenarios.entries()) {
    const problem = reference === undefined ? undefined : shapeProblem(reference, x, `scenarios[${k}]`);
    if (problem !== undefined) throw not(`${problem} (${x.ref})`);
  }
  return part as PartFile;
}

/** A clause tally's entries, each of its type. */
const CLAUSES_SHAPE = [{ key: '', effect: '', clause: '', seen: [''], exercised: 0 }];

/** A windows part's fields, each of its type, down to the entries of its lists: what a part read back must hold. */
function windowsPartShape(): object {
  const row = { fault: {}, runs: 0, struck: 0, worst: {}, outcomes: recordOf(0), undecided: [] };
  return { ...emptyPart('', 0), outcomes: [''], clauses: CLAUSES_SHAPE, reached: [''], firstOf: [tupleOf('', 0)], rows: [tupleOf('', row)], pairs: { broke: 0, breaks: [{ effect: '', clause: '', runs: [{ index: 0, first: {}, second: {} }] }], alone: [''] } };
}

/** An explore part's fields, each of its type. */
function explorePartShape(): object {
  return { scenario: '', from: 0, count: 0, runs: 0, outcomes: recordOf(0), clauses: CLAUSES_SHAPE, unstruckRuns: 0 };
}

/** Runs a merge, reporting a tally the parts cannot make (a gap, a damaged part) as bad input. */
function asInput<T>(merge: () => T): T {
  try {
    return merge();
  } catch (error) {
    if (error instanceof InputError) throw error;
    throw new InputError(`the parts do not make one sweep: ${error instanceof Error ? error.message : String(error)}`);
  }
}

function mergeWindows(parts: readonly WindowsPartFile[], entries: readonly CatalogueEntry[]) {
  const options = parts[0]!.settings as WindowsOptions;
  return entries.map(({ scenario, ref }, k) => {
    const plan = sweepPlan(scenario, sweepSettings(scenario, options));
    const mine = parts.map((p) => p.scenarios[k]!);
    if (mine.some((s) => s.total !== plan.total)) throw new InputError(`${ref} has ${plan.total} plans here, but not in its parts: the scenario changed since the shards ran`);
    return finishWindows(scenario, plan, mergeWindowsParts(mine.map((s) => s.part)), ref);
  });
}

function mergeExplore(parts: readonly ExplorePartFile[], entries: readonly CatalogueEntry[]) {
  const options = parts[0]!.settings as ExploreOptions;
  return entries.map(({ scenario, ref }, k) => finishExplore(scenario, { ...options, ref }, mergeExploreParts(parts.map((p) => p.scenarios[k]!.part))));
}

function mergeCheck(parts: readonly CheckPartFile[], entries: readonly CatalogueEntry[]): TimedCheck[] {
  const found = new Map(parts.flatMap((p) => p.scenarios.map((s) => [s.index, s] as const)));
  return entries.map(({ scenario, ref }, k) => {
    const s = found.get(k);
    if (!s || s.ref !== ref) throw new InputError(`no part holds the search of ${ref}`);
    // The claims stay with the scenario; they take their place in the result.
    return { result: { ...s.result, claims: scenario.claims } as CheckResult, seconds: s.seconds };
  });
}

// Finds a decision record's metadata and the scenarios that back it, from what the user named:
// `all` (the catalogue and its scenarios/record.ts), a folder (its record.ts, or the one scenario
// in it that carries a `record` field), a scenario file (its own `record` field), or a catalogue
// scenario's name (the catalogue's record, narrowed to the rows that scenario backs: the rows of
// its lists it does not back are left out, and the outbox, figure and saga rows other scenarios
// back stay, naming those scenarios, which are not run). A scenario the record names and the
// folder or file does not hold is looked up in the catalogue.
import { existsSync, statSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { tsImport } from 'tsx/esm/api';
import { CATALOGUE_RECORD_FILE, RECORD_FILE, catalogueDir, loadCatalogue, loadFolder, loadScenario, type CatalogueEntry } from './catalogue.ts';
import { InputError } from '../base/inputError.ts';
import { backingScenarios, defineRecord, flowClaimProblems, type RecordSpec, type RecordSpecInput } from './recordSpec.ts';

export interface RecordSource {
  readonly spec: RecordSpec;
  /** The scenarios to run, each with how replay lines should name it. */
  readonly entries: readonly { readonly entry: CatalogueEntry; readonly ref: string }[];
  /** Scenarios the record names and leaves out (a record narrowed to one scenario); their rows say so. */
  readonly outside: readonly string[];
}

/** The catalogue's record narrowed to one scenario, and the scenarios it names but does not run. */
export interface NarrowedRecord {
  readonly spec: RecordSpec;
  readonly outside: readonly string[];
}

async function importRecord(url: string, origin: string, userFile: boolean): Promise<RecordSpec> {
  let mod: Record<string, unknown>;
  try {
    mod = (userFile ? await tsImport(url, import.meta.url) : await import(url)) as Record<string, unknown>;
  } catch (error) {
    throw new InputError(`malformed record ${origin}: ${(error instanceof Error ? error.message : String(error)).split('\n')[0]}`);
  }
  let candidate = (mod['default'] ?? mod['record']) as Record<string, unknown> | undefined;
  if (candidate && typeof candidate === 'object' && !('document' in candidate)) candidate = (candidate['default'] ?? candidate['record']) as Record<string, unknown> | undefined;
  if (candidate === undefined) throw new InputError(`malformed record ${origin}: it has no default export`);
  return defineRecord(candidate as RecordSpecInput, origin);
}

/**
 * The catalogue's record with only the rows of its lists (flows, rules, limits, monitoring,
 * decisions, event-time policies) that `name` backs. The outbox decisions, the figures and the
 * saga stay whole: a row another scenario backs names it, as a scenario not in this record, rather
 * than reading as unmeasured. A saga needs both its runs, so naming one of them runs the other
 * too. Undefined when `name` backs no row.
 */
export function narrowRecord(spec: RecordSpec, name: string): NarrowedRecord | undefined {
  const keep = <T extends { readonly scenario?: string | undefined }>(rows: readonly T[]): T[] => rows.filter((r) => r.scenario === name);
  const narrowed: RecordSpec = {
    ...spec,
    flows: keep(spec.flows),
    rules: keep(spec.rules),
    limits: keep(spec.limits),
    monitoring: keep(spec.monitoring),
    decisions: keep(spec.decisions),
    ...(spec.eventTime === undefined ? {} : { eventTime: keep(spec.eventTime) }),
  };
  if (!backingScenarios(narrowed).includes(name)) return undefined;
  const saga = spec.saga === undefined ? [] : [spec.saga.scenario, spec.saga.counter];
  const runs = new Set([name, ...(saga.includes(name) ? saga : [])]);
  return { spec: narrowed, outside: backingScenarios(narrowed).filter((n) => !runs.has(n)) };
}

/** The record and its scenarios for `ref`: a catalogue name, a scenario file, a folder, or `all`. */
export async function loadRecordSource(ref: string): Promise<RecordSource> {
  let spec: RecordSpec;
  let outside: readonly string[] = [];
  let given: { entry: CatalogueEntry; ref: string }[];
  const path = isAbsolute(ref) ? ref : resolve(process.cwd(), ref);
  if (ref === 'all') {
    spec = await importRecord(new URL(CATALOGUE_RECORD_FILE, catalogueDir()).href, `scenarios/${RECORD_FILE}`, false);
    given = (await loadCatalogue()).map((entry) => ({ entry, ref: entry.scenario.name }));
  } else if (existsSync(path) && statSync(path).isDirectory()) {
    const entries = await loadFolder(ref);
    given = entries.map((entry) => ({ entry, ref: entry.file }));
    if (existsSync(join(path, RECORD_FILE))) spec = await importRecord(pathToFileURL(join(path, RECORD_FILE)).href, join(ref, RECORD_FILE), true);
    else {
      const carriers = entries.filter((e) => e.scenario.record !== undefined);
      if (carriers.length !== 1) throw new InputError(`folder ${ref} has no ${RECORD_FILE} and ${carriers.length === 0 ? 'no scenario with' : `${carriers.length} scenarios with`} a record field; give it one record`);
      spec = defineRecord(carriers[0]!.scenario.record!, carriers[0]!.file);
    }
  } else {
    const entry = await loadScenario(ref);
    given = [{ entry, ref }];
    if (entry.scenario.record !== undefined) spec = defineRecord(entry.scenario.record, entry.file);
    else {
      const catalogue = await importRecord(new URL(CATALOGUE_RECORD_FILE, catalogueDir()).href, `scenarios/${RECORD_FILE}`, false);
      const narrowed = narrowRecord(catalogue, entry.scenario.name);
      if (narrowed === undefined || entry.ref !== entry.scenario.name) {
        throw new InputError(`scenario ${ref} has no record field and the catalogue's record (scenarios/${RECORD_FILE}) cites it nowhere; add a record field or name a scenario the record cites`);
      }
      spec = narrowed.spec;
      outside = narrowed.outside;
    }
  }
  const entries: { entry: CatalogueEntry; ref: string }[] = [];
  for (const name of backingScenarios(spec).filter((n) => !outside.includes(n))) {
    const found = given.find((g) => g.entry.scenario.name === name);
    if (found !== undefined) entries.push(found);
    else {
      try {
        entries.push({ entry: await loadScenario(name), ref: name });
      } catch (error) {
        if (error instanceof InputError) throw new InputError(`the record names scenario ${name}, which is neither among the scenarios given nor in the catalogue`);
        throw error;
      }
    }
  }
  const unclaimed = flowClaimProblems(spec, (name) => entries.find((e) => e.entry.scenario.name === name)?.entry.scenario.claims.map((c) => c.effect));
  if (unclaimed.length > 0) throw new InputError(`malformed record ${ref}: ${unclaimed.join('; ')}`);
  return { spec, entries, outside };
}

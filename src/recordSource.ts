// Finds a decision record's metadata and the scenarios that back it, from what the user named:
// `all` (the catalogue and its scenarios/record.ts), a folder (its record.ts, or the one scenario
// in it that carries a `record` field), a scenario file (its own `record` field), or a catalogue
// scenario's name (the catalogue's record, narrowed to the rows that scenario backs). A scenario
// the record names and the folder or file does not hold is looked up in the catalogue.
import { existsSync, statSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { tsImport } from 'tsx/esm/api';
import { CATALOGUE_RECORD_FILE, RECORD_FILE, catalogueDir, loadCatalogue, loadFolder, loadScenario, type CatalogueEntry } from './catalogue.ts';
import { InputError } from './inputError.ts';
import { backingScenarios, defineRecord, type RecordSpec, type RecordSpecInput } from './recordSpec.ts';

export interface RecordSource {
  readonly spec: RecordSpec;
  /** The scenarios to run, each with how replay lines should name it. */
  readonly entries: readonly { readonly entry: CatalogueEntry; readonly ref: string }[];
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

/** The catalogue's record keeping only the rows `name` backs; undefined when it backs none. */
export function narrowRecord(spec: RecordSpec, name: string): RecordSpec | undefined {
  const keep = <T extends { readonly scenario?: string | undefined }>(rows: readonly T[]): T[] => rows.filter((r) => r.scenario === name);
  const own = <T extends { readonly scenario?: string | undefined }>(x: T): T => (x.scenario === name ? x : { ...x, scenario: undefined });
  const saga = spec.saga !== undefined && (spec.saga.scenario === name || spec.saga.counter === name) ? spec.saga : undefined;
  const narrowed: RecordSpec = {
    ...spec,
    flows: keep(spec.flows),
    outbox: { ...spec.outbox, relay: own(spec.outbox.relay), eventId: own(spec.outbox.eventId), ordering: own(spec.outbox.ordering), cleanup: own(spec.outbox.cleanup) },
    figures: {
      dedup: own(spec.figures.dedup),
      ...(spec.figures.horizon === undefined ? {} : { horizon: own(spec.figures.horizon) }),
      retry: own(spec.figures.retry),
      checkpoint: own(spec.figures.checkpoint),
      backfill: own(spec.figures.backfill),
    },
    rules: keep(spec.rules),
    limits: keep(spec.limits),
    ...(saga === undefined ? { saga: undefined } : { saga }),
    monitoring: keep(spec.monitoring),
    decisions: keep(spec.decisions),
    ...(spec.eventTime === undefined ? {} : { eventTime: keep(spec.eventTime) }),
  };
  return backingScenarios(narrowed).includes(name) ? narrowed : undefined;
}

/** The record and its scenarios for `ref`: a catalogue name, a scenario file, a folder, or `all`. */
export async function loadRecordSource(ref: string): Promise<RecordSource> {
  let spec: RecordSpec;
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
      spec = narrowed;
    }
  }
  const entries: { entry: CatalogueEntry; ref: string }[] = [];
  for (const name of backingScenarios(spec)) {
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
  return { spec, entries };
}

// The order the catalogue suite starts its files in: the longest first, by the seconds each took
// in a CI run on a fresh clone of a 2-core machine. Two workers fed longest-first finish within a
// short file of each other; in vitest's own order on a fresh clone (no timing cache, so the
// largest file first) one worker could start a minute-long file when the other was nearly done,
// and sit alone for that minute. A file this table does not know starts first, as vitest starts
// unknown files, since it may be long. The figures need only keep their rough order: re-measure
// when a file grows or shrinks by half (CI's log prints each file's seconds).
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Seconds each catalogue-suite file took, by its path from the repository root. */
export const SECONDS: Readonly<Record<string, number>> = {
  // It visits every page of the catalogue's report set in chromium, at two widths.
  'test/report/browser.test.ts': 180,
  'test/models/postgres/repairQueries.test.ts': 131,
  // Its build, pack and install come before its first test.
  'test/e2e/package.test.ts': 127,
  'test/check/worldAsChoices.test.ts': 99,
  'test/e2e/catalogue.test.ts': 99,
  'test/kernel/resume.test.ts': 96,
  'test/e2e/spread.test.ts': 76,
  'test/models/databasePostgres.test.ts': 57,
  'test/check/catalogueCheck.test.ts': 52,
  'test/e2e/recordCli.test.ts': 47,
  'test/kernel/compiledMachine.test.ts': 37,
  'test/e2e/vitestEntry.test.ts': 29,
  'test/check/transitionCache.test.ts': 20,
  'test/check/sleepSets.test.ts': 13,
  'test/run/referenceProbe.test.ts': 2,
};

const root = new URL('../../', import.meta.url).pathname;

/** How long a file is expected to take; unknown files count as longer than any known one. */
export function weightOf(moduleId: string): number {
  const path = moduleId.startsWith(root) ? moduleId.slice(root.length) : moduleId;
  return SECONDS[path] ?? Number.POSITIVE_INFINITY;
}

export class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    return [...files].sort((a, b) => weightOf(b.moduleId) - weightOf(a.moduleId) || a.moduleId.localeCompare(b.moduleId));
  }
}

// The flags the commands that write a report set share: `--reporter LIST` (or `--format LIST`,
// the same flag by the other name tools use) choosing the forms written, and what such a run
// tells CI (src/cli/ciReport.ts), read off its results.
import type { CatalogueEntry } from '../scenario/catalogue.ts';
import { InputError } from '../base/inputError.ts';
import type { FlagSpec } from '../base/parseArgv.ts';
import { scenarioAnswer } from '../report/scenarioAnswer.ts';
import { DEFAULT_FORMS, type ReportForm } from '../report/writeReports.ts';
import type { WindowsResult } from '../modes/windows.ts';
import type { CiRow } from './ciReport.ts';
import { reportersFlag } from './flagValues.ts';

const FORMS_HELP = 'the report forms to write, joined by commas: html, md (or markdown), json, json.gz, junit, all (default html,junit)';

export const REPORT_FLAGS: Readonly<Record<string, FlagSpec>> = {
  reporter: { type: 'string', value: 'LIST', help: FORMS_HELP },
  format: { type: 'string', value: 'LIST', help: 'the same as --reporter' },
};

/** How a sweep's answer is presented: printed or as JSON, the set written, what CI is told. */
export interface PresentFlags {
  readonly json: boolean;
  readonly outDir: string;
  readonly forms?: readonly ReportForm[];
  /** Each scenario's file by name, for CI annotations. */
  readonly files?: ReadonlyMap<string, string>;
}

/** The forms `--reporter` or `--format` asks for, or the default set. */
export function formsFlag(values: Readonly<Record<string, string | true | undefined>>): readonly ReportForm[] {
  if (values['reporter'] !== undefined && values['format'] !== undefined) throw new InputError('give --reporter or --format, not both: they are one flag by two names');
  const flag = values['reporter'] !== undefined ? '--reporter' : '--format';
  return reportersFlag(flag, values['reporter'] ?? values['format']) ?? DEFAULT_FORMS;
}

/** A sweep's results as CI shows them; `files` maps a scenario's name to the file it was loaded from. */
export function ciRows(results: readonly WindowsResult[], files: ReadonlyMap<string, string>): CiRow[] {
  return results.map((r) => {
    const a = scenarioAnswer(r);
    return { name: r.name, file: files.get(r.name), verdict: a.summary.verdict, expected: a.summary.expected, asExpected: a.summary.asExpected, problems: a.summary.problems, worst: a.worst, replay: a.first?.replay };
  });
}

/** Each scenario's file by its name, for CI annotations. */
export function filesOf(entries: readonly Pick<CatalogueEntry, 'scenario' | 'file'>[]): Map<string, string> {
  return new Map(entries.map((e) => [e.scenario.name, e.file]));
}

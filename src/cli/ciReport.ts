// What a run tells a CI system, by the conventions of the one it runs in. In GitHub Actions
// (GITHUB_ACTIONS=true) a command appends a Markdown summary of its verdicts to the job's
// summary file ($GITHUB_STEP_SUMMARY), and writes an `::error` annotation for each scenario
// whose verdict is not the one it expects, pointing at the scenario's file, so the failure
// shows on the file in the pull request. Elsewhere it does nothing.
import { appendFileSync } from 'node:fs';
import { relative } from 'node:path';
import { describeFsError } from '../base/fsError.ts';
import { InputError } from '../base/inputError.ts';

/** One scenario's answer, as CI shows it. */
export interface CiRow {
  readonly name: string;
  /** The scenario's file, as the run loaded it; undefined when unknown. */
  readonly file: string | undefined;
  readonly verdict: string;
  readonly expected: string;
  readonly asExpected: boolean;
  /** Why not as expected, one clause each. */
  readonly problems: readonly string[];
  readonly worst?: string | undefined;
  /** The line that replays its first counterexample, if it has one. */
  readonly replay?: string | undefined;
}

export function inGithubActions(env: NodeJS.ProcessEnv = process.env): boolean {
  return env['GITHUB_ACTIONS'] === 'true';
}

/** A workflow command's message: `%`, CR and LF escaped, as the runner reads them back. */
function escapeData(s: string): string {
  return s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** A workflow command's property: its message escapes, and `:` and `,` too. */
function escapeProperty(s: string): string {
  return escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/** One `::error` line per scenario not as expected, pointing at its file relative to the working folder. */
export function annotations(command: string, rows: readonly CiRow[], cwd = process.cwd()): string[] {
  return rows
    .filter((r) => !r.asExpected)
    .map((r) => {
      const file = r.file === undefined ? '' : `file=${escapeProperty(relative(cwd, r.file) || r.file)},`;
      const message = [`${r.name}: expected ${r.expected}, got ${r.verdict}`, ...r.problems, ...(r.replay === undefined ? [] : [`replay: ${r.replay}`])].join('\n');
      return `::error ${file}title=${escapeProperty(`faultline ${command}: ${r.name}`)}::${escapeData(message)}`;
    });
}

/** A Markdown cell: a `|` would end it, a line break the row. */
function cell(s: string): string {
  return s.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}

/** The job summary of a command's run: a tally, then a row per scenario, the ones not as expected first. */
export function jobSummary(command: string, rows: readonly CiRow[]): string {
  const bad = rows.filter((r) => !r.asExpected).length;
  const lines = [`### faultline ${command}`, '', `${rows.length} scenario${rows.length === 1 ? '' : 's'}, ${bad === 0 ? 'every verdict as expected' : `**${bad} not as expected**`}.`, ''];
  lines.push('| scenario | verdict | expected | status | worst window | replay the first counterexample |', '| --- | --- | --- | --- | --- | --- |');
  const ordered = [...rows.filter((r) => !r.asExpected), ...rows.filter((r) => r.asExpected)];
  for (const r of ordered) lines.push(`| \`${cell(r.name)}\` | ${cell(r.verdict)} | ${cell(r.expected)} | ${r.asExpected ? 'as expected' : '**NOT as expected**'} | ${cell(r.worst ?? '—')} | ${r.replay === undefined ? '—' : `\`${cell(r.replay)}\``} |`);
  return `${lines.join('\n')}\n\n`;
}

/** In GitHub Actions: the annotations (to `write`) and the job summary (appended to its file). */
export function reportToCi(command: string, rows: readonly CiRow[], write: (line: string) => void, env: NodeJS.ProcessEnv = process.env): void {
  if (!inGithubActions(env)) return;
  for (const line of annotations(command, rows)) write(line);
  const file = env['GITHUB_STEP_SUMMARY'];
  if (file === undefined || file === '') return;
  try {
    appendFileSync(file, jobSummary(command, rows), 'utf8');
  } catch (error) {
    throw new InputError(`cannot append the job summary to GITHUB_STEP_SUMMARY (${file}): ${describeFsError(error) ?? String(error)}`);
  }
}

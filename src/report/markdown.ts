// Renders windows-mode results as Markdown that a code host (GitHub, GitLab) draws without help:
// per scenario the seed passage, lesson and claim sentences, the verdict against its expectation,
// the failure-window table (what is durable, who retries, can the effect repeat, which query
// finds the damage) and every counterexample as a Mermaid sequence diagram with its replay line.
// Nothing here reads a clock, so the same results always give the same bytes.
import { replayLine } from '../replayLine.ts';
import { isExpectedViolation, isUnexpectedOutcome } from '../verdict.ts';
import type { Counterexample, WindowRow, WindowsResult } from '../windows.ts';
import { claimSentence } from './claimSentence.ts';
import { describeClause } from './describeCoverage.ts';
import { describeFinding } from './describeFinding.ts';
import { describePlan } from './describePlan.ts';
import { counterexampleRun, searchLine, sweepHeader, windowReach } from './describeSweep.ts';
import { mermaidSequence } from './mermaidSequence.ts';
import { sequenceSteps } from './sequenceSteps.ts';
import { runTally, verdictSummary } from './verdictSummary.ts';
import { WINDOW_COLUMNS, windowCells, windowTables, componentNames, repairIsSql } from './windowCells.ts';

/**
 * Prose from scenario files: `<` could open an HTML tag on a code host, so it is written as an
 * entity, and so is an `&` that would otherwise start one (`&lt;` in a claim must stay `&lt;`).
 */
function prose(s: string): string {
  return s.replace(/&(?=#?[A-Za-z0-9]+;)/g, '&amp;').replace(/</g, '&lt;');
}

/** A table cell: a `|` would end the cell and a line break would end the row. */
function cell(s: string): string {
  return prose(s).replace(/\r?\n/g, ' ').replace(/\|/g, '\\|');
}

/** A code span that survives any backticks inside it (and, in a table, any `|`). */
function code(s: string, inTable = false): string {
  const flat = s.replace(/\r?\n/g, ' ');
  const longest = Math.max(0, ...(flat.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  const pad = flat.startsWith('`') || flat.endsWith('`') ? ' ' : '';
  const body = inTable ? flat.replace(/\|/g, '\\|') : flat;
  return `${fence}${pad}${body}${pad}${fence}`;
}

/** A fenced block whose fence is longer than any backtick run in its content. */
function fenced(info: string, body: string): string {
  const longest = Math.max(0, ...(body.match(/`{3,}/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}${info}\n${body}\n${fence}`;
}

function heading(level: number, s: string): string {
  return `${'#'.repeat(Math.min(6, level))} ${prose(s)}`;
}

function outcomeCell(result: WindowsResult, row: WindowRow, label: string): string {
  if (isUnexpectedOutcome(result.judgement.expected, row.outcome)) return `**${cell(label)} (unexpected)**`;
  if (isExpectedViolation(result.judgement.expected, row.outcome)) return `${cell(label)} (expected)`;
  return cell(label);
}

function windowTable(result: WindowsResult, rows: readonly WindowRow[]): string[] {
  const lines = [`| ${WINDOW_COLUMNS.map((c) => c.title).join(' | ')} |`, `| ${WINDOW_COLUMNS.map(() => '---').join(' | ')} |`];
  for (const row of rows) {
    const c = windowCells(row, componentNames(result));
    const cells = [
      code(c.window, true),
      cell(c.fault),
      outcomeCell(result, row, c.outcome),
      cell(c.evidence),
      cell(c.retryOwner),
      cell(c.duplicatePossible),
      cell(c.duplicateGuard),
      c.repairQuery === '' ? '—' : repairIsSql(row) ? code(c.repairQuery, true) : cell(c.repairQuery),
    ];
    lines.push(`| ${cells.join(' | ')} |`);
  }
  return lines;
}

function counterexampleSection(ce: Counterexample, index: number, level: number): string[] {
  const lines = [heading(level, `${index + 1}. ${ce.violation}`), ''];
  lines.push(`- **Plan:** ${prose(describePlan(ce.plan))}`);
  if (ce.findings.length === 1) lines.push(`- **Finding:** ${prose(describeFinding(ce.findings[0]!))}`);
  else if (ce.findings.length > 1) {
    lines.push('- **Findings:**');
    for (const f of ce.findings) lines.push(`  - ${prose(f.violation)}: ${prose(describeFinding(f))}`);
  }
  lines.push(`- ${counterexampleRun(ce).map((x) => `**${x.label}:** ${x.label === 'Choice path' ? code(x.value) : x.value}`).join(' · ')} · **trace hash:** ${code(ce.traceHash)}`);
  lines.push('', fenced('mermaid', mermaidSequence(sequenceSteps(ce.trace))), '', 'Replay:', '', fenced('sh', replayLine(ce.replay)), '');
  return lines;
}

/** One scenario's section, its headings starting at `level`. */
function scenarioSection(result: WindowsResult, level: number): string {
  const v = verdictSummary(result);
  const lines = [heading(level, result.title), ''];
  lines.push(`Scenario ${code(result.name)} · ${sweepHeader(result)}`, '');
  lines.push(`- **Seed passage:** ${prose(result.source)}`, `- **Lesson:** ${prose(result.lesson)}`, '');
  lines.push(result.claims.length === 1 ? '**Claim:**' : '**Claims:**', '');
  for (const [i, claim] of result.claims.entries()) {
    if (i > 0) lines.push('>');
    lines.push(`> ${prose(claimSentence(claim))}`);
  }
  lines.push('');
  lines.push(`**Verdict:** ${v.verdict} · **expected:** ${prose(v.expected)} · **${v.status}**`, '');
  lines.push(`**Covers:** ${prose(v.covers)}.`, '');
  for (const p of v.problems) lines.push(`- ${prose(p)}`);
  if (v.problems.length > 0) lines.push('');
  lines.push('**Clauses checked:**', '');
  for (const c of result.coverage.clauses) lines.push(`- ${result.claims.length > 1 ? `${prose(c.effect)}: ` : ''}${prose(describeClause(c, result.check ? 'end state' : 'run'))}`);
  lines.push('');
  for (const r of result.refusals) lines.push(`Note: ${code(r.component)} ran on XState's own step because the compiled driver refused its machine (${prose(r.reason)}).`, '');
  lines.push('| places | runs | distinct outcomes |', '| ---: | ---: | --- |');
  lines.push(`| ${result.coverage.windows + result.coverage.points} | ${result.coverage.runs} | ${cell(result.distinctOutcomes.join(', '))} |`, '');
  const search = searchLine(result);
  if (search !== undefined) lines.push(`Search: ${search}.`, '');
  for (const w of windowReach(result)) lines.push(`${w.text}: ${w.windows.map((x) => code(x)).join(', ')}.`, '');
  for (const t of windowTables(result)) lines.push(heading(level + 1, t.heading), '', ...windowTable(result, t.rows), '');
  lines.push(heading(level + 1, 'Counterexamples'), '');
  if (result.counterexamples.length === 0) lines.push('None: no run violated a claim.', '');
  for (const [i, ce] of result.counterexamples.entries()) lines.push(...counterexampleSection(ce, i, level + 2));
  return lines.join('\n').replace(/\n+$/, '\n');
}

/** The summary table of a run; `link` gives each scenario's target, if any. */
function summaryTable(results: readonly WindowsResult[], link?: (r: WindowsResult) => string): string[] {
  const lines = ['| scenario | places | runs | verdict | expected | status |', '| --- | ---: | ---: | --- | --- | --- |'];
  for (const r of results) {
    const v = verdictSummary(r);
    const name = link ? `[${cell(r.name)}](${link(r)})` : code(r.name, true);
    lines.push(`| ${name} | ${r.coverage.windows + r.coverage.points} | ${r.coverage.runs} | ${v.verdict} | ${cell(v.expected)} | ${v.asExpected ? v.status : `**${v.status}**`} |`);
  }
  return lines;
}

/** Every scenario of a run in one document: a summary table, then one section per scenario. */
export function renderMarkdown(results: readonly WindowsResult[]): string {
  const parts = ['# faultline failure-window report', '', runTally(results), '', ...summaryTable(results), ''];
  for (const r of results) parts.push(scenarioSection(r, 2));
  return `${parts.join('\n').replace(/\n+$/, '')}\n`;
}

/** One scenario as a file of its own (`<scenario>.md`), its title the top heading. */
export function renderMarkdownFile(result: WindowsResult): string {
  return scenarioSection(result, 1);
}

/** The `index.md` of a reports directory: the summary table linking each scenario's file, and the other forms. */
export function renderMarkdownIndex(results: readonly WindowsResult[]): string {
  const lines = ['# faultline failure-window reports', '', runTally(results), '', ...summaryTable(results, (r) => `${encodeURIComponent(r.name)}.md`), ''];
  lines.push('Other forms of the same run: [single-page HTML with sequence diagrams](report.html) · [JSON](report.json) · [JUnit XML](junit.xml)');
  return `${lines.join('\n')}\n`;
}

// Renders windows-mode results as Markdown that a code host (GitHub, GitLab) draws without help:
// per scenario the seed passage, lesson and claim sentences, the verdict against its expectation,
// the failure-window table (what is durable, who retries, can the effect repeat, which query
// finds the damage) and every counterexample as a Mermaid sequence diagram with its replay line.
// Nothing here reads a clock, so the same results always give the same bytes.
import { replayLine } from '../modes/replayLine.ts';
import { isExpectedViolation, isUnexpectedOutcome } from '../checkers/verdict.ts';
import type { Counterexample, WindowRow, WindowsResult } from '../modes/windows.ts';
import { claimSentence } from './claimSentence.ts';
import { describeClause } from './describeCoverage.ts';
import { describeFinding } from './describeFinding.ts';
import { describePlan } from './describePlan.ts';
import { counterexampleRun, searchLine, sweepHeader, windowReach } from './describeSweep.ts';
import { focusSentence, markedLines } from './keyStory.ts';
import { mermaidSequence } from './mermaidSequence.ts';
import { absorbedSummary, placeList, queryLegend, repairCell, rowGroups, type QueryLegend } from './rowGroups.ts';
import { knownLines, pairRows, pairsLead } from './pairsSummary.ts';
import { brokeWords, scenarioAnswer } from './scenarioAnswer.ts';
import { counterexampleSteps } from './sequenceSteps.ts';
import { runTally, verdictSummary } from './verdictSummary.ts';
import { WINDOW_COLUMNS, windowCells, componentNames } from './windowCells.ts';

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

/** The columns of the table of faults that broke a claim. */
const BROKE_COLUMNS = WINDOW_COLUMNS.map((c) => c.title);

function table(titles: readonly string[], rows: readonly (readonly string[])[]): string[] {
  return [`| ${titles.join(' | ')} |`, `| ${titles.map(() => '---').join(' | ')} |`, ...rows.map((r) => `| ${r.join(' | ')} |`)];
}

function repairMd(row: WindowRow, legend: QueryLegend): string {
  const text = repairCell(row, legend);
  return text === '' ? '—' : cell(text);
}

/** What a long cell says when the row above says the same: the table stays readable and a run of like rows stays short. */
const AS_ABOVE = 'as above';

/** Cells from the evidence column on that repeat the row above are written `as above`. */
function ditto(rows: readonly string[][], from: number): string[][] {
  return rows.map((r, i) => r.map((c, k) => (i > 0 && k >= from && c.length > AS_ABOVE.length && c === rows[i - 1]![k] ? AS_ABOVE : c)));
}

function brokeTable(result: WindowsResult, rows: readonly WindowRow[], legend: QueryLegend): string[] {
  const cells = rows.map((row) => {
    const c = windowCells(row, componentNames(result));
    return [code(c.window, true), cell(c.fault), outcomeCell(result, row, c.outcome), cell(c.evidence), cell(c.retryOwner), cell(c.duplicatePossible), cell(c.duplicateGuard), repairMd(row, legend)];
  });
  return table(BROKE_COLUMNS, ditto(cells, 3));
}

/** The rows the design absorbed, by what they show, each group with the places it holds and the check that covers them. */
function absorbedList(rows: readonly WindowRow[], legend: QueryLegend): string[] {
  return absorbedSummary(rows).map((g) => `- **${prose(g.text)}:** ${places(g.rows)}${checksOf(g.rows, legend)}`);
}

/** ` (check with Q1, Q2)`: the checks a group of held rows names, or nothing. */
function checksOf(rows: readonly WindowRow[], legend: QueryLegend): string {
  const ids = [...new Set(rows.map((r) => legend.idOf(r)).filter((id): id is string => id !== undefined))];
  return ids.length === 0 ? '' : ` (check with ${ids.join(', ')})`;
}

/** Places by name with their faults: `` `a->b:x` (lose, delay) ``. */
function places(rows: readonly WindowRow[]): string {
  return placeList(rows).map((p) => `${code(p.place)} (${p.faults.join(', ')})`).join(', ');
}

/** The failure-window rows in their groups: the faults that broke a claim and those the design absorbed as tables, the rest by place, then the queries. */
function rowSections(result: WindowsResult, level: number): string[] {
  const g = rowGroups(result);
  const legend = queryLegend([...g.broke, ...g.absorbed]);
  const lines: string[] = [];
  if (g.broke.length > 0) lines.push(heading(level, 'Faults that broke a claim'), '', ...brokeTable(result, g.broke, legend), '');
  if (g.absorbed.length > 0) lines.push(heading(level, 'Faults the design absorbed'), '', `The claim held at ${g.absorbed.length} fault${g.absorbed.length === 1 ? '' : 's'}; what each run shows (every row in full is in report.json):`, '', ...absorbedList(g.absorbed, legend), '');
  if (g.unchanged.length > 0) lines.push(heading(level, 'Faults that changed nothing'), '', `The claim held with nothing lost and nothing repeated, as in the fault-free run (each row's figures are in report.json): ${places(g.unchanged)}.`, '');
  if (g.unreached.length > 0) lines.push(heading(level, 'Faults that never struck'), '', `${result.check ? 'No interleaving within the bound reached these places' : 'This workload never reached these places at the occurrences tried'}: ${places(g.unreached)}.`, '');
  if (legend.entries.length > 0) {
    lines.push(heading(level, 'Repair queries'), '', 'Run a query to find the damage its rows name; where the claim held, it is the check that the damage did not happen.', '');
    for (const q of legend.entries) lines.push(`- **${q.id}:** ${code(q.sql)}`);
    lines.push('');
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
  const diagram = counterexampleSteps(ce);
  lines.push('', prose(focusSentence(diagram)), '');
  const marked = markedLines(diagram);
  if (marked.length > 0) lines.push(fenced('text', marked.join('\n')), '');
  lines.push(fenced('mermaid', mermaidSequence(diagram)), '', 'Replay:', '', fenced('sh', replayLine(ce.replay)), '');
  return lines;
}

/** A `--pairs` sweep's table of the clauses only its pairs broke, by first fault, then the single faults that break one alone. */
function pairsSection(result: WindowsResult, level: number): string[] {
  const lead = pairsLead(result);
  if (lead === undefined) return [];
  const rows = pairRows(result);
  const lines = [heading(level, 'Fault pairs that broke a clause'), '', prose(lead), ''];
  if (rows.length > 0) {
    const cells = rows.map((r, i) => [i > 0 && rows[i - 1]!.first === r.first ? AS_ABOVE : cell(r.first), cell(r.clause), String(r.pairs), cell(r.second), code(r.replay, true)]);
    lines.push(...table(['first fault', 'clause only the pair broke', 'pairs', 'the first such pair adds', 'replay the first such pair'], cells), '');
  }
  for (const k of knownLines(result)) lines.push(`- ${prose(k)}`);
  if (knownLines(result).length > 0) lines.push('');
  return lines;
}

/** The lines a page opens with: the verdict, the worst window, the first counterexample and its replay line, what was covered, what was not judged. */
function answerLines(result: WindowsResult): string[] {
  const a = scenarioAnswer(result);
  const v = a.summary;
  const lines = [`**Verdict: ${v.verdict}** · expected ${prose(v.expected)} · **${v.status}**`, ''];
  for (const p of v.problems) lines.push(`- ${prose(p)}`);
  if (v.problems.length > 0) lines.push('');
  lines.push(a.noFault !== undefined ? `- **Worst window:** ${a.noFault}; ${brokeWords(a)}.` : a.worst === undefined ? `- **Worst window:** ${prose(a.none)}.` : `- **Worst window:** ${prose(a.worst)}; ${brokeWords(a)}.`);
  if (a.first !== undefined) lines.push(`- **First counterexample** ([${a.first.index + 1}](#${a.first.index + 1}-${result.counterexamples[a.first.index]!.violation.replace(/ /g, '-')})): ${prose(a.first.text)}`, '', fenced('sh', a.first.replay), '');
  lines.push(`- **Covered:** ${prose(v.covers)}.`);
  for (const u of a.unjudged) lines.push(`- **Not judged in every run:** ${prose(u)}.`);
  lines.push('');
  return lines;
}

/** One scenario's section, its headings starting at `level`. */
function scenarioSection(result: WindowsResult, level: number): string {
  const lines = [heading(level, result.title), '', ...answerLines(result)];
  lines.push(`Scenario ${code(result.name)} · ${sweepHeader(result)}`, '');
  lines.push(`- **Seed passage:** ${prose(result.source)}`, `- **Lesson:** ${prose(result.lesson)}`, '');
  lines.push(result.claims.length === 1 ? '**Claim:**' : '**Claims:**', '');
  for (const [i, claim] of result.claims.entries()) {
    if (i > 0) lines.push('>');
    lines.push(`> ${prose(claimSentence(claim))}`);
  }
  lines.push('');
  lines.push('**Clauses checked:**', '');
  for (const c of result.coverage.clauses) lines.push(`- ${result.claims.length > 1 ? `${prose(c.effect)}: ` : ''}${prose(describeClause(c, result.check ? 'end state' : 'run'))}`);
  lines.push('');
  for (const r of result.refusals) lines.push(`Note: ${code(r.component)} ran on XState's own step because the compiled driver refused its machine (${prose(r.reason)}).`, '');
  lines.push('| places | runs | distinct outcomes |', '| ---: | ---: | --- |');
  lines.push(`| ${result.coverage.windows + result.coverage.points} | ${result.coverage.runs} | ${cell(result.distinctOutcomes.join(', '))} |`, '');
  const search = searchLine(result);
  if (search !== undefined) lines.push(`Search: ${search}.`, '');
  for (const w of windowReach(result)) lines.push(`${w.text}: ${w.windows.map((x) => code(x)).join(', ')}.`, '');
  lines.push(...pairsSection(result, level + 1));
  lines.push(...rowSections(result, level + 1));
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
export function renderMarkdownIndex(results: readonly WindowsResult[], others: readonly string[] = ['report.html', 'report.json', 'junit.xml']): string {
  const lines = ['# faultline failure-window reports', '', runTally(results), '', ...summaryTable(results, (r) => `${encodeURIComponent(r.name)}.md`), ''];
  const names: Record<string, string> = { 'report.html': 'HTML pages with sequence diagrams and a step-through viewer', 'report.json': 'JSON', 'report.json.gz': 'JSON, gzipped', 'junit.xml': 'JUnit XML' };
  if (others.length > 0) lines.push(`Other forms of the same run: ${others.map((f) => `[${names[f] ?? f}](${f})`).join(' · ')}`);
  return `${lines.join('\n')}\n`;
}

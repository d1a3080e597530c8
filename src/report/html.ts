// Renders a windows run as HTML pages that load nothing from outside their report set (no
// font, image or URL; one stylesheet and one script, both files of the set): `report.html`, the
// index, with every scenario's verdict, worst window and first counterexample in one table; and
// one page per scenario (`<scenario>.html`) that opens with its answer, then its claim, its
// failure-window rows in groups (the faults that broke a claim first), and each counterexample
// drawn around its key as an inline SVG sequence diagram with a step-through viewer. Splitting
// the run by scenario, and the style and script into files of their own, keeps each page small
// enough to open at once and a catalogue's set a few megabytes; every figure is in report.json.
// Without JavaScript a page is whole but for the viewer. Nothing holds a timestamp, so the same
// results always give the same bytes.
import { replayLine } from '../modes/replayLine.ts';
import { isExpectedViolation, isUnexpectedOutcome } from '../checkers/verdict.ts';
import type { Counterexample, WindowRow, WindowsResult } from '../modes/windows.ts';
import { claimSentence } from './claimSentence.ts';
import { describeClause } from './describeCoverage.ts';
import { describeFinding } from './describeFinding.ts';
import { describePlan } from './describePlan.ts';
import { counterexampleRun, searchLine, sweepHeader, windowReach } from './describeSweep.ts';
import { escapeXml as esc } from './escapeXml.ts';
import { DIAGRAM_STYLE, STYLE } from './htmlStyle.ts';
import { focusSentence, markedSteps, stepLine } from './keyStory.ts';
import { absorbedSummary, placeList, queryLegend, repairCell, rowGroups, type QueryLegend } from './rowGroups.ts';
import { knownLines, pairRows, pairsLead } from './pairsSummary.ts';
import { brokeWords, noneCell, scenarioAnswer } from './scenarioAnswer.ts';
import { counterexampleSteps } from './sequenceSteps.ts';
import { svgSequence } from './svgSequence.ts';
import { runTally, verdictSummary, type VerdictSummary } from './verdictSummary.ts';
import { viewerData } from './viewerData.ts';
import { VIEWER_SCRIPT } from './viewerScript.ts';
import { WINDOW_COLUMNS, windowCells, componentNames } from './windowCells.ts';

/** An id for a scenario's section (with a suffix, one of its counterexamples), safe in an attribute and a fragment link. */
export function anchor(name: string, suffix = ''): string {
  return `s-${name.replace(/[^A-Za-z0-9_-]/g, '-')}${suffix}`;
}

/** The page of a scenario in the report set, relative to report.html. */
export function scenarioPage(name: string): string {
  return `${encodeURIComponent(name)}.html`;
}

function badges(v: VerdictSummary): string {
  return `<span class="badge ${v.verdict.replace(/ /g, '-')}">${esc(v.verdict)}</span> <span class="badge ${v.asExpected ? 'as-expected' : 'not-expected'}">${esc(v.status)}</span>`;
}

function rowClass(result: WindowsResult, row: WindowRow): string {
  if (isUnexpectedOutcome(result.judgement.expected, row.outcome)) return 'unexpected';
  if (isExpectedViolation(result.judgement.expected, row.outcome)) return 'expected';
  return row.struck > 0 ? '' : 'unreached';
}

function repairHtml(row: WindowRow, legend: QueryLegend): string {
  const text = repairCell(row, legend);
  if (text === '') return '—';
  const id = legend.idOf(row);
  return id === undefined ? esc(text) : esc(text).replace(id, `<a href="#${id}">${id}</a>`);
}

/** The class of each column's cells, by position: the outcome, the long words that may break anywhere, the query. */
const CELL_CLASS: readonly (string | undefined)[] = [undefined, undefined, 'outcome', 'evidence', 'words', undefined, 'words', 'query'];

/** The first column whose cells merge with the same cell of the row above (evidence onward). */
const MERGED_FROM = 3;

/**
 * The rows that broke a claim as a table. A cell that says what the cell above it says (the
 * same evidence at the same place under another fault) is merged into it, so a run of like rows
 * reads as one and costs one.
 */
function brokeTable(result: WindowsResult, rows: readonly WindowRow[], legend: QueryLegend): string {
  const head = `<tr>${WINDOW_COLUMNS.map((c) => `<th scope="col">${esc(c.title)}</th>`).join('')}</tr>`;
  const cells = rows.map((row) => {
    const c = windowCells(row, componentNames(result));
    const cls = rowClass(result, row);
    const outcome = cls === 'unexpected' ? `<strong>${esc(c.outcome)} (unexpected)</strong>` : cls === 'expected' ? `${esc(c.outcome)} (expected)` : esc(c.outcome);
    return { cls, cells: [`<code>${esc(c.window)}</code>`, esc(c.fault), outcome, esc(c.evidence), esc(c.retryOwner), esc(c.duplicatePossible), esc(c.duplicateGuard), repairHtml(row, legend)] };
  });
  const span = cells.map((r) => r.cells.map(() => 1));
  for (let k = MERGED_FROM; k < WINDOW_COLUMNS.length; k++) {
    let top = 0;
    for (let i = 1; i < cells.length; i++) {
      if (cells[i]!.cells[k] === cells[top]!.cells[k]) {
        span[top]![k]!++;
        span[i]![k] = 0;
      } else top = i;
    }
  }
  const body = cells.map((r, i) => {
    // Each cell says which column it is by class: where cells above are merged, a row's nth cell is not the nth column.
    const tds = r.cells.map((c, k) => (span[i]![k] === 0 ? '' : `<td${CELL_CLASS[k] === undefined ? '' : ` class="${CELL_CLASS[k]}"`}${span[i]![k]! > 1 ? ` rowspan="${span[i]![k]}"` : ''}>${c}</td>`)).join('');
    return `<tr${r.cls === '' ? '' : ` class="${r.cls}"`}>${tds}</tr>`;
  });
  return `<div class="table-wrap"><table>\n<thead>${head}</thead>\n<tbody>\n${body.join('\n')}\n</tbody>\n</table></div>`;
}

function placesHtml(rows: readonly WindowRow[]): string {
  return placeList(rows).map((p) => `<code>${esc(p.place)}</code> (${esc(p.faults.join(', '))})`).join(', ');
}

/** The rows the design absorbed, summarised by what they show and the check that covers them; every row's cells in full are in report.json (`--reporter json`). */
function absorbedHtml(rows: readonly WindowRow[], legend: QueryLegend): string[] {
  const checks = (group: readonly WindowRow[]) => {
    const ids = [...new Set(group.map((r) => legend.idOf(r)).filter((id): id is string => id !== undefined))];
    return ids.length === 0 ? '' : ` (check with ${ids.map((id) => `<a href="#${id}">${id}</a>`).join(', ')})`;
  };
  const summary = absorbedSummary(rows).map((g) => `<li><strong>${esc(g.text)}:</strong> ${placesHtml(g.rows)}${checks(g.rows)}</li>`);
  return [`<p>The claim held at ${rows.length} fault${rows.length === 1 ? '' : 's'}; what each run shows (every row in full is in report.json):</p>`, `<ul class="places">${summary.join('')}</ul>`];
}

/** A `--pairs` sweep's table of the clauses only its pairs broke, by first fault, then the single faults that break one alone. */
function pairsHtml(result: WindowsResult): string[] {
  const lead = pairsLead(result);
  if (lead === undefined) return [];
  const rows = pairRows(result);
  const head = ['first fault', 'clause only the pair broke', 'pairs', 'the first such pair adds', 'replay the first such pair'].map((t) => `<th scope="col">${t}</th>`).join('');
  const body = rows.map((r, i) => {
    const span = i > 0 && rows[i - 1]!.first === r.first ? '' : `<td rowspan="${rows.filter((x) => x.first === r.first).length}">${esc(r.first)}</td>`;
    return `<tr>${span}<td class="words">${esc(r.clause)}</td><td>${r.pairs}</td><td class="words">${esc(r.second)}</td><td class="query"><code>${esc(r.replay)}</code></td></tr>`;
  });
  const known = knownLines(result);
  return [
    '<h2>Fault pairs that broke a clause</h2>',
    `<p>${esc(lead)}</p>`,
    ...(rows.length === 0 ? [] : [`<div class="table-wrap"><table>\n<thead><tr>${head}</tr></thead>\n<tbody>\n${body.join('\n')}\n</tbody>\n</table></div>`]),
    ...(known.length === 0 ? [] : [`<ul>${known.map((k) => `<li>${esc(k)}</li>`).join('')}</ul>`]),
  ];
}

/** The failure-window rows in their groups, then the numbered repair queries. */
function rowSections(result: WindowsResult): string[] {
  const g = rowGroups(result);
  const legend = queryLegend([...g.broke, ...g.absorbed]);
  const out: string[] = [];
  if (g.broke.length > 0) out.push('<h2>Faults that broke a claim</h2>', brokeTable(result, g.broke, legend));
  if (g.absorbed.length > 0) out.push('<h2>Faults the design absorbed</h2>', ...absorbedHtml(g.absorbed, legend));
  if (g.unchanged.length > 0) out.push('<h2>Faults that changed nothing</h2>', `<p class="places">The claim held with nothing lost and nothing repeated, as in the fault-free run (each row's figures are in report.json): ${placesHtml(g.unchanged)}.</p>`);
  if (g.unreached.length > 0) out.push('<h2>Faults that never struck</h2>', `<p class="places">${result.check ? 'No interleaving within the bound reached these places' : 'This workload never reached these places at the occurrences tried'}: ${placesHtml(g.unreached)}.</p>`);
  if (legend.entries.length > 0) {
    out.push('<h2>Repair queries</h2>', '<p>Run a query to find the damage its rows name; where the claim held, it is the check that the damage did not happen.</p>');
    out.push(`<dl>${legend.entries.map((q) => `<dt id="${q.id}">${q.id}</dt><dd><code>${esc(q.sql)}</code></dd>`).join('')}</dl>`);
  }
  return out;
}

function counterexample(result: WindowsResult, ce: Counterexample, index: number): string {
  const id = anchor(result.name, `-ce-${index + 1}`);
  const findings = ce.findings.map((f) => `<li>${esc(f.violation)}: ${esc(describeFinding(f))}</li>`).join('');
  const plan = describePlan(ce.plan);
  const diagram = counterexampleSteps(ce);
  const marked = markedSteps(diagram);
  const data = viewerData(ce, diagram);
  const dataId = `${id}-steps`;
  return [
    `<article id="${id}">`,
    `<h3>${index + 1}. ${esc(ce.violation)}</h3>`,
    `<p><strong>Plan:</strong> ${esc(plan)} · ${counterexampleRun(ce).map((x) => `<strong>${x.label.toLowerCase()}</strong> ${x.label === 'Choice path' ? `<code>${esc(x.value)}</code>` : esc(x.value)}`).join(' · ')} · <strong>trace hash</strong> <code>${esc(ce.traceHash)}</code></p>`,
    findings === '' ? '' : `<ul>${findings}</ul>`,
    `<p>${esc(focusSentence(diagram))}</p>`,
    marked.length === 0 ? '' : `<ul class="story">${marked.map((s) => `<li class="${'mark' in s && s.mark !== undefined ? s.mark.kind : s.kind}">${esc(stepLine(s))}</li>`).join('')}</ul>`,
    `<div class="diagram">\n${svgSequence(diagram, `${result.name}: ${ce.violation} under ${plan}`)}\n</div>`,
    data === undefined ? '' : `<section class="viewer" tabindex="0" aria-label="Step through the counterexample" data-viewer="${dataId}" hidden></section>\n<script type="application/json" id="${dataId}">${jsonInHtml(data)}</script>`,
    `<p><strong>Replay:</strong></p>`,
    `<pre><code>${esc(replayLine(ce.replay))}</code></pre>`,
    `</article>`,
  ].filter((l) => l !== '').join('\n');
}

/** JSON inside a script element: `<` is written as its escape, so no string in it can close the element. */
function jsonInHtml(data: unknown): string {
  return JSON.stringify(data).replace(/</g, '\\u003c');
}

/** What a scenario's page opens with: its verdict, worst window, first counterexample and replay line, coverage, and what was not judged. */
function answer(result: WindowsResult): string {
  const a = scenarioAnswer(result);
  const v = a.summary;
  const first = a.first === undefined ? '' : `<p><strong>First counterexample:</strong> <a href="#${anchor(result.name, `-ce-${a.first.index + 1}`)}">${esc(a.first.text)}</a></p>\n<pre><code>${esc(a.first.replay)}</code></pre>`;
  return [
    `<section class="answer ${v.verdict.replace(/ /g, '-')}" aria-label="answer">`,
    `<p><strong>Verdict: ${esc(v.verdict)}</strong> · expected ${esc(v.expected)} · <strong>${esc(v.status)}</strong></p>`,
    v.problems.length === 0 ? '' : `<ul>${v.problems.map((p) => `<li>${esc(p)}</li>`).join('')}</ul>`,
    `<p><strong>Worst window:</strong> ${a.noFault !== undefined ? `${esc(a.noFault)}; ${brokeWords(a)}.` : a.worst === undefined ? `${esc(a.none)}.` : `<code>${esc(a.worst)}</code>; ${brokeWords(a)}.`}</p>`,
    first,
    `<p><strong>Covered:</strong> ${esc(v.covers)}.</p>`,
    ...a.unjudged.map((u) => `<p><strong>Not judged in every run:</strong> ${esc(u)}.</p>`),
    `</section>`,
  ].filter((l) => l !== '').join('\n');
}

/** The stylesheet every page of the set links to, written beside report.html. */
export const STYLE_FILE = 'report.css';
/** The script the pages with counterexamples load: the step-through viewer. */
export const SCRIPT_FILE = 'report.js';

/** The set's stylesheet: one file, so a run of a hundred pages carries it once. */
export function renderStyle(): string {
  return `${STYLE}\n${DIAGRAM_STYLE}\n`;
}

/** The set's script, each line without its indentation. */
export function renderScript(): string {
  return `${VIEWER_SCRIPT.replace(/^\s+/gm, '').trim()}\n`;
}

function page(title: string, body: readonly string[], viewer: boolean): string {
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${esc(title)}</title>`,
    `<link rel="stylesheet" href="${STYLE_FILE}">`,
    '</head>',
    '<body>',
    ...body,
    ...(viewer ? [`<script src="${SCRIPT_FILE}"></script>`] : []),
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

/** One scenario's page: the answer first, then the claim, the rows and the counterexamples. */
export function renderScenarioHtml(result: WindowsResult): string {
  const v = verdictSummary(result);
  const body = [
    '<nav class="crumbs"><a href="report.html">All scenarios</a></nav>',
    `<header id="${anchor(result.name)}">`,
    `<h1>${esc(result.title)} ${badges(v)}</h1>`,
    answer(result),
    '</header>',
    '<main>',
    `<p>Scenario <code>${esc(result.name)}</code> · ${esc(sweepHeader(result))}</p>`,
    `<p><strong>Seed passage:</strong> ${esc(result.source)}<br><strong>Lesson:</strong> ${esc(result.lesson)}</p>`,
    `<h2>${result.claims.length === 1 ? 'Claim' : 'Claims'}</h2>`,
    ...result.claims.map((c) => `<blockquote><p>${esc(claimSentence(c))}</p></blockquote>`),
    `<p><strong>Clauses checked:</strong></p>`,
    `<ul class="clauses">${result.coverage.clauses.map((c) => `<li class="${c.status.replace(/ /g, '-')}">${result.claims.length > 1 ? `${esc(c.effect)}: ` : ''}${esc(describeClause(c, result.check ? 'end state' : 'run'))}</li>`).join('')}</ul>`,
    ...result.refusals.map((r) => `<p>Note: <code>${esc(r.component)}</code> ran on XState's own step because the compiled driver refused its machine (${esc(r.reason)}).</p>`),
    `<div class="counts"><div><strong>${result.coverage.windows + result.coverage.points}</strong>places</div><div><strong>${result.coverage.runs}</strong>runs</div><div><strong>${esc(result.distinctOutcomes.join(', '))}</strong>distinct outcomes</div></div>`,
    searchLine(result) === undefined ? '' : `<p>Search: ${esc(searchLine(result)!)}.</p>`,
    ...windowReach(result).map((w) => `<p>${esc(w.text)}: ${w.windows.map((x) => `<code>${esc(x)}</code>`).join(', ')}.</p>`),
    ...pairsHtml(result),
    ...rowSections(result),
    `<h2>Counterexamples</h2>`,
    result.counterexamples.length === 0 ? '<p>None: no run violated a claim.</p>' : result.counterexamples.map((ce, i) => counterexample(result, ce, i)).join('\n'),
    '</main>',
  ].filter((l) => l !== '');
  return page(`${result.title}: faultline`, body, result.counterexamples.some((ce) => ce.frames !== undefined));
}

/** One row of the index: the scenario, its verdict, its worst window and its first counterexample. */
function indexRow(r: WindowsResult): string {
  const a = scenarioAnswer(r);
  const href = scenarioPage(r.name);
  const first = a.first === undefined ? '—' : `<a href="${href}#${anchor(r.name, `-ce-${a.first.index + 1}`)}">${esc(r.counterexamples[a.first.index]!.violation)}</a>`;
  return `<tr${a.summary.asExpected ? '' : ' class="unexpected"'}><td><a href="${href}">${esc(r.title)}</a><br><code>${esc(r.name)}</code></td><td>${badges(a.summary)}</td><td>${esc(a.summary.expected)}</td><td>${a.noFault !== undefined ? 'none needed: it breaks with no fault' : a.worst === undefined ? esc(noneCell(r)) : `<code>${esc(a.worst)}</code>`}</td><td>${first}</td><td>${r.coverage.runs}</td></tr>`;
}

/** The index of a run (report.html): the tally, then every scenario in one table linking its page; `others` are the set's other files it links to. */
export function renderHtml(results: readonly WindowsResult[], others: readonly string[] = ['report.json', 'junit.xml']): string {
  const head = ['scenario', 'verdict', 'expected', 'worst window', 'first counterexample', 'runs'].map((t) => `<th scope="col">${t}</th>`).join('');
  const body = [
    '<header>',
    '<h1>faultline failure-window report</h1>',
    `<p>${runTally(results, (s) => `<strong>${s}</strong>`)}</p>`,
    '</header>',
    '<main>',
    `<div class="table-wrap"><table class="index">\n<thead><tr>${head}</tr></thead>\n<tbody>\n${results.map(indexRow).join('\n')}\n</tbody>\n</table></div>`,
    `<p>Each scenario has a page of its own, which opens with its answer.${others.length === 0 ? '' : ` The same run in other forms: ${others.map((f) => `<a href="${esc(f)}">${esc(f)}</a>`).join(' · ')}.`}</p>`,
    '</main>',
  ];
  return page('faultline failure-window report', body, false);
}

// Renders a whole windows run as ONE self-contained HTML page: a table of contents, a verdict
// badge per scenario, the failure-window tables and every counterexample drawn as an inline SVG
// sequence diagram. It loads nothing (no script, no stylesheet link, no font, no image URL), so
// it opens the same from a CI artifact, an e-mail attachment or an air-gapped laptop, and it
// holds no timestamp, so the same results always give the same bytes.
import { replayLine } from '../replayLine.ts';
import { isExpectedViolation, isUnexpectedOutcome } from '../verdict.ts';
import type { Counterexample, WindowRow, WindowsResult } from '../windows.ts';
import { claimSentence } from './claimSentence.ts';
import { describeClause } from './describeCoverage.ts';
import { describeFinding } from './describeFinding.ts';
import { describePlan } from './describePlan.ts';
import { counterexampleRun, searchLine, sweepHeader, windowReach } from './describeSweep.ts';
import { escapeXml as esc } from './escapeXml.ts';
import { sequenceSteps } from './sequenceSteps.ts';
import { svgSequence } from './svgSequence.ts';
import { runTally, verdictSummary, type VerdictSummary } from './verdictSummary.ts';
import { WINDOW_COLUMNS, windowCells, windowTables, componentNames, repairIsSql } from './windowCells.ts';

const STYLE = `
:root { color-scheme: light; --ok: #1a7f37; --bad: #cf222e; --warn: #9a6700; --muted: #57606a; --line: #d0d7de; }
body { font: 15px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 0 auto; max-width: 1400px; padding: 1.5rem; color: #1f2328; }
h1, h2, h3, h4 { line-height: 1.25; }
h2 { border-bottom: 1px solid var(--line); padding-bottom: .3rem; margin-top: 2.5rem; }
code, pre { font: 13px/1.45 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
pre { background: #f6f8fa; padding: .75rem; overflow-x: auto; white-space: pre-wrap; word-break: break-all; }
blockquote { margin: 0; padding: 0 1rem; border-left: .25rem solid var(--line); color: var(--muted); }
table { border-collapse: collapse; margin: .75rem 0; font-size: 13px; }
th, td { border: 1px solid var(--line); padding: .3rem .5rem; vertical-align: top; text-align: left; }
th { background: #f6f8fa; position: sticky; top: 0; }
td.query code { white-space: pre-wrap; }
/* A window name reads as one token: never split "broker->consumer" at its hyphen. Long evidence
   and queries (keys, SQL) may break anywhere rather than widen the table past the page. */
td:first-child code { white-space: nowrap; }
td:nth-child(4), td.query { overflow-wrap: anywhere; min-width: 12rem; }
/* On a narrow window the table scrolls sideways inside its own box, not the whole page; on a wide
   one the box does not clip, so the header row stays pinned while a long table scrolls. */
@media (max-width: 1300px) { .table-wrap { overflow-x: auto; } }
tr.unexpected td { background: #ffebe9; }
tr.expected td { background: #fff8c5; }
tr.unreached td { color: var(--muted); }
.badge { display: inline-block; padding: 0 .55rem; border-radius: 1rem; font-size: 12px; font-weight: 600; color: #fff; vertical-align: middle; }
.badge.holds { background: var(--ok); }
.badge.violated { background: var(--bad); }
.badge.unknown { background: var(--warn); }
.badge.holds-within-bound { background: var(--ok); }
ul.clauses .not-checked, ul.clauses .not-exercised { color: var(--warn); }
.badge.as-expected { background: #fff; color: var(--ok); border: 1px solid var(--ok); }
.badge.not-expected { background: #fff; color: var(--bad); border: 1px solid var(--bad); }
nav ol { padding-left: 1.5rem; }
.counts { display: flex; gap: 2rem; }
.counts div { font-size: 13px; color: var(--muted); }
.counts strong { display: block; font-size: 20px; color: #1f2328; }
/* A diagram keeps its drawn size, so its words stay legible, and scrolls sideways inside its own
   box on a screen narrower than it, never widening the page. The shadows at the box's edges show
   that more of the diagram lies that way; the white covers scroll with the content (background-
   attachment: local) and hide a shadow once the reader reaches that edge. */
.diagram {
  overflow-x: auto; max-width: 100%; box-sizing: border-box; border: 1px solid var(--line); padding: .5rem;
  background: linear-gradient(to right, #fff 30%, #fff0) left / 2rem 100% no-repeat local,
    linear-gradient(to left, #fff 30%, #fff0) right / 2rem 100% no-repeat local,
    radial-gradient(farthest-side at 0 50%, #0003, #0000) left / .75rem 100% no-repeat scroll,
    radial-gradient(farthest-side at 100% 50%, #0003, #0000) right / .75rem 100% no-repeat scroll,
    #fff;
}
.diagram svg { display: block; max-width: none; }
/* A trace hash or a scenario name is one long token: it breaks anywhere rather than widen the page. */
p code, li code, h2 code { overflow-wrap: anywhere; }
svg.sequence { font: 11px ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
svg.sequence .lifeline { stroke: #8c959f; stroke-dasharray: 4 4; }
svg.sequence .participant rect { fill: #ddf4ff; stroke: #54aeff; }
svg.sequence .participant text { font-weight: 600; }
svg.sequence .msg line, svg.sequence .msg path { stroke: #1f2328; fill: none; }
svg.sequence .head { fill: #1f2328; }
svg.sequence .lost line, svg.sequence .dropped line { stroke: var(--bad); stroke-dasharray: 6 4; }
svg.sequence .lost text, svg.sequence .dropped text { fill: var(--bad); }
svg.sequence .msg .cross { stroke: var(--bad); stroke-width: 2.5; }
/* The layout keeps every label off the lifelines; its background keeps the words legible over anything else. */
svg.sequence .label-bg { fill: #fff; stroke: none; }
svg.sequence .crash rect { fill: var(--bad); stroke: #82071e; }
svg.sequence .crash text { fill: #fff; font-weight: 700; }
svg.sequence .restart rect { fill: #dafbe1; stroke: var(--ok); }
svg.sequence .note rect { fill: #fff8c5; stroke: #d4a72c; }
svg.sequence .phase rect { fill: #eaeef2; stroke: #8c959f; }
svg.sequence .omitted rect { fill: #fff; stroke: #8c959f; stroke-dasharray: 3 3; }
svg.sequence .omitted text { fill: var(--muted); font-style: italic; }
`;

/** An id for a scenario's section (with a suffix, one of its counterexamples), safe in an attribute and a fragment link. */
export function anchor(name: string, suffix = ''): string {
  return `s-${name.replace(/[^A-Za-z0-9_-]/g, '-')}${suffix}`;
}

function badges(v: VerdictSummary): string {
  return `<span class="badge ${v.verdict.replace(/ /g, '-')}">${esc(v.verdict)}</span> <span class="badge ${v.asExpected ? 'as-expected' : 'not-expected'}">${esc(v.status)}</span>`;
}

function rowClass(result: WindowsResult, row: WindowRow): string {
  if (isUnexpectedOutcome(result.judgement.expected, row.outcome)) return 'unexpected';
  if (isExpectedViolation(result.judgement.expected, row.outcome)) return 'expected';
  return row.struck > 0 ? '' : 'unreached';
}

function windowTable(result: WindowsResult, rows: readonly WindowRow[]): string {
  const head = `<tr>${WINDOW_COLUMNS.map((c) => `<th scope="col">${esc(c.title)}</th>`).join('')}</tr>`;
  const body = rows.map((row) => {
    const c = windowCells(row, componentNames(result));
    const cls = rowClass(result, row);
    const outcome = cls === 'unexpected' ? `<strong>${esc(c.outcome)} (unexpected)</strong>` : cls === 'expected' ? `${esc(c.outcome)} (expected)` : esc(c.outcome);
    const cells = [
      `<td><code>${esc(c.window)}</code></td>`,
      `<td>${esc(c.fault)}</td>`,
      `<td class="outcome">${outcome}</td>`,
      `<td>${esc(c.evidence)}</td>`,
      `<td>${esc(c.retryOwner)}</td>`,
      `<td>${esc(c.duplicatePossible)}</td>`,
      `<td>${esc(c.duplicateGuard)}</td>`,
      `<td class="query">${c.repairQuery === '' ? '—' : repairIsSql(row) ? `<code>${esc(c.repairQuery)}</code>` : esc(c.repairQuery)}</td>`,
    ];
    return `<tr${cls === '' ? '' : ` class="${cls}"`}>${cells.join('')}</tr>`;
  });
  return `<div class="table-wrap"><table>\n<thead>${head}</thead>\n<tbody>\n${body.join('\n')}\n</tbody>\n</table></div>`;
}

function counterexample(result: WindowsResult, ce: Counterexample, index: number): string {
  const id = anchor(result.name, `-ce-${index + 1}`);
  const findings = ce.findings.map((f) => `<li>${esc(f.violation)}: ${esc(describeFinding(f))}</li>`).join('');
  const plan = describePlan(ce.plan);
  const title = `${result.name}: ${ce.violation} under ${plan}`;
  return [
    `<article id="${id}">`,
    `<h4>${index + 1}. ${esc(ce.violation)}</h4>`,
    `<p><strong>Plan:</strong> ${esc(plan)} · ${counterexampleRun(ce).map((x) => `<strong>${x.label.toLowerCase()}</strong> ${x.label === 'Choice path' ? `<code>${esc(x.value)}</code>` : esc(x.value)}`).join(' · ')} · <strong>trace hash</strong> <code>${esc(ce.traceHash)}</code></p>`,
    findings === '' ? '' : `<ul>${findings}</ul>`,
    `<div class="diagram">\n${svgSequence(sequenceSteps(ce.trace), title)}\n</div>`,
    `<p><strong>Replay:</strong></p>`,
    `<pre><code>${esc(replayLine(ce.replay))}</code></pre>`,
    `</article>`,
  ].filter((l) => l !== '').join('\n');
}

function section(result: WindowsResult): string {
  const v = verdictSummary(result);
  const parts = [
    `<section id="${anchor(result.name)}">`,
    `<h2>${esc(result.title)} ${badges(v)}</h2>`,
    `<p>Scenario <code>${esc(result.name)}</code> · ${esc(sweepHeader(result))}</p>`,
    `<p><strong>Seed passage:</strong> ${esc(result.source)}<br><strong>Lesson:</strong> ${esc(result.lesson)}</p>`,
    `<h3>${result.claims.length === 1 ? 'Claim' : 'Claims'}</h3>`,
    ...result.claims.map((c) => `<blockquote><p>${esc(claimSentence(c))}</p></blockquote>`),
    `<p><strong>Verdict:</strong> ${esc(v.verdict)} · <strong>expected:</strong> ${esc(v.expected)} · <strong>${esc(v.status)}</strong></p>`,
    `<p><strong>Covers:</strong> ${esc(v.covers)}.</p>`,
    v.problems.length === 0 ? '' : `<ul>${v.problems.map((p) => `<li>${esc(p)}</li>`).join('')}</ul>`,
    `<p><strong>Clauses checked:</strong></p>`,
    `<ul class="clauses">${result.coverage.clauses.map((c) => `<li class="${c.status.replace(/ /g, '-')}">${result.claims.length > 1 ? `${esc(c.effect)}: ` : ''}${esc(describeClause(c, result.check ? 'end state' : 'run'))}</li>`).join('')}</ul>`,
    ...result.refusals.map((r) => `<p>Note: <code>${esc(r.component)}</code> ran on XState's own step because the compiled driver refused its machine (${esc(r.reason)}).</p>`),
    `<div class="counts"><div><strong>${result.coverage.windows + result.coverage.points}</strong>places</div><div><strong>${result.coverage.runs}</strong>runs</div><div><strong>${esc(result.distinctOutcomes.join(', '))}</strong>distinct outcomes</div></div>`,
    searchLine(result) === undefined ? '' : `<p>Search: ${esc(searchLine(result)!)}.</p>`,
    ...windowReach(result).map((w) => `<p>${esc(w.text)}: ${w.windows.map((x) => `<code>${esc(x)}</code>`).join(', ')}.</p>`),
    ...windowTables(result).map((t) => `<h3>${esc(t.heading)}</h3>\n${windowTable(result, t.rows)}`),
    `<h3>Counterexamples</h3>`,
    result.counterexamples.length === 0 ? '<p>None: no run violated a claim.</p>' : result.counterexamples.map((ce, i) => counterexample(result, ce, i)).join('\n'),
    `</section>`,
  ];
  return parts.filter((p) => p !== '').join('\n');
}

/** The whole run as one HTML document that references nothing outside itself. */
export function renderHtml(results: readonly WindowsResult[]): string {
  const toc = results.map((r) => {
    const ces = r.counterexamples.map((ce, i) => `<li><a href="#${anchor(r.name, `-ce-${i + 1}`)}">${esc(ce.violation)}</a></li>`).join('');
    return `<li><a href="#${anchor(r.name)}">${esc(r.title)}</a> <code>${esc(r.name)}</code> ${badges(verdictSummary(r))}${ces === '' ? '' : `<ol>${ces}</ol>`}</li>`;
  });
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<title>faultline failure-window report</title>',
    `<style>${STYLE}</style>`,
    '</head>',
    '<body>',
    '<header>',
    '<h1>faultline failure-window report</h1>',
    `<p>${runTally(results, (s) => `<strong>${s}</strong>`)}</p>`,
    '</header>',
    '<nav>',
    '<h2>Contents</h2>',
    `<ol>\n${toc.join('\n')}\n</ol>`,
    '</nav>',
    '<main>',
    ...results.map(section),
    '</main>',
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

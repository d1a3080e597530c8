// Renders a filled decision record as ONE self-contained HTML page in the failure-window report's
// house style: inline CSS, no script, no external asset, no timestamp. Every property links to
// its run in the Evidence section, which links on to the scenario's page of the HTML report
// written beside it, shows the replay line of each counterexample and links to its sequence
// diagram there. Tables wrap their words and, on a screen narrower than a table, scroll inside
// their own box, so the page itself is never wider than the screen.
import type { DecisionRecord, RecordBlock, RecordCell } from './decisionRecord.ts';
import { escapeXml as esc } from './escapeXml.ts';
import { anchor as reportAnchor, scenarioPage } from './html.ts';

const STYLE = `
:root { color-scheme: light; --ok: #1a7f37; --bad: #cf222e; --muted: #57606a; --line: #d0d7de; }
body { font: 15px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 0 auto; max-width: 1400px; padding: 1.5rem; color: #1f2328; }
h1, h2, h3 { line-height: 1.25; overflow-wrap: anywhere; }
h2 { border-bottom: 1px solid var(--line); padding-bottom: .3rem; margin-top: 2.5rem; }
code, pre { font: 13px/1.45 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
pre { background: #f6f8fa; padding: .75rem; overflow-x: auto; white-space: pre-wrap; word-break: break-all; }
p, li { overflow-wrap: anywhere; }
table { border-collapse: collapse; margin: .75rem 0; font-size: 13px; }
th, td { border: 1px solid var(--line); padding: .3rem .5rem; vertical-align: top; text-align: left; overflow-wrap: anywhere; }
th { background: #f6f8fa; }
/* A replay line or a query may break anywhere; a short name such as an event keeps its column. */
td code { white-space: pre-wrap; overflow-wrap: anywhere; }
td { min-width: 5rem; }
/* A table wider than the screen scrolls sideways inside its own box, never widening the page. */
.table-wrap { overflow-x: auto; max-width: 100%; }
td.flagged { background: #ffebe9; }
.flag { background: #ffebe9; color: #82071e; font-weight: 600; }
.flag::before { content: "\\26A0\\FE0E  "; }
.evidence { border-left: .25rem solid var(--line); padding-left: 1rem; margin: 1rem 0; }
.verdict-holds { color: var(--ok); font-weight: 600; }
.verdict-violated { color: var(--bad); font-weight: 600; }
/* On a phone the page gives its width to the tables rather than to margins and a large title. */
@media (max-width: 600px) { body { padding: .75rem; } h1 { font-size: 1.5rem; } td { min-width: 8rem; } }
`;

function cellHtml(c: RecordCell): string {
  let body = c.code ? `<code>${esc(c.text)}</code>` : esc(c.text);
  if (c.link !== undefined) body = `<a href="#${esc(c.link)}">${body}</a>`;
  return c.flag ? `<span class="flag">${body}</span>` : body;
}

function block(b: RecordBlock): string {
  if (b.kind === 'heading') return `<h3>${esc(b.text)}</h3>`;
  if (b.kind === 'para') return `<p>${b.cells.map(cellHtml).join('')}</p>`;
  if (b.table.rows.length === 0) return '<p>None backed by the scenarios given.</p>';
  const head = `<tr>${b.table.head.map((h) => `<th scope="col">${esc(h)}</th>`).join('')}</tr>`;
  const rows = b.table.rows.map((r) => `<tr>${r.map((c) => `<td${c.flag ? ' class="flagged"' : ''}>${cellHtml(c)}</td>`).join('')}</tr>`);
  return `<div class="table-wrap"><table>\n<thead>${head}</thead>\n<tbody>\n${rows.join('\n')}\n</tbody>\n</table></div>`;
}

export function renderRecordHtml(record: DecisionRecord): string {
  const toc = [...record.sections.map((s) => `<li><a href="#${esc(s.id)}">${esc(s.title)}</a></li>`), '<li><a href="#evidence">Evidence: the runs behind this record</a></li>'];
  const evidence = record.runs.map((r) =>
    [
      `<div class="evidence" id="${esc(r.anchor)}">`,
      `<h3>${esc(r.title)}</h3>`,
      `<p>Scenario <code>${esc(r.name)}</code> · verdict <span class="verdict-${r.verdict === 'violated' ? 'violated' : 'holds'}">${esc(r.verdict)}</span> · expected ${esc(r.expected)} · ${r.asExpected ? 'as expected' : '<span class="flag">NOT as expected</span>'} · <a href="${esc(scenarioPage(r.name))}#${esc(reportAnchor(r.name))}">report</a></p>`,
      `<p>Covers: ${esc(r.covers)}.</p>`,
      ...r.counterexamples.map(
        (ce, i) =>
          `<div id="${esc(ce.anchor)}"><p><strong>${esc(ce.violation)}</strong> under ${esc(ce.plan)} (<a href="${esc(scenarioPage(r.name))}#${esc(reportAnchor(r.name, `-ce-${i + 1}`))}">sequence diagram</a>). Replay:</p>\n<pre><code>${esc(ce.replay)}</code></pre></div>`,
      ),
      '</div>',
    ].join('\n'),
  );
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${esc(record.title)}</title>`,
    `<style>${STYLE}</style>`,
    '</head>',
    '<body>',
    '<header>',
    `<h1>${esc(record.title)}</h1>`,
    '<p>Building-block decision record for how messages and events travel between services without being lost or applied twice, filled from the scenarios below and their measured verdicts. Every property links to the run that backs it; a property a run contradicts is marked and listed as an open item.</p>',
    '</header>',
    '<nav>',
    '<h2>Contents</h2>',
    `<ol>\n${toc.join('\n')}\n</ol>`,
    '</nav>',
    '<main>',
    ...record.sections.map((s) => `<section id="${esc(s.id)}">\n<h2>${esc(s.title)}</h2>\n${s.blocks.map(block).join('\n')}\n</section>`),
    `<section id="evidence">\n<h2>Evidence: the runs behind this record</h2>\n${evidence.join('\n')}\n</section>`,
    '</main>',
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

// The HTML report: an index (report.html) with every scenario's verdict, worst window and first
// counterexample, and a page per scenario that opens with its answer; nothing loaded from
// outside the report set (diagrams as inline SVG, one stylesheet and one script of the set),
// every row of the engine accounted for, and each counterexample drawn around its key with the
// data its step-through viewer reads.
import { beforeAll, describe, expect, it } from 'vitest';
import { formatPlace } from '../../src/faults/place.ts';
import { replayLine } from '../../src/modes/replayLine.ts';
import { renderHtml, renderScenarioHtml, renderScript, renderStyle } from '../../src/report/html.ts';
import type { ViewerData } from '../../src/report/viewerData.ts';
import { outcomeLabel } from '../../src/report/windowCells.ts';
import { brokenHolds, loadResults, type Results } from './results.ts';

let results: Results;
let index: string;
let outbox: string;
let dual: string;
beforeAll(() => {
  results = loadResults();
  index = renderHtml(results.all);
  outbox = renderScenarioHtml(results.outbox);
  dual = renderScenarioHtml(results.dualWrite);
});

const unescape = (s: string) => s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, '&');
const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/'/g, '&#39;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The (window, fault, outcome) of every table row, in page order. */
function rows(page: string): { window: string; fault: string; outcome: string }[] {
  return [...page.matchAll(/<tr(?: class="[a-z]+")?><td><code>(.*?)<\/code><\/td><td>(.*?)<\/td><td class="outcome">(.*?)<\/td>/g)].map((m) => ({
    window: unescape(m[1]!),
    fault: m[2]!,
    outcome: unescape(m[3]!.replace(/<\/?strong>/g, '')),
  }));
}

describe('the HTML pages', () => {
  it('load nothing from outside the report set: no URL, and only the set\'s own stylesheet and script', () => {
    for (const page of [index, outbox, dual]) {
      expect(page.startsWith('<!doctype html>\n')).toBe(true);
      expect(page.trimEnd().endsWith('</html>')).toBe(true);
      expect(page).not.toMatch(/https?:\/\//i);
      expect(page).not.toMatch(/<img|<iframe|@import|url\(/i);
      expect([...page.matchAll(/(?:src|href)="([^"#]*)/g)].map((m) => m[1]).filter((u) => u !== '' && !/^[A-Za-z0-9._%-]+\.(?:html|css|js|json|xml)$/.test(u!))).toEqual([]);
      expect([...page.matchAll(/<script( [^>]*)?>/g)].map((m) => m[1] ?? '').every((a) => a === ' src="report.js"' || a.startsWith(' type="application/json"'))).toBe(true);
    }
    expect(renderStyle()).not.toMatch(/url\(|@import|https?:/);
    expect(renderScript()).not.toMatch(/fetch\(|XMLHttpRequest|https?:|import\(/);
  });

  it('index every scenario with its verdict, worst window and first counterexample, linking its page', () => {
    for (const r of results.all) expect(index).toContain(`<a href="${r.name}.html">${escape(r.title)}</a>`);
    expect(index).toContain(`<a href="${results.dualWrite.name}.html#s-${results.dualWrite.name}-ce-1">lost effect</a>`);
    expect(index).toContain('<code>source.committing crash: lost effect (expected)</code>');
    expect(index).toContain('<span class="badge holds">holds</span> <span class="badge as-expected">as expected</span>');
    const broken = renderHtml([brokenHolds(results.outbox)]);
    expect(broken).toContain('<span class="badge violated">violated</span> <span class="badge not-expected">NOT as expected</span>');
    expect(broken).toContain('<tr class="unexpected">');
    // No single fault broke the outbox: its cell says none, unless pairs of faults did.
    expect(index).toMatch(new RegExp(`<code>${results.outbox.name}</code></td>.*?</td>.*?</td><td>none</td>`));
    const pairs = { pairs: 40, broke: 3, fresh: [], known: [] };
    expect(renderHtml([{ ...results.outbox, pairs }])).toContain('<td>none alone; 3 of 40 pairs of faults broke a claim</td>');
    expect(renderHtml([{ ...results.outbox, pairs: { ...pairs, broke: 0 } }])).toContain('<td>none</td>');
  });

  it('open each scenario page with its answer, before its description', () => {
    const ce = results.dualWrite.counterexamples[0]!;
    expect(dual).toContain('<p><strong>Verdict: violated</strong> · expected violated (lost effect) · <strong>as expected</strong></p>');
    expect(dual).toMatch(/<strong>Worst window:<\/strong> <code>source\.committing crash: lost effect \(expected\)<\/code>; \d+ of \d+ faults broke a claim\./);
    expect(dual).toContain(`<a href="#s-${results.dualWrite.name}-ce-1">lost effect under crash-and-restart at source.committing: committed fact o-1|1 has no inventory reservation</a>`);
    expect(dual.indexOf(`<pre><code>${escape(replayLine(ce.replay))}</code></pre>`)).toBeLessThan(dual.indexOf('<h2>Claim</h2>'));
    expect(outbox).toContain('<strong>Worst window:</strong> none: no fault of the');
  });

  it('show every row that broke a claim as a table row, with its outcome, and every other row by place', () => {
    for (const [r, page] of [[results.outbox, outbox], [results.dualWrite, dual]] as const) {
      const broke = r.rows.filter((w) => w.outcome !== 'holds');
      expect(rows(page).map((x) => ({ ...x, outcome: x.outcome.replace(/ \((?:un)?expected\)$/, '') }))).toEqual(broke.map((w) => ({ window: formatPlace(w.place), fault: w.fault, outcome: outcomeLabel(w) })));
      for (const w of r.rows.filter((x) => x.outcome === 'holds')) expect(page, formatPlace(w.place)).toContain(`<code>${escape(formatPlace(w.place))}</code> (`);
    }
  });

  it('draw each counterexample as inline SVG around its key, with the data of its viewer', () => {
    const ce = results.dualWrite.counterexamples[0]!;
    const svgs = dual.match(/<svg[\s\S]*?<\/svg>/g) ?? [];
    expect(svgs).toHaveLength(results.dualWrite.counterexamples.length);
    expect(svgs[0]).toContain('class="lifeline"');
    expect(svgs[0]).toMatch(/<g class="crash">[\s\S]*?CRASH at source\./);
    expect(svgs[0]).toMatch(/<g class="missing">[\s\S]*?MISSING: no inventory reservation for o-1\|1/);
    expect(dual).toContain(`<pre><code>${escape(replayLine(ce.replay))}</code></pre>`);
    const json = /<script type="application\/json" id="s-mercury-dual-write-commit-first-ce-1-steps">(.*?)<\/script>/.exec(dual)![1]!;
    const data = JSON.parse(json) as ViewerData;
    expect(data.c).toEqual(ce.frames!.components);
    expect(data.steps[data.steps.length - 1]!.m).toEqual(['missing', 'MISSING: no inventory reservation for o-1|1']);
    expect(dual).toContain('<section class="viewer" tabindex="0" aria-label="Step through the counterexample" data-viewer="s-mercury-dual-write-commit-first-ce-1-steps" hidden></section>');
    // A page without a counterexample loads no script.
    expect(outbox).not.toContain('<script');
  });

  it('are the same bytes for the same results', () => {
    expect(renderHtml(results.all)).toBe(index);
    expect(renderScenarioHtml(results.dualWrite)).toBe(dual);
  });
});

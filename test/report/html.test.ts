// The single-page HTML report: self-contained (no external URL anywhere, diagrams as inline
// SVG), with a table of contents, verdict badges and the same rows and outcomes as the engine.
import { beforeAll, describe, expect, it } from 'vitest';
import { formatPlace } from '../../src/place.ts';
import { replayLine } from '../../src/replayLine.ts';
import { renderHtml } from '../../src/report/html.ts';
import { outcomeLabel } from '../../src/report/windowCells.ts';
import { brokenHolds, loadResults, type Results } from './results.ts';

let results: Results;
let html: string;
beforeAll(() => {
  results = loadResults();
  html = renderHtml(results.all);
});

const unescape = (s: string) => s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, '&');

/** The (window, fault, outcome) of every table row, in page order. */
function rows(page: string): { window: string; fault: string; outcome: string }[] {
  return [...page.matchAll(/<tr(?: class="[a-z]+")?><td><code>(.*?)<\/code><\/td><td>(.*?)<\/td><td class="outcome">(.*?)<\/td>/g)].map((m) => ({
    window: unescape(m[1]!),
    fault: m[2]!,
    outcome: unescape(m[3]!.replace(/<\/?strong>/g, '')),
  }));
}

describe('renderHtml', () => {
  it('is one self-contained document with no external URLs', () => {
    expect(html.startsWith('<!doctype html>\n')).toBe(true);
    expect(html.trimEnd().endsWith('</html>')).toBe(true);
    expect(html).not.toMatch(/(?:src|href)\s*=\s*["']?\s*(?:https?:)?\/\//i);
    expect(html).not.toMatch(/https?:\/\//i);
    expect(html).not.toMatch(/<script|<link|<img|<iframe|@import|url\(/i);
  });

  it('has a table of contents linking every scenario section and counterexample', () => {
    for (const r of results.all) {
      expect(html).toContain(`<a href="#s-${r.name}">`);
      expect(html).toContain(`<section id="s-${r.name}">`);
    }
    expect(html).toContain(`<a href="#s-${results.dualWrite.name}-ce-1">lost effect</a>`);
    expect(html).toContain(`<article id="s-${results.dualWrite.name}-ce-1">`);
  });

  it('shows verdict badges against the expectation', () => {
    expect(html).toContain('<span class="badge holds">holds</span> <span class="badge as-expected">as expected</span>');
    expect(html).toContain('<span class="badge violated">violated</span> <span class="badge as-expected">as expected</span>');
    const broken = renderHtml([brokenHolds(results.outbox)]);
    expect(broken).toContain('<span class="badge violated">violated</span> <span class="badge not-expected">NOT as expected</span>');
    expect(broken).toContain('<tr class="unexpected">');
  });

  it('has the same rows and outcomes as the results', () => {
    const found = rows(html);
    const want = results.all.flatMap((r) => {
      const order = [...r.rows.filter((w) => w.fault === 'crash'), ...r.rows.filter((w) => w.fault !== 'crash')];
      return order.map((w) => ({ window: formatPlace(w.place), fault: w.fault, outcome: outcomeLabel(w) }));
    });
    expect(found.map((f) => ({ ...f, outcome: f.outcome.replace(/ \((?:un)?expected\)$/, '') }))).toEqual(want);
  });

  it('draws each counterexample as inline SVG with lifelines, arrows, a crash box and the replay line', () => {
    const ce = results.dualWrite.counterexamples[0]!;
    const svgs = html.match(/<svg[\s\S]*?<\/svg>/g) ?? [];
    expect(svgs).toHaveLength(results.all.reduce((n, r) => n + r.counterexamples.length, 0));
    const svg = svgs[0]!;
    expect(svg).toContain('class="lifeline"');
    expect(svg).toContain('<polygon class="head"');
    expect(svg).toMatch(/<g class="crash">[\s\S]*?CRASH at source\./);
    expect(html).toContain(`<pre><code>${replayLine(ce.replay).replace(/&/g, '&amp;').replace(/'/g, '&#39;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;')}</code></pre>`);
  });

  it('is the same bytes for the same results', () => {
    expect(renderHtml(results.all)).toBe(html);
  });
});

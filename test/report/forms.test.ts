// The four forms of one run tell the same story: every window row, with its outcome, appears in
// the Markdown, the HTML, the JSON and the JUnit file, and nothing else does. The pages show a
// row that broke a claim as a table row and every other one by place, under a heading that
// says what it was (absorbed, changed nothing: it held; never struck: not reached); a JUnit
// case that passes bare held.
import { XMLParser } from 'fast-xml-parser';
import { beforeAll, describe, expect, it } from 'vitest';
import { renderScenarioHtml } from '../../src/report/html.ts';
import { renderJson } from '../../src/report/json.ts';
import { renderJunit } from '../../src/report/junit.ts';
import { renderMarkdown } from '../../src/report/markdown.ts';
import { outcomeLabel } from '../../src/report/windowCells.ts';
import type { WindowsResult } from '../../src/modes/windows.ts';
import { loadResults, placeOf, type Results } from './results.ts';

type Row = readonly [scenario: string, window: string, fault: string, outcome: string];

let results: Results;
beforeAll(() => {
  results = loadResults();
});

const sortRows = (rows: Row[]) => rows.map((r) => r.join('\u0000')).sort();
const unescape = (s: string) => s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, '&');
const stripMark = (s: string) => s.replace(/^\*\*|\*\*$/g, '').replace(/ \((?:un)?expected\)$/, '');

/** What the engine says: every row and its outcome as a reader should see it. */
function engineRows(rs: readonly WindowsResult[], label: (r: WindowsResult['rows'][number]) => string): Row[] {
  return rs.flatMap((r) => r.rows.map((w): Row => [r.name, placeOf(w), w.fault, label(w)]));
}

/** What a group heading says of the rows listed under it by place. */
const GROUP_OUTCOME: Readonly<Record<string, string>> = { 'Faults the design absorbed': 'holds', 'Faults that changed nothing': 'holds', 'Faults that never struck': 'not reached' };

/** The rows a text lists by place (`` `a->b:x` (lose, delay) ``), each with the outcome its group says. */
function listedRows(scenario: string, text: string, outcome: string): Row[] {
  return [...text.matchAll(/`([^`]+)` \(([a-z, ]+)\)/g)].flatMap((m) => m[2]!.split(', ').map((fault): Row => [scenario, unescape(m[1]!), fault, outcome]));
}

function markdownRows(rs: readonly WindowsResult[]): Row[] {
  const md = renderMarkdown(rs);
  const rows: Row[] = [];
  let scenario = '';
  let group: string | undefined;
  for (const line of md.split('\n')) {
    const title = /^## (.*)$/.exec(line);
    if (title) scenario = rs.find((r) => r.title === title[1])!.name;
    const heading = /^### (.*)$/.exec(line);
    if (heading) group = GROUP_OUTCOME[heading[1]!];
    const m = /^\| `(.*?)` \| ([a-z]+) \| (.*?) \| /.exec(line);
    if (m) rows.push([scenario, m[1]!, m[2]!, stripMark(m[3]!)]);
    else if (group !== undefined && !line.startsWith('- **Q')) rows.push(...listedRows(scenario, line.replace(/\(check with [Q0-9, ]+\)/g, ''), group));
  }
  return rows;
}

function htmlRows(rs: readonly WindowsResult[]): Row[] {
  const rows: Row[] = [];
  for (const r of rs) {
    const html = renderScenarioHtml(r);
    for (const m of html.matchAll(/<tr(?: class="[a-z]+")?><td><code>(.*?)<\/code><\/td><td>(.*?)<\/td><td class="outcome">(.*?)<\/td>/g)) {
      rows.push([r.name, unescape(m[1]!), m[2]!, stripMark(unescape(m[3]!.replace(/<\/?strong>/g, '')))]);
    }
    for (const m of html.matchAll(/<h2>([^<]*)<\/h2>\n(?:<p>[^\n]*<\/p>\n)?<(?:p|ul) class="places">(.*?)<\/(?:p|ul)>/g)) {
      const outcome = GROUP_OUTCOME[m[1]!];
      if (outcome !== undefined) rows.push(...listedRows(r.name, m[2]!.replace(/<\/?(?:code|li|strong|a)[^>]*>/g, '`').replace(/``/g, '`').replace(/\(check with [^)]*\)/g, ''), outcome));
    }
  }
  return rows;
}

function jsonRows(rs: readonly WindowsResult[]): Row[] {
  const doc = JSON.parse(renderJson(rs)) as { scenarios: { name: string; windows: { window: string; fault: string; outcome: string }[] }[] };
  return doc.scenarios.flatMap((s) => s.windows.map((w): Row => [s.name, w.window, w.fault, w.outcome]));
}

function junitRows(rs: readonly WindowsResult[]): Row[] {
  const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@_', parseTagValue: false, isArray: (n) => n === 'testsuite' || n === 'testcase' });
  const doc = parser.parse(renderJunit(rs)) as { testsuites: { testsuite: { '@_name': string; testcase: { '@_name': string; 'system-out'?: string; failure?: unknown; skipped?: { '@_message': string } }[] }[] } };
  return doc.testsuites.testsuite.flatMap((s) =>
    s.testcase
      .filter((c) => c['@_name'] !== 'verdict')
      .map((c): Row => {
        const cut = c['@_name'].lastIndexOf(' ');
        // A case that says nothing passed, or was skipped because its fault never struck: the row held.
        const said = /^outcome: ([a-z ]+?)(?: \((?:un)?expected violation\))?$/m.exec(c['system-out'] ?? '')?.[1];
        const outcome = said ?? (c.failure === undefined && (c.skipped === undefined || c.skipped['@_message'].startsWith('the fault never struck')) ? 'holds' : '');
        return [s['@_name'], c['@_name'].slice(0, cut), c['@_name'].slice(cut + 1), outcome];
      }),
  );
}

describe('every report form', () => {
  it('shows the same windows with the same outcomes', () => {
    const rs = results.all;
    const raw = sortRows(engineRows(rs, (w) => w.outcome));
    const shown = sortRows(engineRows(rs, outcomeLabel));
    expect(raw.length).toBe(results.outbox.rows.length + results.dualWrite.rows.length);
    expect(sortRows(markdownRows(rs))).toEqual(shown);
    expect(sortRows(htmlRows(rs))).toEqual(shown);
    expect(sortRows(jsonRows(rs))).toEqual(raw);
    expect(sortRows(junitRows(rs))).toEqual(raw);
  });

  it('includes the violations the dual write is expected to show', () => {
    const lost = results.dualWrite.rows.filter((w) => w.outcome === 'lost effect');
    expect(lost.length).toBeGreaterThan(0);
    for (const rows of [markdownRows, htmlRows, jsonRows, junitRows]) {
      const found = rows(results.all).filter((r) => r[0] === results.dualWrite.name && r[3].includes('lost effect'));
      expect(found.map((r) => `${r[1]} ${r[2]}`), rows.name).toEqual(lost.map((w) => `${placeOf(w)} ${w.fault}`));
    }
  });
});

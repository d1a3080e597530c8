// The Markdown report: every row of the failure-window table, the drill windows of the outbox
// seed with their evidence, retry owner, duplicate possibility and repair query, and the
// dual-write counterexample as a Mermaid sequence diagram with its crash and replay line.
import { beforeAll, describe, expect, it } from 'vitest';
import { renderMarkdown, renderMarkdownFile, renderMarkdownIndex } from '../../src/report/markdown.ts';
import { replayLine } from '../../src/replayLine.ts';
import { claimSentence } from '../../src/report/claimSentence.ts';
import { componentNames, evidenceText, outcomeLabel, repairQueryText, retryOwnerText } from '../../src/report/windowCells.ts';
import type { WindowRow } from '../../src/windows.ts';
import { DRILL_WINDOWS, brokenHolds, loadResults, placeOf, type Results } from './results.ts';

let results: Results;
beforeAll(() => {
  results = loadResults();
});

/** The table cells of the row for a window and fault, split on unescaped pipes. */
function tableRow(md: string, window: string, fault: string): string[] | undefined {
  const line = md.split('\n').find((l) => l.startsWith(`| \`${window.replace(/\|/g, '\\|')}\` | ${fault} |`));
  return line?.slice(2, -2).split(/(?<!\\) \| /);
}

describe('renderMarkdownFile', () => {
  it('prints the title, seed passage, lesson, claim, verdict and counts', () => {
    const r = results.outbox;
    const md = renderMarkdownFile(r);
    expect(md.startsWith(`# ${r.title}\n`)).toBe(true);
    expect(md).toContain(r.source);
    expect(md).toContain(r.lesson);
    for (const c of r.claims) expect(md).toContain(claimSentence(c));
    expect(md).toContain('**Verdict:** holds · **expected:** holds · **as expected**');
    expect(md).toMatch(/\*\*Covers:\*\* holds for every single fault: \d+ faults at \d+ windows and \d+ message points \(crash, lose, duplicate, delay, reorder, every occurrence the runs reached: \d+, at most \d+ at one place\), \d+ runs, one interleaving per plan \(simulation seed 1\)/);
    expect(md).toContain('- at most one committed outcome per key: holds');
    expect(md).toContain(`| ${r.coverage.windows + r.coverage.points} | ${r.coverage.runs} | ${r.distinctOutcomes.join(', ')} |`);
    expect(md.endsWith('\n')).toBe(true);
  });

  it('has one table row per window row, with the same outcome', () => {
    for (const r of results.all) {
      const md = renderMarkdownFile(r);
      const rowLines = md.split('\n').filter((l) => /^\| `/.test(l));
      expect(rowLines).toHaveLength(r.rows.length);
      for (const row of r.rows) {
        const cells = tableRow(md, placeOf(row), row.fault);
        expect(cells, `${placeOf(row)} ${row.fault}`).toBeDefined();
        expect(cells).toHaveLength(8);
        expect(cells![2]).toContain(outcomeLabel(row));
      }
    }
  });

  it('lists the eight outbox drill windows with evidence, retry owner, duplicate possibility and repair query', () => {
    const r = results.outbox;
    const md = renderMarkdownFile(r);
    for (const window of DRILL_WINDOWS) {
      const row = r.rows.find((w) => placeOf(w) === window && w.fault === 'crash') as WindowRow;
      expect(row, window).toBeDefined();
      const cells = tableRow(md, window, 'crash')!;
      expect(cells, window).toBeDefined();
      expect(cells[2]).toBe('holds');
      expect(cells[3]).toBe(evidenceText(row.evidence));
      expect(cells[3]!.length).toBeGreaterThan(0);
      expect(cells[4]).toBe(retryOwnerText(row, componentNames(r)));
      expect(cells[5]).toBe(row.repeatSeen ? 'yes' : 'no');
      expect(cells[6]).toBe(row.guards.length > 0 ? row.guards.join(', ') : 'none');
      // Every drill window held, so each gets the check for what it could do, from the claim's tables.
      expect(repairQueryText(row)).toMatch(/^check: SELECT /);
      expect(cells[7]).toBe(`\`${repairQueryText(row)}\``);
    }
    // The repeats the outbox design allows are suppressed by the inbox, and the report says so.
    expect(tableRow(md, 'relay.afterBrokerAccept', 'crash')![5]).toBe('yes');
    expect(tableRow(md, 'relay.afterBrokerAccept', 'crash')![6]).toBe('inboxKey');
    expect(md).toContain('None: no run violated a claim.');
  });

  it('says "not reached" for a window the workload never entered', () => {
    const r = results.outbox;
    const unreached = r.rows.find((w) => w.struck === 0)!;
    expect(unreached).toBeDefined();
    expect(tableRow(renderMarkdownFile(r), placeOf(unreached), unreached.fault)![2]).toBe('not reached');
  });

  it('draws the dual-write counterexample as a sequence diagram with a crash and a replay line', () => {
    const r = results.dualWrite;
    const md = renderMarkdownFile(r);
    expect(md).toContain('**Verdict:** violated · **expected:** violated (lost effect) · **as expected**');
    expect(r.counterexamples.length).toBeGreaterThan(0);
    const ce = r.counterexamples[0]!;
    expect(md).toContain('```mermaid\nsequenceDiagram\n');
    expect(md).toMatch(/Note over source: CRASH at source\.[A-Za-z]+/);
    expect(md).toContain(`\`\`\`sh\n${replayLine(ce.replay)}\n\`\`\``);
    expect(md).toContain(ce.traceHash);
    // The diagram leaves out bookkeeping: no state or timer steps.
    const mermaid = md.slice(md.indexOf('```mermaid'), md.indexOf('```', md.indexOf('```mermaid') + 3));
    expect(mermaid).toMatch(/client->>source: cmd/);
    expect(mermaid).not.toContain('sys.peerCrashed');
    // Expected violations are marked as such, not as surprises.
    expect(md).toContain('lost effect (expected)');
    expect(md).not.toContain('(unexpected)');
  });

  it('escapes pipes in repair queries and marks an unexpected outcome', () => {
    const base = brokenHolds(results.outbox);
    const rows = base.rows.map((w) => (placeOf(w) === 'relay.afterBrokerAccept' && w.fault === 'crash' ? { ...w, repair: { role: 'repair' as const, sql: "SELECT a || b FROM t WHERE c = '`x`'", keys: [] } } : w));
    const md = renderMarkdownFile({ ...base, rows });
    const cells = tableRow(md, 'relay.afterBrokerAccept', 'crash')!;
    expect(cells).toHaveLength(8);
    expect(cells[2]).toBe('**duplicate effect (unexpected)**');
    expect(cells[7]).toBe("``SELECT a \\|\\| b FROM t WHERE c = '`x`'``");
    expect(md).toContain('**NOT as expected**');
    expect(md).toContain('unexpected violations: duplicate effect');
  });
});

describe('renderMarkdown', () => {
  it('puts every scenario in one document under a summary table', () => {
    const md = renderMarkdown(results.all);
    expect(md.startsWith('# faultline failure-window report\n')).toBe(true);
    expect(md).toContain('2 scenarios, 2 as expected.');
    for (const r of results.all) {
      expect(md).toContain(`\n## ${r.title}\n`);
      expect(md).toContain(`| \`${r.name}\` | ${r.coverage.windows + r.coverage.points} | ${r.coverage.runs} | ${r.judgement.verdict} |`);
    }
    expect(md).toContain('\n### Crash at each failure window\n');
  });

  it('indexes the per-scenario files and the other forms', () => {
    const md = renderMarkdownIndex(results.all);
    for (const r of results.all) expect(md).toContain(`[${r.name}](${r.name}.md)`);
    for (const f of ['report.html', 'report.json', 'junit.xml']) expect(md).toContain(`(${f})`);
  });
});

// The Markdown report: a page that opens with its answer (verdict, worst window, first
// counterexample and its replay line, coverage), every fault that broke a claim as a table row
// and every other one by place, the drill windows of the outbox seed with who took the work up
// and which guard stopped the repeat, and the dual-write counterexample drawn around its key.
import { beforeAll, describe, expect, it } from 'vitest';
import { renderMarkdown, renderMarkdownFile, renderMarkdownIndex } from '../../src/report/markdown.ts';
import { replayLine } from '../../src/modes/replayLine.ts';
import { claimSentence } from '../../src/report/claimSentence.ts';
import { outcomeLabel } from '../../src/report/windowCells.ts';
import { DRILL_WINDOWS, brokenHolds, loadResults, placeOf, type Results } from './results.ts';
import { loadScenario } from '../../src/scenario/catalogue.ts';
import { runWindows } from '../../src/modes/windows.ts';

let results: Results;
beforeAll(() => {
  results = loadResults();
});

/** The table cells of the row for a window and fault, split on unescaped pipes. */
function tableRow(md: string, window: string, fault: string): string[] | undefined {
  const line = md.split('\n').find((l) => l.startsWith(`| \`${window.replace(/\|/g, '\\|')}\` | ${fault} |`));
  return line?.slice(2, -2).split(/(?<!\\) \| /);
}

/** The places a page lists in a sentence or a list item, each with its faults: `` `a->b:x` (lose, delay) ``. */
function listed(md: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const line of md.split('\n').filter((l) => !l.startsWith('|'))) {
    for (const m of line.matchAll(/`([^`]+)` \(([a-z, ]+(?: [A-Za-z]+)?)\)/g)) out.set(m[1]!, [...(out.get(m[1]!) ?? []), ...m[2]!.split(', ')]);
  }
  return out;
}

describe('renderMarkdownFile', () => {
  it('opens with the answer: the verdict, the worst window, what was covered', () => {
    const r = results.outbox;
    const md = renderMarkdownFile(r);
    expect(md.startsWith(`# ${r.title}\n\n**Verdict: holds** · expected holds · **as expected**\n\n- **Worst window:** none: no fault of the ${r.rows.length} tried broke a claim.\n`)).toBe(true);
    expect(md).toMatch(/- \*\*Covered:\*\* holds for every single fault: \d+ faults at \d+ windows and \d+ message points \(crash, lose, duplicate, delay, reorder, every occurrence the runs reached: \d+, at most \d+ at one place\), \d+ runs, one interleaving per plan \(simulation seed 1\)/);
    // The answer comes before the scenario's description.
    expect(md.indexOf('**Covered:**')).toBeLessThan(md.indexOf(r.source));
  });

  it('says, where no single fault broke a claim but pairs did, that the pairs did', () => {
    const r = results.outbox;
    const pairs = { pairs: 40, broke: 3, fresh: [], known: [] };
    const md = renderMarkdownFile({ ...r, pairs });
    expect(md).toContain(`- **Worst window:** none alone: no single fault of the ${r.rows.length} tried broke a claim, but 3 of 40 pairs of faults did (below).\n`);
    // A pairs sweep whose pairs broke nothing reads as a single-fault one.
    expect(renderMarkdownFile({ ...r, pairs: { ...pairs, broke: 0 } })).toContain(`- **Worst window:** none: no fault of the ${r.rows.length} tried broke a claim.\n`);
  });

  it('prints the seed passage, lesson, claim, clauses and counts', () => {
    const r = results.outbox;
    const md = renderMarkdownFile(r);
    expect(md).toContain(r.source);
    expect(md).toContain(r.lesson);
    for (const c of r.claims) expect(md).toContain(claimSentence(c));
    expect(md).toContain('- at most one committed outcome per key: holds');
    expect(md).toContain(`| ${r.coverage.windows + r.coverage.points} | ${r.coverage.runs} | ${r.distinctOutcomes.join(', ')} |`);
    expect(md.endsWith('\n')).toBe(true);
  });

  it('accounts for every row once: a table row for each fault that broke a claim, the rest by place', () => {
    for (const r of results.all) {
      const md = renderMarkdownFile(r);
      const broke = r.rows.filter((w) => w.outcome !== 'holds');
      expect(md.split('\n').filter((l) => /^\| `/.test(l))).toHaveLength(broke.length);
      for (const row of broke) {
        const cells = tableRow(md, placeOf(row), row.fault);
        expect(cells, `${placeOf(row)} ${row.fault}`).toHaveLength(8);
        expect(cells![2]).toContain(outcomeLabel(row));
      }
      const held = r.rows.filter((w) => w.outcome === 'holds');
      const places = listed(md);
      for (const row of held) expect(places.get(placeOf(row)), `${placeOf(row)} ${row.fault}`).toContain(row.fault);
      expect([...places.values()].flat()).toHaveLength(held.length);
    }
  });

  it('says who took up the work at each outbox drill window, and which guard stopped the repeat', () => {
    const md = renderMarkdownFile(results.outbox);
    const group = (words: string) => md.split('\n').find((l) => l.startsWith(`- **${words}:**`)) ?? '';
    for (const window of DRILL_WINDOWS) expect(md, window).toContain(`\`${window}\` (crash)`);
    expect(group('relay sent the work again; the inbox key stopped the repeat')).toContain('`relay.afterBrokerAccept` (crash)');
    expect(group('broker sent the work again; the inbox key stopped the repeat')).toContain('`consumer.afterEffectCommit` (crash)');
    // Each group names the check that finds the damage its faults could do, listed once below.
    expect(group('relay sent the work again; the inbox key stopped the repeat')).toMatch(/\(check with Q\d\)$/);
    expect(md).toMatch(/- \*\*Q1:\*\* `SELECT /);
    expect(md).toContain('None: no run violated a claim.');
  });

  it('lists the faults that never struck', () => {
    const r = results.outbox;
    const unreached = r.rows.find((w) => w.struck === 0)!;
    expect(unreached).toBeDefined();
    const md = renderMarkdownFile(r);
    const line = md.split('\n').find((l) => l.startsWith('This workload never reached these places'))!;
    expect(line).toContain(`\`${placeOf(unreached)}\` (${unreached.fault}`);
  });

  it('names no worst window where the run with no fault already breaks a claim, since every fault then "breaks" it', async () => {
    const { scenario } = await loadScenario('dedup-horizon-7d-vs-30d');
    const r = runWindows(scenario);
    expect(r.counterexamples.some((ce) => ce.plan.length === 0)).toBe(true);
    expect(renderMarkdownFile(r)).toMatch(/- \*\*Worst window:\*\* none needed: the run with no fault gives duplicate effect \(expected\); \d+ of \d+ faults broke a claim\./);
  });

  it('opens the dual write with its worst window and first counterexample, and draws it around its key', () => {
    const r = results.dualWrite;
    const md = renderMarkdownFile(r);
    const ce = r.counterexamples[0]!;
    expect(md).toContain('**Verdict: violated** · expected violated (lost effect) · **as expected**');
    expect(md).toMatch(/- \*\*Worst window:\*\* source\.committing crash: lost effect \(expected\); \d+ of \d+ faults broke a claim\./);
    expect(md).toContain(`- **First counterexample** ([1](#1-lost-effect)): lost effect under crash-and-restart at source.committing: committed fact o-1|1 has no inventory reservation\n\n\`\`\`sh\n${replayLine(ce.replay)}\n\`\`\``);
    expect(md.indexOf('**First counterexample**')).toBeLessThan(md.indexOf('**Claim:**'));
    expect(md).toContain('```mermaid\nsequenceDiagram\n');
    expect(md).toMatch(/Note over source: CRASH at source\.[A-Za-z]+/);
    expect(md).toContain('Note over inventoryDb: MISSING: no inventory reservation for o-1|1');
    expect(md).toContain(ce.traceHash);
    expect(md).toMatch(/Drawn around o-1\|1: client, source, ordersDb and inventoryDb touched it; \d+ other steps are folded/);
    const mermaid = md.slice(md.indexOf('```mermaid'), md.indexOf('```', md.indexOf('```mermaid') + 3));
    expect(mermaid).toMatch(/client->>source: cmd/);
    expect(mermaid).not.toContain('sys.peerCrashed');
    expect(mermaid).not.toContain('omitted');
    // Expected violations are marked as such, not as surprises; each row names its query by number.
    expect(tableRow(md, 'source.committing', 'crash')![2]).toBe('lost effect (expected)');
    expect(tableRow(md, 'source.committing', 'crash')![7]).toBe('Q1 -- finds o-1\\|1');
    expect(md).not.toContain('(unexpected)');
  });

  it('numbers a repair query once, and marks an unexpected outcome', () => {
    const base = brokenHolds(results.outbox);
    const rows = base.rows.map((w) => (placeOf(w) === 'relay.afterBrokerAccept' && w.fault === 'crash' ? { ...w, repair: { role: 'repair' as const, sql: "SELECT a || b FROM t WHERE c = '`x`'", keys: [] } } : w));
    const md = renderMarkdownFile({ ...base, rows });
    const cells = tableRow(md, 'relay.afterBrokerAccept', 'crash')!;
    expect(cells).toHaveLength(8);
    expect(cells[2]).toBe('**duplicate effect (unexpected)**');
    expect(cells[7]).toBe('Q1');
    expect(md).toContain("- **Q1:** ``SELECT a || b FROM t WHERE c = '`x`'``");
    expect(md).toContain('**NOT as expected**');
    expect(md).toContain('unexpected violations: duplicate effect');
    expect(md).toContain('- **Worst window:** relay.afterBrokerAccept crash: duplicate effect (unexpected); 1 of');
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
    expect(md).toContain('\n### Faults that broke a claim\n');
  });

  it('indexes the per-scenario files and the other forms', () => {
    const md = renderMarkdownIndex(results.all);
    for (const r of results.all) expect(md).toContain(`[${r.name}](${r.name}.md)`);
    for (const f of ['report.html', 'report.json', 'junit.xml']) expect(md).toContain(`(${f})`);
  });
});

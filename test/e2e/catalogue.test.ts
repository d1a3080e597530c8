// The whole catalogue in windows mode: every scenario's verdict must match what the seeds
// predict, every expected violation must still be found, every state of every process
// machine must be entered by some run (path coverage from the machine definitions, reported),
// and every row's cells must be read off its run: no design's declared note may contradict the
// retry owner the run shows, and no violated row may go without the query that finds its damage,
// on any row of any scenario.
import { timeScaleOf } from '../../src/scenario.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnyStateMachine } from 'xstate';
import { loadCatalogue, type CatalogueEntry } from '../../src/catalogue.ts';
import { restingStates } from '../../src/failureWindows.ts';
import { replayLine } from '../../src/replayLine.ts';
import { expectedText } from '../../src/report/verdictSummary.ts';
import { componentNames, contradicts, observedOwner, repairIsSql, repairQueryText, windowCells } from '../../src/report/windowCells.ts';
import { VIOLATIONS } from '../../src/checkers/finding.ts';
import { formatPlace } from '../../src/place.ts';
import { runWindows, type WindowsResult } from '../../src/windows.ts';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..', '..');
let entries: CatalogueEntry[] = [];
const results = new Map<string, WindowsResult>();

// The whole catalogue's single-fault sweep runs here once for every test below; on a busy
// two-core machine that takes minutes, more than the suite's default hook limit.
beforeAll(async () => {
  entries = await loadCatalogue();
  for (const { scenario } of entries) results.set(scenario.name, runWindows(scenario));
}, 600_000);

describe('the scenario catalogue', () => {
  it('has the designs of the seeds', () => {
    expect(entries.length).toBeGreaterThanOrEqual(5);
  });

  it('gives every scenario its expected verdict and finds every expected violation', () => {
    const wrong = [...results.values()]
      .filter((r) => !r.judgement.asExpected)
      .map(
        (r) =>
          `${r.name}: expected ${expectedText(r.judgement.expected)}, got ${r.judgement.verdict}; missing [${r.judgement.missing.join(', ')}], unexpected [${r.judgement.unexpected.join(', ')}]` +
          r.counterexamples.filter((c) => r.judgement.unexpected.includes(c.violation)).map((c) => `\n  replay: ${replayLine(c.replay)}`).join(''),
      );
    expect(wrong).toEqual([]);
  });

  it('opens every scenario file with a comment naming the seed passage it models', () => {
    for (const { file } of entries) {
      const text = readFileSync(join(root, file), 'utf8');
      expect(text.startsWith('//'), file).toBe(true);
      expect(text.split('\n')[0], file).toMatch(/[Ss]eed|00[0-4]/);
    }
  });

  it('enters every resting state of every process machine in some run', () => {
    const machines = new Map<AnyStateMachine, { id: string; reached: Set<string> }>();
    for (const { scenario } of entries) {
      const result = results.get(scenario.name)!;
      const reached = new Set(result.failureWindows.filter((w) => !result.unreachedWindows.includes(w)));
      for (const c of scenario.build(scenario.workload, timeScaleOf(scenario))) {
        if (!c.process) continue;
        const entry = machines.get(c.machine) ?? { id: c.machine.id, reached: new Set<string>() };
        for (const s of restingStates(c.machine)) if (reached.has(`${c.name}.${s}`)) entry.reached.add(s);
        machines.set(c.machine, entry);
      }
    }
    const report: string[] = [];
    const missing: string[] = [];
    for (const [machine, { id, reached }] of machines) {
      const all = restingStates(machine);
      report.push(`${id}: ${reached.size}/${all.length} states entered`);
      for (const s of all) if (!reached.has(s)) missing.push(`${id}.${s}`);
    }
    console.log(`state coverage from the machine graphs:\n  ${report.join('\n  ')}`);
    expect(missing).toEqual([]);
  });
});

describe('the failure-window rows of the catalogue', () => {
  it('show no declared note that contradicts the retry owner its run shows', () => {
    const contradictions: string[] = [];
    let checked = 0;
    for (const result of results.values()) {
      const names = componentNames(result);
      for (const row of result.rows) {
        if (row.note === undefined || row.struck === 0) continue;
        checked++;
        if (contradicts(row, names)) contradictions.push(`${result.name} ${formatPlace(row.place)} ${row.fault}: the note says "${row.note.retryOwner}", the run shows ${JSON.stringify(row.retry)}`);
      }
    }
    expect(contradictions).toEqual([]);
    // The rows with a note that struck: a catalogue that lost its notes would check nothing.
    expect(checked).toBeGreaterThan(500);
  });

  it('give every row whose run violated a claim a repair query: none is left empty', () => {
    const empty: string[] = [];
    let violating = 0;
    for (const result of results.values()) {
      for (const row of result.rows) {
        if (!(VIOLATIONS as readonly string[]).includes(row.outcome)) continue;
        violating++;
        const text = repairQueryText(row);
        // Every claim of the catalogue declares its tables, so only a run that never went quiet may go without SQL.
        if (text === '' || (!repairIsSql(row) && row.outcome !== 'stuck')) empty.push(`${result.name} ${formatPlace(row.place)} ${row.fault} (${row.outcome}): ${text || 'empty'}`);
      }
    }
    expect(empty, empty.join('\n')).toEqual([]);
    expect(violating).toBeGreaterThan(1000);
  });

  it('read every cell off the row’s run', () => {
    for (const result of results.values()) {
      const names = componentNames(result);
      for (const row of result.rows) {
        const cells = windowCells(row, names);
        expect(cells.evidence, result.name).not.toMatch(/^\s*[·;,]/);
        if (row.struck === 0) continue;
        const owner = observedOwner(row);
        expect(cells.retryOwner.startsWith(owner === 'nobody' ? (row.retry?.kind === 'nobody' ? 'nobody' : 'none needed') : `${owner}:`), `${result.name} ${formatPlace(row.place)}`).toBe(true);
        if (row.outcome === 'lost effect' && row.retry?.kind !== 'resent') expect(cells.retryOwner).toMatch(/^nobody/);
        if (row.retry?.kind === 'resent') expect(names).toContain(row.retry.component);
      }
    }
  });
});

afterAll(() => {
  const runs = [...results.values()].reduce((n, r) => n + r.coverage.runs, 0);
  console.log(`catalogue: ${results.size} scenarios, ${runs} runs`);
});

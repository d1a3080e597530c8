// The whole catalogue in windows mode: every scenario's verdict must match what the seeds
// predict, every expected violation must still be found, every state of every process
// machine must be entered by some run (path coverage from the machine definitions, reported),
// and every row's cells must be read off its run: no design's declared note may contradict the
// retry owner the run shows, and no violated row may go without the query that finds its damage,
// on any row of any scenario.
//
// Each scenario's sweep runs inside the one test that judges it, and that test makes every
// assertion about the scenario's own result (vitest.mutants.config.ts says why). The quick suite
// (`npm test`) judges a sample of the scenarios; the catalogue suite (`npm run test:catalogue`)
// judges every one of them, and the catalogue as a whole (test/support/suite.ts).
import { timeScaleOf } from '../../src/scenario/scenario.ts';
import { afterAll, describe, expect, it } from 'vitest';
import type { AnyStateMachine } from 'xstate';
import { loadCatalogue } from '../../src/scenario/catalogue.ts';
import { restingStates, ruledOutWindows } from '../../src/run/failureWindows.ts';
import { replayLine } from '../../src/modes/replayLine.ts';
import { expectedText } from '../../src/report/verdictSummary.ts';
import { componentNames, contradicts, observedOwner, repairIsSql, repairQueryText, windowCells } from '../../src/report/windowCells.ts';
import { VIOLATIONS } from '../../src/checkers/finding.ts';
import { formatPlace } from '../../src/faults/place.ts';
import { runWindows } from '../../src/modes/windows.ts';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { full, SAMPLE_SCENARIOS, sampled } from '../support/suite.ts';
import { asJsonScenario, readGolden, scenarioDifferences } from '../golden/catalogueGolden.ts';

const root = join(import.meta.dirname, '..', '..');
// Loading imports the scenario modules and runs none of them.
const entries = await loadCatalogue();
const judged = sampled(entries, (e) => SAMPLE_SCENARIOS.includes(e.scenario.name));

/**
 * What one scenario's test measured that only the whole catalogue can be judged on: the states
 * each process machine entered, how many rows with a note struck, how many rows violated a claim.
 * The tests that judge the totals read these, and judge only once every scenario's test has added
 * its own (a filtered run that skipped some scenarios cannot judge the catalogue). They run none of
 * the mutated code themselves, so a mutation run starts them only when it runs the whole suite: a
 * planted bug that changed these totals and nothing any scenario's test asserts would survive it.
 */
interface Tally {
  readonly runs: number;
  readonly notesChecked: number;
  readonly violatingRows: number;
  readonly machines: readonly { readonly machine: AnyStateMachine; readonly id: string; readonly reached: readonly string[] }[];
}
const tallies = new Map<string, Tally>();

function everyScenarioRan(skip: (condition: boolean, note?: string) => void): Tally[] {
  skip(tallies.size < entries.length, `only ${tallies.size} of the ${entries.length} scenarios ran`);
  return entries.map(({ scenario }) => tallies.get(scenario.name)!);
}

describe('the scenario catalogue', () => {
  it('has the designs of the seeds', () => {
    expect(entries.length).toBeGreaterThanOrEqual(5);
  });

  it('is kept row by row in test/golden/catalogue-windows.txt, every scenario and no other', () => {
    expect([...readGolden('windows').keys()].sort()).toEqual(entries.map((e) => e.scenario.name).sort());
  });

  it('holds every scenario the quick suite samples', () => {
    const names = entries.map((e) => e.scenario.name);
    expect(SAMPLE_SCENARIOS.filter((n) => !names.includes(n))).toEqual([]);
  });

  it('opens every scenario file with a comment naming the seed passage it models', () => {
    for (const { file } of entries) {
      const text = readFileSync(join(root, file), 'utf8');
      expect(text.startsWith('//'), file).toBe(true);
      expect(text.split('\n')[0], file).toMatch(/[Ss]eed|00[0-4]/);
    }
  });
});

describe('each scenario of the catalogue', () => {
  it.each(judged.map((e) => [e.scenario.name, e] as const))(
    '%s: gets its expected verdict, and every row agrees with its run (cells, note, repair query)',
    (_name, { scenario }) => {
      const r = runWindows(scenario);
      const names = componentNames(r);

      // Its share of what the catalogue is judged on as a whole, kept before any assertion below
      // can stop the test.
      const reached = new Set(r.failureWindows.filter((w) => !r.unreachedWindows.includes(w)));
      const machines: Tally['machines'][number][] = [];
      const components = scenario.build(scenario.workload, timeScaleOf(scenario));
      for (const c of components) {
        if (!c.process) continue;
        machines.push({ machine: c.machine, id: c.machine.id, reached: restingStates(c.machine).filter((s) => reached.has(`${c.name}.${s}`)) });
      }
      const noted = r.rows.filter((row) => row.note !== undefined && row.struck !== 0);
      const violating = r.rows.filter((row) => (VIOLATIONS as readonly string[]).includes(row.outcome));
      tallies.set(scenario.name, { runs: r.coverage.runs, notesChecked: noted.length, violatingRows: violating.length, machines });

      // A window the design's options rule out is one no run of the sweep enters: the machines'
      // definitions and their runs agree (src/run/failureWindows.ts, ruledOutWindows).
      expect([...ruledOutWindows(components)].filter((w) => reached.has(w))).toEqual([]);

      // Its verdict is the one the seeds predict, and every expected violation is found.
      const wrong = r.judgement.asExpected
        ? []
        : [
            `${r.name}: expected ${expectedText(r.judgement.expected)}, got ${r.judgement.verdict}; missing [${r.judgement.missing.join(', ')}], unexpected [${r.judgement.unexpected.join(', ')}]` +
              r.counterexamples.filter((c) => r.judgement.unexpected.includes(c.violation)).map((c) => `\n  replay: ${replayLine(c.replay)}`).join(''),
          ];
      expect(wrong).toEqual([]);

      // Every row's outcome, tally and worst plan are the ones test/golden/catalogue-windows.txt
      // keeps: a change that moves a row, with or without the verdict, is seen here.
      const differences = scenarioDifferences(asJsonScenario(r), 'windows');
      expect(differences, differences.join('\n')).toEqual([]);

      // No declared note contradicts the retry owner its run shows. (A note's claim that a guard
      // suppresses the repeat is held to the row's outcome, and left out of a row whose run
      // committed the repeat: a design's inbox that lapses or lives in memory does not.)
      const contradictions = noted
        .filter((row) => contradicts({ retry: row.retry, note: row.note, place: row.place }, names))
        .map((row) => `${r.name} ${formatPlace(row.place)} ${row.fault}: the note says "${row.note!.retryOwner}", the run shows ${JSON.stringify(row.retry)}`);
      expect(contradictions).toEqual([]);

      // Every row whose run violated a claim has a repair query: every claim of the catalogue
      // declares its tables, so only a run that never went quiet may go without SQL.
      const empty: string[] = [];
      for (const row of violating) {
        const text = repairQueryText(row);
        if (text === '' || (!repairIsSql(row) && row.outcome !== 'stuck')) empty.push(`${r.name} ${formatPlace(row.place)} ${row.fault} (${row.outcome}): ${text || 'empty'}`);
      }
      expect(empty, empty.join('\n')).toEqual([]);

      // Every cell is read off the row's run.
      for (const row of r.rows) {
        const cells = windowCells(row, names);
        expect(cells.evidence, r.name).not.toMatch(/^\s*[·;,]/);
        if (row.struck === 0) continue;
        const owner = observedOwner(row);
        expect(cells.retryOwner.startsWith(owner === 'nobody' ? (row.retry?.kind === 'nobody' ? 'nobody' : 'none needed') : `${owner}:`), `${r.name} ${formatPlace(row.place)}`).toBe(true);
        if (row.outcome === 'lost effect' && row.retry?.kind !== 'resent') expect(cells.retryOwner).toMatch(/^nobody/);
        if (row.retry?.kind === 'resent') expect(names).toContain(row.retry.component);
      }
    },
  );
});

describe.runIf(full)('the catalogue as a whole', () => {
  it('enters every resting state of every process machine in some run', ({ skip }) => {
    const machines = new Map<AnyStateMachine, { id: string; reached: Set<string> }>();
    for (const tally of everyScenarioRan(skip)) {
      for (const { machine, id, reached } of tally.machines) {
        const entry = machines.get(machine) ?? { id, reached: new Set<string>() };
        for (const s of reached) entry.reached.add(s);
        machines.set(machine, entry);
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

  it('checks the notes of its rows that struck: a catalogue that lost its notes would check nothing', ({ skip }) => {
    const checked = everyScenarioRan(skip).reduce((n, t) => n + t.notesChecked, 0);
    expect(checked).toBeGreaterThan(500);
  });

  it('holds the rows whose run violated a claim to their repair query: more than a thousand of them', ({ skip }) => {
    const violating = everyScenarioRan(skip).reduce((n, t) => n + t.violatingRows, 0);
    expect(violating).toBeGreaterThan(1000);
  });
});

afterAll(() => {
  const runs = [...tallies.values()].reduce((n, t) => n + t.runs, 0);
  console.log(`catalogue: ${tallies.size} scenarios, ${runs} runs`);
});

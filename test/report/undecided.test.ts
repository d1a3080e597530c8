// A clause whose checker throws is undecided: the run is unknown, never a pass. The whole way
// from a windows sweep to each report form must keep it so: the row says unknown with the clause
// and the reason, JUnit skips it with that reason rather than passing it, the JSON carries the
// reason, and the verdict is not "holds".
import { describe, expect, it } from 'vitest';
import { renderJson } from '../../src/report/json.ts';
import { renderJunit } from '../../src/report/junit.ts';
import { renderMarkdownFile } from '../../src/report/markdown.ts';
import type { Scenario } from '../../src/scenario/scenario.ts';
import { runWindows } from '../../src/modes/windows.ts';
import outbox from '../../scenarios/mercury-outbox.ts';

// The outbox design, with a versions clause whose observer fails on every run.
const undecided: Scenario = {
  ...outbox,
  name: 'outbox-undecided',
  claims: [
    {
      ...outbox.claims[0]!,
      versions: () => {
        throw new Error('no table projections');
      },
    },
  ],
  windows: { maxOccurrence: 1, kinds: ['crash'] },
};

// Each test sweeps the scenario itself (vitest.mutants.config.ts says why).
describe('an undecided clause in every report form', () => {
  it('makes every run unknown and the verdict unknown, never holds, and not as expected', () => {
    const result = runWindows(undecided);
    expect(result.distinctOutcomes).toEqual(['unknown']);
    expect(result.judgement).toMatchObject({ verdict: 'unknown', asExpected: false });
    const versions = result.coverage.clauses.find((k) => k.clause === 'versions');
    expect(versions).toMatchObject({ status: 'unknown', exercised: 0, reason: 'no table projections' });
    const row = result.rows[0]!;
    expect(row.outcome).toBe('unknown');
    expect(row.undecided).toEqual([{ effect: 'inventory reservation', clause: 'versions', reason: 'no table projections' }]);
  });

  it('is skipped in JUnit with its reason, and fails the verdict testcase', () => {
    const result = runWindows(undecided);
    const xml = renderJunit([result]);
    expect(xml).toContain('unknown: the checkers could not decide this run (inventory reservation: versions: no table projections)');
    expect(xml).toMatch(/<testcase name="verdict"[^>]*>\s*<failure message="outbox-undecided is NOT as expected: the verdict is unknown but holds was expected; undecided: /);
  });

  it('carries the reason in the JSON rows and words it in the Markdown', () => {
    const result = runWindows(undecided);
    const doc = JSON.parse(renderJson([result])) as { scenarios: { verdict: string; windows: { outcome: string; undecided?: unknown[] }[] }[] };
    expect(doc.scenarios[0]!.verdict).toBe('unknown');
    expect(doc.scenarios[0]!.windows.every((w) => w.outcome === 'unknown')).toBe(true);
    expect(doc.scenarios[0]!.windows[0]!.undecided).toEqual([{ effect: 'inventory reservation', clause: 'versions', reason: 'no table projections' }]);
    const md = renderMarkdownFile(result);
    expect(md).toContain('versions never move backwards: unknown: no table projections');
    expect(md).toContain('NOT as expected');
  });
});

// The `windows --json` document: the documented keys, every row and outcome the engine produced,
// counterexamples that carry their replay line, and a stable byte form.
import { beforeAll, describe, expect, it } from 'vitest';
import { replayLine } from '../../src/modes/replayLine.ts';
import { claimSentence } from '../../src/report/claimSentence.ts';
import { renderJson } from '../../src/report/json.ts';
import { componentNames, evidenceText, repairQueryText, retryOwnerText } from '../../src/report/windowCells.ts';
import { loadResults, placeOf, type Results } from './results.ts';

let results: Results;
let text: string;
beforeAll(() => {
  results = loadResults();
  text = renderJson(results.all);
});

describe('renderJson', () => {
  it('ends in a newline and parses back', () => {
    expect(text.endsWith('}\n')).toBe(true);
    expect(() => JSON.parse(text)).not.toThrow();
  });

  it('keeps the documented keys in a stable order', () => {
    const doc = JSON.parse(text);
    expect(Object.keys(doc)).toEqual(['schema', 'scenarios']);
    expect(doc.schema).toBe('faultline/windows@1');
    const s = doc.scenarios[0];
    expect(Object.keys(s).slice(0, 11)).toEqual(['name', 'expect', 'verdict', 'asExpected', 'claims', 'windowCount', 'runs', 'distinctOutcomes', 'windows', 'counterexamples', 'title']);
    expect(Object.keys(s.windows[0]).slice(0, 10)).toEqual(['window', 'fault', 'outcome', 'evidence', 'retryOwner', 'retry', 'duplicateGuard', 'duplicatePossible', 'repairQuery', 'reached']);
    const ce = doc.scenarios[1].counterexamples[0];
    expect(Object.keys(ce).slice(0, 6)).toEqual(['violation', 'seed', 'plan', 'replay', 'traceHash', 'findings']);
  });

  it('has the same scenarios, windows and outcomes as the results', () => {
    const doc = JSON.parse(text);
    expect(doc.scenarios.map((s: { name: string }) => s.name)).toEqual(results.all.map((r) => r.name));
    for (const [i, r] of results.all.entries()) {
      const s = doc.scenarios[i];
      expect(s).toMatchObject({
        expect: r.judgement.expected.verdict,
        verdict: r.judgement.verdict,
        asExpected: r.judgement.asExpected,
        claims: r.claims.map(claimSentence),
        windowCount: r.coverage.windows + r.coverage.points,
        runs: r.coverage.runs,
      });
      expect(s.coverage.covers).toMatch(/^(holds for|violated, in runs of) every single fault/);
      expect(s.coverage.clauses.map((c: { clause: string }) => c.clause)).toEqual(r.coverage.clauses.map((c) => c.clause));
      expect(s.windows).toHaveLength(r.rows.length);
      for (const [j, w] of r.rows.entries()) {
        expect(s.windows[j]).toMatchObject({
          window: placeOf(w),
          fault: w.fault,
          outcome: w.outcome,
          evidence: evidenceText(w.evidence),
          retryOwner: retryOwnerText(w, componentNames(r)),
          retry: w.retry === undefined ? null : w.retry,
          duplicateGuard: w.guards,
          duplicatePossible: w.repeatSeen,
          duplicated: w.duplicated,
          repairQuery: repairQueryText(w),
          reached: w.struck > 0,
          runs: w.runs,
          place: w.place,
        });
      }
      expect(s.counterexamples.map((c: { violation: string; replay: string; traceHash: string }) => [c.violation, c.replay, c.traceHash])).toEqual(
        r.counterexamples.map((c) => [c.violation, replayLine(c.replay), c.traceHash]),
      );
    }
    expect(doc.scenarios[1].counterexamples[0].plan).toEqual(results.dualWrite.counterexamples[0]!.plan);
  });

  it('gives each finding its key as data next to its sentence', () => {
    const doc = JSON.parse(text);
    const f = doc.scenarios[1].counterexamples[0].findings[0];
    expect(f).toMatchObject({ violation: 'lost effect', effect: 'inventory reservation' });
    expect(f.key).toMatch(/^o-\d\|1$/);
    expect(f.detail).toBe(`committed fact ${f.key} has no inventory reservation`);
  });

  it('leaves traces out and renders identically every time', () => {
    const doc = JSON.parse(text);
    expect(doc.scenarios[1].counterexamples[0].trace).toBeUndefined();
    expect(renderJson(results.all)).toBe(text);
  });
});

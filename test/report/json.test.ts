// The `windows --json` document: the documented keys, every row and outcome the engine produced,
// counterexamples that carry their replay line, and a stable byte form.
import { beforeAll, describe, expect, it } from 'vitest';
import { renderJson } from '../../src/report/json.ts';
import { loadResults, type Results } from './results.ts';

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
    expect(Object.keys(doc)).toEqual(['scenarios']);
    const s = doc.scenarios[0];
    expect(Object.keys(s).slice(0, 11)).toEqual(['name', 'expect', 'verdict', 'asExpected', 'claims', 'windowCount', 'runs', 'distinctOutcomes', 'windows', 'counterexamples', 'title']);
    expect(Object.keys(s.windows[0]).slice(0, 10)).toEqual(['window', 'fault', 'outcome', 'evidence', 'retryOwner', 'duplicateGuard', 'duplicatePossible', 'repairQuery', 'reached', 'runs']);
    const ce = doc.scenarios[1].counterexamples[0];
    expect(Object.keys(ce).slice(0, 6)).toEqual(['violation', 'seed', 'plan', 'replay', 'traceHash', 'findings']);
  });

  it('has the same scenarios, windows and outcomes as the results', () => {
    const doc = JSON.parse(text);
    expect(doc.scenarios.map((s: { name: string }) => s.name)).toEqual(results.all.map((r) => r.name));
    for (const [i, r] of results.all.entries()) {
      const s = doc.scenarios[i];
      expect(s).toMatchObject({ expect: r.expect, verdict: r.verdict, asExpected: r.asExpected, claims: r.claims, windowCount: r.windowCount, runs: r.runs });
      expect(s.windows).toHaveLength(r.windows.length);
      for (const [j, w] of r.windows.entries()) {
        expect(s.windows[j]).toMatchObject({
          window: w.window,
          fault: w.fault,
          outcome: w.outcome,
          evidence: w.evidence,
          retryOwner: w.retryOwner,
          duplicateGuard: w.duplicateGuard,
          duplicatePossible: w.duplicatePossible,
          repairQuery: w.repairQuery,
          reached: w.reached,
          runs: w.runs,
        });
      }
      expect(s.counterexamples.map((c: { violation: string; replay: string; traceHash: string }) => [c.violation, c.replay, c.traceHash])).toEqual(
        r.counterexamples.map((c) => [c.violation, c.replay, c.traceHash]),
      );
    }
    expect(doc.scenarios[1].counterexamples[0].plan).toEqual(results.dualWrite.counterexamples[0]!.plan);
  });

  it('leaves traces out and renders identically every time', () => {
    const doc = JSON.parse(text);
    expect(doc.scenarios[1].counterexamples[0].trace).toBeUndefined();
    expect(renderJson(results.all)).toBe(text);
  });
});

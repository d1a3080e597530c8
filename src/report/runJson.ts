// The `explore --json` and `replay --json` documents: `{name, verdict, seed, path, traceHash,
// plan, trace}` as the command-line contract names them, then the rest of the result (judgement,
// coverage, findings with their keys, clauses, faults that never struck), key by key.
import type { ExploreResult } from '../modes/explore.ts';
import { replayLine } from '../modes/replayLine.ts';
import type { ReplayResult } from '../modes/replay.ts';
import { claimSentence } from './claimSentence.ts';
import { coverageJson, faultJson, findingJson, planJson, schemaOf } from './json.ts';

function judgementJson(j: ExploreResult['judgement']) {
  return {
    expect: j.expected.verdict,
    expectedViolations: j.expected.verdict === 'violated' ? [...j.expected.violations] : [],
    asExpected: j.asExpected,
    found: [...j.found],
    unexpected: [...j.unexpected],
  };
}

export function exploreJson(r: ExploreResult): string {
  const ce = r.search.status === 'failed' ? r.search.counterexample : undefined;
  return JSON.stringify({
    schema: schemaOf('explore'),
    name: r.name,
    verdict: r.judgement.verdict,
    seed: r.seed,
    path: r.search.status === 'failed' ? r.search.path : null,
    traceHash: ce?.traceHash ?? null,
    plan: ce ? planJson(ce.plan) : null,
    trace: ce ? ce.trace : null,
    ...judgementJson(r.judgement),
    claims: r.claims.map(claimSentence),
    runs: r.runs,
    outcomes: { ...r.outcomes },
    counterexample: ce
      ? { seed: ce.seed, size: ce.size, latencies: [...ce.latencies], outcome: ce.outcome, findings: ce.findings.map(findingJson), replay: replayLine(ce.replay) }
      : null,
    coverage: coverageJson(r.judgement.verdict, r.coverage),
  });
}

export function replayJson(r: ReplayResult): string {
  return JSON.stringify({
    schema: schemaOf('replay'),
    name: r.name,
    verdict: r.judgement.verdict,
    seed: r.search?.seed ?? r.seed,
    path: r.search?.path ?? null,
    ...(r.choices === undefined ? {} : { choices: r.choices }),
    traceHash: r.traceHash,
    plan: planJson(r.plan),
    trace: r.trace,
    ...judgementJson(r.judgement),
    outcome: r.outcome,
    simulationSeed: r.seed,
    size: r.size,
    latencies: r.latencies === undefined ? null : [...r.latencies],
    claims: r.claims.map(claimSentence),
    findings: r.findings.map(findingJson),
    unstruck: r.unstruck.map(faultJson),
    replay: replayLine(r.replay),
    coverage: coverageJson(r.judgement.verdict, r.coverage),
  });
}

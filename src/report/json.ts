// Renders windows-mode results as the `windows --json` document tools read. Every object is
// built key by key in a fixed order (never spread from the engine's records), so the bytes do
// not change when the engine reorders or adds fields, and the documented keys stay put.
import { VIOLATIONS, type Finding, type RunOutcome } from '../checkers/finding.ts';
import { describePlan, type Fault, type FaultPlan } from '../faults.ts';
import type { Counterexample, WindowRow, WindowsResult } from '../windows.ts';

/** Outcomes worst first, the order the engine ranks them, so `outcomes` always lists keys alike. */
const OUTCOME_ORDER: readonly RunOutcome[] = [...VIOLATIONS, 'unknown', 'holds'];

function fault(f: Fault) {
  return f.kind === 'crash' ? { kind: f.kind, window: f.window, occurrence: f.occurrence } : { kind: f.kind, point: f.point, occurrence: f.occurrence };
}

function plan(p: FaultPlan) {
  return p.map(fault);
}

function finding(f: Finding) {
  return { violation: f.violation, effect: f.effect, detail: f.detail };
}

function windowRow(row: WindowRow) {
  const outcomes: Partial<Record<RunOutcome, number>> = {};
  for (const o of OUTCOME_ORDER) if (row.outcomes[o] !== undefined) outcomes[o] = row.outcomes[o];
  return {
    window: row.window,
    fault: row.fault,
    outcome: row.outcome,
    evidence: row.evidence,
    retryOwner: row.retryOwner,
    duplicateGuard: [...row.duplicateGuard],
    duplicatePossible: row.duplicatePossible,
    repairQuery: row.repairQuery,
    reached: row.reached,
    runs: row.runs,
    outcomes,
    plan: plan(row.plan),
  };
}

function counterexample(ce: Counterexample) {
  return {
    violation: ce.violation,
    seed: ce.seed,
    plan: plan(ce.plan),
    replay: ce.replay,
    traceHash: ce.traceHash,
    findings: ce.findings.map(finding),
    size: ce.size,
    description: describePlan(ce.plan),
  };
}

function scenario(r: WindowsResult) {
  return {
    name: r.name,
    expect: r.expect,
    verdict: r.verdict,
    asExpected: r.asExpected,
    claims: [...r.claims],
    windowCount: r.windowCount,
    runs: r.runs,
    distinctOutcomes: [...r.distinctOutcomes],
    windows: r.windows.map(windowRow),
    counterexamples: r.counterexamples.map(counterexample),
    title: r.title,
    source: r.source,
    lesson: r.lesson,
    seed: r.seed,
    expectedViolations: [...r.expectedViolations],
    missing: [...r.missing],
    unexpected: [...r.unexpected],
    failureWindows: [...r.failureWindows],
    unreachedWindows: [...r.unreachedWindows],
  };
}

/** The `windows --json` document, pretty-printed and ending in a newline. */
export function renderJson(results: readonly WindowsResult[]): string {
  return `${JSON.stringify({ scenarios: results.map(scenario) }, null, 2)}\n`;
}

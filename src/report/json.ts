// Renders windows-mode results as the `windows --json` document tools read. Every object is
// built key by key in a fixed order (never spread from the engine's records), so the bytes do
// not change when the engine reorders or adds fields, and the documented keys stay put. Next to
// the words (evidence, retry owner, finding details) it carries the data they were made from
// (places, keys, in-flight messages), so a tool never has to parse a sentence.
import type { Finding, RunOutcome } from '../checkers/finding.ts';
import { findingKey } from '../checkers/finding.ts';
import type { Coverage } from '../checkers/coverage.ts';
import { faultFields, type Fault, type FaultPlan } from '../faults/faults.ts';
import { formatPlace } from '../faults/place.ts';
import { replayLine } from '../modes/replayLine.ts';
import { OUTCOME_ORDER } from '../checkers/verdict.ts';
import type { Counterexample, PairsSummary, WindowRow, WindowsResult } from '../modes/windows.ts';
import { claimSentence } from './claimSentence.ts';
import { describeClause, describeCoverage } from './describeCoverage.ts';
import { describeFinding } from './describeFinding.ts';
import { describePlan } from './describePlan.ts';
import { componentNames, windowCells } from './windowCells.ts';

/** A fault as JSON: its kind, the fields its kind has in the order plans print them, its occurrence. */
export const faultJson: (f: Fault) => Record<string, unknown> = faultFields;

export function planJson(p: FaultPlan) {
  return p.map(faultJson);
}

export function findingJson(f: Finding) {
  const key = findingKey(f);
  return { violation: f.violation, effect: f.effect, detail: describeFinding(f), ...(key === undefined ? {} : { key }) };
}

export function coverageJson(verdict: Parameters<typeof describeCoverage>[0], c: Coverage) {
  return {
    covers: describeCoverage(verdict, c),
    mode: c.mode,
    faultDepth: c.faultDepth,
    kinds: [...c.kinds],
    windows: c.windows,
    points: c.points,
    ...(c.maxOccurrence === undefined ? {} : { maxOccurrence: c.maxOccurrence }),
    ...(c.occurrences === undefined ? {} : { occurrences: c.occurrences }),
    runs: c.runs,
    unstruckRuns: c.unstruckRuns,
    interleavings: { ...c.interleavings },
    ...(c.bound === undefined ? {} : { bound: { ...c.bound } }),
    ...(c.only === undefined ? {} : { only: c.only }),
    ...(c.otherSearch === undefined ? {} : { otherSearch: { ...c.otherSearch } }),
    clauses: c.clauses.map((k) => ({
      effect: k.effect,
      clause: k.clause,
      status: k.status,
      exercised: k.exercised,
      text: describeClause(k, c.interleavings.kind === 'chosen' ? 'end state' : 'run'),
      ...(k.reason === undefined ? {} : { reason: k.reason }),
      // Runs it did not judge, and why: nothing to judge, or a checker that could not decide.
      ...(k.idle === undefined ? {} : { idle: k.idle }),
      ...(k.undecided === undefined ? {} : { undecided: k.undecided }),
    })),
  };
}

function windowRow(row: WindowRow, components: readonly string[]) {
  const outcomes: Partial<Record<RunOutcome, number>> = {};
  for (const o of OUTCOME_ORDER) if (row.outcomes[o] !== undefined) outcomes[o] = row.outcomes[o];
  const c = windowCells(row, components);
  return {
    window: c.window,
    fault: row.fault,
    ...(row.restored === undefined ? {} : { restored: row.restored }),
    outcome: row.outcome,
    evidence: c.evidence,
    retryOwner: c.retryOwner,
    retry: row.retry === undefined ? null : { ...row.retry },
    duplicateGuard: [...row.guards],
    duplicatePossible: row.repeatSeen,
    repairQuery: c.repairQuery,
    reached: row.struck > 0,
    runs: row.runs,
    struck: row.struck,
    // The row's run committed a duplicate its fault caused: the guards it names fired and did not suppress it.
    duplicated: row.duplicated,
    outcomes,
    plan: planJson(row.plan),
    place: { ...row.place },
    inFlight: (row.evidence?.inFlight ?? []).map((m) => ({ from: m.from, to: m.to, type: m.event.type })),
    ...(row.undecided.length === 0 ? {} : { undecided: row.undecided.map((u) => ({ ...u })) }),
  };
}

function counterexample(ce: Counterexample) {
  return {
    violation: ce.violation,
    seed: ce.seed,
    ...(ce.replay.kind === 'choices' ? { choices: ce.replay.choices } : {}),
    plan: planJson(ce.plan),
    replay: replayLine(ce.replay),
    traceHash: ce.traceHash,
    findings: ce.findings.map(findingJson),
    size: ce.size,
    description: describePlan(ce.plan),
    // The steps at which the findings' keys went wrong, by their index in the counterexample's trace.
    ...(ce.moments === undefined ? {} : { moments: ce.moments.map((m) => ({ kind: m.kind, violation: m.violation, key: m.key, at: m.at ?? null, component: m.component ?? null, ...(m.nth === undefined ? {} : { nth: m.nth }) })) }),
  };
}

/** What a `--pairs` sweep's pairs broke: each clause by the fault that struck first, counted, with its first pair's replay line. */
function pairsJson(p: PairsSummary) {
  return {
    pairs: p.pairs,
    broke: p.broke,
    fresh: p.fresh.map((b) => ({ first: faultJson(b.first), effect: b.effect, clause: b.clause, pairs: b.count, second: faultJson(b.second), replay: replayLine(b.replay) })),
    known: p.known.map((b) => ({ fault: faultJson(b.fault), effect: b.effect, clause: b.clause, pairs: b.count })),
  };
}

function scenario(r: WindowsResult) {
  const j = r.judgement;
  return {
    name: r.name,
    expect: j.expected.verdict,
    verdict: j.verdict,
    asExpected: j.asExpected,
    claims: r.claims.map(claimSentence),
    windowCount: new Set(r.rows.map((row) => formatPlace(row.place))).size,
    runs: r.coverage.runs,
    distinctOutcomes: [...r.distinctOutcomes],
    windows: r.rows.map((row) => windowRow(row, componentNames(r))),
    counterexamples: r.counterexamples.map(counterexample),
    title: r.title,
    source: r.source,
    lesson: r.lesson,
    seed: r.seed,
    expectedViolations: j.expected.verdict === 'violated' ? [...j.expected.violations] : [],
    missing: [...j.missing],
    unexpected: [...j.unexpected],
    failureWindows: [...r.failureWindows],
    unreachedWindows: [...r.unreachedWindows],
    coverage: coverageJson(j.verdict, r.coverage),
    ...(r.check ? { mode: 'check', check: { ...r.check, unstruckWindows: [...r.check.unstruckWindows] } } : { mode: 'windows' }),
    ...(r.refusals.length === 0 ? {} : { driverRefusals: r.refusals.map((x) => ({ ...x })) }),
    ...(r.pairs === undefined ? {} : { pairs: pairsJson(r.pairs) }),
  };
}

/** The versioned name of a document's shape, which its JSON Schema (schemas/<command>.schema.json) describes. */
export function schemaOf(command: 'list' | 'windows' | 'check' | 'explore' | 'replay' | 'calc'): string {
  return `faultline/${command}@1`;
}

/** The `windows --json` (or `check --json`) document, pretty-printed and ending in a newline. */
export function renderJson(results: readonly WindowsResult[]): string {
  const command = results.length > 0 && results.every((r) => r.kind === 'check') ? 'check' : 'windows';
  return `${JSON.stringify({ schema: schemaOf(command), scenarios: results.map(scenario) }, null, 2)}\n`;
}

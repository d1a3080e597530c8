// Renders windows-mode results as JUnit XML for CI: one <testsuite> per scenario, one
// <testcase> per failure-window row and one for the scenario's verdict. A <failure> marks
// exactly what should turn CI red, the same thing that makes `faultline windows` exit 1: an
// outcome the scenario did not expect, or a verdict that is not as expected; it carries the
// row's every cell and its replay line. An expected violation is the scenario proving its
// point, so it passes and says so in <system-out> (the verdict's case has the line that replays
// each violation's counterexample); a row whose
// fault never struck, or whose run the checkers could not decide, is reported skipped; a row
// that held is a bare passing case (its cells are in the HTML page and report.json), which
// keeps the file small enough for a CI test view of thousands of rows.
// No `time` or `timestamp` attributes: the file must be byte-identical on a rerun.
import { formatPlace } from '../faults/place.ts';
import { replayLine } from '../modes/replayLine.ts';
import { isExpectedViolation, isUnexpectedOutcome } from '../checkers/verdict.ts';
import type { WindowRow, WindowsResult } from '../modes/windows.ts';
import { claimSentence } from './claimSentence.ts';
import { describeClause } from './describeCoverage.ts';
import { describePlan } from './describePlan.ts';
import { escapeXml as esc } from './escapeXml.ts';
import { verdictSummary } from './verdictSummary.ts';
import { windowCells, componentNames, rowFaultLabel } from './windowCells.ts';

interface Case {
  readonly name: string;
  readonly failure?: { readonly message: string; readonly type: string; readonly body: string };
  readonly skipped?: string;
  readonly out?: string;
}

function rowDetails(result: WindowsResult, row: WindowRow): string {
  const outcomes = Object.entries(row.outcomes).map(([o, n]) => `${o} x${n}`).join(', ');
  const c = windowCells(row, componentNames(result));
  return [
    `window: ${c.window}`,
    `fault: ${rowFaultLabel(row)} (${row.runs} run${row.runs === 1 ? '' : 's'}: ${outcomes})`,
    `plan: ${describePlan(row.plan)}`,
    `durable evidence: ${c.evidence}`,
    `retry owner: ${c.retryOwner}`,
    `duplicate possible: ${c.duplicatePossible}; guard: ${c.duplicateGuard}`,
    `repair query: ${c.repairQuery || 'none given'}`,
    `replay: ${replayOf(result, row)}`,
  ].join('\n');
}

function replayOf(result: WindowsResult, row: WindowRow): string {
  return replayLine(row.replay ?? { kind: 'plan', scenario: result.ref, seed: result.seed, plan: row.plan });
}

function rowCase(result: WindowsResult, row: WindowRow): Case {
  const place = formatPlace(row.place);
  const name = `${place} ${rowFaultLabel(row)}`;
  const expected = result.judgement.expected;
  if (isUnexpectedOutcome(expected, row.outcome)) {
    const what = expected.verdict === 'holds' ? 'the scenario expects every claim to hold' : `the scenario expects only ${expected.violations.join(', ')}`;
    return {
      name,
      failure: { message: `${row.outcome} at ${place} under ${rowFaultLabel(row)}: ${what}`, type: 'unexpected violation', body: rowDetails(result, row) },
      out: `outcome: ${row.outcome} (unexpected violation)`,
    };
  }
  // The verdict's case lists the replay line of each violation's counterexample.
  if (isExpectedViolation(expected, row.outcome)) return { name, out: `outcome: ${row.outcome} (expected violation)` };
  if (row.struck === 0) return { name, skipped: `the fault never struck: ${place} is not reached ${result.check ? 'by any interleaving within the bound' : 'by this workload'}` };
  if (row.outcome === 'unknown') {
    const why = row.undecided.map((u) => `${u.effect}: ${u.clause}: ${u.reason}`).join('; ');
    return { name, skipped: `unknown: the checkers could not decide this run (${why || 'no reason given'})` };
  }
  return { name };
}

function verdictCase(result: WindowsResult): Case {
  const v = verdictSummary(result);
  const out = [`verdict: ${v.verdict}`, `expected: ${v.expected}`, `covers: ${v.covers}`, ...result.claims.map((c) => `claim: ${claimSentence(c)}`)];
  for (const c of result.coverage.clauses) out.push(`clause: ${result.claims.length > 1 ? `${c.effect}: ` : ''}${describeClause(c, result.check ? 'end state' : 'run')}`);
  for (const ce of result.counterexamples) out.push(`counterexample (${ce.violation}): ${replayLine(ce.replay)}`);
  if (v.asExpected) return { name: 'verdict', out: out.join('\n') };
  return { name: 'verdict', failure: { message: `${result.name} is NOT as expected: ${v.problems.join('; ')}`, type: 'unexpected verdict', body: out.join('\n') } };
}

function testcase(classname: string, c: Case): string {
  const open = `    <testcase name="${esc(c.name)}" classname="${esc(classname)}"`;
  const inner: string[] = [];
  if (c.failure) inner.push(`      <failure message="${esc(c.failure.message)}" type="${esc(c.failure.type)}">${esc(c.failure.body)}</failure>`);
  if (c.skipped !== undefined) inner.push(`      <skipped message="${esc(c.skipped)}"/>`);
  if (c.out !== undefined) inner.push(`      <system-out>${esc(c.out)}</system-out>`);
  return inner.length === 0 ? `${open}/>` : `${open}>\n${inner.join('\n')}\n    </testcase>`;
}

interface Counts {
  tests: number;
  failures: number;
  skipped: number;
}

function counts(cases: readonly Case[]): Counts {
  return { tests: cases.length, failures: cases.filter((c) => c.failure).length, skipped: cases.filter((c) => c.skipped !== undefined).length };
}

function attrs(c: Counts): string {
  return `tests="${c.tests}" failures="${c.failures}" errors="0" skipped="${c.skipped}"`;
}

/** The run as a JUnit XML document, ending in a newline. */
export function renderJunit(results: readonly WindowsResult[]): string {
  const total: Counts = { tests: 0, failures: 0, skipped: 0 };
  const suites = results.map((r) => {
    const cases = [verdictCase(r), ...r.rows.map((row) => rowCase(r, row))];
    const c = counts(cases);
    total.tests += c.tests;
    total.failures += c.failures;
    total.skipped += c.skipped;
    const e = r.judgement.expected;
    const props = [
      ['seed', String(r.seed)],
      ['expect', e.verdict],
      ['expectedViolations', e.verdict === 'violated' ? e.violations.join(', ') : ''],
      ['verdict', r.judgement.verdict],
      ['asExpected', String(r.judgement.asExpected)],
    ].map(([k, v]) => `      <property name="${esc(k!)}" value="${esc(v!)}"/>`);
    return [
      `  <testsuite name="${esc(r.name)}" ${attrs(c)}>`,
      '    <properties>',
      ...props,
      '    </properties>',
      ...cases.map((k) => testcase(r.name, k)),
      '  </testsuite>',
    ].join('\n');
  });
  return ['<?xml version="1.0" encoding="UTF-8"?>', `<testsuites name="faultline windows" ${attrs(total)}>`, ...suites, '</testsuites>', ''].join('\n');
}

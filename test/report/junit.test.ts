// The JUnit file CI reads: one suite per scenario, one testcase per failure-window row plus one
// for the verdict, and a <failure> for exactly the outcomes the scenario did not expect, so CI
// turns red exactly when `faultline windows` would exit 1.
import { replayLine } from '../../src/modes/replayLine.ts';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { beforeAll, describe, expect, it } from 'vitest';
import { renderJunit } from '../../src/report/junit.ts';
import { runWindows, type WindowsResult } from '../../src/modes/windows.ts';
import dualWrite from '../../scenarios/mercury-dual-write-commit-first.ts';
import { brokenHolds, loadResults, missingViolation, placeOf, unexpectedRows, type Results } from './results.ts';

interface TestCase {
  '@_name': string;
  '@_classname': string;
  failure?: { '@_message': string; '@_type': string; '#text'?: string };
  skipped?: unknown;
  'system-out'?: string;
}
interface Suite {
  '@_name': string;
  '@_tests': string;
  '@_failures': string;
  testcase: TestCase[];
}

function parse(xml: string): { testsuites: { '@_tests': string; '@_failures': string; testsuite: Suite[] } } {
  expect(XMLValidator.validate(xml)).toBe(true);
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '@_',
    parseAttributeValue: false,
    parseTagValue: false,
    isArray: (name) => name === 'testsuite' || name === 'testcase',
  });
  return parser.parse(xml);
}

let results: Results;
beforeAll(() => {
  results = loadResults();
});

function check(rs: readonly WindowsResult[]) {
  const doc = parse(renderJunit(rs));
  const suites = doc.testsuites.testsuite;
  expect(suites.map((s) => s['@_name'])).toEqual(rs.map((r) => r.name));
  let total = 0;
  for (const [i, r] of rs.entries()) {
    const suite = suites[i]!;
    const cases = suite.testcase;
    const rowCases = cases.filter((c) => c['@_name'] !== 'verdict');
    // One testcase per row (named `<window> <fault>`) and one for the verdict.
    expect(rowCases.map((c) => c['@_name'])).toEqual(r.rows.map((w) => `${placeOf(w)} ${w.fault}`));
    expect(cases.filter((c) => c['@_name'] === 'verdict')).toHaveLength(1);
    for (const c of cases) expect(c['@_classname']).toBe(r.name);
    // Failures: exactly the unexpected outcomes, plus the verdict when it is not as expected.
    const failedRows = rowCases.filter((c) => c.failure !== undefined).map((c) => c['@_name']);
    expect(failedRows).toEqual(unexpectedRows(r).map((w) => `${placeOf(w)} ${w.fault}`));
    const verdict = cases.find((c) => c['@_name'] === 'verdict')!;
    expect(verdict.failure !== undefined).toBe(!r.judgement.asExpected);
    const failures = failedRows.length + (r.judgement.asExpected ? 0 : 1);
    expect(Number(suite['@_failures'])).toBe(failures);
    expect(Number(suite['@_tests'])).toBe(r.rows.length + 1);
    total += failures;
  }
  expect(Number(doc.testsuites['@_failures'])).toBe(total);
  return { doc, total };
}

describe('renderJunit', () => {
  it('has one testcase per row and no failures for scenarios that are as expected', () => {
    const { total, doc } = check(results.all);
    expect(total).toBe(0);
    expect(Number(doc.testsuites['@_tests'])).toBe(results.outbox.rows.length + results.dualWrite.rows.length + 2);
  });

  it('reports expected violations as passing, with the violation in system-out and its replay line in the verdict', () => {
    const { doc } = check([results.dualWrite]);
    const cases = doc.testsuites.testsuite[0]!.testcase;
    const lost = results.dualWrite.rows.filter((w) => w.outcome === 'lost effect');
    expect(lost.length).toBeGreaterThan(0);
    for (const w of lost) {
      const c = cases.find((k) => k['@_name'] === `${placeOf(w)} ${w.fault}`)!;
      expect(c.failure).toBeUndefined();
      expect(c['system-out']).toContain('outcome: lost effect (expected violation)');
    }
    const verdict = cases.find((k) => k['@_name'] === 'verdict')!;
    for (const ce of results.dualWrite.counterexamples) expect(verdict['system-out']).toContain(`counterexample (${ce.violation}): ${replayLine(ce.replay)}`);
  });

  it('fails a holds scenario row with a violation, and its verdict', () => {
    const broken = brokenHolds(results.outbox);
    const { total, doc } = check([broken]);
    expect(total).toBe(2);
    const failed = doc.testsuites.testsuite[0]!.testcase.filter((c) => c.failure);
    expect(failed.map((c) => c['@_name'])).toEqual(['verdict', 'relay.afterBrokerAccept crash']);
    expect(failed[1]!.failure!['@_type']).toBe('unexpected violation');
    expect(failed[1]!.failure!['@_message']).toContain('duplicate effect at relay.afterBrokerAccept');
    expect(failed[0]!.failure!['@_message']).toContain('unexpected violations: duplicate effect');
  });

  it('fails only the verdict when an expected violation is missing', () => {
    const { total, doc } = check([missingViolation(results.dualWrite)]);
    expect(total).toBe(1);
    const verdict = doc.testsuites.testsuite[0]!.testcase.find((c) => c['@_name'] === 'verdict')!;
    expect(verdict.failure!['@_message']).toContain('missing expected violations: duplicate effect');
  });

  it('escapes XML in names, messages and bodies', () => {
    const base = brokenHolds(results.outbox);
    const claim = { ...base.claims[0]!, effect: 'a < b && c > "d" \u0001' };
    const nasty: WindowsResult = {
      ...base,
      claims: [claim],
      rows: base.rows.map((w) => ({ ...w, retry: { kind: 'resent' as const, component: '<x a="1">&</x>', message: 'm', to: 't', tick: 1 }, repair: { role: 'repair' as const, sql: 'SELECT 1 WHERE a < b', keys: [] } })),
    };
    const xml = renderJunit([nasty]);
    const { doc } = check([nasty]);
    expect(xml).not.toContain('\u0001');
    const verdict = doc.testsuites.testsuite[0]!.testcase.find((c) => c['@_name'] === 'verdict')!;
    expect(verdict.failure!['#text']).toContain('claim: For a < b && c > "d"');
    const row = doc.testsuites.testsuite[0]!.testcase.find((c) => c['@_name'] === 'relay.afterBrokerAccept crash')!;
    expect(row.failure!['#text']).toContain('retry owner: <x a="1">&</x>');
    expect(row.failure!['#text']).toContain('repair query: SELECT 1 WHERE a < b');
    // Names with `->` (message points) survive the round trip.
    expect(doc.testsuites.testsuite[0]!.testcase.some((c) => c['@_name'].includes('->'))).toBe(true);
  });

  it('names the scenario in replay lines as the user did, so a user file replays', () => {
    const user = runWindows(dualWrite, { ref: './designs/my-design.ts' });
    const xml = renderJunit([user]);
    const lines = [...xml.matchAll(/npx faultline replay (\S+) /g)].map((m) => m[1]);
    expect(lines.length).toBeGreaterThan(0);
    expect(new Set(lines)).toEqual(new Set(['./designs/my-design.ts']));
  });

  it('says what the verdict covers and every clause it checked', () => {
    const { doc } = check([results.outbox]);
    const verdict = doc.testsuites.testsuite[0]!.testcase.find((c) => c['@_name'] === 'verdict')!;
    expect(verdict['system-out']).toMatch(/covers: holds for every single fault: \d+ faults at \d+ windows and \d+ message points/);
    expect(verdict['system-out']).toContain('clause: at most one committed outcome per key: holds');
  });
});

// The JUnit file CI reads: one suite per scenario, one testcase per failure-window row plus one
// for the verdict, and a <failure> for exactly the outcomes the scenario did not expect, so CI
// turns red exactly when `faultline windows` would exit 1.
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { beforeAll, describe, expect, it } from 'vitest';
import { renderJunit } from '../../src/report/junit.ts';
import type { WindowsResult } from '../../src/windows.ts';
import { brokenHolds, loadResults, missingViolation, unexpectedRows, type Results } from './results.ts';

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
    expect(rowCases.map((c) => c['@_name'])).toEqual(r.windows.map((w) => `${w.window} ${w.fault}`));
    expect(cases.filter((c) => c['@_name'] === 'verdict')).toHaveLength(1);
    for (const c of cases) expect(c['@_classname']).toBe(r.name);
    // Failures: exactly the unexpected outcomes, plus the verdict when it is not as expected.
    const failedRows = rowCases.filter((c) => c.failure !== undefined).map((c) => c['@_name']);
    expect(failedRows).toEqual(unexpectedRows(r).map((w) => `${w.window} ${w.fault}`));
    const verdict = cases.find((c) => c['@_name'] === 'verdict')!;
    expect(verdict.failure !== undefined).toBe(!r.asExpected);
    const failures = failedRows.length + (r.asExpected ? 0 : 1);
    expect(Number(suite['@_failures'])).toBe(failures);
    expect(Number(suite['@_tests'])).toBe(r.windows.length + 1);
    total += failures;
  }
  expect(Number(doc.testsuites['@_failures'])).toBe(total);
  return { doc, total };
}

describe('renderJunit', () => {
  it('has one testcase per row and no failures for scenarios that are as expected', () => {
    const { total, doc } = check(results.all);
    expect(total).toBe(0);
    expect(Number(doc.testsuites['@_tests'])).toBe(results.outbox.windows.length + results.dualWrite.windows.length + 2);
  });

  it('reports expected violations as passing, with the violation in system-out', () => {
    const { doc } = check([results.dualWrite]);
    const cases = doc.testsuites.testsuite[0]!.testcase;
    const lost = results.dualWrite.windows.filter((w) => w.outcome === 'lost effect');
    expect(lost.length).toBeGreaterThan(0);
    for (const w of lost) {
      const c = cases.find((k) => k['@_name'] === `${w.window} ${w.fault}`)!;
      expect(c.failure).toBeUndefined();
      expect(c['system-out']).toContain('outcome: lost effect (expected violation)');
      expect(c['system-out']).toContain(`--plan '${JSON.stringify(w.plan)}'`);
    }
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
    const nasty = { ...base, claims: ['a < b && c > "d" \u0001'], windows: base.windows.map((w) => ({ ...w, evidence: `<x a="1">&</x> ${w.evidence}` })) };
    const xml = renderJunit([nasty]);
    const { doc } = check([nasty]);
    expect(xml).not.toContain('\u0001');
    const verdict = doc.testsuites.testsuite[0]!.testcase.find((c) => c['@_name'] === 'verdict')!;
    expect(verdict.failure!['#text']).toContain('claim: a < b && c > "d"');
    const row = doc.testsuites.testsuite[0]!.testcase.find((c) => c['@_name'] === 'relay.afterBrokerAccept crash')!;
    expect(row.failure!['#text']).toContain('durable evidence: <x a="1">&</x>');
    // Names with `->` (message points) survive the round trip.
    expect(doc.testsuites.testsuite[0]!.testcase.some((c) => c['@_name'].includes('->'))).toBe(true);
  });
});

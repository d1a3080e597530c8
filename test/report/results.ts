// The windows results every report suite renders: two real Mercury scenarios (one that holds,
// one whose expected violation is proven), plus deliberately broken variants, so each form is
// checked against what the engine produced rather than against hand-written expectations.
import outbox from '../../scenarios/mercury-outbox.ts';
import dualWrite from '../../scenarios/mercury-dual-write-commit-first.ts';
import { formatPlace } from '../../src/faults/place.ts';
import { runWindows, type WindowRow, type WindowsResult } from '../../src/modes/windows.ts';

export interface Results {
  readonly outbox: WindowsResult;
  readonly dualWrite: WindowsResult;
  readonly all: readonly WindowsResult[];
}

export function loadResults(): Results {
  const o = runWindows(outbox);
  const d = runWindows(dualWrite);
  return { outbox: o, dualWrite: d, all: [o, d] };
}

export { MERCURY_DRILLS as DRILL_WINDOWS } from '../../models/designs/orderPipeline.ts';

/** The place of a row, as text. */
export const placeOf = (r: WindowRow) => formatPlace(r.place);

/** The violations a result expects. */
export function expectedViolations(r: WindowsResult): readonly string[] {
  return r.judgement.expected.verdict === 'violated' ? r.judgement.expected.violations : [];
}

/** A holds scenario in which one reached crash row turned up a duplicate effect: one unexpected outcome, and a verdict not as expected. */
export function brokenHolds(base: WindowsResult): WindowsResult {
  const index = base.rows.findIndex((r) => placeOf(r) === 'relay.afterBrokerAccept' && r.fault === 'crash');
  const rows = base.rows.map((r, i): WindowRow => (i === index ? { ...r, outcome: 'duplicate effect', outcomes: { 'duplicate effect': 1, holds: r.runs - 1 } } : r));
  return {
    ...base,
    name: `${base.name}-broken`,
    ref: `${base.ref}-broken`,
    judgement: { ...base.judgement, verdict: 'violated', asExpected: false, found: ['duplicate effect'], unexpected: ['duplicate effect'] },
    distinctOutcomes: ['duplicate effect', 'holds'],
    rows,
  };
}

/** A violated scenario whose expected violation was never found: only the verdict testcase fails. */
export function missingViolation(base: WindowsResult): WindowsResult {
  const expected = base.judgement.expected;
  if (expected.verdict !== 'violated') throw new Error('missingViolation needs a violated scenario');
  return {
    ...base,
    name: `${base.name}-missing`,
    ref: `${base.ref}-missing`,
    judgement: { ...base.judgement, expected: { verdict: 'violated', violations: [...expected.violations, 'duplicate effect'] }, missing: ['duplicate effect'], asExpected: false },
  };
}

/** Rows whose outcome is a violation the scenario did not declare. */
export function unexpectedRows(result: WindowsResult): WindowRow[] {
  const expected = expectedViolations(result);
  return result.rows.filter((r) => r.outcome !== 'holds' && r.outcome !== 'unknown' && !expected.includes(r.outcome));
}

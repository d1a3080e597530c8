// The windows results every report suite renders: two real Mercury scenarios (one that holds,
// one whose expected violation is proven), plus deliberately broken variants, so each form is
// checked against what the engine produced rather than against hand-written expectations.
import outbox from '../../scenarios/mercury-outbox.ts';
import dualWrite from '../../scenarios/mercury-dual-write-commit-first.ts';
import { runWindows, type WindowRow, type WindowsResult } from '../../src/windows.ts';

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

export { MERCURY_DRILLS as DRILL_WINDOWS } from '../../models/orderPipeline.ts';

/** A holds scenario in which one reached crash row turned up a duplicate effect: one unexpected outcome, and a verdict not as expected. */
export function brokenHolds(base: WindowsResult): WindowsResult {
  const index = base.windows.findIndex((r) => r.window === 'relay.afterBrokerAccept' && r.fault === 'crash');
  const windows = base.windows.map((r, i): WindowRow => (i === index ? { ...r, outcome: 'duplicate effect', outcomes: { 'duplicate effect': 1, holds: r.runs - 1 } } : r));
  return {
    ...base,
    name: `${base.name}-broken`,
    verdict: 'violated',
    asExpected: false,
    unexpected: ['duplicate effect'],
    distinctOutcomes: ['duplicate effect', 'holds'],
    windows,
  };
}

/** A violated scenario whose expected violation was never found: only the verdict testcase fails. */
export function missingViolation(base: WindowsResult): WindowsResult {
  return {
    ...base,
    name: `${base.name}-missing`,
    expectedViolations: [...base.expectedViolations, 'duplicate effect'],
    missing: ['duplicate effect'],
    asExpected: false,
  };
}

/** Rows whose outcome is a violation the scenario did not declare. */
export function unexpectedRows(result: WindowsResult): WindowRow[] {
  return result.windows.filter((r) => r.outcome !== 'holds' && r.outcome !== 'unknown' && !result.expectedViolations.includes(r.outcome));
}

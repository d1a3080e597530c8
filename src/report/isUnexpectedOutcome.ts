// Decides whether an outcome is a surprise for its scenario. Every form of the report (and the
// exit code CI reads) must agree on this, so it is decided here once: a violation the scenario
// did not declare is unexpected, an expected violation is the scenario proving its point.
import type { RunOutcome, Violation } from '../checkers/finding.ts';
import type { WindowsResult } from '../windows.ts';

/** Whether an outcome is a violation the scenario does not expect (any violation, for `expect: holds`). */
export function isUnexpectedOutcome(result: Pick<WindowsResult, 'expectedViolations'>, outcome: RunOutcome): boolean {
  if (outcome === 'holds' || outcome === 'unknown') return false;
  return !result.expectedViolations.includes(outcome as Violation);
}

/** Whether an outcome is a violation the scenario declared, so the report can mark it as proven rather than failed. */
export function isExpectedViolation(result: Pick<WindowsResult, 'expectedViolations'>, outcome: RunOutcome): boolean {
  return outcome !== 'holds' && outcome !== 'unknown' && result.expectedViolations.includes(outcome as Violation);
}

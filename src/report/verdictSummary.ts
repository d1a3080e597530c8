// Words for a scenario's verdict against its expectation, shared by every human-readable form so
// that "as expected" means the same thing in the Markdown, the HTML and the index: the verdict
// matches, no expected violation is missing and no unexpected one was found.
import type { WindowsResult } from '../windows.ts';

export interface VerdictSummary {
  readonly verdict: WindowsResult['verdict'];
  /** `holds`, or `violated (lost effect, …)` with the violations the scenario declares. */
  readonly expected: string;
  readonly asExpected: boolean;
  /** `as expected` or `NOT as expected`. */
  readonly status: string;
  /** Why it is not as expected, one clause per problem; empty when it is. */
  readonly problems: readonly string[];
}

export function verdictSummary(result: WindowsResult): VerdictSummary {
  const expected = result.expect === 'holds' ? 'holds' : `violated (${result.expectedViolations.join(', ')})`;
  const problems: string[] = [];
  if (result.verdict !== result.expect) problems.push(`the verdict is ${result.verdict} but ${result.expect} was expected`);
  if (result.missing.length > 0) problems.push(`missing expected violations: ${result.missing.join(', ')}`);
  if (result.unexpected.length > 0) problems.push(`unexpected violations: ${result.unexpected.join(', ')}`);
  if (!result.asExpected && problems.length === 0) problems.push('the run did not end as expected');
  return {
    verdict: result.verdict,
    expected,
    asExpected: result.asExpected,
    status: result.asExpected ? 'as expected' : 'NOT as expected',
    problems: result.asExpected ? [] : problems,
  };
}

/** "2 scenarios, 1 as expected, 1 NOT as expected." for a whole run; `emphasise` marks the last clause in its form. */
export function runTally(results: readonly WindowsResult[], emphasise: (s: string) => string = (s) => s): string {
  const good = results.filter((r) => r.asExpected).length;
  return `${results.length} scenario${results.length === 1 ? '' : 's'}, ${good} as expected${good === results.length ? '' : `, ${emphasise(`${results.length - good} NOT as expected`)}`}.`;
}

// Words for a scenario's verdict against its expectation, shared by every human-readable form so
// that "as expected" means the same thing in the terminal, the Markdown, the HTML and the index.
import type { Coverage } from '../checkers/coverage.ts';
import type { ExpectedVerdict, Judgement } from '../checkers/verdict.ts';
import { CLAUSE_TITLES, count, describeCoverage } from './describeCoverage.ts';

export interface VerdictSummary {
  readonly verdict: Judgement['verdict'];
  /** `holds`, or `violated (lost effect, …)` with the violations the scenario declares. */
  readonly expected: string;
  readonly asExpected: boolean;
  /** `as expected` or `NOT as expected`. */
  readonly status: string;
  /** Why it is not as expected, one clause per problem; empty when it is. */
  readonly problems: readonly string[];
  /** What the verdict covers, in one sentence. */
  readonly covers: string;
}

export function expectedText(e: ExpectedVerdict): string {
  return e.verdict === 'holds' ? 'holds' : `violated (${e.violations.join(', ')})`;
}

/** What a search was given that the advice on an inconclusive one can shrink: a check's workload size and fault budget. */
export interface SearchSettings {
  readonly size: number;
  readonly faults: number;
}

export function verdictSummary(result: { readonly judgement: Judgement; readonly coverage: Coverage; readonly check?: SearchSettings | undefined }): VerdictSummary {
  const j = result.judgement;
  const problems: string[] = [];
  const holds = j.verdict === 'holds' || j.verdict === 'holds within bound';
  if (j.verdict === 'inconclusive') problems.push(`the search was inconclusive: ${inconclusiveWhy(result.coverage, result.check)}`);
  else if (j.expected.verdict === 'holds' ? !holds : j.verdict !== 'violated') problems.push(`the verdict is ${j.verdict} but ${j.expected.verdict} was expected`);
  if (j.missing.length > 0) problems.push(`missing expected violations: ${j.missing.join(', ')}`);
  if (j.unexpected.length > 0) problems.push(`unexpected violations: ${j.unexpected.join(', ')}`);
  if (j.unexpectedClaims.length > 0) problems.push(`violated claims expected to hold: ${j.unexpectedClaims.join('; ')}`);
  for (const u of j.undecided) problems.push(`undecided: ${CLAUSE_TITLES[u.clause]} (${u.effect}): ${u.reason}`);
  if (!j.asExpected && problems.length === 0) problems.push('the run did not end as expected');
  return {
    verdict: j.verdict,
    expected: expectedText(j.expected),
    asExpected: j.asExpected,
    status: j.asExpected ? 'as expected' : 'NOT as expected',
    problems: j.asExpected ? [] : problems,
    covers: describeCoverage(j.verdict, result.coverage),
  };
}

/**
 * Why a search decided nothing, and what to change: the state bound it stopped at, or the step
 * bound that cut its runs, with the search's own figures. Only what can still shrink is advised:
 * a workload of one, no faults, or a single kind is already as small as it goes.
 */
export function inconclusiveWhy(c: Coverage, settings?: SearchSettings): string {
  const i = c.interleavings;
  const cut = c.clauses.find((k) => k.status === 'inconclusive');
  const smallest = settings !== undefined && settings.size <= 1;
  if (i.kind === 'all') {
    const where = `${count(i.states, 'state')} to depth ${i.depth}${c.frontier === undefined ? '' : `, ${count(c.frontier, 'state')} still waiting`}`;
    const ends = c.runs === 0 ? 'reached no end state' : `judged ${count(c.runs, 'end state')} but stopped at its bound before it had seen every state within reach`;
    const faults = settings?.faults ?? c.faultDepth;
    const shrink = [
      smallest ? '' : 'the workload (--size 1)',
      faults > 0 ? `the faults (--faults ${faults - 1})` : '',
      faults > 0 && c.kinds.length > 1 ? `their kinds (--kinds ${c.kinds.includes('crash') ? 'crash' : c.kinds[0]})` : '',
    ].filter((x) => x !== '');
    // The bound to raise is the one that stopped the search: its depth, or its states.
    const raise = c.bound?.kind === 'depth' ? 'raise --max-depth' : 'raise --max-states';
    const advice = shrink.length === 0 ? raise : `shrink ${orList(shrink)}, or ${raise}`;
    return `it ${ends} (${where}); ${advice}`;
  }
  if (cut !== undefined) return `${cut.reason ?? 'its runs were cut by a bound'}; ${smallest ? '' : 'shrink the workload or '}raise the scenario's world.stepsMax`;
  return 'a bound stopped it before it decided anything';
}

/** "a", "a or b", "a, b or c". */
function orList(items: readonly string[]): string {
  return items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} or ${items.at(-1)}`;
}

/** "2 scenarios, 1 as expected, 1 NOT as expected." for a whole run; `emphasise` marks the last clause in its form. */
export function runTally(results: readonly { readonly judgement: Judgement }[], emphasise: (s: string) => string = (s) => s): string {
  const good = results.filter((r) => r.judgement.asExpected).length;
  return `${results.length} scenario${results.length === 1 ? '' : 's'}, ${good} as expected${good === results.length ? '' : `, ${emphasise(`${results.length - good} NOT as expected`)}`}.`;
}

/**
 * The end of a command's summary line: "every verdict as expected", or how many were not as
 * expected and how many were inconclusive. `bad` marks the words in the command's style.
 */
export function expectationTally(judgements: readonly Judgement[], good: (s: string) => string = (s) => s, bad: (s: string) => string = (s) => s): string {
  const inconclusive = judgements.filter((j) => !j.asExpected && j.verdict === 'inconclusive').length;
  const unexpected = judgements.filter((j) => !j.asExpected).length - inconclusive;
  if (unexpected === 0 && inconclusive === 0) return good('every verdict as expected');
  return bad([unexpected > 0 ? `${unexpected} not as expected` : '', inconclusive > 0 ? `${inconclusive} inconclusive` : ''].filter((x) => x !== '').join(', '));
}

// What a scenario's page opens with, as data, so the Markdown and the HTML page open alike: the
// verdict against its expectation, the worst window (an unexpected violation before an expected
// one, the worse outcome first), how many faults broke a claim, the first counterexample with
// its finding and replay line, what the verdict covers, and why any clause judged fewer runs
// than ran.
import { replayLine } from '../modes/replayLine.ts';
import { isUnexpectedOutcome } from '../checkers/verdict.ts';
import type { Counterexample, WindowRow, WindowsResult } from '../modes/windows.ts';
import { CLAUSE_TITLES, unjudgedText } from './describeCoverage.ts';
import { describeFinding } from './describeFinding.ts';
import { describePlan } from './describePlan.ts';
import { rowGroups } from './rowGroups.ts';
import { verdictSummary, type VerdictSummary } from './verdictSummary.ts';
import { outcomeLabel, rowFaultLabel } from './windowCells.ts';
import { formatPlace } from '../faults/place.ts';
import { thousands } from './thousands.ts';

export interface ScenarioAnswer {
  readonly summary: VerdictSummary;
  /** The worst row, in words (`source.committing crash: lost effect (expected)`), when a fault broke a claim. */
  readonly worst: string | undefined;
  /** That no fault is needed, and what the run with none breaks, when it breaks a claim (then no window is the worst). */
  readonly noFault: string | undefined;
  /**
   * What stands in for the worst window when no single fault broke a claim: that none did, and,
   * in a `--pairs` sweep whose pairs broke one, that pairs did, so the line never reads as if the
   * sweep found nothing above the pairs' counterexample.
   */
  readonly none: string;
  /** How many rows broke a claim, how many could not be judged, of how many. */
  readonly broke: number;
  readonly undecided: number;
  readonly rows: number;
  /** The counterexample to read first (an unexpected violation's, else the first), in words, with its replay line. */
  readonly first: { readonly index: number; readonly text: string; readonly replay: string } | undefined;
  /** One sentence per clause that judged fewer runs than ran. */
  readonly unjudged: readonly string[];
}

function worstWords(result: WindowsResult, row: WindowRow): string {
  const expected = result.judgement.expected;
  const tag = row.outcome === 'unknown' ? '' : isUnexpectedOutcome(expected, row.outcome) ? ' (unexpected)' : ' (expected)';
  return `${formatPlace(row.place)} ${rowFaultLabel(row)}: ${outcomeLabel(row)}${tag}`;
}

function firstCounterexample(result: WindowsResult): { index: number; ce: Counterexample } | undefined {
  const ces = result.counterexamples;
  const unexpected = ces.findIndex((ce) => result.judgement.unexpected.includes(ce.violation));
  const index = unexpected >= 0 ? unexpected : 0;
  return ces[index] === undefined ? undefined : { index, ce: ces[index]! };
}

/**
 * Where the design breaks with no fault at all, what breaks, in words: then no window is worse
 * than any other (every fault "breaks" what was broken already), and the page says so in place of
 * a worst window.
 */
function noFaultWords(result: WindowsResult): string | undefined {
  const bare = result.counterexamples.find((ce) => ce.plan.length === 0);
  if (bare === undefined) return undefined;
  const tag = isUnexpectedOutcome(result.judgement.expected, bare.violation) ? ' (unexpected)' : ' (expected)';
  return `none needed: ${result.check ? 'a path' : 'the run'} with no fault gives ${bare.violation}${tag}`;
}

export function scenarioAnswer(result: WindowsResult): ScenarioAnswer {
  const groups = rowGroups(result);
  const worst = groups.broke[0];
  const found = firstCounterexample(result);
  const judgedOver = result.check ? 'end state' : 'run';
  const unjudged = result.coverage.clauses
    .filter((c) => (c.status === 'holds' || c.status === 'violated') && unjudgedText(c, judgedOver) !== '')
    .map((c) => `${result.claims.length > 1 ? `${c.effect}: ` : ''}${CLAUSE_TITLES[c.clause]}: judged in ${c.exercised} of ${c.exercised + (c.idle ?? 0) + (c.undecided ?? 0)}; ${unjudgedText(c, judgedOver)}`);
  let first: ScenarioAnswer['first'];
  if (found !== undefined) {
    const { ce, index } = found;
    const finding = ce.findings.find((f) => f.violation === ce.violation);
    first = { index, text: `${ce.violation} under ${describePlan(ce.plan)}${finding === undefined ? '' : `: ${describeFinding(finding)}`}`, replay: replayLine(ce.replay) };
  }
  const undecided = groups.broke.filter((r) => r.outcome === 'unknown').length;
  return { summary: verdictSummary(result), worst: worst === undefined ? undefined : worstWords(result, worst), noFault: noFaultWords(result), none: noneWords(result), broke: groups.broke.length - undecided, undecided, rows: result.rows.length, first, unjudged };
}

function noneWords(result: WindowsResult): string {
  const pairs = result.pairs;
  if (pairs === undefined || pairs.broke === 0) return `none: no fault of the ${result.rows.length} tried broke a claim`;
  return `none alone: no single fault of the ${result.rows.length} tried broke a claim, but ${thousands(pairs.broke)} of ${thousands(pairs.pairs)} pairs of faults did (below)`;
}

/**
 * The index's worst-window cell when no single fault broke a claim: plain `none`, or, when pairs of
 * faults did, how many, since the scenario's first counterexample beside it is then a pair's.
 */
export function noneCell(result: WindowsResult): string {
  const pairs = result.pairs;
  return pairs === undefined || pairs.broke === 0 ? 'none' : `none alone; ${thousands(pairs.broke)} of ${thousands(pairs.pairs)} pairs of faults broke a claim`;
}

/** `5 of 67 faults broke a claim` and, when some runs could not be judged, `; 3 could not be judged`. */
export function brokeWords(a: Pick<ScenarioAnswer, 'broke' | 'undecided' | 'rows'>): string {
  return `${a.broke} of ${a.rows} faults broke a claim${a.undecided === 0 ? '' : `; ${a.undecided} could not be judged`}`;
}

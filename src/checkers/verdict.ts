// One verdict, computed one way in every mode (windows, explore, replay, check), in the manner of
// Jepsen's `merge-valid`: outcomes rank by severity, verdicts merge (violated beats unknown beats
// holds within bound beats holds), and a result is judged against the scenario's expectation in
// one function, so "as expected" means the same thing in every report and exit code.
import type { ClauseId } from './clause.ts';
import { VIOLATIONS, type Finding, type RunOutcome, type Violation } from './finding.ts';

/** A claim clause some run could not decide (its observer or checker threw), and why. */
export interface Undecided {
  readonly effect: string;
  readonly clause: ClauseId;
  readonly reason: string;
}

/**
 * - holds: no run violated a claim and every run was decided, over the whole space searched;
 * - holds within bound: the same, over a space a bound cut to a defined part (the first N
 *   occurrences of each place, every state to a depth, a number of samples);
 * - violated: some run violated a claim;
 * - unknown: no violation, but some run could not be judged (a checker threw);
 * - inconclusive: no violation, but the search covered no defined part of its space: it reached
 *   no end state, a state bound stopped it part-way through, or its runs were cut by the World's
 *   step bound before they could be judged. A bound is never a finding, nor a pass.
 */
export type Verdict = 'holds' | 'holds within bound' | 'violated' | 'unknown' | 'inconclusive';

const VERDICT_ORDER: readonly Verdict[] = ['violated', 'unknown', 'inconclusive', 'holds within bound', 'holds'];

/** Outcomes worst first: every violation in severity order, then unknown, inconclusive, holds. */
export const OUTCOME_ORDER: readonly RunOutcome[] = [...VIOLATIONS, 'unknown', 'inconclusive', 'holds'];

/** Lower is worse. */
export function outcomeRank(o: RunOutcome): number {
  return OUTCOME_ORDER.indexOf(o);
}

export function worseOutcome(a: RunOutcome, b: RunOutcome): RunOutcome {
  // Stryker disable next-line EqualityOperator: outcomes rank equal only when they are the same, so on a tie returning b is returning a.
  return outcomeRank(b) < outcomeRank(a) ? b : a;
}

/**
 * A run's outcome: its worst finding, else unknown when some clause could not be decided, else
 * inconclusive when a bound cut the run before some clause could be judged, else holds.
 */
export function runOutcome(findings: readonly Finding[], undecided: boolean, cut = false): RunOutcome {
  let worst: RunOutcome = undecided ? 'unknown' : cut ? 'inconclusive' : 'holds';
  for (const f of findings) worst = worseOutcome(worst, f.violation);
  return worst;
}

export function mergeVerdicts(verdicts: Iterable<Verdict>): Verdict {
  let worst: Verdict = 'holds';
  // Stryker disable next-line EqualityOperator: verdicts rank equal only when they are the same, so on a tie keeping either is the same.
  for (const v of verdicts) if (VERDICT_ORDER.indexOf(v) < VERDICT_ORDER.indexOf(worst)) worst = v;
  return worst;
}

/** The verdict of a set of run outcomes; `bounded` when the search stopped short of its whole space. */
export function verdictOf(outcomes: Iterable<RunOutcome>, bounded = false): Verdict {
  let verdict: Verdict = bounded ? 'holds within bound' : 'holds';
  for (const o of outcomes) {
    if (o === 'unknown' || o === 'inconclusive') verdict = mergeVerdicts([verdict, o]);
    else if (o !== 'holds') return 'violated';
  }
  return verdict;
}

/**
 * What a scenario expects at one fault depth. A violated expectation may name the claims (by
 * their effect) the violations are expected of: every other claim must then hold, so a claim that
 * fails on purpose in every run cannot hide a regression in the claims beside it.
 */
export type ExpectedVerdict = { readonly verdict: 'holds' } | { readonly verdict: 'violated'; readonly violations: readonly Violation[]; readonly claims?: readonly string[] };

/** How completely a mode searched: every plan of its space, or a sample of it. */
export type Search = 'exhaustive' | 'sampled';

export interface Judgement {
  readonly verdict: Verdict;
  readonly expected: ExpectedVerdict;
  readonly asExpected: boolean;
  /** Violations found, in severity order. */
  readonly found: readonly Violation[];
  /** Expected violations no run found (an exhaustive search must find every one). */
  readonly missing: readonly Violation[];
  /** Violations found that the scenario does not expect. */
  readonly unexpected: readonly Violation[];
  /** Claims (by effect) found violated that the expectation names as holding: every claim it does not name, when it names some. */
  readonly unexpectedClaims: readonly string[];
  /**
   * Clauses some run could not decide, each once. Any makes the result not as expected, whatever
   * the other clauses found: a clause that cannot be judged is a mistake in the design or its
   * claim (a component or table it reads that is not there), never a pass.
   */
  readonly undecided: readonly Undecided[];
}

/**
 * Judges a verdict against an expectation. The rule is the same for every mode: the verdict must
 * be the one expected ("holds within bound" counts as holding, and the report says within which
 * bound), no violation may be found that is not expected, and every clause must have been
 * decided in every run. An exhaustive search must also
 * find every expected violation; a sampled one (explore) stops at its first counterexample, so
 * it cannot be asked to show them all. An unknown verdict is never as expected.
 */
export function judge(expected: ExpectedVerdict, verdict: Verdict, found: Iterable<Violation>, search: Search, violatedClaims: Iterable<string> = [], undecided: readonly Undecided[] = [], vacuous: readonly Undecided[] = []): Judgement {
  const foundSet = new Set(found);
  // Stryker disable next-line ConditionalExpression: an expectation that holds names no claims, so reading its claims gives undefined as this does.
  const named = expected.verdict === 'violated' ? expected.claims : undefined;
  const unexpectedClaims = named === undefined ? [] : [...new Set(violatedClaims)].filter((c) => !named.includes(c));
  const ordered = VIOLATIONS.filter((v) => foundSet.has(v));
  const expectedViolations = expected.verdict === 'violated' ? expected.violations : [];
  const missing = search === 'exhaustive' ? expectedViolations.filter((v) => !foundSet.has(v)) : [];
  const unexpected = ordered.filter((v) => !expectedViolations.includes(v));
  const holds = verdict === 'holds' || verdict === 'holds within bound';
  const verdictMatches = expected.verdict === 'holds' ? holds : verdict === 'violated';
  // A claim that no run gave anything to judge (ClauseTally.vacuous) would make a pass that tested
  // nothing: where the verdict would hold, it is undecided, and the verdict unknown. Beside a
  // violation it changes nothing: the violation is what the search found.
  const clauses = distinctUndecided(holds ? [...undecided, ...vacuous] : undecided);
  if (clauses.length > 0 && holds) verdict = 'unknown';
  return { verdict, expected, asExpected: verdictMatches && missing.length === 0 && unexpected.length === 0 && unexpectedClaims.length === 0 && clauses.length === 0, found: ordered, missing, unexpected, unexpectedClaims, undecided: clauses };
}

/** Each claim's clause once, with the first reason given for it. */
function distinctUndecided(all: readonly Undecided[]): Undecided[] {
  const seen = new Map<string, Undecided>();
  for (const u of all) {
    const key = `${u.effect}\u0000${u.clause}`;
    if (!seen.has(key)) seen.set(key, u);
  }
  return [...seen.values()];
}

/** Whether an outcome is a violation the expectation does not declare (any violation, when it expects holds). */
export function isUnexpectedOutcome(expected: ExpectedVerdict, outcome: RunOutcome): boolean {
  if (outcome === 'holds' || outcome === 'unknown' || outcome === 'inconclusive') return false;
  return expected.verdict === 'holds' || !expected.violations.includes(outcome);
}

/** Whether an outcome is a violation the expectation declares: the scenario proving its point. */
export function isExpectedViolation(expected: ExpectedVerdict, outcome: RunOutcome): boolean {
  // The expectation lists violations only, so holds, unknown and inconclusive are never among them.
  return expected.verdict === 'violated' && (expected.violations as readonly RunOutcome[]).includes(outcome);
}

/**
 * The exit code of a command over these results: 0 when every one is as expected; 1 when some
 * verdict differs from its expectation; 3 when none differs but some search was inconclusive
 * (it decided nothing: shrink it, or raise its bound).
 */
export function exitCodeOf(judgements: Iterable<Judgement>): 0 | 1 | 3 {
  let code: 0 | 1 | 3 = 0;
  for (const j of judgements) {
    if (j.asExpected) continue;
    if (j.verdict !== 'inconclusive') return 1;
    code = 3;
  }
  return code;
}

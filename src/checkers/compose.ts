// A claim compiles to the checkers of its clauses; they run independently and compose into one
// verdict for the claim, and the claims of a run compose into the run's verdict, so a composed
// checker is itself a checker (Jepsen's `compose`). A checker that throws makes its clause
// `unknown` with the reason, never a pass; a clause without an observer is "not checked".
import type { Claim } from './claims.ts';
import type { WorldView } from '../kernel/worldView.ts';
import { runOutcome } from './verdict.ts';
import { checkAtMostOne } from './atMostOne.ts';
import { NOT_OBSERVED, observed, type Checker, type ClauseId } from './clause.ts';
import type { Finding, RunOutcome } from './finding.ts';
import { checkLiveness } from './liveness.ts';
import { checkPhantom } from './phantom.ts';
import { checkDifferentIntent, checkSameIntent, checkUnknownResolved } from './replay.ts';
import { checkFinality } from './finality.ts';
import { checkVersions } from './versions.ts';

/**
 * A clause in one run: held, violated, unknown (its checker threw), not checked (the claim gives
 * it no observer), not exercised (nothing to judge), or inconclusive (it needs the run's end, and
 * a bound cut the run first).
 */
export type ClauseStatus = 'holds' | 'violated' | 'unknown' | 'inconclusive' | 'not checked' | 'not exercised';

export interface ClauseResult {
  readonly clause: ClauseId;
  readonly status: ClauseStatus;
  readonly findings: readonly Finding[];
  /** Why the clause is unknown: the checker's error. */
  readonly reason?: string;
}

export interface ClaimVerdict {
  readonly effect: string;
  readonly outcome: RunOutcome;
  readonly clauses: readonly ClauseResult[];
  readonly findings: readonly Finding[];
}

/** Every run quiesces once faults are healed; a stuck run cannot be judged for liveness. */
const checkQuiescence: Checker = (claim, view) =>
  observed(1, view.result.ending.kind === 'stuck' ? [{ violation: 'stuck', effect: claim.effect, reason: view.result.ending.reason }] : []);

/** The clauses a claim makes, with their checkers, in report order. */
export function clausesOf(claim: Claim): readonly (readonly [ClauseId, Checker])[] {
  const g = claim.guarantee ?? 'exactlyOnceEffect';
  const out: [ClauseId, Checker][] = [];
  if (g !== 'atLeastOnce') out.push(['atMostOne', checkAtMostOne]);
  if (g !== 'atMostOnce') out.push(['liveness', checkLiveness]);
  out.push(['phantom', checkPhantom]);
  // Ordering is a clause only of claims that speak of versions.
  if (claim.versions) out.push(['versions', checkVersions]);
  if (claim.sameIntent !== undefined) out.push(['sameIntent', checkSameIntent]);
  if (claim.differentIntent !== undefined) out.push(['differentIntent', checkDifferentIntent]);
  if (claim.unknownCompletion !== undefined) out.push(['unknownResolved', checkUnknownResolved]);
  if (claim.finality !== undefined) out.push(['finality', checkFinality]);
  out.push(['quiescence', checkQuiescence]);
  return out;
}

export function checkClause(id: ClauseId, checker: Checker, claim: Claim, view: WorldView): ClauseResult {
  let o;
  try {
    o = checker(claim, view);
  } catch (error) {
    return { clause: id, status: 'unknown', findings: [], reason: error instanceof Error ? error.message : String(error) };
  }
  if (!o.observed) return { clause: id, status: 'not checked', findings: [] };
  if (o.findings.length > 0) return { clause: id, status: 'violated', findings: o.findings };
  return { clause: id, status: o.judged > 0 ? 'holds' : 'not exercised', findings: [] };
}

/**
 * The clauses judged at a run's end (every fact has its effect, every unknown outcome resolved,
 * the world quiet): a run the World's step bound cut never reached one, so they are inconclusive
 * there, while what the run did commit is judged as it stands (a duplicate is a duplicate).
 */
const AT_THE_END: ReadonlySet<ClauseId> = new Set(['liveness', 'unknownResolved', 'quiescence']);

export function checkClaim(claim: Claim, view: WorldView): ClaimVerdict {
  const ending = view.result.ending;
  const cut = ending.kind === 'stuck' && ending.reason.kind === 'steps' ? ending.reason : undefined;
  const clauses = clausesOf(claim).map(([id, checker]): ClauseResult => {
    if (cut !== undefined && AT_THE_END.has(id)) return { clause: id, status: 'inconclusive', findings: [], reason: `the run was cut by its bound of ${cut.bound} steps in its ${cut.phase} phase, before it could end` };
    return checkClause(id, checker, claim, view);
  });
  const findings = clauses.flatMap((c) => c.findings);
  return { effect: claim.effect, outcome: runOutcome(findings, clauses.some((c) => c.status === 'unknown'), clauses.some((c) => c.status === 'inconclusive')), clauses, findings };
}

export { NOT_OBSERVED };

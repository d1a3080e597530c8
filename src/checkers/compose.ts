// A claim compiles to the checkers its guarantee implies; they run independently and their
// findings merge. A checker that throws makes the claim `unknown` with the reason, never a pass
// (Jepsen's rule: an unsure checker must not look like a green one).
import type { Claim } from '../claims.ts';
import type { WorldView } from '../worldView.ts';
import { checkAtMostOne } from './atMostOne.ts';
import type { Finding } from './finding.ts';
import { checkLiveness } from './liveness.ts';
import { checkPhantom } from './phantom.ts';
import { checkDifferentIntent, checkSameIntent, checkUnknownResolved } from './replay.ts';
import { checkVersions } from './versions.ts';

export type Checker = (claim: Claim, view: WorldView) => Finding[];

export interface ClaimVerdict {
  readonly verdict: 'holds' | 'violated' | 'unknown';
  readonly findings: readonly Finding[];
  readonly unknown: readonly string[];
}

/** The checkers a claim compiles to, by name, in a fixed order. */
export function checkersFor(claim: Claim): [string, Checker][] {
  const g = claim.guarantee ?? 'exactlyOnceEffect';
  const out: [string, Checker][] = [];
  if (g !== 'atLeastOnce') out.push(['at most one outcome per key', checkAtMostOne]);
  if (g !== 'atMostOnce') out.push(['every committed fact yields its effect', checkLiveness]);
  out.push(['no effect without a committed fact', checkPhantom]);
  out.push(['versions never move backwards', checkVersions]);
  out.push(['same intent returns the recorded result', checkSameIntent]);
  out.push(['different intent conflicts', checkDifferentIntent]);
  out.push(['unknown external completion ends resolved', checkUnknownResolved]);
  return out;
}

export function checkClaim(claim: Claim, view: WorldView, extra: readonly [string, Checker][] = []): ClaimVerdict {
  const findings: Finding[] = [];
  const unknown: string[] = [];
  for (const [name, checker] of [...checkersFor(claim), ...extra]) {
    try {
      findings.push(...checker(claim, view));
    } catch (error) {
      unknown.push(`${name}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  if (view.result.ending === 'stuck') {
    findings.push({ violation: 'stuck', effect: claim.effect, detail: view.result.stuckReason ?? 'no quiescence' });
  }
  const verdict = findings.length > 0 ? 'violated' : unknown.length > 0 ? 'unknown' : 'holds';
  return { verdict, findings, unknown };
}

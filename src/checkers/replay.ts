// The replay clauses of a claim's sentence:
// - same intent returns the recorded result: every successful reply for one intent names the
//   same outcome;
// - different intent conflicts: a different intent under an existing key is refused;
// - unknown external completion ends resolved: nothing is left pending or unknown at quiescence.
import type { Claim } from './claims.ts';
import type { WorldView } from '../kernel/worldView.ts';
import { NOT_OBSERVED, observed, type Observation } from './clause.ts';
import type { Finding } from './finding.ts';

export function checkSameIntent(claim: Claim, view: WorldView): Observation {
  if (!claim.replies) return NOT_OBSERVED;
  const first = new Map<string, string>();
  const findings: Finding[] = [];
  const replies = claim.replies(view).filter((r) => r.ok);
  // Only an intent answered more than once says anything about replay.
  const answers = new Map<string, number>();
  for (const r of replies) answers.set(r.intent, (answers.get(r.intent) ?? 0) + 1);
  for (const r of replies) {
    const seen = first.get(r.intent);
    if (seen === undefined) first.set(r.intent, r.outcome);
    else if (seen !== r.outcome) findings.push({ violation: 'replay mismatch', effect: claim.effect, key: r.intent, first: seen, then: r.outcome });
  }
  return observed([...answers.values()].filter((n) => n > 1).length, findings);
}

export function checkDifferentIntent(claim: Claim, view: WorldView): Observation {
  if (!claim.conflicts) return NOT_OBSERVED;
  const attempts = claim.conflicts(view);
  const findings: Finding[] = [];
  for (const c of attempts) if (!c.refused) findings.push({ violation: 'conflict mishandled', effect: claim.effect, key: c.key });
  return observed(attempts.length, findings);
}

export function checkUnknownResolved(claim: Claim, view: WorldView): Observation {
  if (!claim.unresolved) return NOT_OBSERVED;
  const findings: Finding[] = claim.unresolved(view).map((key) => ({ violation: 'unresolved unknown outcome' as const, effect: claim.effect, key }));
  // Every outcome the effect produced was judged resolved or not.
  return observed(claim.outcomes(view).length + findings.length, findings);
}

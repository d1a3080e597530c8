// Same intent returns the recorded result: every successful reply for one intent names the
// same outcome. Different intent conflicts: a different intent under an existing key is refused.
import type { Claim } from '../claims.ts';
import type { WorldView } from '../worldView.ts';
import type { Finding } from './finding.ts';

export function checkSameIntent(claim: Claim, view: WorldView): Finding[] {
  if (!claim.replies) return [];
  const first = new Map<string, string>();
  const findings: Finding[] = [];
  for (const r of claim.replies(view)) {
    if (!r.ok) continue;
    const seen = first.get(r.intent);
    if (seen === undefined) first.set(r.intent, r.outcome);
    else if (seen !== r.outcome) {
      findings.push({ violation: 'replay mismatch', effect: claim.effect, detail: `intent ${r.intent} got ${seen} and then ${r.outcome}` });
    }
  }
  return findings;
}

export function checkDifferentIntent(claim: Claim, view: WorldView): Finding[] {
  if (!claim.conflicts) return [];
  return claim
    .conflicts(view)
    .filter((c) => !c.refused)
    .map((c) => ({ violation: 'conflict mishandled' as const, effect: claim.effect, detail: `a different intent under key ${c.key} was not refused` }));
}

export function checkUnknownResolved(claim: Claim, view: WorldView): Finding[] {
  if (!claim.unresolved) return [];
  return claim
    .unresolved(view)
    .map((key) => ({ violation: 'unresolved unknown outcome' as const, effect: claim.effect, detail: `outcome for ${key} is still unknown at quiescence` }));
}

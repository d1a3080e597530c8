// Liveness: once faults are healed and the world is quiescent, every committed source fact has
// yielded its effect. Judged only after the liveness phase, so a slow retry is not a loss.
import type { Claim } from '../claims.ts';
import type { WorldView } from '../worldView.ts';
import type { Finding } from './finding.ts';

export function checkLiveness(claim: Claim, view: WorldView): Finding[] {
  if (!claim.facts) return [];
  const have = new Set(claim.outcomes(view).map((o) => o.key));
  return claim
    .facts(view)
    .filter((k) => !have.has(k))
    .map((key) => ({ violation: 'lost effect' as const, effect: claim.effect, detail: `committed fact ${key} has no ${claim.effect}` }));
}

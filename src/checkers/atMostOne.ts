// Safety: at most one committed outcome per key.
import type { Claim } from '../claims.ts';
import type { WorldView } from '../worldView.ts';
import type { Finding } from './finding.ts';

export function checkAtMostOne(claim: Claim, view: WorldView): Finding[] {
  const counts = new Map<string, number>();
  for (const o of claim.outcomes(view)) counts.set(o.key, (counts.get(o.key) ?? 0) + 1);
  return [...counts]
    .filter(([, n]) => n > 1)
    .map(([key, n]) => ({ violation: 'duplicate effect' as const, effect: claim.effect, detail: `${n} committed outcomes for key ${key}` }));
}

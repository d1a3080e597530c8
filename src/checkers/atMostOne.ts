// Safety: at most one committed outcome per key.
import type { Claim } from './claims.ts';
import type { WorldView } from '../kernel/worldView.ts';
import { observed, outcomesOf, type Observation } from './clause.ts';
import type { Finding } from './finding.ts';

export function checkAtMostOne(claim: Claim, view: WorldView): Observation {
  const outcomes = outcomesOf(claim, view);
  const counts = new Map<string, number>();
  for (const o of outcomes) counts.set(o.key, (counts.get(o.key) ?? 0) + 1);
  const findings: Finding[] = [];
  for (const [key, count] of counts) if (count > 1) findings.push({ violation: 'duplicate effect', effect: claim.effect, key, count });
  return observed(outcomes.length, findings);
}

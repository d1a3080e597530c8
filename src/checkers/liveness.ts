// Liveness: once faults are healed and the world is quiescent, every committed source fact has
// yielded its effect. Judged only after the liveness phase, so a slow retry is not a loss.
import type { Claim } from './claims.ts';
import type { WorldView } from '../kernel/worldView.ts';
import { factsOf, NOT_OBSERVED, observed, outcomesOf, type Observation } from './clause.ts';
import type { Finding } from './finding.ts';

export function checkLiveness(claim: Claim, view: WorldView): Observation {
  if (!claim.facts || claim.unchecked?.includes('lost effect')) return NOT_OBSERVED;
  const have = new Set(outcomesOf(claim, view).map((o) => o.key));
  const facts = factsOf({ ...claim, facts: claim.facts }, view);
  const findings: Finding[] = [];
  for (const key of facts) if (!have.has(key)) findings.push({ violation: 'lost effect', effect: claim.effect, key });
  return observed(facts.length, findings);
}

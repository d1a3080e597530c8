// No effect without a committed source fact: an effect whose fact never committed is a phantom.
import type { Claim } from './claims.ts';
import type { WorldView } from '../kernel/worldView.ts';
import { factsOf, NOT_OBSERVED, observed, outcomesOf, type Observation } from './clause.ts';
import type { Finding } from './finding.ts';

export function checkPhantom(claim: Claim, view: WorldView): Observation {
  const sources = claim.sources ?? claim.facts;
  if (!sources || claim.unchecked?.includes('phantom effect')) return NOT_OBSERVED;
  const facts = new Set(factsOf({ ...claim, facts: sources }, view));
  const outcomes = outcomesOf(claim, view);
  const seen = new Set<string>();
  const findings: Finding[] = [];
  for (const o of outcomes) {
    if (facts.has(o.key) || seen.has(o.key)) continue;
    seen.add(o.key);
    findings.push({ violation: 'phantom effect', effect: claim.effect, key: o.key });
  }
  return observed(outcomes.length, findings);
}

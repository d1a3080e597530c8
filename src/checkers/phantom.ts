// No effect without a committed source fact: an effect whose fact never committed is a phantom.
import type { Claim } from '../claims.ts';
import type { WorldView } from '../worldView.ts';
import type { Finding } from './finding.ts';

export function checkPhantom(claim: Claim, view: WorldView): Finding[] {
  if (!claim.facts) return [];
  const facts = new Set(claim.facts(view));
  const seen = new Set<string>();
  const findings: Finding[] = [];
  for (const o of claim.outcomes(view)) {
    if (facts.has(o.key) || seen.has(o.key)) continue;
    seen.add(o.key);
    findings.push({ violation: 'phantom effect', effect: claim.effect, detail: `${claim.effect} ${o.key} has no committed source fact` });
  }
  return findings;
}

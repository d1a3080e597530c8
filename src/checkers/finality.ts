// A final result is never revised silently (seed 000: "'Final' is a product policy. A financial
// ledger may never silently revise a closed period; it posts an adjusting entry. A dashboard may
// update a displayed bucket."). The claim lists every revision made after a period was final, as
// its authority recorded it; each silent one (in place, under the same version, or a correction
// linked to no result) is a finding. A claim that says nothing of finality is not checked here.
import type { Claim } from './claims.ts';
import type { WorldView } from '../kernel/worldView.ts';
import { NOT_OBSERVED, observed, type Observation } from './clause.ts';
import type { Finding } from './finding.ts';

export function checkFinality(claim: Claim, view: WorldView): Observation {
  if (!claim.revisions) return NOT_OBSERVED;
  const revisions = claim.revisions(view);
  const findings: Finding[] = [];
  const reported = new Set<string>();
  for (const r of revisions) {
    if (!r.silent || reported.has(r.key)) continue;
    reported.add(r.key);
    findings.push({ violation: 'silent revision', effect: claim.effect, key: r.key, how: r.how });
  }
  return observed(revisions.length, findings);
}

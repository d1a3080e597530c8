// Per-aggregate versions never move backwards: each applied version is at least the previous.
import type { Claim } from '../claims.ts';
import type { WorldView } from '../worldView.ts';
import type { Finding } from './finding.ts';

export function checkVersions(claim: Claim, view: WorldView): Finding[] {
  if (!claim.versions) return [];
  const findings: Finding[] = [];
  for (const [aggregate, history] of Object.entries(claim.versions(view)).sort(([a], [b]) => (a < b ? -1 : 1))) {
    for (let i = 1; i < history.length; i++) {
      if (history[i]! < history[i - 1]!) {
        findings.push({ violation: 'order regression', effect: claim.effect, detail: `${aggregate} moved from version ${history[i - 1]} back to ${history[i]}` });
        break;
      }
    }
  }
  return findings;
}

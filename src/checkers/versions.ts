// Per-aggregate versions never move backwards: each applied version is at least the one applied
// just before it (not merely the first one: 1, 3, 2 is a regression even though 2 > 1).
import type { Claim } from './claims.ts';
import type { WorldView } from '../kernel/worldView.ts';
import { NOT_OBSERVED, observed, type Observation } from './clause.ts';
import type { Finding } from './finding.ts';

export function checkVersions(claim: Claim, view: WorldView): Observation {
  if (!claim.versions) return NOT_OBSERVED;
  const findings: Finding[] = [];
  const histories = Object.entries(claim.versions(view)).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  for (const [key, history] of histories) {
    for (let i = 1; i < history.length; i++) {
      if (history[i]! < history[i - 1]!) {
        findings.push({ violation: 'order regression', effect: claim.effect, key, from: history[i - 1]!, to: history[i]! });
        break;
      }
    }
  }
  return observed(histories.length, findings);
}

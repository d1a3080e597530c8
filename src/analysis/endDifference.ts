// What a run's end state shows that its finding points at, in a line per key: the fact committed
// in the source and missing from the effect table for a lost effect, the two outcomes under one
// key for a duplicate, the effect with no fact behind it for a phantom. The evidence a failure
// window row shows at the fault says what was at stake; this says what became of it.
import { findingKey, type Finding, type RunOutcome } from '../checkers/finding.ts';
import type { Claim } from '../checkers/claims.ts';

function differenceOf(f: Finding, claim: Claim | undefined): string {
  const t = claim?.tables;
  switch (f.violation) {
    case 'lost effect':
      return t?.source ? `${f.key} committed in ${t.source.table}, missing from ${t.effect.table}` : `${f.key}: a committed fact with no ${f.effect}`;
    case 'duplicate effect':
      return t ? `${f.count} rows for ${f.key} in ${t.effect.table}` : `${f.count} outcomes of ${f.effect} for ${f.key}`;
    case 'phantom effect':
      return t?.source ? `${f.key} in ${t.effect.table}, no fact in ${t.source.table}` : `${f.key}: ${f.effect} with no fact behind it`;
    default:
      return `${f.violation}${findingKey(f) === undefined ? '' : ` ${findingKey(f)}`}`;
  }
}

/** One line per finding of the run's worst kind, keys sorted; none when the run held. */
export function endDifferenceOf(outcome: RunOutcome, findings: readonly Finding[], claims: readonly Claim[]): string[] {
  const worst = findings.filter((f) => f.violation === outcome);
  return worst.map((f) => differenceOf(f, claims.find((c) => c.effect === f.effect))).sort();
}

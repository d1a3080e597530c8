// "Did you mean": the valid name closest to a mistyped one, by edit distance, so a refusal can
// name what the user most likely meant (`lost efect` → `lost effect`).

/** Levenshtein distance: insertions, deletions and substitutions, each costing one. */
export function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row[j] = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = row;
  }
  return prev[b.length]!;
}

/** The candidate closest to `name`, when it is close enough to be a plausible typo. */
export function nearest(name: string, candidates: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const c of candidates) {
    const d = editDistance(name.toLowerCase(), c.toLowerCase());
    if (d < bestDistance) {
      best = c;
      bestDistance = d;
    }
  }
  return best !== undefined && bestDistance <= Math.max(2, Math.floor(best.length / 3)) ? best : undefined;
}

/** ` (did you mean X?)`, or nothing when no candidate is close. */
export function didYouMean(name: string, candidates: Iterable<string>): string {
  const n = nearest(name, candidates);
  return n === undefined ? '' : ` (did you mean ${n}?)`;
}

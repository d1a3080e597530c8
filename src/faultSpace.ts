// The space of faults a sweep strikes, enumerated in a fixed order from the design and one
// fault-free reference run: a crash at every failure window (each occurrence up to a bound, at
// least the first, so a window the workload never enters is still tried and reported as never
// struck), then every message fault kind at every message point the reference run sent (each
// occurrence up to the bound), where the link can suffer that kind (a database connection is
// never duplicated or reordered; see DesignComponent.messageFaults) or where its receiver
// declares it for that message (a rebalance, only of a record delivered to a member of a group
// of two or more; see DesignComponent.receivedFaults). Where a design declares them, a restore of
// each component with a snapshot at every process window, and a skew of each component whose
// clock can jump at every window of its own, each occurrence up to the bound (at least the first),
// follow the crashes. Pairs are every two distinct single faults.
import { FAULT_KINDS, isDeclaredKind, MESSAGE_FAULT_KINDS, type Fault, type FaultKind, type FaultPlan } from './faults.ts';
import { failureWindows, processWindows, restorableComponents, skewableWindows } from './failureWindows.ts';
import { parsePoint } from './place.ts';
import type { RunRecord } from './runScenario.ts';
import { linkFaults } from './scenario.ts';

export interface FaultSpaceOptions {
  readonly maxOccurrence: number;
  readonly kinds?: readonly FaultKind[];
}

export interface FaultSpace {
  /** Every single fault, crashes first, then message points in name order. */
  readonly singles: readonly Fault[];
  readonly windows: readonly string[];
  readonly points: readonly string[];
  readonly kinds: readonly FaultKind[];
}

export function faultSpace(reference: RunRecord, options: FaultSpaceOptions): FaultSpace {
  const asked = FAULT_KINDS.filter((k) => (options.kinds ?? FAULT_KINDS).includes(k));
  const counts = reference.report.windowCounts;
  const windows = failureWindows(reference.components);
  const points = [...reference.report.census.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const singles: Fault[] = [];
  if (asked.includes('crash')) {
    for (const window of windows) {
      const n = Math.max(1, Math.min(counts.get(window) ?? 0, options.maxOccurrence));
      for (let occurrence = 1; occurrence <= n; occurrence++) singles.push({ kind: 'crash', window, occurrence });
    }
  }
  const occurrences = (window: string) => Math.max(1, Math.min(counts.get(window) ?? 0, options.maxOccurrence));
  const moments = processWindows(reference.components);
  if (asked.includes('restore')) {
    for (const component of restorableComponents(reference.components)) {
      for (const window of moments) for (let occurrence = 1; occurrence <= occurrences(window); occurrence++) singles.push({ kind: 'restore', component, window, occurrence });
    }
  }
  if (asked.includes('skew')) {
    for (const window of skewableWindows(reference.components)) for (let occurrence = 1; occurrence <= occurrences(window); occurrence++) singles.push({ kind: 'skew', window, occurrence });
  }
  for (const point of points) {
    const count = reference.report.census.get(point) ?? 0;
    const p = parsePoint(point)!;
    const onLink = linkFaults(reference.components, p.from, p.to, p.type);
    for (const kind of MESSAGE_FAULT_KINDS) {
      if (!asked.includes(kind) || !onLink.includes(kind)) continue;
      for (let occurrence = 1; occurrence <= Math.min(count, options.maxOccurrence); occurrence++) singles.push({ kind, point, occurrence });
    }
  }
  // A declared kind no point of this design offers is not part of its space, and coverage does
  // not claim it was tried.
  const kinds = asked.filter((k) => !isDeclaredKind(k) || singles.some((f) => f.kind === k));
  return { singles, windows, points, kinds };
}

/**
 * Every plan of one fault, then (with `pairs`) every plan of two distinct faults, in a fixed order.
 * Given `strikesAt`, the step of the reference run at which each single fault would strike
 * (Infinity for one whose place the reference run never reaches), pairs are grouped by the one
 * of their two faults that strikes first, groups in the order they strike: a pair's run is the
 * run of that fault alone until the other strikes, so a sweep captures that run once for its
 * whole group (src/windowsPart.ts). A pair names its faults in the order of the singles either way.
 */
export function plansOf(space: FaultSpace, pairs: boolean, strikesAt?: (f: Fault) => number): FaultPlan[] {
  const singles = space.singles;
  const plans: FaultPlan[] = singles.map((f) => [f]);
  if (!pairs) return plans;
  const order = singles.map((_, i) => i);
  if (strikesAt !== undefined) {
    const at = singles.map(strikesAt);
    // A stable sort: faults that strike in the same step keep the singles' order.
    order.sort((a, b) => at[a]! - at[b]! || a - b);
  }
  for (let p = 0; p < order.length; p++) {
    for (let q = p + 1; q < order.length; q++) {
      const i = Math.min(order[p]!, order[q]!);
      const j = Math.max(order[p]!, order[q]!);
      plans.push([singles[i]!, singles[j]!]);
    }
  }
  return plans;
}

// The space of faults a sweep strikes, enumerated in a fixed order from the design and one run
// (the fault-free reference run; for the second fault of a pair, the run of the first): a crash at
// every failure window (every occurrence the run reached, or those up to a bound when one is set;
// at least the first, so a window the workload never enters is still tried and reported as never
// struck), then every message fault kind at every message point the run sent (each occurrence
// likewise), where the link can suffer that kind (a database connection is
// never duplicated or reordered; see DesignComponent.messageFaults) or where its receiver
// declares it for that message (a rebalance, only of a record delivered to a member of a group
// of two or more; see DesignComponent.subscribes and receivedFaults). Where a design declares them, a restore of
// each component with a snapshot at every process window, and a skew of each component whose
// clock can jump at every window of its own, each occurrence likewise (at least the first),
// follow the crashes. A bound that leaves occurrences out is counted (`beyond`), so a verdict
// over the space can say it holds only within that bound.
import { FAULT_KINDS, faultDescriptor, faultPlaceName, isDeclaredKind, MESSAGE_FAULT_KINDS, windowDescriptors, type Fault, type FaultKind } from '../faults/faults.ts';
import { offeredSpace } from '../run/failureWindows.ts';
import { parsePoint } from '../faults/place.ts';
import type { RunRecord } from '../run/runScenario.ts';
import { linkFaults } from '../faults/linkFaults.ts';
import { InputError } from '../base/inputError.ts';

export interface FaultSpaceOptions {
  /** Strike each place at its first this many occurrences; every occurrence the run reached when absent. */
  readonly maxOccurrence?: number;
  readonly kinds?: readonly FaultKind[];
  /** Only the faults at this failure window or message point (`--only`); every place when absent. */
  readonly only?: string;
  /** Refuse a space with no fault in it (the reference run's), naming this scenario. */
  readonly strict?: boolean;
  readonly scenario?: string;
}

export interface FaultSpace {
  /** Every single fault, crashes first, then message points in name order. */
  readonly singles: readonly Fault[];
  readonly windows: readonly string[];
  readonly points: readonly string[];
  readonly kinds: readonly FaultKind[];
  /** Occurrences the run reached, summed over every place and kind of the space. */
  readonly reached: number;
  /** Of those, the ones a bound left out: none when every occurrence is struck. */
  readonly beyond: number;
  /** The most occurrences one place had. */
  readonly most: number;
}

export function faultSpace(run: RunRecord, options: FaultSpaceOptions): FaultSpace {
  const asked = FAULT_KINDS.filter((k) => (options.kinds ?? FAULT_KINDS).includes(k));
  const bound = options.maxOccurrence ?? Infinity;
  // Faults strike only in the safety phase: what the liveness phase reached is no place for one.
  const { windowCounts: counts, census } = run.report.struckable;
  const points = [...census.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const singles: Fault[] = [];
  let reached = 0;
  let beyond = 0;
  let most = 0;
  /** Every occurrence of a place up to the bound, given how many the run reached (`least`: tried even when none). */
  const each = (count: number, least: number, fault: (occurrence: number) => Fault) => {
    if (options.only !== undefined && faultPlaceName(fault(1)) !== options.only) return;
    reached += count;
    most = Math.max(most, count);
    const n = Math.max(least, Math.min(count, bound));
    beyond += Math.max(0, count - n);
    for (let occurrence = 1; occurrence <= n; occurrence++) singles.push(fault(occurrence));
  };
  // A window the options rule out (a consumer with no inbox has no inbox insert) is no place to
  // strike, unless the run reached it after all; any other window the run did not reach is tried
  // once, since a fault before it may lead there.
  const space = offeredSpace(run.components, (w) => counts.has(w));
  for (const kind of windowDescriptors()) {
    if (asked.includes(kind.kind)) for (const place of kind.places(space)) each(counts.get(place.window) ?? 0, 1, place.fault);
  }
  for (const point of points) {
    const count = census.get(point) ?? 0;
    const p = parsePoint(point)!;
    const onLink = linkFaults(run.components, p.from, p.to, p.type);
    for (const kind of MESSAGE_FAULT_KINDS) if (asked.includes(kind) && onLink.includes(kind)) each(count, 0, (occurrence) => ({ kind, point, occurrence }));
  }
  // A declared kind no point of this design offers is not part of its space, and coverage does
  // not claim it was tried.
  const kinds = asked.filter((k) => !isDeclaredKind(k) || singles.some((f) => f.kind === k));
  if (options.strict && singles.length === 0) refuseNoFault(options.scenario ?? 'the design', asked);
  return { singles, windows: space.windows, points, kinds, reached, beyond, most };
}

/**
 * Refuses a sweep or a search that could strike no fault at all: one whose kinds (the scenario's
 * `windows.kinds` or `--kinds`) are empty or name only faults the design offers nowhere. Run, it
 * would answer "holds" having tried nothing.
 */
export function refuseNoFault(scenario: string, asked: readonly FaultKind[]): never {
  if (asked.length === 0) throw new InputError(`${scenario}: no fault kind to strike (its kinds are empty); name at least one of ${FAULT_KINDS.join(', ')}`);
  throw new InputError(`${scenario}: no fault of the kinds asked for can strike it (${asked.map((k) => `${k}: ${faultDescriptor(k)?.nowhere ?? 'no such fault kind'}`).join('; ')})`);
}

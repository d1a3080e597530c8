// Sweeps spread over worker threads (src/sweep/sweepPool.ts), with results equal, byte for byte, to the
// same sweep in one thread. A windows sweep's numbered plans and an explore search's numbered
// cases are cut into stretches; threads tally the stretches, and the tallies merge here in order
// (src/modes/windowsPart.ts, src/modes/explore.ts), so every tie goes where one thread would have put it. The
// rows of a windows sweep are built on the threads too, each from its representative run run
// again. A check is one search per scenario, so checks of several scenarios run side by side.
//
// Every stretch is asked for at once, so no thread waits on a merge. Each task's promise is
// heard even when nothing awaits it any more: the first failure ends the pool (the command's
// withPool closes it), which refuses every task still waiting, and that must not go unheard.
import type { CatalogueEntry } from '../scenario/catalogue.ts';
import type { CheckResult } from '../modes/check/check.ts';
import type { ExploreOptions, ExplorePart, ExploreResult } from '../modes/explore.ts';
import type { SweepPool, TaskHooks } from './sweepPool.ts';
import type { CheckTaskOptions } from './sweepTask.ts';
import { finishWindows, sweepSettings, type WindowRow, type WindowsOptions, type WindowsResult } from '../modes/windows.ts';
import { emptyPart, mergeWindowsParts, sweepPlan, type SweepPlan, type WindowsPart } from '../modes/windowsPart.ts';

type Entry = Pick<CatalogueEntry, 'scenario' | 'ref'>;

/** Stretches [from, to) of a range: a few per thread, so a slow stretch does not hold the rest up, and none tiny. */
export function stretches(from: number, to: number, threads: number, least = 64): [number, number][] {
  const size = Math.max(least, Math.ceil((to - from) / (threads * 4)));
  const out: [number, number][] = [];
  for (let a = from; a < to; a += size) out.push([a, Math.min(to, a + size)]);
  return out;
}

/** A promise whose rejection is heard here as well as wherever it is awaited. */
function heard<T>(p: Promise<T>): Promise<T> {
  p.catch(() => undefined);
  return p;
}

/** The parts that count, in order: up to and including the first that stopped; a skipped one ends them too. */
export function untilStop<T>(parts: readonly (T | undefined)[], stopped: (part: T) => boolean): T[] {
  const out: T[] = [];
  for (const p of parts) {
    if (p === undefined) break;
    out.push(p);
    if (stopped(p)) break;
  }
  return out;
}

/** A windows sweep's tally over the stretch `rangeOf` gives of its plans (all of them by default), on the pool's threads. */
export interface WindowsTally {
  readonly entry: Entry;
  readonly plan: SweepPlan;
  readonly part: WindowsPart;
}

export async function windowsPartsOnWorkers(entries: readonly Entry[], options: Omit<WindowsOptions, 'ref' | 'onRun'>, pool: SweepPool, rangeOf: (total: number) => [number, number] = (total) => [0, total], onRuns?: (runs: number) => void): Promise<WindowsTally[]> {
  const sweeps = entries.map((entry) => {
    const settings = sweepSettings(entry.scenario, options);
    const plan = sweepPlan(entry.scenario, settings);
    options.onPlanned?.(plan, entry.ref);
    let stopped = false;
    const [from, to] = rangeOf(plan.total);
    const parts = stretches(from, to, pool.size).map(([a, b]) =>
      heard(
        pool.run({ kind: 'windows', ref: entry.ref, settings, from: a, to: b, plans: plan.plans.slice(Math.max(0, a - 1), b - 1) }, { skip: () => stopped }).then((part) => {
          if (part?.stopped) stopped = true;
          if (part) onRuns?.(part.done);
          return part;
        }),
      ),
    );
    return { entry, plan, from, parts };
  });
  const out: WindowsTally[] = [];
  for (const { entry, plan, from, parts } of sweeps) {
    const counted = untilStop(await Promise.all(parts), (p) => p.stopped);
    // A shard's stretch may hold no plan at all; its tally is then empty.
    const part = counted.length > 0 ? mergeWindowsParts(counted) : emptyPart(entry.scenario.name, from);
    out.push({ entry, plan, part });
  }
  return out;
}


/** Every scenario's windows sweep, on the pool's threads; `onRuns` hears of runs as stretches finish. */
export async function windowsOnWorkers(entries: readonly Entry[], options: Omit<WindowsOptions, 'ref' | 'onRun'>, pool: SweepPool, onRuns?: (runs: number) => void): Promise<WindowsResult[]> {
  const tallies = await windowsPartsOnWorkers(entries, options, pool, undefined, onRuns);
  const rows = tallies.map(({ entry, plan, part }) => stretches(0, part.rows.length, pool.size, 8).map(([a, b]) => heard(pool.run({ kind: 'rows', ref: entry.ref, settings: plan.settings, rows: part.rows.slice(a, b) }))));
  const results: WindowsResult[] = [];
  for (const [k, { entry, plan, part }] of tallies.entries()) {
    const built: WindowRow[] = (await Promise.all(rows[k]!)).flatMap((r) => r!);
    results.push(finishWindows(entry.scenario, plan, part, entry.ref, undefined, built));
  }
  return results;
}

/** Every scenario's explore tally over cases [from, to), on the pool's threads; a search replaying one path runs whole on one. */
export async function explorePartsOnWorkers(entries: readonly Entry[], options: Omit<ExploreOptions, 'ref'>, pool: SweepPool, from = 0, to?: number): Promise<ExplorePart[]> {
  // Explore mode, and fast-check with it, loads only when an explore sweep asks for it: a windows
  // or check sweep, the common short command, does not pay to parse them.
  const { DEFAULT_RUNS, mergeExploreParts } = await import('../modes/explore.ts');
  to ??= options.runs ?? DEFAULT_RUNS;
  const searches = entries.map(({ ref }) => {
    const o: ExploreOptions = { ...options, ref };
    let failed = false;
    const cut = options.path === undefined ? stretches(from, to, pool.size, 50) : [[from, to] as [number, number]];
    return cut.map(([a, b]) =>
      heard(
        pool.run({ kind: 'explore', ref, options: o, from: a, count: b - a }, { skip: () => failed }).then((part) => {
          if (part?.failed) failed = true;
          return part;
        }),
      ),
    );
  });
  const out: ExplorePart[] = [];
  for (const [k, parts] of searches.entries()) {
    const counted = untilStop(await Promise.all(parts), (p) => p.failed !== undefined);
    out.push(counted.length > 0 ? mergeExploreParts(counted) : { scenario: entries[k]!.scenario.name, from, count: 0, runs: 0, outcomes: {}, clauses: [], unstruckRuns: 0 });
  }
  return out;
}

/** Every scenario's explore search, on the pool's threads. */
export async function exploreOnWorkers(entries: readonly Entry[], options: Omit<ExploreOptions, 'ref'>, pool: SweepPool): Promise<ExploreResult[]> {
  const parts = await explorePartsOnWorkers(entries, options, pool);
  const { explorationSpace, finishExplore } = await import('../modes/explore.ts');
  return entries.map(({ scenario, ref }, k) => finishExplore(scenario, { ...options, ref }, parts[k]!, explorationSpace(scenario)));
}

/** Every scenario's check, each on a thread of its own; `hooksOf` gives each search's hooks (its timing, say). */
export async function checkOnWorkers(entries: readonly Entry[], options: Omit<CheckTaskOptions, 'ref'>, pool: SweepPool, hooksOf: (ref: string) => TaskHooks = () => ({})): Promise<CheckResult[]> {
  const searches = entries.map(({ scenario, ref }) => {
    const hooks = hooksOf(ref);
    return heard(
      pool
        .run({ kind: 'check', ref, options }, hooks)
        // The claims stay in this thread, where the scenario is; they take their place in the result.
        .then((portable) => ({ ...portable!, claims: scenario.claims }) as CheckResult),
    );
  });
  return Promise.all(searches);
}

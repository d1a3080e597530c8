// Sweeps spread over worker threads (src/sweepPool.ts), with results equal, byte for byte, to the
// same sweep in one thread. A windows sweep's numbered plans and an explore search's numbered
// cases are cut into stretches; threads tally the stretches, and the tallies merge here in order
// (src/windowsPart.ts, src/explore.ts), so every tie goes where one thread would have put it. The
// rows of a windows sweep are built on the threads too, each from its representative run run
// again. A check is one search per scenario, so checks of several scenarios run side by side.
import type { CatalogueEntry } from './catalogue.ts';
import type { CheckResult } from './check/check.ts';
import { DEFAULT_RUNS, explorationSpace, finishExplore, mergeExploreParts, type ExploreOptions, type ExplorePart, type ExploreResult } from './explore.ts';
import type { SweepPool } from './sweepPool.ts';
import type { CheckTaskOptions } from './sweepTask.ts';
import { finishWindows, sweepSettings, type WindowRow, type WindowsOptions, type WindowsResult } from './windows.ts';
import { mergeWindowsParts, sweepPlan, type WindowsPart } from './windowsPart.ts';

type Entry = Pick<CatalogueEntry, 'scenario' | 'ref'>;

/** Stretches [from, to) of `total` items: a few per thread, so a slow stretch does not hold the rest up, and none tiny. */
export function stretches(from: number, total: number, threads: number, least = 64): [number, number][] {
  const size = Math.max(least, Math.ceil((total - from) / (threads * 4)));
  const out: [number, number][] = [];
  for (let a = from; a < total; a += size) out.push([a, Math.min(total, a + size)]);
  return out;
}

/** Every scenario's windows sweep, on the pool's threads; `onRun` hears of runs as stretches finish. */
export async function windowsOnWorkers(entries: readonly Entry[], options: Omit<WindowsOptions, 'ref' | 'onRun'>, pool: SweepPool, onRuns?: (runs: number) => void): Promise<WindowsResult[]> {
  // Every stretch of every scenario is asked for at once, so threads never wait on a scenario's merge.
  const sweeps = entries.map(({ scenario, ref }) => {
    const settings = sweepSettings(scenario, options);
    const plan = sweepPlan(scenario, settings);
    let stopped = false;
    const parts = stretches(0, plan.total, pool.size).map(([from, to]) =>
      pool
        .run({ kind: 'windows', ref, settings, from, to }, { skip: () => stopped })
        .then((part) => {
          if (part?.stopped) stopped = true;
          if (part) onRuns?.(part.done);
          return part;
        }),
    );
    return { scenario, ref, settings, plan, parts };
  });
  const results: WindowsResult[] = [];
  try {
    for (const { scenario, ref, settings, plan, parts } of sweeps) {
      const done = await Promise.all(parts);
      // A stretch skipped or run after one that stopped at a violation does not count.
      const counted: WindowsPart[] = [];
      for (const p of done) {
        if (!p) break;
        counted.push(p);
        if (p.stopped) break;
      }
      const merged = mergeWindowsParts(counted);
      const rowParts = stretches(0, merged.rows.length, pool.size, 8).map(([a, b]) => pool.run({ kind: 'rows', ref, settings, rows: merged.rows.slice(a, b) }));
      const rows: WindowRow[] = (await Promise.all(rowParts)).flatMap((r) => r!);
      results.push(finishWindows(scenario, plan, merged, ref, undefined, rows));
    }
  } finally {
    // Nothing left running may reject unheard.
    await Promise.allSettled(sweeps.flatMap((s) => s.parts));
  }
  return results;
}

/** Every scenario's explore search, on the pool's threads; a search replaying one path runs whole on one. */
export async function exploreOnWorkers(entries: readonly Entry[], options: Omit<ExploreOptions, 'ref'>, pool: SweepPool): Promise<ExploreResult[]> {
  const runs = options.runs ?? DEFAULT_RUNS;
  const searches = entries.map(({ scenario, ref }) => {
    const o: ExploreOptions = { ...options, ref };
    let failed = false;
    const cut = options.path === undefined ? stretches(0, runs, pool.size, 50) : [[0, runs] as [number, number]];
    const parts = cut.map(([from, to]) =>
      pool
        .run({ kind: 'explore', ref, options: o, from, count: to - from }, { skip: () => failed })
        .then((part) => {
          if (part?.failed) failed = true;
          return part;
        }),
    );
    return { scenario, o, parts };
  });
  const results: ExploreResult[] = [];
  try {
    for (const { scenario, o, parts } of searches) {
      const done = await Promise.all(parts);
      const counted: ExplorePart[] = [];
      for (const p of done) {
        if (!p) break;
        counted.push(p);
        if (p.failed) break;
      }
      results.push(finishExplore(scenario, o, mergeExploreParts(counted), explorationSpace(scenario)));
    }
  } finally {
    await Promise.allSettled(searches.flatMap((s) => s.parts));
  }
  return results;
}

/** Every scenario's check, each on a thread of its own. */
export async function checkOnWorkers(entries: readonly Entry[], options: Omit<CheckTaskOptions, 'ref'>, pool: SweepPool, onStart?: (ref: string) => void): Promise<CheckResult[]> {
  const searches = entries.map(({ scenario, ref }) =>
    pool
      .run({ kind: 'check', ref, options }, { onStart: () => onStart?.(ref) })
      // The claims stay in this thread, where the scenario is; they take their place in the result.
      .then((portable) => ({ ...portable!, claims: scenario.claims }) as CheckResult),
  );
  try {
    return await Promise.all(searches);
  } finally {
    await Promise.allSettled(searches);
  }
}

// A sweep's worker thread runs a stretch of plans the command numbered and sent it, on a plan of
// its own that holds only the reference run and the single faults (planning the pairs again would
// run every single fault once more on every thread). The stretch it tallies must be the one the
// command's own plan gives: the same runs, rows, first runs of each violation and pair tally,
// wherever the stretch starts (at the reference run, among the single faults, across the first
// pairs, or among the pairs alone), and the merged parts must be the whole sweep.
import { describe, expect, it } from 'vitest';
import { loadScenario } from '../../src/scenario/catalogue.ts';
import { sweepSettings } from '../../src/modes/windows.ts';
import { mergeWindowsParts, stretchPlan, sweepPlan, sweepWindows, type SweepPlan } from '../../src/modes/windowsPart.ts';

/** The plan a thread runs the stretch [from, to) on, given what the command sends it. */
function threadPlan(singles: SweepPlan, whole: SweepPlan, from: number, to: number): SweepPlan {
  return stretchPlan(singles, whole.settings, from, whole.plans.slice(Math.max(0, from - 1), to - 1));
}

describe('a stretch of a pairs sweep run from the plans sent to a thread', () => {
  it('tallies what the command’s own plan tallies, wherever the stretch starts, and merges into the whole sweep', async () => {
    const { scenario } = await loadScenario('mercury-dual-write-commit-first');
    const settings = sweepSettings(scenario, { pairs: true, maxOccurrence: 1 });
    const whole = sweepPlan(scenario, settings);
    const singles = sweepPlan(scenario, { ...settings, pairs: false });
    const firstPair = singles.total;
    expect(whole.total).toBeGreaterThan(firstPair + 20);
    expect(whole.plans[firstPair - 1]).toHaveLength(2);
    // At the reference run, inside the single faults, across the first pair, among pairs alone, to the end.
    const cuts = [0, 3, firstPair - 2, firstPair + 5, whole.total - 7, whole.total];
    const parts = [];
    for (let i = 0; i + 1 < cuts.length; i++) {
      const [from, to] = [cuts[i]!, cuts[i + 1]!];
      const sent = sweepWindows(scenario, threadPlan(singles, whole, from, to), from, to);
      expect(sent, `plans ${from} to ${to - 1}`).toEqual(sweepWindows(scenario, whole, from, to));
      parts.push(sent);
    }
    expect(mergeWindowsParts(parts)).toEqual(sweepWindows(scenario, whole, 0, whole.total));
  }, 60_000);

  it('keeps the sweep’s settings, so single faults count toward the pair tally', async () => {
    const { scenario } = await loadScenario('mercury-dual-write-commit-first');
    const settings = sweepSettings(scenario, { pairs: true, maxOccurrence: 1 });
    const whole = sweepPlan(scenario, settings);
    const singles = sweepPlan(scenario, { ...settings, pairs: false });
    const plan = threadPlan(singles, whole, 1, singles.total);
    expect(plan.settings.pairs).toBe(true);
    // A dual write breaks under single faults, which a pairs sweep tallies as breaking alone.
    expect(sweepWindows(scenario, plan, 1, singles.total).pairs.alone.length).toBeGreaterThan(0);
  }, 60_000);
});

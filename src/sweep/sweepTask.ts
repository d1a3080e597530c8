// One piece of a sweep that runs anywhere: a stretch of a windows sweep's plans, the rows of its
// tally, a stretch of an explore search, or a whole check. A task names its scenario by the
// reference the user gave (a catalogue name or a file path), so a worker thread loads the same
// scenario the command did, and what it returns is plain data a thread can post back and a
// shard can write to a file. The same code runs a task in a worker and in the command's own
// thread, so the two cannot drift apart.
import { loadScenario } from '../scenario/catalogue.ts';
import { check, type CheckOptions, type CheckResult } from '../modes/check/check.ts';
import { explorationSpace, exploreRange, type ExplorationSpace, type ExploreOptions, type ExplorePart } from '../modes/explore.ts';
import type { Scenario } from '../scenario/scenario.ts';
import type { WindowRow } from '../modes/windows.ts';
import { windowRowsOf } from '../modes/windows.ts';
import { stretchPlan, sweepPlan, sweepWindows, type RowPart, type SweepPlan, type SweepSettings, type WindowsPart } from '../modes/windowsPart.ts';
import type { FaultPlan } from '../faults/faults.ts';

/** The options of a check a task can carry: its own, less the callbacks. */
export type CheckTaskOptions = Omit<CheckOptions, 'onProgress'>;

export type SweepTask =
  | {
      readonly kind: 'windows';
      readonly ref: string;
      readonly settings: SweepSettings;
      readonly from: number;
      readonly to: number;
      /**
       * The stretch's plans as the command numbered them (plan `from + k` is `plans[k]`; plan 0,
       * the reference run's, is never sent). Planning a sweep's pairs runs every single fault
       * once, which the command has already done; a thread given the plans does not do it again.
       */
      readonly plans?: readonly FaultPlan[];
    }
  | { readonly kind: 'rows'; readonly ref: string; readonly settings: SweepSettings; readonly rows: readonly (readonly [string, RowPart])[] }
  | { readonly kind: 'explore'; readonly ref: string; readonly options: ExploreOptions; readonly from: number; readonly count: number }
  | { readonly kind: 'check'; readonly ref: string; readonly options: CheckTaskOptions };

/** A check's result as a task returns it: everything but the claims, which the scenario holds. */
export type PortableCheck = Omit<CheckResult, 'claims'>;

export type TaskResult<T extends SweepTask> = T extends { kind: 'windows' } ? WindowsPart : T extends { kind: 'rows' } ? WindowRow[] : T extends { kind: 'explore' } ? ExplorePart : PortableCheck;

/**
 * Runs tasks, keeping what several tasks of one scenario share: the scenario, a sweep's numbered
 * plans, an explore search's space.
 */
export class TaskRunner {
  private readonly scenarios = new Map<string, Promise<Scenario>>();
  private readonly plans = new Map<string, SweepPlan>();
  private readonly spaces = new Map<string, ExplorationSpace>();

  private scenario(ref: string): Promise<Scenario> {
    let s = this.scenarios.get(ref);
    if (!s) {
      s = loadScenario(ref).then((e) => e.scenario);
      this.scenarios.set(ref, s);
    }
    return s;
  }

  private plan(ref: string, scenario: Scenario, settings: SweepSettings): SweepPlan {
    const key = `${ref}\u0000${JSON.stringify(settings)}`;
    let p = this.plans.get(key);
    if (!p) {
      p = sweepPlan(scenario, settings);
      this.plans.set(key, p);
    }
    return p;
  }

  async run<T extends SweepTask>(task: T): Promise<TaskResult<T>> {
    const scenario = await this.scenario(task.ref);
    switch (task.kind) {
      case 'windows': {
        if (task.plans === undefined) return sweepWindows(scenario, this.plan(task.ref, scenario, task.settings), task.from, task.to) as TaskResult<T>;
        const plan = stretchPlan(this.plan(task.ref, scenario, { ...task.settings, pairs: false }), task.settings, task.from, task.plans);
        return sweepWindows(scenario, plan, task.from, task.to) as TaskResult<T>;
      }
      case 'rows':
        // A row is a single fault's, and a sweep's single faults are planned the same with pairs or without.
        return windowRowsOf(scenario, this.plan(task.ref, scenario, { ...task.settings, pairs: false }), task.rows) as TaskResult<T>;
      case 'explore': {
        let space = this.spaces.get(task.ref);
        if (!space) {
          space = explorationSpace(scenario);
          this.spaces.set(task.ref, space);
        }
        return exploreRange(scenario, task.options, task.from, task.count, space) as TaskResult<T>;
      }
      case 'check': {
        const { claims: _claims, ...portable } = check(scenario, { ...task.options, ref: task.ref });
        return portable as TaskResult<T>;
      }
    }
  }
}

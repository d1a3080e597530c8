// A scenario must be a function of its seed and plan: the same two give the same run, to the
// byte of its trace hash, in any process. Its own code can break that (an observer that reads
// Math.random, records stamped with Date.now, a timer of the host), and then no verdict, report
// or replay line of it can be trusted. So each mode, before it sweeps or searches, runs the
// fault-free run a second time from a fresh build of the design (a build reads the clock as
// readily as a run does) and refuses a scenario whose two runs differ.
import { InputError } from '../base/inputError.ts';
import type { Scenario } from '../scenario/scenario.ts';
import { judgeClaims, runScenario, viewOf, type RunRecord } from './runScenario.ts';

/** What a scenario found not to be deterministic is told: where such a difference comes from. */
export const NOT_DETERMINISTIC_HINT = 'its code must not draw random numbers, read the clock or use timers';

/** How many more times the second run's end state is judged. */
const JUDGED_AGAIN = 4;

/** Refuses `scenario` when a run made again from a fresh build differs from `first` (a hashed run). */
export function checkDeterministic(scenario: Scenario, first: RunRecord): void {
  // A copy of the scenario object is built anew: builds are kept per scenario object.
  const again = runScenario({ ...scenario }, { seed: first.seed, plan: first.plan, size: first.size, ...(first.driver === undefined ? {} : { driver: first.driver }) });
  // An observer that draws at random may agree twice by chance: the end state is judged a few
  // more times, which costs no run.
  const outcomes = [again.outcome, ...Array.from({ length: JUDGED_AGAIN }, () => judgeClaims(scenario, viewOf(again.report)).outcome)];
  const other = outcomes.find((o) => o !== first.outcome);
  if (again.report.traceHash === first.report.traceHash && other === undefined) return;
  const what = other === undefined ? `trace hash ${first.report.traceHash.slice(0, 12)}… and then ${again.report.traceHash.slice(0, 12)}…` : `${first.outcome} and then ${other}`;
  throw new InputError(`${scenario.name} is not deterministic: its fault-free run with seed ${first.seed} gave ${what}, built and run again the same way; ${NOT_DETERMINISTIC_HINT}`);
}

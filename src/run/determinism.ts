// A scenario must be a function of its seed and plan: the same two give the same run, to the
// byte of its trace hash, in any process. Its own code can break that (an observer that reads
// Math.random, records stamped with Date.now, a timer of the host, state kept from one run to the
// next), and then no verdict, report or replay line of it can be trusted. So windows, explore and
// check, before they sweep or search, run the fault-free run a second time from a fresh build of
// the design (a build reads the clock as readily as a run does) and refuse a scenario whose two
// runs differ; windows also holds the runs it makes again (a row's, a counterexample's) to what
// its sweep saw. A replay of a plan or a choice path runs once and checks nothing; one of an
// explore path builds the search's space, whose fault-free run is checked as explore's is.
import { InputError } from '../base/inputError.ts';
import type { Scenario } from '../scenario/scenario.ts';
import type { FaultPlan } from '../faults/faults.ts';
import { judgeClaims, runScenario, viewOf, type RunRecord } from './runScenario.ts';
import { stableJson } from '../kernel/trace.ts';

/** What a scenario found not to be deterministic is told: where such a difference comes from. */
export const NOT_DETERMINISTIC_HINT = 'its code must not draw random numbers, read the clock, use timers or keep state from one run to the next';

/** How many more times the second run's end state is judged. */
const JUDGED_AGAIN = 4;

/** Refuses `scenario` when a run made again from a fresh build differs from `first` (a hashed run). */
export function checkDeterministic(scenario: Scenario, first: RunRecord): void {
  // Builds are kept per scenario object, so one inheriting everything from it is built anew.
  const again = runScenario(Object.create(scenario) as Scenario, { seed: first.seed, plan: first.plan, size: first.size, ...(first.driver === undefined ? {} : { driver: first.driver }) });
  // An observer that draws at random may agree twice by chance: the end state is judged a few
  // more times, which costs no run.
  const outcomes = [again.outcome, ...Array.from({ length: JUDGED_AGAIN }, () => judgeClaims(scenario, viewOf(again.report)).outcome)];
  const other = outcomes.find((o) => o !== first.outcome);
  // What a component keeps need not pass through a message the trace records (a random tag
  // written into its own durable state): the end states are compared too.
  const ends = [stableJson(first.report.durable), stableJson(again.report.durable)] as const;
  if (again.report.traceHash === first.report.traceHash && other === undefined && ends[0] === ends[1]) return;
  const what =
    other !== undefined ? `${first.outcome} and then ${other}` : again.report.traceHash !== first.report.traceHash ? `trace hash ${first.report.traceHash.slice(0, 12)}… and then ${again.report.traceHash.slice(0, 12)}…` : `another durable end state (${difference(ends[0], ends[1])})`;
  throw new InputError(`${scenario.name} is not deterministic: its fault-free run with seed ${first.seed} gave ${what}, built and run again the same way; ${NOT_DETERMINISTIC_HINT}`);
}

/**
 * A run of a sweep made again with its seed and plan gave another outcome than the sweep saw.
 * Where the run made again ran from the start and the sweep's was taken up where its first fault
 * struck, `whole` says what a second run from the start gave. If the two from the start agree,
 * either the scenario keeps state that changed between the sweep and them, or the sweep's run was
 * the engine's mistake: the line says both, rather than blame one it cannot tell.
 */
export function notDeterministic(scenario: Scenario, plan: FaultPlan, sweep: string, again: string, whole?: string): never {
  if (whole !== undefined && whole === again) throw new InputError(`${scenario.name}: the plan ${JSON.stringify(plan)} gave ${sweep} in the sweep, taken up from its reference run, and ${whole} twice run from the start; ${NOT_DETERMINISTIC_HINT}, or, if it does none of these, the engine is at fault: report this line`);
  throw new InputError(`${scenario.name} is not deterministic: the plan ${JSON.stringify(plan)} gave ${sweep} first and ${again} when run again with the same seed; ${NOT_DETERMINISTIC_HINT}`);
}

/** Where two renderings first part, a few characters either side. */
function difference(a: string, b: string): string {
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  return `…${a.slice(Math.max(0, i - 20), i + 20)}… against …${b.slice(Math.max(0, i - 20), i + 20)}…`;
}

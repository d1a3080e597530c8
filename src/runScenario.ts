// One run of a scenario under one fault plan: build the world, run the safety and liveness
// phases, check every claim against the durable end state. Everything a report or a replay
// needs is in the returned record; the world itself is kept only when asked for.
import { checkClaim, type ClaimVerdict } from './checkers/compose.ts';
import { VIOLATIONS, type Finding, type RunOutcome } from './checkers/finding.ts';
import type { FaultPlan } from './faults.ts';
import type { Scenario } from './scenario.ts';
import { World, type Driver, type RunResult } from './world.ts';
import type { WorldView } from './worldView.ts';

export interface RunSpec {
  readonly seed: number;
  readonly plan: FaultPlan;
  /** Workload size; the scenario's own when absent. */
  readonly size?: number;
  readonly keepTrace?: boolean;
  /** Whether to hash the trace (default true); a run whose hash is never read can skip it. */
  readonly hashTrace?: boolean;
  /** How machines are stepped; the World's default when absent. */
  readonly driver?: Driver;
}

export interface RunRecord {
  readonly seed: number;
  readonly plan: FaultPlan;
  readonly size: number;
  readonly result: RunResult;
  /** The worst outcome of the run: the first violation in severity order, or holds. */
  readonly outcome: RunOutcome;
  readonly findings: readonly Finding[];
  readonly claims: readonly ClaimVerdict[];
  readonly world: World;
}

export function worstOutcome(findings: readonly Finding[], unknown: boolean): RunOutcome {
  for (const v of VIOLATIONS) if (findings.some((f) => f.violation === v)) return v;
  return unknown ? 'unknown' : 'holds';
}

export function runScenario(scenario: Scenario, spec: RunSpec): RunRecord {
  const size = spec.size ?? scenario.workload.size;
  const world = new World(scenario.build({ size }), {
    ...scenario.world,
    seed: spec.seed,
    plan: spec.plan,
    keepTrace: spec.keepTrace ?? false,
    hashTrace: spec.hashTrace ?? true,
    ...(spec.driver === undefined ? {} : { driver: spec.driver }),
  });
  const result = world.run();
  const view: WorldView = { durable: (name) => world.durable(name), result, notes: world.notes };
  const claims = scenario.claims.map((c) => checkClaim(c, view));
  const findings = claims.flatMap((c) => c.findings);
  const outcome = worstOutcome(findings, claims.some((c) => c.verdict === 'unknown'));
  return { seed: spec.seed, plan: spec.plan, size, result, outcome, findings, claims, world };
}

/** The paste-able line that reruns one plan exactly. */
export function replayLine(scenario: string, seed: number, plan: FaultPlan, size?: number): string {
  const sizeFlag = size === undefined ? '' : ` --size ${size}`;
  return `npx faultline replay ${scenario} --seed ${seed}${sizeFlag} --plan '${JSON.stringify(plan)}'`;
}

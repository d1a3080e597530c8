// The programmatic API: what a team's own test suite imports to gate on its designs.
//   import { runWindows, explore, defineScenario } from 'faultline';
export { runWindows, failureWindows, restingStates, type WindowsResult, type WindowRow, type Counterexample, type WindowsOptions } from './windows.ts';
export { explore, type ExploreResult, type ExploreOptions, type ExploreCounterexample } from './explore.ts';
export { runScenario, replayLine, type RunRecord, type RunSpec } from './runScenario.ts';
export { defineScenario, type Scenario, type Expectation, type Workload } from './scenario.ts';
export { claimSentence, type Claim, type Guarantee, type Outcome, type Reply } from './claims.ts';
export type { Finding, RunOutcome, Violation } from './checkers/finding.ts';
export { describeFault, describePlan, type Fault, type FaultPlan, type FaultKind } from './faults.ts';
export { World, type ComponentSpec, type WindowNote, type WorldOptions, type RunResult } from './world.ts';
export { Prng } from './prng.ts';
export { SimClock } from './clock.ts';
export { loadCatalogue, loadScenario } from './catalogue.ts';
export { InputError } from './inputError.ts';

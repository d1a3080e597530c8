// The programmatic API: what a team's own test suite imports to gate on its designs.
//   import { compose, defineScenario, runWindows, explore, replay } from 'faultline';
import { runScenario as runOne, type RunRecord as OneRun, type RunSpec as OneSpec } from './run/runScenario.ts';
import { sweepPlan as planSweep, type SweepPlan as Plan, type SweepSettings as Settings } from './modes/windowsPart.ts';
import { checkRanges } from './base/optionRanges.ts';
import { readPlan } from './faults/readPlan.ts';
import type { Scenario as AnyScenario } from './scenario/scenario.ts';
export { runWindows, DEFAULT_SEED, type WindowsResult, type WindowRow, type Counterexample, type WindowsOptions, type Evidence } from './modes/windows.ts';
export { explore, type ExploreResult, type ExploreOptions, type ExploreCounterexample, type ExploreSearch } from './modes/explore.ts';
export { replay, type ReplayResult, type ReplayInput } from './modes/replay.ts';
export { type RunRecord, type RunSpec } from './run/runScenario.ts';
export { failureWindows, restingStates } from './run/failureWindows.ts';
export { faultSpace, type FaultSpace } from './modes/faultSpace.ts';
export { type SweepPlan, type SweepSettings } from './modes/windowsPart.ts';
export { compose, compose as design, type Part, type BuildContext, type ComponentBuilder, type DesignBuild } from './scenario/compose.ts';
export { wiringProblems, checkWiring } from './scenario/wiring.ts';
export type { DesignIndex, WiringCheck } from './checkers/designIndex.ts';
export type { WorldView } from './kernel/worldView.ts';
export { NotInDesign } from './base/notInDesign.ts';
export { defineScenario, expectedAt, type Scenario, type Expectation, type Workload, type DesignComponent, type EvidencePart, type WindowNote, type WorldSettings } from './scenario/scenario.ts';
export type { Duration, TimeScale } from './base/duration.ts';
export { FACT_CLAUSES, type Claim, type Guarantee, type Outcome, type Reply, type ConflictAttempt, type FactClause, type ClaimTable, type ClaimTables, type TableView } from './checkers/claims.ts';
export { claimSentence } from './report/claimSentence.ts';
export { describeFinding } from './report/describeFinding.ts';
export { describeFault, describePlan } from './report/describePlan.ts';
export { describeCoverage } from './report/describeCoverage.ts';
export { keysByViolation, type Finding, type RunOutcome, type Violation } from './checkers/finding.ts';
export type { StuckReason } from './kernel/runReport.ts';
export type { ClaimVerdict, ClauseResult, ClauseStatus } from './checkers/compose.ts';
export type { ClauseId } from './checkers/clause.ts';
export type { Coverage, ClauseCoverage, Interleavings, SearchBound } from './checkers/coverage.ts';
export { judge, mergeVerdicts, type Verdict, type Judgement, type ExpectedVerdict } from './checkers/verdict.ts';
export type { Fault, FaultPlan, FaultKind } from './faults/faults.ts';
export { formatPlace, parsePlace, type Place } from './faults/place.ts';
export { replayLine, type ReplayRef } from './modes/replayLine.ts';
export { World } from './run/world.ts';
export { type ComponentSpec } from './kernel/componentSpec.ts';
export { send, note, window as windowMark, type Emitted, type SendEmitted, type NoteEmitted, type WindowEmitted, type FromPeer, type PeerCrashed } from './kernel/emitted.ts';
export { type WorldOptions } from './kernel/worldOptions.ts';
export { type RunReport } from './kernel/runReport.ts';
export { type Strike, type Note } from './kernel/runEvents.ts';
export type { Stepper, Driver } from './kernel/stepper.ts';
export { Prng } from './base/prng.ts';
export { SimClock } from './kernel/clock.ts';
export { loadCatalogue, loadScenario, loadScenarios, type CatalogueEntry, type LoadOptions } from './scenario/catalogue.ts';
export { InputError } from './base/inputError.ts';
export { defineRecord, type RecordSpec, type RecordSpecInput } from './scenario/recordSpec.ts';
export { toJSONSchema, type JsonSchema } from './base/jsonSchema.ts';

// One run and a sweep's plan, as the API offers them: checked as every mode checks its options
// (the engine's own calls, one per run, skip the check).
export function runScenario(scenario: AnyScenario, spec: OneSpec, reference?: OneRun): OneRun {
  checkRanges('runScenario', spec, ['seed', 'size']);
  return runOne(scenario, { ...spec, plan: readPlan(spec.plan, 'runScenario: plan') }, reference);
}

export function sweepPlan(scenario: AnyScenario, settings: Settings, reference?: OneRun): Plan {
  checkRanges('sweepPlan', settings, ['seed', 'maxOccurrence']);
  return planSweep(scenario, settings, reference);
}

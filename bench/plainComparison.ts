// The runs on which the plain outbox baseline (bench/plainOutbox.ts) is held to the compiled
// models, and the check itself: every windows-mode plan of mercury-outbox (no fault, then every
// single fault) at seeds 1..10, and a fixed sample of explore cases (fast-check seed 42), each
// run once with the models and once with the plain steppers in the same World. The two must
// leave the same trace hash, outcome, steps, ticks and durable end state. The benchmark prints
// the result and times the same cases; test/bench/plainOutbox.test.ts asserts it.
import fc from 'fast-check';
import { caseArbitrary, type Case } from '../src/modes/explore.ts';
import { faultSpace } from '../src/modes/faultSpace.ts';
import { runScenario, type RunSpec } from '../src/run/runScenario.ts';
import { stableJson } from '../src/kernel/trace.ts';
import mercuryOutbox from '../scenarios/mercury-outbox.ts';
import { runPlainOutbox } from './plainOutbox.ts';

export interface ComparisonCase extends Omit<Case, 'latencies'> {
  /** Where the case comes from: a windows-mode plan or an explore sample. */
  readonly mode: 'windows' | 'explore';
  /** An explore sample's schedule of latencies; a windows-mode plan draws them from its seed. */
  readonly latencies?: readonly number[];
}

/** The run a case names. */
export function runSpecOf(c: ComparisonCase): RunSpec {
  return { seed: c.seed, plan: c.plan, size: c.size, ...(c.latencies === undefined ? {} : { latencies: c.latencies }) };
}

export interface ComparisonOptions {
  /** Windows-mode plans at seeds 1..seeds (default 10). */
  readonly seeds?: number;
  /** Explore cases sampled with fast-check's seed 42 (default 300). */
  readonly exploreCases?: number;
}

export function plainComparisonCases(options: ComparisonOptions = {}): ComparisonCase[] {
  const cases: ComparisonCase[] = [];
  const size = mercuryOutbox.workload.size;
  const maxOccurrence = mercuryOutbox.windows?.maxOccurrence ?? 2;
  for (let seed = 1; seed <= (options.seeds ?? 10); seed++) {
    // As runWindows does: the fault space comes from the fault-free run at the same seed.
    const reference = runScenario(mercuryOutbox, { seed, plan: [] });
    for (const plan of [[], ...faultSpace(reference, { maxOccurrence }).singles.map((f) => [f])]) cases.push({ mode: 'windows', seed, size, plan });
  }
  const sampled = fc.sample(caseArbitrary(mercuryOutbox), { seed: 42, numRuns: options.exploreCases ?? 300 });
  for (const c of sampled) cases.push({ mode: 'explore', ...c });
  return cases;
}

/** A case on which the plain steppers and the models parted, with what differed. */
export interface Divergence {
  readonly case: ComparisonCase;
  readonly differs: readonly string[];
}

export interface Comparison {
  readonly runs: number;
  /** Runs in which a fault struck. */
  readonly struck: number;
  /** Runs with the same trace hash, outcome, steps, ticks and durable end state. */
  readonly identical: number;
  /** Each outcome and how many runs ended so (the same on both sides when nothing diverged). */
  readonly outcomes: Readonly<Record<string, number>>;
  readonly divergences: readonly Divergence[];
}

/** Runs every case with the compiled models and with the plain steppers, and compares the two runs. */
export function comparePlainOutbox(cases: readonly ComparisonCase[]): Comparison {
  let struck = 0;
  const outcomes: Record<string, number> = {};
  const divergences: Divergence[] = [];
  for (const c of cases) {
    const spec = runSpecOf(c);
    const model = runScenario(mercuryOutbox, { ...spec, driver: 'compiled' });
    const plain = runPlainOutbox(spec);
    const differs: string[] = [];
    if (plain.report.traceHash !== model.report.traceHash) differs.push('trace hash');
    if (plain.outcome !== model.outcome) differs.push(`outcome ${plain.outcome}, models ${model.outcome}`);
    if (plain.report.steps !== model.report.steps) differs.push(`steps ${plain.report.steps}, models ${model.report.steps}`);
    if (plain.report.ticks !== model.report.ticks) differs.push(`ticks ${plain.report.ticks}, models ${model.report.ticks}`);
    if (stableJson(plain.report.durable) !== stableJson(model.report.durable)) differs.push('durable end state');
    if (differs.length > 0) divergences.push({ case: c, differs });
    if (model.report.strikes.length > 0) struck++;
    outcomes[model.outcome] = (outcomes[model.outcome] ?? 0) + 1;
  }
  return { runs: cases.length, struck, identical: cases.length - divergences.length, outcomes, divergences };
}

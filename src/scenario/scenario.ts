// A scenario: a design (components and their options), a workload, the claims it makes and the
// verdict the seeds predict, per fault depth where the design's promise depends on it. Scenario
// files are TypeScript, so a design is type-checked before it runs; `defineScenario` is the one
// place a scenario is validated at run time too (a user's own file may come from anywhere): its
// shape against src/scenario/scenarioSchema.ts, its design and claims by src/scenario/wiring.ts, and every mistake
// is bad input naming the file, the field and the nearest valid value.
import type { Claim } from '../checkers/claims.ts';
import type { FaultKind } from '../faults/faults.ts';
import { TimeScale, type Duration } from '../base/duration.ts';
import { InputError } from '../base/inputError.ts';
import { problemsOf, type z } from './options.ts';
import { didYouMean } from '../base/nearest.ts';
import { wiringProblems } from './wiring.ts';
import { findableViolations, startOf } from './claimProbe.ts';
import type { Violation } from '../checkers/finding.ts';
import { flowClaimProblems, type RecordSpecInput } from './recordSpec.ts';
import { ClaimSchema, ScenarioSchema } from './scenarioSchema.ts';
import type { ExpectedVerdict } from '../checkers/verdict.ts';
import type { WorldOptions } from '../kernel/worldOptions.ts';
import type { DesignPart } from '../checkers/designIndex.ts';

export interface Workload {
  /** How many units of work (orders, events): explore shrinks this towards 1. */
  readonly size: number;
}

/** One labelled list in a component's evidence: `orders: o-1 ACCEPTED v1, o-2 …`. */
export interface EvidencePart {
  readonly label: string;
  readonly items: readonly string[];
}

/**
 * What a design says about one failure window beyond what a run shows: who retries from here,
 * in its own words (relay, broker redelivery, client retry, reconciler, nobody). A report adds
 * the wording only beside the component the run itself shows re-sending the work; the repair
 * query is never declared per window but written from the claim's tables.
 */
export interface WindowNote {
  readonly retryOwner: string;
}

/** A component as a design composes it: the kernel's spec plus what its reports say about it. */
/** A component as a design composes it: what the load-time checks read, plus what its reports say about it. */
export interface DesignComponent extends DesignPart {
  /** Renders this component's durable state as evidence; each machine module exports its own. */
  readonly describe?: (durable: unknown, time: TimeScale) => readonly EvidencePart[];
  /** Declared notes for this component's failure windows, by state name. */
  readonly notes?: Readonly<Record<string, WindowNote>>;
}

/**
 * The verdict a scenario expects: one for every fault depth, or one per depth when the design
 * keeps its promise under one fault and not under two (with `why` saying which fault, which
 * window, and whether the design, the model or the engine is at fault).
 */
export type Expectation = ExpectedVerdict | { readonly single: ExpectedVerdict; readonly pairs: ExpectedVerdict; readonly why: string };

export interface Scenario {
  readonly name: string;
  readonly title: string;
  /** The seed passage it models, e.g. `000 · Put source state and publication intent in one transaction`. */
  readonly source: string;
  /** What the verdict teaches, in one or two sentences. */
  readonly lesson: string;
  /** The design's components for a workload, durations turned into ticks with the scenario's time scale. */
  readonly build: (workload: Workload, time: TimeScale) => readonly DesignComponent[];
  /** How long one tick of simulated time is; one second unless the scenario says otherwise. */
  readonly tick?: Duration;
  readonly workload: Workload;
  readonly claims: readonly Claim[];
  readonly expect: Expectation;
  readonly world?: WorldSettings;
  /** Windows mode: how many occurrences of each window to strike, and which fault kinds. */
  readonly windows?: { readonly maxOccurrence?: number; readonly kinds?: readonly FaultKind[] };
  /** The decision record (seed 004's template) this scenario's design is documented in; `faultline record` fills it. */
  readonly record?: RecordSpecInput;
}

/** Every verdict an expectation states: its one, or its single-fault and its pairs ones. */
export function expectedVerdicts(e: Expectation): readonly ExpectedVerdict[] {
  return 'verdict' in e ? [e] : [e.single, e.pairs];
}

/** The expectation that applies to runs of at most `faults` faults. */
export function expectedAt(e: Expectation, faults: number): ExpectedVerdict {
  if ('verdict' in e) return e;
  return faults >= 2 ? e.pairs : e.single;
}

/**
 * The simulation's own settings, in durations: how long a message takes (`latency`, the least
 * and the most), how long a `delay` fault holds one, how long a crashed component stays down
 * unless its design says otherwise, how long the safety phase may last, how long the liveness
 * phase has to reach quiescence, how long nothing durable must change for the world to be quiet,
 * and how many steps a run may take before it is cut (a cut run is inconclusive, never stuck).
 */
export interface WorldSettings {
  readonly latency?: readonly [Duration, Duration];
  readonly delayFault?: Duration;
  readonly restartAfter?: Duration;
  readonly safetyPhase?: Duration;
  readonly livenessPhase?: Duration;
  readonly quiet?: Duration;
  readonly stepsMax?: number;
}

export { WORLD_SETTINGS } from './scenarioSchema.ts';

/** The World's options a scenario's settings come to, in ticks of its time scale. */
export function worldOptionsOf(s: Pick<Scenario, 'world'>, time: TimeScale): Partial<WorldOptions> {
  const w = s.world ?? {};
  const t = (name: string, d: Duration | undefined, min = 0) => (d === undefined ? undefined : time.ticks(`world.${name}`, d, min));
  const out: Record<string, number | undefined> = {
    latencyTicksMin: t('latency[0]', w.latency?.[0], 0),
    latencyTicksMax: t('latency[1]', w.latency?.[1], 0),
    delayFaultTicks: t('delayFault', w.delayFault, 1),
    restartDelayTicks: t('restartAfter', w.restartAfter, 1),
    safetyTicksMax: t('safetyPhase', w.safetyPhase, 1),
    livenessTicksMax: t('livenessPhase', w.livenessPhase, 1),
    quietTicks: t('quiet', w.quiet, 1),
    stepsMax: w.stepsMax,
  };
  if (out['latencyTicksMin'] !== undefined && out['latencyTicksMax'] !== undefined && out['latencyTicksMin'] > out['latencyTicksMax']) {
    throw new InputError(`world.latency is [${w.latency![0]}, ${w.latency![1]}]: the least is longer than the most`);
  }
  return Object.fromEntries(Object.entries(out).filter(([, v]) => v !== undefined)) as Partial<WorldOptions>;
}

/** Time scales by the tick they were made from; each run reads its scenario's. */
const scales = new Map<Duration, TimeScale>();

/**
 * The scenario's time scale (one second a tick unless it says otherwise). A scale is immutable,
 * so one per tick is shared: making it parses the tick in exact decimals, which every run of a
 * sweep would otherwise pay again.
 */
export function timeScaleOf(s: Pick<Scenario, 'tick'>): TimeScale {
  const tick = s.tick ?? '1s';
  let scale = scales.get(tick);
  if (scale === undefined) scales.set(tick, (scale = new TimeScale(tick)));
  return scale;
}

/** Names a scenario cannot take: its reports' own files are named so. */
const TAKEN_NAMES = ['index', 'report', 'junit', 'record'];

/**
 * Validates a scenario: its shape against the one schema of a scenario (src/scenario/scenarioSchema.ts),
 * then what the shape cannot say (the claims an expectation names, durations in whole ticks),
 * then its design and claims together (src/scenario/wiring.ts). Every problem of a stage is reported at
 * once, on one line naming the file and each field's path; a later stage runs only on a scenario
 * the earlier ones accepted, since it reads what they checked.
 */
export function defineScenario(given: Scenario, origin = given?.name ?? 'scenario'): Scenario {
  const fail = (problems: readonly string[], cause?: unknown): never => {
    // The problems ride along on their own, so a file's loader can name the file rather than the
    // scenario's name (which may be the very thing misspelt).
    throw Object.assign(new InputError(`malformed scenario ${origin}: ${problems.join('; ')}`, cause === undefined ? undefined : { cause }), { malformed: problems.join('; ') });
  };
  if (typeof given !== 'object' || given === null || Array.isArray(given)) fail(['it does not export a scenario object']);
  const s = plainScenario(given);
  const parsed = ScenarioSchema.safeParse(s);
  if (!parsed.success) fail(shapeProblems(s, parsed.error.issues));
  const meaning = meaningProblems(s);
  if (meaning.length > 0) fail(meaning);
  let components: readonly DesignComponent[] = [];
  try {
    components = s.build(s.workload, timeScaleOf(s));
  } catch (error) {
    if (error instanceof InputError) fail([error.message]);
    fail([`build() threw: ${error instanceof Error ? error.message : String(error)}`], error);
  }
  if (!Array.isArray(components) || components.length === 0) fail(['build() returned no components']);
  const problems = wiringProblems(components, s.claims);
  if (problems.length > 0) fail(problems);
  const unfindable = unfindableProblems(s, components);
  if (unfindable.length > 0) fail(unfindable);
  return s;
}

/**
 * A scenario written as a class instance, as a plain object: its own fields and the scenario fields
 * its class gives it (`build`, bound to it, as `this` reads it, and with it any other method its
 * class has), since a scenario is read field by field and copied with a spread, which see own
 * fields alone. A plain object is taken as it is.
 */
function plainScenario(s: Scenario): Scenario {
  let proto: unknown = Object.getPrototypeOf(s);
  if (proto === Object.prototype || proto === null) return s;
  const plain: Record<string, unknown> = { ...s };
  for (; proto !== null && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
    for (const key of Object.getOwnPropertyNames(proto)) {
      if (!(key in ScenarioSchema.shape) || key in plain) continue;
      const value: unknown = (s as unknown as Record<string, unknown>)[key];
      plain[key] = typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(s) : value;
    }
  }
  return plain as unknown as Scenario;
}

/** What each kind of violation needs of a claim before any claim can find it. */
const FOUND_WITH: Readonly<Record<Violation, string>> = {
  'duplicate effect': 'outcomes(view) and a guarantee other than atLeastOnce',
  'lost effect': 'facts(view) and a guarantee other than atMostOnce, with the clause not unchecked',
  'phantom effect': 'facts(view) (or sources(view)), with the clause not unchecked',
  'order regression': 'versions(view)',
  'replay mismatch': 'sameIntent and replies(view)',
  'conflict mishandled': 'differentIntent and conflicts(view)',
  'unresolved unknown outcome': 'unknownCompletion and unresolved(view)',
  'silent revision': 'finality and revisions(view)',
  stuck: 'nothing more',
};

/**
 * An expected violation no claim of the scenario can find: the expectation could never be met,
 * and every sweep would end "missing expected violations" after all its runs. Refused at load,
 * naming what a claim needs to find it.
 */
function unfindableProblems(s: Scenario, components: readonly DesignComponent[]): string[] {
  const expected = expectedVerdicts(s.expect);
  const named = [...new Set(expected.flatMap((e) => (e.verdict === 'violated' ? e.violations : [])))];
  if (named.length === 0) return [];
  const findable = findableViolations(s.claims, startOf(components));
  return named.filter((v) => !findable.has(v)).map((v) => `expect names ${v}, which no claim of this scenario can find: a claim finds it with ${FOUND_WITH[v]}`);
}

/** The shape's problems, a claim named by its effect rather than its index where it has one. */
function shapeProblems(s: Scenario, issues: readonly z.Issue[]): string[] {
  return issues.map((issue) => {
    const [first, index, ...rest] = issue.path;
    const effect = first === 'claims' && typeof index === 'number' ? (s.claims[index] as { effect?: unknown } | undefined)?.effect : undefined;
    if (typeof effect !== 'string') return problemsOf(issue.path.length === 0 ? 'the scenario' : '', ScenarioSchema, s, [issue], 'field')[0]!;
    // The claim's own fields, under its name: `claim "inventory reservation" has no field facs`.
    return problemsOf(`claim ${JSON.stringify(effect)}`, ClaimSchema, s.claims[index as number], [{ ...issue, path: rest }], 'field')[0]!;
  });
}

/** What a well-shaped scenario can still get wrong: a name taken, an expectation naming no claim, durations that are no whole ticks. */
function meaningProblems(s: Scenario): string[] {
  const problems: string[] = [];
  if (TAKEN_NAMES.includes(s.name)) problems.push(`the name ${s.name} is taken by a report file; choose another`);
  // The claims a violated expectation names must be claims of this scenario.
  const effects = s.claims.map((c) => c.effect);
  // A claim is named by its effect (in expect.claims, the verdicts, the reports): two of one name could not be told apart.
  for (const name of new Set(effects.filter((e, i) => effects.indexOf(e) !== i))) problems.push(`two claims are named ${JSON.stringify(name)}: give each claim its own effect name`);
  for (const e of expectedVerdicts(s.expect)) {
    for (const name of e.verdict === 'violated' ? (e.claims ?? []) : []) if (!effects.includes(name)) problems.push(`expect.claims names no claim of this scenario: ${JSON.stringify(name)}${didYouMean(name, effects) || `; its claims are ${effects.map((x) => JSON.stringify(x)).join(', ')}`}`);
  }
  // A record the scenario carries ties its flows to claims; those of this scenario must be its own.
  if (s.record !== undefined) problems.push(...flowClaimProblems({ flows: s.record.flows }, (name) => (name === s.name ? effects : undefined)).map((p) => `record.${p}`));
  try {
    worldOptionsOf(s, timeScaleOf(s));
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    problems.push(error.message);
  }
  return problems;
}

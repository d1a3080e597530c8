// A scenario: a design (components and their options), a workload, the claims it makes and the
// verdict the seeds predict, per fault depth where the design's promise depends on it. Scenario
// files are TypeScript, so a design is type-checked before it runs; `defineScenario` is the one
// place their shape is validated at run time too (a user's own file may come from anywhere), and
// every mistake is bad input naming the file, the field and the nearest valid value.
import type { Claim } from './claims.ts';
import { VIOLATIONS, type Violation } from './checkers/finding.ts';
import { DECLARED_FAULT_KINDS, FAULT_KINDS, TRANSPORT_FAULT_KINDS, type FaultKind, type MessageFaultKind } from './faults.ts';
import { SECONDS, TimeScale, type Duration } from './duration.ts';
import { InputError } from './inputError.ts';
import { duration, parseOptions, z } from './options.ts';
import { didYouMean } from './nearest.ts';
import { wiringProblems } from './wiring.ts';
import { defineRecord, type RecordSpecInput } from './recordSpec.ts';
import type { ExpectedVerdict } from './verdict.ts';
import type { ComponentSpec, WorldOptions } from './world.ts';
import type { WiringCheck } from './designIndex.ts';

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
export interface DesignComponent extends ComponentSpec {
  /** Renders this component's durable state as evidence; each machine module exports its own. */
  readonly describe?: (durable: unknown, time: TimeScale) => readonly EvidencePart[];
  /** Declared notes for this component's failure windows, by state name. */
  readonly notes?: Readonly<Record<string, WindowNote>>;
  /**
   * The message faults the links to and from this component can suffer; all of them when
   * absent. A database connection, say, is dropped or slow but never duplicates a statement.
   */
  readonly messageFaults?: readonly MessageFaultKind[];
  /**
   * Faults beyond the transport's that strike messages of a type this component receives, by
   * message type: a member of a consumer group of two or more declares `rebalance` for the
   * records its broker delivers. Nowhere else is such a fault offered.
   */
  readonly receivedFaults?: Readonly<Record<string, readonly MessageFaultKind[]>>;
  /**
   * A store that only answers requests (a database): what it sends is a reply, never a retry of
   * anyone's work, so the retry owner a report observes is never it.
   */
  readonly answersOnly?: boolean;
  /** The components it sends to, checked against the design when it is built. */
  readonly peers?: readonly string[];
  /** The tables it holds (a database's): what a claim and a component's statements may name. */
  readonly tables?: readonly string[];
  /**
   * Checks of its own options against the rest of the design, run when the design is loaded:
   * the tables it writes are its database's, the payload fields it keys on are published to it.
   * Each problem is one phrase naming what is wrong and, where one is close, what was meant.
   */
  readonly wiring?: WiringCheck;
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

/**
 * The message faults that can strike a message point: the transport faults both ends of the link
 * allow, then (for a message of that type) the faults its receiver declares it can suffer.
 */
export function linkFaults(components: readonly DesignComponent[], from: string, to: string, type?: string): readonly MessageFaultKind[] {
  const allowed = (name: string) => components.find((c) => c.name === name)?.messageFaults ?? TRANSPORT_FAULT_KINDS;
  const a = allowed(from);
  const b = allowed(to);
  const transport = TRANSPORT_FAULT_KINDS.filter((k) => a.includes(k) && b.includes(k));
  const declared = type === undefined ? [] : (components.find((c) => c.name === to)?.receivedFaults?.[type] ?? []);
  return [...transport, ...DECLARED_FAULT_KINDS.filter((k) => declared.includes(k))];
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
 * and the bound on scheduled steps that ends a livelock as stuck.
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

export const WORLD_SETTINGS = z.strictObject({
  latency: z.tuple([duration, duration]).optional(),
  delayFault: duration.optional(),
  restartAfter: duration.optional(),
  safetyPhase: duration.optional(),
  livenessPhase: duration.optional(),
  quiet: duration.optional(),
  stepsMax: z.number().int().min(1).optional(),
});

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

const NAME = /^[a-z0-9][a-z0-9-]*$/;
const SCENARIO_KEYS = ['name', 'title', 'source', 'lesson', 'build', 'tick', 'workload', 'claims', 'expect', 'world', 'windows', 'record'];
const CLAIM_KEYS = ['effect', 'key', 'namespace', 'authority', 'lifetime', 'sameIntent', 'differentIntent', 'unknownCompletion', 'finality', 'guarantee', 'tables', 'outcomes', 'facts', 'sources', 'versions', 'replies', 'conflicts', 'unresolved', 'revisions', 'unchecked', 'wiring'];

/** Validates a scenario's shape; every problem is an InputError naming the file and the field. */
export function defineScenario(s: Scenario, origin = s?.name ?? 'scenario'): Scenario {
  const fail = (what: string, cause?: unknown): never => {
    throw new InputError(`malformed scenario ${origin}: ${what}`, cause === undefined ? undefined : { cause });
  };
  const unknownKeys = (where: string, value: object, allowed: readonly string[]) => {
    for (const k of Object.keys(value)) if (!allowed.includes(k)) fail(`${where} has no field ${k}${didYouMean(k, allowed)}`);
  };
  if (typeof s !== 'object' || s === null) fail('it does not export a scenario object');
  unknownKeys('a scenario', s, SCENARIO_KEYS);
  if (typeof s.name !== 'string' || !NAME.test(s.name)) fail(`name must be lower-case words joined by '-', got ${JSON.stringify(s.name)}`);
  if (['index', 'report', 'junit', 'record'].includes(s.name)) fail(`the name ${s.name} is taken by a report file; choose another`);
  if (typeof s.title !== 'string' || s.title.length === 0) fail('title is missing');
  if (typeof s.build !== 'function') fail('build(workload) is missing');
  if (!s.workload || !Number.isInteger(s.workload.size) || s.workload.size < 1) fail('workload.size must be a positive integer');
  if (!Array.isArray(s.claims) || s.claims.length === 0) fail('it declares no claims');
  for (const c of s.claims) {
    if (typeof c !== 'object' || c === null || typeof c.effect !== 'string' || !Array.isArray(c.key) || typeof c.outcomes !== 'function') fail(`claim ${JSON.stringify(c?.effect)} needs effect, key and outcomes()`);
    unknownKeys(`claim ${JSON.stringify(c.effect)}`, c, CLAIM_KEYS);
  }
  checkExpectation(s.expect, fail);
  // The claims a violated expectation names must be claims of this scenario.
  const effects = s.claims.map((c) => c.effect);
  for (const e of 'verdict' in s.expect ? [s.expect] : [s.expect.single, s.expect.pairs]) {
    for (const name of e.verdict === 'violated' ? (e.claims ?? []) : []) if (!effects.includes(name)) fail(`expect.claims names no claim of this scenario: ${JSON.stringify(name)}${didYouMean(name, effects)}`);
  }
  let time: TimeScale = SECONDS;
  try {
    time = timeScaleOf(s);
    if (s.world !== undefined) {
      parseOptions('world', WORLD_SETTINGS, s.world);
      worldOptionsOf(s, time);
    }
  } catch (error) {
    if (error instanceof InputError) fail(error.message);
    throw error;
  }
  if (s.windows !== undefined) {
    unknownKeys('windows', s.windows, ['maxOccurrence', 'kinds']);
    const m = s.windows.maxOccurrence;
    if (m !== undefined && (!Number.isInteger(m) || m < 1)) fail(`windows.maxOccurrence must be a positive whole number, got ${JSON.stringify(m)}`);
    for (const k of s.windows.kinds ?? []) if (!FAULT_KINDS.includes(k)) fail(`windows.kinds has no fault kind ${JSON.stringify(k)}${didYouMean(String(k), FAULT_KINDS)}`);
  }
  if (s.record !== undefined) {
    try {
      defineRecord(s.record);
    } catch (error) {
      if (error instanceof InputError) fail(error.message);
      throw error;
    }
  }
  let components: readonly DesignComponent[] = [];
  try {
    components = s.build(s.workload, time);
  } catch (error) {
    if (error instanceof InputError) fail(error.message);
    fail(`build() threw: ${error instanceof Error ? error.message : String(error)}`, error);
  }
  if (!Array.isArray(components) || components.length === 0) fail('build() returned no components');
  const problems = wiringProblems(components, s.claims);
  if (problems.length > 0) fail(problems.join('; '));
  return s;
}

function checkExpectation(e: unknown, fail: (what: string) => never): void {
  if (typeof e !== 'object' || e === null) fail("expect must be { verdict: 'holds' }, { verdict: 'violated', violations: [...] } or { single, pairs, why }");
  const o = e as Record<string, unknown>;
  if ('verdict' in o) return checkVerdict('expect', o, fail);
  for (const k of Object.keys(o)) if (!['single', 'pairs', 'why'].includes(k)) fail(`expect has no field ${k}${didYouMean(k, ['verdict', 'single', 'pairs', 'why'])}`);
  if (typeof o['why'] !== 'string' || o['why'].trim() === '') fail('expect.why must say which fault, which window, and whether the engine, the model or the design is at fault');
  checkVerdict('expect.single', o['single'], fail);
  checkVerdict('expect.pairs', o['pairs'], fail);
}

function checkVerdict(where: string, v: unknown, fail: (what: string) => never): void {
  if (typeof v !== 'object' || v === null) fail(`${where} must be { verdict: 'holds' } or { verdict: 'violated', violations: [...] }`);
  const o = v as Record<string, unknown>;
  for (const k of Object.keys(o)) if (!['verdict', 'violations', 'claims'].includes(k)) fail(`${where} has no field ${k}${didYouMean(k, ['verdict', 'violations', 'claims'])}`);
  if (o['verdict'] !== 'holds' && o['verdict'] !== 'violated') fail(`${where}.verdict must be 'holds' or 'violated', got ${JSON.stringify(o['verdict'])}${didYouMean(String(o['verdict']), ['holds', 'violated'])}`);
  if (o['verdict'] === 'holds') {
    if (o['violations'] !== undefined) fail(`${where} holds, so it names no violations`);
    if (o['claims'] !== undefined) fail(`${where} holds, so it names no claims expected to fail`);
    return;
  }
  const claims = o['claims'];
  if (claims !== undefined && (!Array.isArray(claims) || claims.length === 0 || !claims.every((c) => typeof c === 'string'))) fail(`${where}.claims must name, by their effect, the claims the violations are expected of`);
  const list = o['violations'];
  if (!Array.isArray(list) || list.length === 0) fail(`${where}.violations must name the violations expected`);
  for (const name of list as unknown[]) {
    if (!VIOLATIONS.includes(name as Violation)) fail(`${where}.violations has no violation ${JSON.stringify(name)}${didYouMean(String(name), VIOLATIONS)}; valid: ${VIOLATIONS.join(', ')}`);
  }
}

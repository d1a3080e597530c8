// Windows mode: exhaustive fault injection. The failure windows come from the process machines'
// definitions (every state a process can rest in), the message points and the occurrence counts
// from a fault-free reference run; then every window x every applicable fault kind x every
// occurrence up to a bound is one run (every pair of those on request). Each run's worst outcome
// lands in the failure-window table, and the first run of each violation is kept, traced, as a
// counterexample with the line that replays it.
import type { AnyStateMachine, AnyStateNode } from 'xstate';
import { VIOLATIONS, type Finding, type RunOutcome, type Violation } from './checkers/finding.ts';
import { claimSentence } from './claims.ts';
import { FAULT_KINDS, MESSAGE_FAULT_KINDS, faultPlace, type Fault, type FaultKind, type FaultPlan } from './faults.ts';
import { replayLine, runScenario, type RunRecord } from './runScenario.ts';
import type { Scenario } from './scenario.ts';
import type { TraceEvent } from './trace.ts';
import type { ComponentSpec } from './world.ts';

/** Every state a machine can rest in: atomic states that are not left at once by an unguarded `always`. */
export function restingStates(machine: AnyStateMachine): string[] {
  const out: string[] = [];
  const walk = (node: AnyStateNode, path: string[]) => {
    const children = Object.values(node.states ?? {}) as AnyStateNode[];
    if (children.length === 0) {
      const transient = (node.always ?? []).some((t) => !t.guard);
      if (!transient) out.push(path.join('.'));
      return;
    }
    for (const child of children) walk(child, [...path, child.key]);
  };
  walk(machine.root, []);
  return out;
}

/** The failure windows of a design, named `<component>.<state>`, derived from its machines. */
export function failureWindows(components: readonly ComponentSpec[]): string[] {
  return components.filter((c) => c.process).flatMap((c) => restingStates(c.machine).map((s) => `${c.name}.${s}`));
}

export interface WindowRow {
  /** A failure window or a message point. */
  readonly window: string;
  readonly fault: FaultKind;
  /** Runs at this place and fault (one per occurrence). */
  readonly runs: number;
  /** Whether any run's fault actually struck (a window the workload never enters is not reached). */
  readonly reached: boolean;
  /** The worst outcome over those runs. */
  readonly outcome: RunOutcome;
  readonly outcomes: Readonly<Partial<Record<RunOutcome, number>>>;
  /** Durable state when the fault struck (first occurrence). */
  readonly evidence: string;
  readonly retryOwner: string;
  /** Whether any run saw a repeat attempt (a guard fired or a duplicate effect committed). */
  readonly duplicatePossible: boolean;
  /** The guards that suppressed repeats in these runs. */
  readonly duplicateGuard: readonly string[];
  readonly repairQuery: string;
  /** The plan of the worst run, to replay it. */
  readonly plan: FaultPlan;
}

export interface Counterexample {
  readonly violation: Violation;
  readonly seed: number;
  readonly size: number;
  readonly plan: FaultPlan;
  readonly findings: readonly Finding[];
  readonly traceHash: string;
  readonly trace: readonly TraceEvent[];
  readonly replay: string;
}

export interface WindowsResult {
  readonly name: string;
  readonly title: string;
  readonly source: string;
  readonly lesson: string;
  readonly seed: number;
  readonly expect: 'holds' | 'violated';
  readonly expectedViolations: readonly Violation[];
  readonly verdict: 'holds' | 'violated' | 'unknown';
  readonly asExpected: boolean;
  /** Expected violations no run found, and violations found that were not expected. */
  readonly missing: readonly Violation[];
  readonly unexpected: readonly Violation[];
  readonly claims: readonly string[];
  readonly windowCount: number;
  readonly runs: number;
  readonly distinctOutcomes: readonly RunOutcome[];
  readonly windows: readonly WindowRow[];
  readonly counterexamples: readonly Counterexample[];
  /** Failure windows of the design, and those no run ever entered. */
  readonly failureWindows: readonly string[];
  readonly unreachedWindows: readonly string[];
}

export interface WindowsOptions {
  readonly seed?: number;
  readonly pairs?: boolean;
  readonly maxOccurrence?: number;
  /** How the user named the scenario (a catalogue name or a file path), for replay lines. */
  readonly ref?: string;
  /** Called after each run, for progress indicators. */
  readonly onRun?: (done: number, total: number) => void;
}

export const DEFAULT_SEED = 1;

/** The single-fault plans of windows mode, in a fixed order. */
export function singleFaults(scenario: Scenario, reference: RunRecord, maxOccurrence: number): Fault[] {
  const kinds = new Set(scenario.windows?.kinds ?? FAULT_KINDS);
  const faults: Fault[] = [];
  const counts = reference.world.windowCounts;
  if (kinds.has('crash')) {
    for (const window of failureWindows(scenario.build({ size: reference.size }))) {
      const n = Math.max(1, Math.min(counts.get(window) ?? 0, maxOccurrence));
      for (let occurrence = 1; occurrence <= n; occurrence++) faults.push({ kind: 'crash', window, occurrence });
    }
  }
  const points = [...reference.world.network.census()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  for (const [point, count] of points) {
    for (const kind of MESSAGE_FAULT_KINDS) {
      if (!kinds.has(kind)) continue;
      for (let occurrence = 1; occurrence <= Math.min(count, maxOccurrence); occurrence++) faults.push({ kind, point, occurrence });
    }
  }
  return faults;
}

function notesFor(components: readonly ComponentSpec[], place: string) {
  const [component, ...rest] = place.split('.');
  const spec = components.find((c) => c.name === component);
  return spec?.notes?.[rest.join('.')];
}

function guardsOf(run: RunRecord): string[] {
  const guards = new Set<string>();
  for (const n of run.world.notes) {
    const d = n.data as { kind: string; data?: { guard?: string } };
    if (d.kind === 'guard' && d.data?.guard) guards.add(d.data.guard);
  }
  return [...guards].sort();
}

export function runWindows(scenario: Scenario, options: WindowsOptions = {}): WindowsResult {
  const seed = options.seed ?? DEFAULT_SEED;
  const maxOccurrence = options.maxOccurrence ?? scenario.windows?.maxOccurrence ?? 2;
  const reference = runScenario(scenario, { seed, plan: [] });
  const referenceGuards = new Set(guardsOf(reference));
  const singles = singleFaults(scenario, reference, maxOccurrence);
  const plans: FaultPlan[] = singles.map((f) => [f]);
  if (options.pairs) {
    for (let i = 0; i < singles.length; i++) for (let j = i + 1; j < singles.length; j++) plans.push([singles[i]!, singles[j]!]);
  }
  const components = scenario.build(scenario.workload);
  // One accumulator per (place, fault kind), over that place's occurrences; rows are built at the end.
  type Acc = { first: RunRecord; fault: Fault; runs: number; reached: boolean; worst: RunRecord; outcomes: Partial<Record<RunOutcome, number>>; guards: Set<string>; duplicate: boolean };
  const rows = new Map<string, Acc>();
  const firstOf = new Map<Violation, RunRecord>();
  const outcomes = new Set<RunOutcome>();
  const reached = new Set<string>(reference.world.windowCounts.keys());
  let unknown = false;
  let done = 0;
  const rank = (o: RunOutcome) => (o === 'holds' ? VIOLATIONS.length + 1 : o === 'unknown' ? VIOLATIONS.length : VIOLATIONS.indexOf(o));
  for (const plan of [reference.plan, ...plans]) {
    const run = plan === reference.plan ? reference : runScenario(scenario, { seed, plan, hashTrace: false });
    done++;
    options.onRun?.(done, plans.length + 1);
    outcomes.add(run.outcome);
    if (run.outcome === 'unknown') unknown = true;
    for (const w of run.world.windowCounts.keys()) reached.add(w);
    for (const f of run.findings) if (!firstOf.has(f.violation)) firstOf.set(f.violation, run);
    if (plan.length !== 1) continue;
    const fault = plan[0]!;
    const key = `${faultPlace(fault)}\u0000${fault.kind}`;
    const guards = guardsOf(run).filter((g) => !referenceGuards.has(g));
    const acc = rows.get(key) ?? { first: run, fault, runs: 0, reached: false, worst: run, outcomes: {}, guards: new Set<string>(), duplicate: false };
    rows.set(key, acc);
    acc.runs++;
    acc.reached ||= run.result.strikes.length > 0;
    if (rank(run.outcome) < rank(acc.worst.outcome)) acc.worst = run;
    acc.outcomes[run.outcome] = (acc.outcomes[run.outcome] ?? 0) + 1;
    for (const g of guards) acc.guards.add(g);
    acc.duplicate ||= guards.length > 0 || run.findings.some((f) => f.violation === 'duplicate effect');
  }
  const windowRows = [...rows.values()].map((acc): WindowRow => {
    const place = faultPlace(acc.fault);
    const strike = acc.first.result.strikes[0];
    const note = notesFor(components, place);
    return {
      window: place,
      fault: acc.fault.kind,
      runs: acc.runs,
      reached: acc.reached,
      outcome: acc.worst.outcome,
      outcomes: acc.outcomes,
      // The evidence is the durable state when the first occurrence's fault struck.
      evidence: strike ? (scenario.evidence ?? ((d) => JSON.stringify(d)))(strike.durable) : 'not reached by this workload',
      retryOwner: note?.retryOwner ?? (acc.fault.kind === 'crash' ? 'the component itself after restart' : 'the sender on timeout'),
      duplicatePossible: acc.duplicate,
      duplicateGuard: [...acc.guards].sort(),
      repairQuery: note?.repairQuery ?? '',
      plan: acc.worst.plan,
    };
  });
  const found = VIOLATIONS.filter((v) => firstOf.has(v));
  const verdict = found.length > 0 ? 'violated' : unknown ? 'unknown' : 'holds';
  const expectedViolations = scenario.expect.verdict === 'violated' ? scenario.expect.violations : [];
  const missing = expectedViolations.filter((v) => !firstOf.has(v));
  const unexpected = found.filter((v) => !expectedViolations.includes(v));
  const counterexamples = found.map((violation): Counterexample => {
    const run = firstOf.get(violation)!;
    const traced = runScenario(scenario, { seed: run.seed, plan: run.plan, size: run.size, keepTrace: true });
    return {
      violation,
      seed: run.seed,
      size: run.size,
      plan: run.plan,
      findings: traced.findings,
      traceHash: traced.result.traceHash,
      trace: traced.world.trace.events,
      replay: replayLine(options.ref ?? scenario.name, run.seed, run.plan),
    };
  });
  const all = failureWindows(components);
  return {
    name: scenario.name,
    title: scenario.title,
    source: scenario.source,
    lesson: scenario.lesson,
    seed,
    expect: scenario.expect.verdict,
    expectedViolations,
    verdict,
    asExpected: verdict === scenario.expect.verdict && missing.length === 0 && unexpected.length === 0,
    missing,
    unexpected,
    claims: scenario.claims.map(claimSentence),
    windowCount: new Set(windowRows.map((r) => r.window)).size,
    runs: plans.length + 1,
    distinctOutcomes: [...outcomes].sort((a, b) => rank(a) - rank(b)),
    windows: windowRows,
    counterexamples,
    failureWindows: all,
    unreachedWindows: all.filter((w) => !reached.has(w)),
  };
}

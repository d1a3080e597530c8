// Check mode: every interleaving and every combination of up to K faults, by explicit-state
// search over the kernel's states (src/kernel/kernel.ts, each message landing within a window of
// ticks and every fault a choice). Breadth-first by default, so the first
// counterexample of each violation is a shortest one; depth-first on request. A state seen
// before (by its 64-bit hash, src/modes/check/visitedSet.ts) is not explored again, and a step that
// commutes with one already taken is skipped where sleep sets (src/modes/check/sleepSets.ts) show that
// its state is reached anyway: fewer transitions, the same states. Each component's steps are
// remembered (src/kernel/transitionCache.ts), since a search asks for the same one again and again.
//
// The result has the shape of a windows sweep (src/modes/windows.ts), so every report form renders it:
// - a row per fault place and kind that struck, judged over the end states of every path whose
//   one fault it was (the fault is part of a state's identity while it is a path's only fault,
//   so paths with different faults are never merged and each row is exact; paths with more
//   faults count toward the verdict and the counterexamples, as pairs do in windows mode);
// - every failure window as struck, entered but never struck (only a path that had already
//   spent its fault budget reached it), or not reached within the bound;
// - a counterexample per violation, with its choice path (replayable with
//   `faultline replay <scenario> --choices <path>`) and the trace of running it again.
// A search stopped by --max-depth holds only "within bound", and says so; one stopped by
// --max-states, or one that judged no end state, decided nothing and is "inconclusive".
import { checkDeterministic } from '../../run/determinism.ts';
import { refOf } from '../../scenario/scenarioRef.ts';
import { checkRanges } from '../../base/optionRanges.ts';
import { beat } from '../../base/heartbeat.ts';
import type { Finding, RunOutcome, Violation } from '../../checkers/finding.ts';
import type { ClaimVerdict } from '../../checkers/compose.ts';
import { judgeClaims, runScenario, viewOf } from '../../run/runScenario.ts';
import { ClauseTally, violatedClaims, type Coverage, type OtherSearch, type SearchBound } from '../../checkers/coverage.ts';
import { FAULT_KINDS, faultLabel, faultPlace, faultPlaceName, faultDescriptor, isWindowFault, MESSAGE_FAULT_KINDS, WINDOW_FAULT_KINDS, type Fault, type FaultKind, type FaultPlan, type MessageFaultKind } from '../../faults/faults.ts';
import { declaresFault } from '../../faults/linkFaults.ts';
import { refuseNoFault } from '../faultSpace.ts';
import { designWindows, strikeSpace } from '../../run/failureWindows.ts';
import { InputError } from '../../base/inputError.ts';
import type { Place } from '../../faults/place.ts';
import type { ReplayRef } from '../replayLine.ts';
import { expectedAt, timeScaleOf, worldOptionsOf, type DesignComponent, type Scenario } from '../../scenario/scenario.ts';
import { Trace, type TraceEvent, type TraceKind } from '../../kernel/trace.ts';
import { judge, outcomeRank, verdictOf, type Judgement } from '../../checkers/verdict.ts';
import { DEFAULT_WORLD_OPTIONS } from '../../kernel/worldOptions.ts';
import { type Driver } from '../../run/world.ts';
import { type Ending } from '../../kernel/runReport.ts';
import { type Note, type Strike } from '../../kernel/runEvents.ts';
import type { CheckSummary, Counterexample, WindowRow, WindowsResult } from '../windows.ts';
import { undecidedOf, windowRowOf, type ObservedRun } from '../windowRow.ts';
import { encodeChoices } from './choicePath.ts';
import { steppedMoments, type DurableFrame, type KeyMoment } from '../../analysis/keyMoments.ts';
import type { KernelState as CheckState } from '../../kernel/draft.ts';
import { Kernel, isFault, type Choice, type PathEnd } from '../../kernel/kernel.ts';
import type { StepLog } from '../../kernel/stepLog.ts';
import { Frontier } from './frontier.ts';
import { SleepSets } from './sleepSets.ts';
import { VisitedSet } from './visitedSet.ts';

export interface CheckOptions {
  /** At most this many faults in one path (default 1). */
  readonly faults?: number;
  /** Workload size; the scenario's own when absent. */
  readonly size?: number;
  /** Stop after this many distinct states (default 10,000,000). */
  readonly maxStates?: number;
  /** Do not extend a path past this many steps. */
  readonly maxDepth?: number;
  /** Depth-first instead of breadth-first. */
  readonly dfs?: boolean;
  /** Stop at the first violation. */
  readonly failFast?: boolean;
  /** The fault kinds that may strike; the scenario's own (all of them unless it says) when absent. */
  readonly kinds?: readonly FaultKind[];
  /** How the user named the scenario, for replay lines. */
  readonly ref?: string;
  readonly driver?: Driver;
  /** Remember each component's steps (src/kernel/transitionCache.ts); default true. Off, a test compares. */
  readonly transitionCache?: boolean;
  /**
   * Take the World's latency window (the scenario's, 1 to 3 ticks by default) instead of a network
   * faster than the clock; every tick a message may take is then a branch of its own.
   */
  readonly worldLatency?: boolean;
  /**
   * Send a crash notice to every component, also to those whose machine never handles one (as the
   * World does); by default a search leaves those out, which changes no end state. A test compares.
   */
  readonly everyNotice?: boolean;
  /** Skip transitions that commute with one already taken (sleep sets); default true. */
  readonly reduction?: boolean;
  /** Steps the low lane of a sleep set holds (default and most 31): a test lowers it to run the high lane. */
  readonly sleepLowSteps?: number;
  /** Called every so many states, for progress indicators. */
  readonly onProgress?: (states: number, transitions: number) => void;
}

export const DEFAULT_MAX_STATES = 10_000_000;

export interface CheckResult extends WindowsResult {
  readonly kind: 'check';
  readonly check: CheckSummary;
}

/** One run along a choice path, as data: what a counterexample and `replay --choices` print. */
export interface ChoiceRun {
  readonly choices: readonly number[];
  readonly plan: FaultPlan;
  readonly end: PathEnd | undefined;
  readonly outcome: RunOutcome;
  readonly findings: readonly Finding[];
  readonly claims: readonly ClaimVerdict[];
  readonly trace: readonly TraceEvent[];
  /** '' for a run traced without hashing (`runChoices`'s `hashed`). */
  readonly traceHash: string;
  readonly notes: readonly Note[];
  readonly durable: Readonly<Record<string, unknown>>;
  readonly components: readonly DesignComponent[];
  /** Its faults as they struck: what was durable and in flight at each, as a World run's strikes. */
  readonly strikes: readonly Strike[];
  /** The step (an index into `choices`) at which each fault was taken. */
  readonly faultSteps: readonly number[];
  /** With `framed`: every component's durable state before each step and after the last, for the moments of its findings. */
  readonly frames?: readonly DurableFrame[];
}

/** The settings of a check: the world's, the fault budget and kinds, the workload size. */
export interface CheckSetup {
  readonly world: Kernel;
  readonly components: readonly DesignComponent[];
  readonly faults: number;
  readonly kinds: readonly FaultKind[];
  readonly size: number;
  readonly worldLatency: boolean;
  readonly options: Readonly<Record<string, number>>;
}

export interface SetupOptions {
  readonly faults: number;
  readonly kinds?: readonly FaultKind[];
  readonly size?: number;
  readonly worldLatency?: boolean;
  readonly driver?: Driver;
  readonly transitionCache?: boolean;
  readonly everyNotice?: boolean;
}

/**
 * The world a check searches. By default a message lands before the clock moves (a latency of
 * zero ticks): every message sent at one moment is delivered, in every order the links allow,
 * before the next timer fires, and only a delay fault holds one past a timer. Timers, restarts,
 * TTLs and retention keep their exact durations. `worldLatency` takes the World's own window.
 */
export function checkSetup(scenario: Scenario, o: SetupOptions): CheckSetup {
  const { faults, worldLatency = false, driver = 'compiled', transitionCache = true } = o;
  const size = o.size ?? scenario.workload.size;
  const time = timeScaleOf(scenario);
  const components = scenario.build({ size }, time);
  const w = { ...DEFAULT_WORLD_OPTIONS, ...worldOptionsOf(scenario, time) };
  // A restore or a skew is offered only where a component declares it, and only then counted
  // among the kinds the check covers.
  // A rebalance likewise only where two or more components join one group at one broker (src/faults/linkFaults.ts).
  const space = strikeSpace(components);
  const offered = (k: FaultKind) => {
    const kind = faultDescriptor(k);
    // A name that is no kind (a caller of the API past the schema's check) strikes nowhere.
    if (kind === undefined) return false;
    if (!kind.declared) return true;
    if (kind.strikes === 'window') return kind.places(space).length > 0;
    return declaresFault(components, k as MessageFaultKind);
  };
  const asked = o.kinds ?? scenario.windows?.kinds ?? FAULT_KINDS;
  const kinds = asked.filter(offered);
  if (faults > 0 && kinds.length === 0) refuseNoFault(scenario.name, asked);
  // The timing the search uses, also recorded in a traced path's start event.
  const options = {
    latencyTicksMin: worldLatency ? w.latencyTicksMin : 0,
    latencyTicksMax: worldLatency ? w.latencyTicksMax : 0,
    delayFaultTicks: w.delayFaultTicks,
    restartDelayTicks: w.restartDelayTicks,
    livenessTicksMax: w.livenessTicksMax,
    quietTicks: w.quietTicks,
  };
  const world = new Kernel(components, {
    exact: false,
    ...options,
    faults,
    windowFaults: WINDOW_FAULT_KINDS.filter((k) => kinds.includes(k)),
    messageFaults: MESSAGE_FAULT_KINDS.filter((k) => kinds.includes(k)),
    driver,
    transitionCache,
    ...(o.everyNotice ? { everyNotice: true } : {}),
  });
  return { world, components, faults, kinds, size, worldLatency, options };
}

/** The ending a checker sees for a path's end. */
function endingOf(end: PathEnd): Ending {
  return end.kind === 'quiet' ? { kind: 'quiescent' } : { kind: 'stuck', reason: end.reason };
}

/** Every claim judged on an end state's durable contexts. */
export function judgeEnd(scenario: Scenario, durable: Readonly<Record<string, unknown>>, end: PathEnd, notes: readonly Note[] = []): { outcome: RunOutcome; findings: Finding[]; claims: ClaimVerdict[] } {
  return judgeClaims(scenario, viewOf({ durable, ending: endingOf(end), notes }));
}

/** A choice's fault as a plan entry, with the occurrence the World would strike it at (its kind says which: src/faults/kinds/). */
function faultOf(world: Kernel, s: CheckState, c: Choice, entered: ReadonlyMap<string, number>): Fault | undefined {
  return isFault(c) ? world.faultEntry(s, c, entered) : undefined;
}

/** Collects a traced run's events, notes and window entries. */
class TracingLog {
  readonly trace: Trace;
  constructor(hashed: boolean) {
    this.trace = new Trace(true, hashed);
  }
  readonly notes: Note[] = [];
  readonly entered = new Map<string, number>();
  event(tick: number, component: string, kind: TraceKind, data?: unknown): void {
    if (kind === 'note') {
      const d = data as { kind: string; data?: unknown };
      this.notes.push({ tick, seq: this.trace.length, component, kind: d.kind, ...(d.data === undefined ? {} : { data: d.data }) });
    }
    this.trace.add(tick, component, kind, data);
  }
  enter(window: string): undefined {
    this.entered.set(window, (this.entered.get(window) ?? 0) + 1);
    return undefined;
  }
}

/**
 * Runs one choice path, traced, and judges where it ends. A path that names a choice the state
 * does not offer is bad input; a path that stops before the run ends is judged where it stops
 * (its end is then undefined and the outcome says what the claims see there). `faultFree` says
 * the path takes no fault, so the states need not offer any (the choices keep their indices);
 * `hashed` false keeps the trace without hashing it (its `traceHash` is then ''), for a run
 * whose hash no report prints; `framed` notes the durable state before every step, as a framed
 * World run does, for a counterexample whose steps are marked.
 */
export function runChoices(scenario: Scenario, setup: CheckSetup, choices: readonly number[], how: { readonly faultFree?: boolean; readonly hashed?: boolean; readonly framed?: boolean } = {}): ChoiceRun {
  const { faultFree = false, hashed = true } = how;
  const { world } = setup;
  const log = new TracingLog(hashed);
  const tracer: StepLog = { trace: (t, c, k, d) => log.event(t, c, k, d), enter: (_c, w) => log.enter(w) };
  log.event(0, 'world', 'start', { choices: encodeChoices(choices), faults: setup.faults, kinds: setup.kinds, size: setup.size, options: setup.options });
  let s = world.initial(tracer);
  const plan: Fault[] = [];
  const strikes: Strike[] = [];
  const faultSteps: number[] = [];
  // Each choice is one step, and its first event is the next one the trace records.
  const frames: DurableFrame[] | undefined = how.framed ? [] : undefined;
  const note = (state: CheckState) => {
    const durable = world.durable(state);
    frames?.push({ at: log.trace.length, step: log.trace.length, durable: world.names.map((n) => durable[n]) });
  };
  let end: PathEnd | undefined;
  for (let i = 0; ; i++) {
    const offered = world.choices(s, !faultFree);
    end = world.end(s, offered);
    if (i === choices.length) break;
    const c = offered[choices[i]!];
    // A search goes on from an end only by a fault (see StateSearch.expand).
    if (end !== undefined && (c === undefined || !isFault(c))) throw new InputError(`--choices: the run ends after step ${i} of ${choices.length}; the path is longer than the run`);
    if (c === undefined) throw new InputError(`--choices: step ${i + 1} takes choice ${choices[i]}, but that state offers ${offered.length} (0 to ${offered.length - 1})`);
    const f = faultOf(world, s, c, log.entered);
    if (f) {
      plan.push(f);
      strikes.push({ fault: f, tick: s.now, durable: world.durable(s), inFlight: world.inFlight(s) });
      faultSteps.push(i);
    }
    note(s);
    s = world.apply(s, c, tracer);
    if (f && frames !== undefined) deliveryStarts(frames, log.trace.events);
  }
  note(s);
  const durable = world.durable(s);
  const judged = end === undefined ? { outcome: 'holds' as RunOutcome, findings: [], claims: [] } : judgeEnd(scenario, durable, end, log.notes);
  return {
    choices,
    plan,
    end,
    ...judged,
    trace: log.trace.events,
    traceHash: log.trace.hash(),
    notes: log.notes,
    durable,
    components: setup.components,
    strikes,
    faultSteps,
    ...(frames === undefined ? {} : { frames }),
  };
}

/**
 * A fault chosen at a link's head is recorded before the delivery it rides on (the duplicate,
 * then the message landing), where a World run records the delivery first and the fault it
 * suffered after. A change such a step makes is drawn at its delivery, as a World run's is, not
 * at the fault line before it; a step that delivers nothing (a crash) keeps its first event.
 */
function deliveryStarts(frames: DurableFrame[], events: readonly TraceEvent[]): void {
  const last = frames[frames.length - 1]!;
  for (let j = last.step; j < events.length; j++) {
    const kind = events[j]!.kind;
    if (kind !== 'deliver' && kind !== 'timer') continue;
    frames[frames.length - 1] = { ...last, step: j };
    return;
  }
}

/** The steps of a framed path's run at which the keys of its findings of `violation` went wrong. */
export function choiceMoments(scenario: Scenario, run: ChoiceRun, violation: Violation): KeyMoment[] {
  if (run.frames === undefined || run.end === undefined) return [];
  const components = run.components.map((c) => c.name);
  return steppedMoments({ components, frames: run.frames, ending: endingOf(run.end), notes: run.notes, findings: run.findings }, scenario.claims, violation);
}

/**
 * The fault-free counterpart of a path: its choices up to its first fault, then at every step the
 * first choice that is no fault. It is what the path's run would have done had the fault not
 * struck, as windows mode's fault-free run is for its faulted ones: the work a crash cut short is
 * what a component sends next here, and a guard that fires here is no fault's doing.
 */
export function faultFreeChoices(setup: CheckSetup, choices: readonly number[], firstFault: number = choices.length): number[] {
  const { world } = setup;
  const quiet: StepLog = { enter: () => undefined };
  let s = world.initial(quiet);
  const out: number[] = [];
  for (let i = 0; ; i++) {
    // The steps before the first fault are no faults, and after it the first choice that is no
    // fault is the first choice: faults are offered last, so they need not be offered at all.
    const offered = world.choices(s, false);
    if (world.end(s, offered) !== undefined) return out;
    const pick = i < firstFault ? choices[i]! : 0;
    out.push(pick);
    s = world.apply(s, offered[pick]!, quiet);
  }
}

/** A choice path's run as a row reads it. */
export function observedChoiceRun(run: ChoiceRun): ObservedRun {
  return { outcome: run.outcome, findings: run.findings, claims: run.claims, strikes: run.strikes, trace: run.trace, notes: run.notes, components: run.components, plan: run.plan };
}

/** Parent links and choice indices of stored states, in growable typed arrays. */
class Tree {
  parent = new Int32Array(1 << 16);
  choice = new Uint16Array(1 << 16);
  size = 0;

  add(parent: number, choice: number): number {
    if (this.size === this.parent.length) {
      const p = new Int32Array(this.size * 2);
      p.set(this.parent);
      this.parent = p;
      const c = new Uint16Array(this.size * 2);
      c.set(this.choice);
      this.choice = c;
    }
    this.parent[this.size] = parent;
    this.choice[this.size] = choice;
    return this.size++;
  }

  path(id: number): number[] {
    const out: number[] = [];
    for (let i = id; this.parent[i]! >= 0; i = this.parent[i]!) out.push(this.choice[i]!);
    return out.reverse();
  }

  get bytes(): number {
    return this.parent.byteLength + this.choice.byteLength;
  }

  /** Empties the tree and keeps its memory, as `VisitedSet.clear` does. */
  clear(): void {
    this.size = 0;
  }
}

/**
 * The visited set and tree of a search, handed on to the search that follows it (the
 * depth-first search after a breadth-first one that hit its bound): the second empties and
 * reuses them, so the two never hold a table each, one of them waiting to be collected.
 */
interface Scratch {
  visited?: VisitedSet;
  tree?: Tree;
}

interface RowAcc {
  readonly index: number;
  readonly fault: Fault;
  readonly place: Place;
  applied: number;
  outcomes: Partial<Record<RunOutcome, number>>;
  worst: RunOutcome | undefined;
  worstNode: number;
}

interface Item {
  readonly s: CheckState;
  /** The state's key in the visited set, its two lanes. */
  readonly hi: number;
  readonly lo: number;
  readonly id: number;
  readonly depth: number;
  /** 0: no fault yet; r + 1: row r's fault alone; MANY: more than one fault. */
  readonly tag: number;
  /**
   * A state expanded before and reached again with fewer steps asleep: the steps its first
   * expansion skipped that it now takes, and its sleep set now, each as its two lanes.
   */
  readonly again?: { readonly stepsLow: number; readonly stepsHigh: number; readonly sleepLow: number; readonly sleepHigh: number };
}

/**
 * With sleep sets, the visited set keeps beside each state its sleep set (the meet of those it
 * arrived with): the low lane shifted left by one, whose lowest bit says whether the state has
 * been expanded, and the high lane once a design numbers that many steps.
 */
const EXPANDED = 1;

/** Where a search keeps a new state to expand: a breadth-first level's next row, or the depth-first stack. */
type Push = (s: CheckState, hi: number, lo: number, id: number, depth: number, tag: number) => void;

const MANY = -1;
/** No window entered yet: a row's fault is named at its first occurrence, whatever the path. */
const NO_ENTRIES: ReadonlyMap<string, number> = new Map();
const PROGRESS_EVERY = 100_000;

/**
 * The search, in the order asked for. A breadth-first search that stops at its state bound
 * without a violation has not reached the end of any path longer than the levels it finished,
 * and a design whose runs are long (a stream reprocessed, hundreds of steps) can be violated on
 * the first path a depth-first search walks to its end. So such a search is followed by a
 * depth-first one within the same bound: a violation it finds is the verdict (its path not a
 * shortest one, and the coverage says so); if it finds none, the breadth-first result stands,
 * holding within bound, and says the depth-first search found nothing either.
 */
export function check(scenario: Scenario, options: CheckOptions = {}): CheckResult {
  checkRanges('check', options, ['faults', 'size', 'maxStates', 'maxDepth']);
  // One fault-free run first, as windows mode makes: a design whose messages reach a component
  // that handles them nowhere is refused as miswired before any state is searched.
  checkDeterministic(scenario, runScenario(scenario, { seed: 1, plan: [], ...(options.size === undefined ? {} : { size: options.size }) }));
  const scratch: Scratch = {};
  const first = search(scenario, options, scratch);
  if (options.dfs || first.coverage.bound?.kind !== 'states' || first.counterexamples.length > 0) return withFaultFree(scenario, options, scratch, first);
  const deep = search(scenario, { ...options, dfs: true }, scratch);
  const other = (r: CheckResult, order: OtherSearch['order']): OtherSearch => ({ order, states: r.check.states, depth: r.check.depth });
  if (deep.counterexamples.length > 0) return withFaultFree(scenario, options, scratch, { ...deep, coverage: { ...deep.coverage, otherSearch: other(first, 'breadth-first') } });
  return { ...first, coverage: { ...first.coverage, otherSearch: other(deep, 'depth-first') } };
}

/**
 * A violation the search showed under a fault, shown with none where it needs none. A search that
 * stops at its first violation (the command's default; `--full` searches on) keeps the first path
 * that reached it, and that path may take a fault that played no part (a delayed poll reply that
 * skipped poll cycles reaches the end sooner), which the report would blame. So the fault-free
 * paths are searched too, within as many states as the faulted searches took (the fault-free space
 * is the part of it no fault touches), and each violation they show replaces the faulted
 * counterexample of it.
 */
function withFaultFree(scenario: Scenario, options: CheckOptions, scratch: Scratch, r: CheckResult): CheckResult {
  if (r.counterexamples.every((c) => c.plan.length === 0)) return r;
  // As many states as the faulted searches took together: a breadth-first one that stopped at its
  // bound, and the depth-first one after it.
  const took = r.check.states + (r.coverage.otherSearch?.states ?? 0);
  const bare = search(scenario, { ...options, faults: 0, dfs: false, maxStates: Math.min(options.maxStates ?? DEFAULT_MAX_STATES, Math.max(1, took)) }, scratch);
  const faultFree = new Map(bare.counterexamples.map((c) => [c.violation, c]));
  if (faultFree.size === 0) return r;
  return { ...r, counterexamples: r.counterexamples.map((c) => (c.plan.length > 0 ? (faultFree.get(c.violation) ?? c) : c)) };
}

/** The world a search with these options steps, with at most `faults` faults in a path. */
function setupOf(scenario: Scenario, options: CheckOptions, faults: number): CheckSetup {
  return checkSetup(scenario, {
    faults,
    ...(options.kinds ? { kinds: options.kinds } : {}),
    ...(options.size === undefined ? {} : { size: options.size }),
    ...(options.worldLatency ? { worldLatency: true } : {}),
    ...(options.driver ? { driver: options.driver } : {}),
    ...(options.transitionCache === false ? { transitionCache: false } : {}),
    ...(options.everyNotice ? { everyNotice: true } : {}),
  });
}

function search(scenario: Scenario, options: CheckOptions, scratch: Scratch): CheckResult {
  const setup = setupOf(scenario, options, options.faults ?? 1);
  const found = new StateSearch(scenario, options, setup, scratch);
  found.run();
  return searchResult(scenario, options, setup, found);
}

/**
 * One search over a check's states: what it visited, the rows of the faults it took, the end
 * states it judged and the bound that stopped it, if one did. Its fields are read by the result.
 */
class StateSearch {
  readonly world: Kernel;
  /** The failure windows some path entered. */
  readonly entered = new Set<string>();
  private readonly log: StepLog;
  readonly sleeps: SleepSets | undefined;
  readonly visited: VisitedSet;
  readonly tree: Tree;
  readonly rows: RowAcc[] = [];
  private readonly rowIndex = new Map<string, RowAcc>();
  private readonly judgements = new Map<string, { outcome: RunOutcome; findings: Finding[]; claims: ClaimVerdict[] }>();
  readonly tally = new ClauseTally();
  readonly outcomes = new Map<RunOutcome, number>();
  /**
   * The tree node of the end state each violation is shown by: the first found with the fewest
   * faults. A violation that needs no fault is shown with none, even where a path a fault cut
   * short reached it first (a delayed poll reply that skipped poll cycles), so the counterexample
   * never blames a fault that played no part.
   */
  readonly firstOf = new Map<Violation, number>();
  /** How many faults the path that shows each violation takes. */
  readonly faultsOf = new Map<Violation, number>();
  transitions = 0;
  /**
   * Transitions sleep sets skipped for good: each commutes with one taken, so its state is reached
   * anyway. With the transitions taken, they add up to what the search takes without sleep sets.
   */
  slept = 0;
  ends = 0;
  maxSeen = 0;
  bound: SearchBound | undefined;
  stopped = false;
  /** States pushed and not yet expanded: what the search had left when a bound stopped it. */
  waiting = 1;
  private nextProgress = PROGRESS_EVERY;
  private readonly maxStates: number;
  private readonly maxDepth: number;

  constructor(
    private readonly scenario: Scenario,
    private readonly options: CheckOptions,
    setup: CheckSetup,
    scratch: Scratch,
  ) {
    this.world = setup.world;
    this.maxStates = options.maxStates ?? DEFAULT_MAX_STATES;
    this.maxDepth = options.maxDepth ?? Infinity;
    const entered = this.entered;
    this.log = {
      enter: (_c, w) => {
        entered.add(w);
        return undefined;
      },
    };
    this.sleeps = options.reduction === false ? undefined : new SleepSets(options.sleepLowSteps);
    this.visited = scratch.visited?.valued === (this.sleeps !== undefined) ? scratch.visited : new VisitedSet(1 << 16, this.sleeps !== undefined);
    this.tree = scratch.tree ?? new Tree();
    this.visited.clear();
    this.tree.clear();
    scratch.visited = this.visited;
    scratch.tree = this.tree;
  }

  /** Searches from the initial state, breadth-first or depth-first as asked, until done or bound. */
  run(): void {
    const s0 = this.world.initial(this.log);
    const h0 = this.world.hash(s0, 0);
    this.visited.add(h0[0], h0[1]);
    const root: Item = { s: s0, hi: h0[0], lo: h0[1], id: this.tree.add(-1, 0), depth: 0, tag: 0 };
    if (this.options.dfs) this.depthFirst(root);
    else this.breadthFirst(root);
    this.options.onProgress?.(this.visited.size, this.transitions);
  }

  private depthFirst(root: Item): void {
    const stack = [root];
    const push: Push = (s, hi, lo, id, depth, tag) => {
      this.waiting++;
      stack.push({ s, hi, lo, id, depth, tag });
    };
    const pushAgain = (i: Item) => {
      this.waiting++;
      stack.push(i);
    };
    while (stack.length > 0 && !this.stopped) {
      const i = stack.pop()!;
      this.expand(i.s, i.hi, i.lo, i.id, i.depth, i.tag, i.again, push, pushAgain);
    }
  }

  /**
   * A level is held as rows of part indices (src/modes/check/frontier.ts): the level being read
   * and the one being built are all that is held at once. The two are swapped at each level: the
   * one read becomes, emptied, the next one built. Second expansions are few, and wait beside the
   * level as items.
   */
  private breadthFirst(root: Item): void {
    let level = new Frontier<CheckState['comps'][number], CheckState['links'][number]>(this.world);
    let next = new Frontier<CheckState['comps'][number], CheckState['links'][number]>(this.world);
    level.push(root.s, root.hi, root.lo, root.id, root.tag);
    let agains: Item[] = [];
    for (let depth = 0; (level.length > 0 || agains.length > 0) && !this.stopped; depth++) {
      next.clear();
      const building = next;
      const nextAgains: Item[] = [];
      const push: Push = (s, hi, lo, id, _depth, tag) => {
        this.waiting++;
        building.push(s, hi, lo, id, tag);
      };
      const pushAgain = (i: Item) => {
        this.waiting++;
        nextAgains.push(i);
      };
      for (let k = 0; k < level.length && !this.stopped; k++) this.expand(level.state(k), level.hi(k), level.lo(k), level.id(k), depth, level.tag(k), undefined, push, pushAgain);
      for (let k = 0; k < agains.length && !this.stopped; k++) {
        const i = agains[k]!;
        this.expand(i.s, i.hi, i.lo, i.id, i.depth, i.tag, i.again, push, pushAgain);
      }
      next = level;
      level = building;
      agains = nextAgains;
    }
  }

  /** The row of the fault a choice makes: its kind at its place, at its first occurrence. */
  private rowOf(s: CheckState, c: Choice): RowAcc {
    const f = faultOf(this.world, s, c, NO_ENTRIES)!;
    const key = `${faultLabel(f)}\u0000${faultPlaceName(f)}`;
    let row = this.rowIndex.get(key);
    if (!row) {
      const place: Place = faultPlace(f)!;
      row = { index: this.rows.length, fault: { ...f, occurrence: 1 }, place, applied: 0, outcomes: {}, worst: undefined, worstNode: -1 };
      this.rows.push(row);
      this.rowIndex.set(key, row);
    }
    return row;
  }

  /** Judges an end state (once per durable state and ending) and counts it, for its row too. */
  private judgeAt(s: CheckState, id: number, tag: number, end: PathEnd): void {
    this.ends++;
    const dh = this.world.durableHash(s);
    const key = `${dh[0]}:${dh[1]}:${end.kind === 'quiet' ? 'q' : JSON.stringify(end.reason)}`;
    let j = this.judgements.get(key);
    if (!j) {
      j = judgeEnd(this.scenario, this.world.durable(s), end);
      this.judgements.set(key, j);
    }
    this.tally.add(j.claims);
    this.outcomes.set(j.outcome, (this.outcomes.get(j.outcome) ?? 0) + 1);
    for (const f of j.findings) {
      const fewest = this.faultsOf.get(f.violation);
      if (fewest !== undefined && fewest <= s.faults) continue;
      this.firstOf.set(f.violation, id);
      this.faultsOf.set(f.violation, s.faults);
    }
    if (tag > 0) {
      const row = this.rows[tag - 1]!;
      row.outcomes[j.outcome] = (row.outcomes[j.outcome] ?? 0) + 1;
      if (row.worst === undefined || outcomeRank(j.outcome) < outcomeRank(row.worst)) {
        row.worst = j.outcome;
        row.worstNode = id;
      }
    }
    if (this.options.failFast && j.findings.length > 0) this.stopped = true;
  }

  /**
   * Expands a state: judges it if a path ends there, else takes each choice it offers that is not
   * asleep. A state to expand comes as its fields, not as an item: a breadth-first level keeps
   * rows of numbers, and a state it reads back needs no object beyond its own. A new successor is
   * pushed the same way; a second expansion waits as an item.
   */
  private expand(s: CheckState, hi: number, lo: number, id: number, depth: number, tag: number, again: Item['again'], push: Push, pushAgain: (i: Item) => void): void {
    beat();
    this.waiting--;
    const { world, visited, sleeps } = this;
    let offered = world.choices(s);
    const end = world.end(s, offered);
    if (end !== undefined) {
      offered = this.ended(s, hi, lo, id, tag, again !== undefined, end, offered);
      if (offered.length === 0) return;
    }
    if (depth >= this.maxDepth) {
      this.bound ??= { kind: 'depth', max: this.maxDepth };
      return;
    }
    let asleepLow = 0;
    let asleepHigh = 0;
    // An end's faults take no sleep set: no fault is ever asleep, and `ended` marked it expanded.
    if (sleeps && end === undefined) {
      const slot = visited.slot(hi, lo);
      const value = visited.value(slot);
      asleepLow = again?.sleepLow ?? value >>> 1;
      asleepHigh = again?.sleepHigh ?? visited.value2(slot);
      visited.setValue(slot, value | EXPANDED);
    }
    let takenLow = 0;
    let takenHigh = 0;
    for (let i = 0; i < offered.length && !this.stopped; i++) {
      const c = offered[i]!;
      const step = sleeps ? sleeps.stepOf(s, c) : -1;
      // The first step past the low lane gives every state a high lane, 0 for those already seen.
      if (sleeps && step >= sleeps.lowSteps && !visited.wide) visited.widen();
      // A second expansion takes only the steps the first one skipped (no fault is ever among them).
      if (again !== undefined) {
        if (step < 0 || !sleeps!.has(again.stepsLow, again.stepsHigh, step)) continue;
        // The first expansion counted it as skipped; it is taken after all.
        this.slept--;
      }
      if (step >= 0 && sleeps!.has(asleepLow, asleepHigh, step)) {
        this.slept++;
        continue;
      }
      let nextTag = tag;
      if (isFault(c)) {
        const row = this.rowOf(s, c);
        row.applied++;
        nextTag = tag === 0 ? row.index + 1 : MANY;
      }
      const t = world.apply(s, c, this.log);
      this.transitions++;
      // The successor's sleep set: the steps asleep here or taken here before this one that commute with it.
      let sleepLow = 0;
      let sleepHigh = 0;
      if (step >= 0) {
        if (t.nextUnordered !== s.nextUnordered) sleeps!.sentUnordered(step);
        sleepLow = (asleepLow | takenLow) & sleeps!.commutingLowOf(step);
        sleepHigh = (asleepHigh | takenHigh) & sleeps!.commutingHighOf(step);
        if (step < sleeps!.lowSteps) takenLow |= 1 << step;
        else takenHigh |= 1 << (step - sleeps!.lowSteps);
      }
      if (!this.visit(t, id, i, depth + 1, nextTag, sleepLow, sleepHigh, push, pushAgain)) return;
    }
    if (this.options.onProgress && visited.size >= this.nextProgress) {
      this.nextProgress = visited.size + PROGRESS_EVERY;
      this.options.onProgress(visited.size, this.transitions);
    }
  }

  /**
   * A path ends at this state. An end is judged once, at its first arrival, and only its faults
   * are expanded (by `expand`, at that arrival): nothing is asleep in it, so no later arrival
   * asks for more. A world at rest can still be struck: a windows run crashes a process as it
   * enters the window it then rests in for good, so each fault the budget still allows starts a
   * path of its own from here. A path the liveness bound cut is stuck whatever strikes it after.
   * Returns the faults to expand.
   */
  private ended(s: CheckState, hi: number, lo: number, id: number, tag: number, again: boolean, end: PathEnd, offered: readonly Choice[]): Choice[] {
    const visited = this.visited;
    if (this.sleeps) {
      const slot = visited.slot(hi, lo);
      visited.setValue(slot, EXPANDED);
      if (visited.wide) visited.setValue2(slot, 0);
    }
    if (again) return [];
    this.judgeAt(s, id, tag, end);
    return end.kind === 'stuck' && end.reason.kind === 'no quiescence' ? [] : offered.filter(isFault);
  }

  /**
   * A successor `t`, reached by choice `i` of node `id`: pushed when new, or pushed again when
   * reached with fewer steps asleep than before. False when the state bound stops the search.
   */
  private visit(t: CheckState, id: number, i: number, nextDepth: number, nextTag: number, sleepLow: number, sleepHigh: number, push: Push, pushAgain: (i: Item) => void): boolean {
    const { world, visited } = this;
    world.hashLanes(t, nextTag);
    const nhi = world.hashHi;
    const nlo = world.hashLo;
    // One probe of the table for a state seen before or new; the bound is asked only when full.
    if (visited.size >= this.maxStates && !visited.has(nhi, nlo)) {
      this.bound = { kind: 'states', max: this.maxStates };
      this.stopped = true;
      return false;
    }
    if (!this.sleeps) {
      if (!visited.add(nhi, nlo)) return true;
    } else {
      const slot = visited.put(nhi, nlo);
      if (slot < 0) {
        visited.setValue(~slot, sleepLow << 1);
        if (visited.wide) visited.setValue2(~slot, sleepHigh);
      } else {
        // Reached again with fewer steps asleep: its expansion is to take the ones it now
        // lacks, at once if it is still waiting to be expanded, or in an expansion of its own.
        const value = visited.value(slot);
        const beforeLow = value >>> 1;
        const beforeHigh = visited.value2(slot);
        const wokenLow = beforeLow & ~sleepLow;
        const wokenHigh = beforeHigh & ~sleepHigh;
        if ((wokenLow | wokenHigh) === 0) return true;
        const nowLow = beforeLow & sleepLow;
        const nowHigh = beforeHigh & sleepHigh;
        visited.setValue(slot, (nowLow << 1) | (value & EXPANDED));
        if (visited.wide) visited.setValue2(slot, nowHigh);
        if (value & EXPANDED) pushAgain({ s: t, hi: nhi, lo: nlo, id: this.tree.add(id, i), depth: nextDepth, tag: nextTag, again: { stepsLow: wokenLow, stepsHigh: wokenHigh, sleepLow: nowLow, sleepHigh: nowHigh } });
        return true;
      }
    }
    if (nextDepth > this.maxSeen) this.maxSeen = nextDepth;
    push(t, nhi, nlo, this.tree.add(id, i), nextDepth, nextTag);
    return true;
  }
}

/**
 * The runs a search's report is read from, each run again once along its choice path:
 * counterexamples and each row's worst path traced (only a counterexample's trace hash is printed,
 * so only its run is hashed), and their fault-free counterparts.
 */
class PathRuns {
  private readonly traced = new Map<number, ChoiceRun>();
  private readonly freeByPrefix = new Map<string, number[]>();
  private readonly references = new Map<string, ChoiceRun>();

  constructor(
    private readonly scenario: Scenario,
    private readonly options: CheckOptions,
    private readonly setup: CheckSetup,
    private readonly tree: Tree,
  ) {}

  /** The run along the path to tree node `node`. */
  runOf(node: number, hashed: boolean, framed = false): ChoiceRun {
    let run = this.traced.get(node);
    if (!run || (hashed && run.traceHash === '') || (framed && run.frames === undefined)) {
      run = runChoices(this.scenario, this.setup, this.tree.path(node), { hashed, framed });
      this.traced.set(node, run);
    }
    return run;
  }

  replayOf(run: ChoiceRun, faults = this.setup.faults): ReplayRef {
    const { options, setup } = this;
    return {
      kind: 'choices',
      scenario: options.ref ?? this.scenario.name,
      choices: encodeChoices(run.choices),
      faults,
      ...(options.kinds ? { kinds: setup.kinds } : {}),
      ...(options.size === undefined ? {} : { size: setup.size }),
      ...(setup.worldLatency ? { worldLatency: true } : {}),
    };
  }

  /**
   * A path's fault-free counterpart, run: rows whose paths share the steps before their fault
   * share one, and different prefixes often lead to the same one, so each is worked out and run
   * once.
   */
  referenceOf(run: ChoiceRun | undefined): ChoiceRun {
    const choices = run?.choices ?? [];
    const firstFault = run?.faultSteps[0] ?? 0;
    const prefix = choices.slice(0, firstFault).join(',');
    let free = this.freeByPrefix.get(prefix);
    if (free === undefined) {
      free = faultFreeChoices(this.setup, choices, firstFault);
      this.freeByPrefix.set(prefix, free);
    }
    const key = free.join(',');
    let reference = this.references.get(key);
    if (reference === undefined) {
      reference = runChoices(this.scenario, this.setup, free, { faultFree: true, hashed: false });
      this.references.set(key, reference);
    }
    return reference;
  }
}

/** A search's result, in the shape of a windows sweep's. */
function searchResult(scenario: Scenario, options: CheckOptions, setup: CheckSetup, found: StateSearch): CheckResult {
  const runs = new PathRuns(scenario, options, setup, found.tree);
  const time = timeScaleOf(scenario);
  const violations = [...found.firstOf.keys()].sort((a, b) => outcomeRank(a) - outcomeRank(b));
  // A path that takes no fault is shown as the fault-free run it is, replayed with --faults 0:
  // its choices pick the same steps there, since a state offers its faults after its own steps,
  // and its trace (whose start names the budget) hashes as that replay's does.
  let bare: CheckSetup | undefined;
  const counterexamples = violations.map((violation): Counterexample => {
    const node = found.firstOf.get(violation)!;
    const faultFree = found.faultsOf.get(violation) === 0 && setup.faults > 0;
    const run = faultFree ? runChoices(scenario, (bare ??= setupOf(scenario, options, 0)), found.tree.path(node), { framed: true }) : runs.runOf(node, true, true);
    return { violation, seed: 0, size: setup.size, plan: run.plan, findings: run.findings, traceHash: run.traceHash, trace: run.trace, replay: runs.replayOf(run, run.plan.length === 0 ? 0 : setup.faults), moments: choiceMoments(scenario, run, violation) };
  });
  // Every row is built as windows mode builds one (src/modes/windowRow.ts): all its observed
  // cells from its worst path, read beside that path's fault-free counterpart.
  const windowRows = found.rows.map((row): WindowRow => {
    const run = row.worstNode >= 0 ? runs.runOf(row.worstNode, false) : undefined;
    return windowRowOf({
      place: row.place,
      fault: row.fault,
      tally: { runs: row.applied, struck: row.applied, outcomes: row.outcomes, undecided: run?.outcome === 'unknown' ? undecidedOf(run) : [] },
      run: run && observedChoiceRun(run),
      reference: observedChoiceRun(runs.referenceOf(run)),
      claims: scenario.claims,
      time,
      ...(run ? { replay: runs.replayOf(run) } : {}),
    });
  });
  const all = designWindows(setup.components, (w) => found.entered.has(w));
  const struckWindows = new Set(found.rows.filter((r) => r.fault.kind === 'crash').map((r) => (r.fault as { window: string }).window));
  const { judgement, coverage, ordered } = judgedSearch(scenario, setup, found, violations, all.length);
  const { visited, entered } = found;
  return {
    kind: 'check',
    name: scenario.name,
    title: scenario.title,
    source: scenario.source,
    lesson: scenario.lesson,
    ref: options.ref ?? refOf(scenario),
    seed: 0,
    tick: time.tick,
    claims: scenario.claims,
    judgement,
    coverage,
    distinctOutcomes: ordered,
    rows: windowRows,
    counterexamples,
    failureWindows: all,
    unreachedWindows: all.filter((w) => !entered.has(w)),
    refusals: [],
    check: {
      faults: setup.faults,
      size: setup.size,
      states: visited.size,
      transitions: found.transitions,
      depth: found.maxSeen,
      ends: found.ends,
      bytes: visited.bytes + found.tree.bytes,
      unstruckWindows: all.filter((w) => entered.has(w) && !struckWindows.has(w)),
    },
  };
}

/** A search's verdict judged against the scenario's expectation, and what it covered. */
function judgedSearch(scenario: Scenario, setup: CheckSetup, found: StateSearch, violations: readonly Violation[], windows: number): { judgement: Judgement; coverage: Coverage; ordered: RunOutcome[] } {
  const { bound, stopped, ends, tally, rows } = found;
  const ordered = [...found.outcomes.keys()].sort((a, b) => outcomeRank(a) - outcomeRank(b));
  // A search cut short (by a bound, or by --fail-fast at its first violation) cannot be asked to
  // show every expected violation, as a sampling search cannot.
  const complete = bound === undefined && !stopped;
  // A search that judged no end state, or that a state bound stopped part-way (so that no depth
  // was searched whole), decided nothing: it is inconclusive, never "holds within bound". A depth
  // bound alone leaves a defined part searched: every path to that depth.
  const undecided = ends === 0 || bound?.kind === 'states';
  // A workload smaller than the scenario's is a bound as well: what holds for three orders may
  // not for five (a dedup store that evicts its fourth key).
  const smaller = setup.size < scenario.workload.size;
  const verdict = verdictOf(ordered, bound !== undefined || smaller);
  const judgement = judge(expectedAt(scenario.expect, setup.faults), undecided && (verdict === 'holds' || verdict === 'holds within bound') ? 'inconclusive' : verdict, violations, complete ? 'exhaustive' : 'sampled', violatedClaims(tally.result()), tally.undecided(), tally.vacuous());
  const coverage: Coverage = {
    mode: 'check',
    faultDepth: setup.faults,
    kinds: setup.kinds,
    windows,
    points: new Set(rows.flatMap((r) => (isWindowFault(r.fault) ? [] : [r.fault.point]))).size,
    runs: ends,
    unstruckRuns: 0,
    interleavings: { kind: 'all', states: found.visited.size, transitions: found.transitions, depth: found.maxSeen, ...(found.sleeps ? { slept: found.slept } : {}) },
    latency: { min: setup.options['latencyTicksMin'] ?? 0, max: setup.options['latencyTicksMax'] ?? 0 },
    ...(bound === undefined ? {} : { frontier: found.waiting }),
    ...(smaller ? { workload: { size: setup.size, of: scenario.workload.size } } : {}),
    ...(bound ? { bound } : stopped ? { bound: { kind: 'firstViolation' as const, after: ends } } : {}),
    clauses: tally.result(),
  };
  return { judgement, coverage, ordered };
}

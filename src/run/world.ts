// The simulated world's runs: windows mode's, explore's and replay's. A run boots every
// component, runs a safety phase in which a fault plan strikes, heals the faults, and runs a
// liveness phase until the world is quiet (or a bound says it never became so). The rules of a
// step are the kernel's (src/kernel/kernel.ts), which check mode's search drives too; a run here
// is that kernel driven one way: each message lands at a tick drawn from the seed's network
// stream (or read from a schedule of latencies) when it is sent, things due at the same tick
// happen in the order they were scheduled, and the plan's faults strike as the run reaches their
// place (a window entered at its n-th occurrence, the n-th message of a point sent).
//
// Conventions a machine follows to live here:
// - its context keeps everything that survives a crash under `durable`; the rest is volatile;
// - its input may carry `durable`, which a restart passes back so the machine resumes from it;
// - where it keeps its input in its context, it keeps it under `input` and no step assigns that
//   key: a guard that reads only the options there is judged once per design, and a state it
//   alone leads to and rules out is no failure window (src/run/failureWindows.ts);
// - it talks to other components only by emitting `{ type: 'send', to, event }` and writes
//   trace notes by emitting `{ type: 'note', kind, data }`;
// - a delivered event carries `at`, the tick it arrived, and a network event `from`, the
//   sender's name (machines have no clock of their own; retention and TTLs read `at`);
// - states in which a process is waiting for new work carry the tag `idle`;
// - a server that can crash marks its failure windows within a step by emitting
//   `{ type: 'window', state }` before the replies that step sends.
//
// A run made with `capture` keeps the state before every step of its safety phase at which a
// fault could strike, so a faulted run can start where its first fault strikes
// (src/kernel/resumePoints.ts): states are immutable, so keeping one is keeping a reference.
import { isWindowFault, sameFault, includesPlan, type Fault, type MessageFault, type WindowFault } from '../faults/faults.ts';
import type { KernelState } from '../kernel/draft.ts';
import { Kernel, type Choice } from '../kernel/kernel.ts';
import type { StepLog, StrikeMoment } from '../kernel/stepLog.ts';
import { Prng } from '../base/prng.ts';
import { pointKey, windowKey, type ResumeFrom, type ResumePoints, type SavedWorld } from '../kernel/resumePoints.ts';
import { stepperFor, type Stepper } from '../kernel/stepper.ts';
import { Trace } from '../kernel/trace.ts';
import type { ComponentSpec } from '../kernel/componentSpec.ts';
import type { DriverRefusal, InFlight, Note, Strike } from '../kernel/runEvents.ts';
import type { Ending, RunReport } from '../kernel/runReport.ts';
import { behaviourOf, DEFAULT_WORLD_OPTIONS, type WorldOptions } from '../kernel/worldOptions.ts';

export type { Driver } from '../kernel/stepper.ts';
export { stateKey } from '../kernel/stateKey.ts';
export { brokenSessions } from '../kernel/brokenSessions.ts';

/** What happens next in a run: a choice of the kernel's, due at a tick, ordered by its schedule number. */
interface Due {
  readonly tick: number;
  readonly choice: Choice;
}

export class World {
  readonly options: WorldOptions;
  readonly prng: Prng;
  readonly trace: Trace;
  private readonly kernel: Kernel;
  private state: KernelState | undefined;
  /** The network's own stream, from which every latency is drawn (unless a schedule gives them). */
  private network: Prng;
  /** Crash, restore and skew faults of the plan, by the window they strike at; message faults by point. */
  private readonly windowFaults = new Map<string, WindowFault[]>();
  private readonly messageFaults = new Map<string, MessageFault[]>();
  /** How many times each failure window was entered, and each point's messages sent. */
  private readonly windowCounts = new Map<string, number>();
  private readonly censusCounts = new Map<string, number>();
  private readonly strikes: Strike[] = [];
  private readonly notes: Note[] = [];
  private readonly refusals: DriverRefusal[] = [];
  private healed = false;
  private steps = 0;
  private struckable: RunReport['struckable'] | undefined;
  /** While a captured run's safety phase lasts: the strike keys counted since the last save. */
  private keyLog: string[] | undefined;
  private readonly captured: { saved: SavedWorld[]; at: Map<string, number> } | undefined;
  private readonly from: ResumeFrom | undefined;
  private readonly log: StepLog;

  /**
   * A World of these components under these options; `from` starts it where a captured
   * reference run of the same components and seed stood before one of its steps.
   */
  constructor(components: readonly ComponentSpec[], options: Partial<WorldOptions> & Pick<WorldOptions, 'seed' | 'plan'>, from?: ResumeFrom) {
    this.options = Object.assign({}, DEFAULT_WORLD_OPTIONS, options);
    this.prng = new Prng(this.options.seed);
    this.network = this.prng.fork('network');
    if (from && (from.points.seed !== String(this.options.seed) || from.points.components.length !== components.length || components.some((c, i) => c !== from.points.components[i]))) throw new Error('a run resumes only from a reference run of its own components and seed');
    if (from && !includesPlan(this.options.plan, from.points.plan)) throw new Error('a run resumes only from a run whose faults are all in its own plan');
    this.from = from;
    this.captured = this.options.capture ? capturedSoFar(from) : undefined;
    this.keyLog = this.options.capture ? [] : undefined;
    this.trace = new Trace(this.options.keepTrace || this.options.capture, this.options.hashTrace, this.options.capture);
    for (const f of this.options.plan) {
      const [byPlace, place] = isWindowFault(f) ? [this.windowFaults, f.window] : [this.messageFaults, f.point];
      const list = (byPlace as Map<string, Fault[]>).get(place) ?? [];
      list.push(f);
      (byPlace as Map<string, Fault[]>).set(place, list);
    }
    const names = new Set<string>();
    for (const spec of components) {
      if (names.has(spec.name)) throw new Error(`two components are named ${spec.name}`);
      names.add(spec.name);
    }
    this.kernel = new Kernel(components, { ...this.options, exact: true, faults: 0, windowFaults: [], messageFaults: [], steppers: this.steppersOf(components, from) });
    this.log = this.makeLog();
  }

  /** Each component's stepper: a resumed run shares its reference run's, which hold nothing of a run. */
  private steppersOf(components: readonly ComponentSpec[], from: ResumeFrom | undefined): Stepper[] {
    return components.map((spec, i) => {
      if (from) {
        this.refusals.push(...from.points.refusals.filter((r) => r.component === spec.name));
        return from.points.steppers[i]!;
      }
      if (spec.stepper) return spec.stepper();
      const chosen = stepperFor(spec.machine, spec.name, spec.input, this.options.driver);
      if (chosen.refused !== undefined) this.refusals.push({ component: spec.name, reason: chosen.refused });
      return chosen.stepper;
    });
  }

  /** What the kernel tells this run and asks of it: the trace, the plan's faults, the counts, the latencies. */
  private makeLog(): StepLog {
    const trace = this.trace;
    return {
      trace: (tick, component, kind, data) => {
        if (kind === 'note') {
          const d = data as { kind: string; data?: unknown };
          this.notes.push({ tick, seq: trace.length, component, kind: d.kind, ...(d.data === undefined ? {} : { data: d.data }) });
        }
        trace.add(tick, component, kind, data);
      },
      enter: (_comp, window) => {
        const n = (this.windowCounts.get(window) ?? 0) + 1;
        this.windowCounts.set(window, n);
        if (this.healed) return undefined;
        this.keyLog?.push(windowKey(window, n));
        const faults = this.windowFaults.get(window);
        if (faults === undefined) return undefined;
        // At a server's mark the kernel takes only a kind that strikes inside a step (a crash).
        return faults.filter((f) => f.occurrence === n);
      },
      sent: (point) => {
        const n = (this.censusCounts.get(point) ?? 0) + 1;
        this.censusCounts.set(point, n);
        this.keyLog?.push(pointKey(point, n));
        // One message suffers at most one fault: the plan's first for this point and occurrence.
        const fault = this.healed || this.messageFaults.size === 0 ? undefined : this.messageFaults.get(point)?.find((f) => f.occurrence === n);
        return { n, fault };
      },
      struck: (fault: Fault, at: StrikeMoment) => this.strikes.push({ fault, tick: at.tick, durable: at.durable(), inFlight: at.inFlight() }),
      latency: (nth) => this.latency(nth),
    };
  }

  /** The latency of the `nth` message sent; a release at heal is no send and passes none. */
  private latency(nth: number | undefined): number {
    const { latencyTicksMin: lo, latencyTicksMax: hi, latencies } = this.options;
    // A schedule replaces every draw, so a run given one never reads the stream.
    if (latencies) {
      const extra = nth === undefined ? 0 : (latencies[nth] ?? 0);
      return lo + Math.min(Math.max(extra, 0), hi - lo);
    }
    return lo === hi ? lo : this.network.between(lo, hi);
  }

  /** Starts every component, runs the safety phase with faults, heals, then runs to quiescence. */
  run(): RunReport {
    // Every parameter that shapes the run is printed and hashed with it, as a simulator should
    // (the driver is left out: both drivers give the same trace, and tests hold them to it).
    const { latencies } = this.options;
    this.trace.add(0, 'world', 'start', { seed: this.prng.seed, plan: this.options.plan, options: behaviourOf(this.options), ...(latencies ? { latencies } : {}) });
    if (this.from) this.load(this.from);
    else this.state = this.kernel.initial(this.log);
    // What the boot counted can strike only a run started from the beginning.
    if (this.captured) for (const key of this.keyLog!.splice(0)) this.captured.at.set(key, -1);
    const safetyEnd = this.runPhase(this.options.safetyTicksMax);
    if (safetyEnd === 'steps') return this.finish({ kind: 'stuck', reason: { kind: 'steps', bound: this.options.stepsMax, phase: 'safety' } });
    this.heal();
    const end = this.runPhase(this.now + this.options.livenessTicksMax, this.options.livenessTicksMax);
    if (end === 'quiet') return this.finish({ kind: 'quiescent' });
    if (end === 'silent') {
      const busy = this.kernel.waiting(this.state!);
      if (busy.length === 0) return this.finish({ kind: 'quiescent' });
      return this.finish({ kind: 'stuck', reason: { kind: 'waiting', components: busy } });
    }
    if (end === 'steps') return this.finish({ kind: 'stuck', reason: { kind: 'steps', bound: this.options.stepsMax, phase: 'liveness' } });
    return this.finish({ kind: 'stuck', reason: { kind: 'no quiescence', ticks: this.options.livenessTicksMax } });
  }

  /** Components whose machine the compiled driver refused, and why. */
  get driverRefusals(): readonly DriverRefusal[] {
    return this.refusals;
  }

  /** The durable context of a component, as it is now. */
  durable<T = unknown>(name: string): T {
    return this.comp(name)?.snapshot.context.durable as T;
  }

  /** The whole context of a component (volatile parts included), for tests and evidence. */
  context<T = unknown>(name: string): T {
    return this.comp(name)?.snapshot.context as T;
  }

  /** The state a component rests in ('' before it has booted). */
  stateOf(name: string): string {
    return this.comp(name)?.state ?? '';
  }

  isDown(name: string): boolean {
    return this.comp(name)?.down ?? false;
  }

  get now(): number {
    return this.state?.now ?? 0;
  }

  get componentNames(): string[] {
    return [...this.kernel.names];
  }

  /** How many messages of each point were sent so far. */
  census(): ReadonlyMap<string, number> {
    return this.censusCounts;
  }

  /**
   * Every message sent and not yet delivered, in delivery order, then those a reorder holds back.
   * Read while a step is being taken (a framed run's trace hook), it is the World as that step
   * found it: the message the step delivers is still among them.
   */
  inFlightNow(): InFlight[] {
    return this.state === undefined ? [] : this.kernel.inFlight(this.state);
  }

  /** Every component's durable context, keyed by name. */
  durableState(): Record<string, unknown> {
    return this.state === undefined ? {} : this.kernel.durable(this.state);
  }

  /** A component's part of the state now; undefined before the run has booted it. */
  private comp(name: string) {
    const i = this.kernel.names.indexOf(name);
    if (i < 0) throw new Error(`no component named ${name}`);
    return this.state?.comps[i];
  }

  /**
   * Runs until the world is quiet, nothing is left, `untilTick`, or the step bound. The liveness
   * phase (given `activeTicks`) is bounded by the time in which the world changes or a process is
   * busy, not by the clock (Kernel.activeTicks): a run waiting two hours or thirty days for a
   * timer that redoes work reaches it, while a world that keeps changing or churning (a retry
   * loop) is stopped as before.
   */
  private runPhase(untilTick: number, activeTicks?: number): 'quiet' | 'silent' | 'bound' | 'steps' {
    let active = 0;
    for (;;) {
      if (this.kernel.quiet(this.state!, false)) return 'quiet';
      const next = this.next();
      if (next === undefined) return 'silent';
      // Only the liveness phase counts its active time; the safety phase is bounded by the clock.
      const gap = activeTicks === undefined ? 0 : this.kernel.activeTicks(this.state!, next.tick);
      if (next.tick > untilTick) {
        // Nothing is due before the bound, so the world may have been still long enough by then:
        // quiet is asked there first, as at every step.
        const still = this.state!.at(Math.max(this.now, untilTick));
        if (this.kernel.quiet(still, false)) {
          this.state = still;
          return 'quiet';
        }
        if (activeTicks === undefined || active + gap > activeTicks) {
          this.state = still;
          return 'bound';
        }
        untilTick = next.tick;
      }
      active += gap;
      if (this.steps >= this.options.stepsMax) return 'steps';
      if (this.captured && !this.healed) this.capturedStep(this.captured, next);
      else this.step(next);
    }
  }

  /**
   * What happens next: of every message at the head of its link, every timer and every restart,
   * the one due first, and of those due at one tick the one scheduled first.
   */
  private next(): Due | undefined {
    const s = this.state!;
    let tick = Infinity;
    let seq = Infinity;
    // The first due so far, as plain fields: the choice is made once, for the one that wins.
    let link: string | undefined;
    let timer: string | undefined;
    let comp = -1;
    for (const l of s.links) {
      const m = l.msgs[0];
      if (m === undefined || m.earliest > tick || (m.earliest === tick && m.seq > seq)) continue;
      tick = m.earliest;
      seq = m.seq;
      link = l.key;
    }
    for (let i = 0; i < s.comps.length; i++) {
      const c = s.comps[i]!;
      for (const t of c.timers) {
        if (t.due > tick || (t.due === tick && t.seq > seq)) continue;
        tick = t.due;
        seq = t.seq;
        link = undefined;
        timer = t.id;
        comp = i;
      }
      if (c.down && (c.restartAt < tick || (c.restartAt === tick && c.restartSeq < seq))) {
        tick = c.restartAt;
        seq = c.restartSeq;
        link = undefined;
        timer = undefined;
        comp = i;
      }
    }
    if (link !== undefined) return { tick, choice: { kind: 'deliver', link } };
    if (comp < 0) return undefined;
    return { tick, choice: timer === undefined ? { kind: 'restart', comp } : { kind: 'timer', comp, id: timer } };
  }

  /** One step of a captured run's safety phase, saved first when a fault could strike in it. */
  private capturedStep(captured: { saved: SavedWorld[]; at: Map<string, number> }, next: Due): void {
    const saved = this.save();
    this.step(next);
    const keys = this.keyLog!;
    if (keys.length === 0) return;
    const index = captured.saved.push(saved) - 1;
    for (const key of keys) captured.at.set(key, index);
    keys.length = 0;
  }

  private step(next: Due): void {
    this.steps++;
    const s = next.tick > this.state!.now ? this.state!.at(next.tick) : this.state!;
    this.state = this.kernel.apply(s, next.choice, this.log);
  }

  /** The World between two steps, for a run that starts here (src/kernel/resumePoints.ts). */
  private save(): SavedWorld {
    return {
      state: this.state!,
      steps: this.steps,
      windowCounts: [...this.windowCounts],
      census: [...this.censusCounts],
      strikes: this.strikes.length,
      traceLength: this.trace.length,
      notesLength: this.notes.length,
      network: this.options.latencies ? undefined : this.network.state(),
    };
  }

  /** Becomes the World a captured reference run saved, keeping this run's own plan. */
  private load({ points, index }: ResumeFrom): void {
    const saved = points.saved[index]!;
    this.state = saved.state;
    this.steps = saved.steps;
    for (const [w, n] of saved.windowCounts) this.windowCounts.set(w, n);
    for (const [p, n] of saved.census) this.censusCounts.set(p, n);
    if (saved.network) this.network = new Prng(this.network.seed, saved.network);
    this.strikes.push(...points.strikes.slice(0, saved.strikes));
    this.notes.push(...points.notes.slice(0, saved.notesLength));
    this.trace.continueFrom(points.trace, saved.traceLength);
  }

  private heal(): void {
    this.healed = true;
    this.keyLog = undefined;
    this.struckable = { census: new Map(this.censusCounts), windowCounts: new Map(this.windowCounts) };
    this.state = this.kernel.heal(this.state!, this.log);
  }

  private finish(ending: Ending): RunReport {
    const strikes = this.strikes;
    return {
      ending,
      ticks: this.now,
      steps: this.steps,
      strikes,
      unstruck: this.options.plan.filter((f) => !strikes.some((s) => sameFault(s.fault, f))),
      traceHash: this.trace.hash(),
      census: this.censusCounts,
      windowCounts: this.windowCounts,
      struckable: this.struckable ?? { census: this.censusCounts, windowCounts: this.windowCounts },
      notes: this.notes,
      durable: this.durableState(),
      trace: this.options.keepTrace ? this.trace.events : undefined,
      refusals: this.refusals,
      ...(this.captured ? { resume: this.resumePoints(this.captured) } : {}),
      ...(this.from ? { sharedSteps: this.from.points.saved[this.from.index]!.steps } : {}),
    };
  }

  private resumePoints(captured: { saved: SavedWorld[]; at: Map<string, number> }): ResumePoints {
    return {
      seed: this.prng.seed,
      plan: this.options.plan,
      components: this.kernel.components,
      steppers: this.kernel.steppers,
      refusals: this.refusals,
      saved: captured.saved,
      at: captured.at,
      trace: this.trace.log!,
      notes: this.notes,
      strikes: this.strikes,
    };
  }
}

/**
 * What a captured run has saved before its first step: nothing for a run from the start; for a
 * run resumed at step k of another captured run, that run's saved steps before k and the keys
 * they counted, which were this run's too.
 */
function capturedSoFar(from: ResumeFrom | undefined): { saved: SavedWorld[]; at: Map<string, number> } {
  if (from === undefined) return { saved: [], at: new Map() };
  const at = new Map<string, number>();
  for (const [key, index] of from.points.at) if (index < from.index) at.set(key, index);
  return { saved: from.points.saved.slice(0, from.index), at };
}

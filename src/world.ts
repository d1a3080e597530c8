// The simulated world: every component's machine snapshot, one schedule of pending deliveries
// and timers, the network between components, and the fault plan. It advances one scheduled
// item at a time, so a run is a sequence of pure machine steps whose order depends only on the
// seed and the plan.
//
// Each component is stepped by a Stepper (src/stepper.ts): the step returns the next snapshot
// and the actions it asked for, and the World performs those actions (sends messages, sets
// timers, writes notes). By default (`driver: 'compiled'`) a machine is stepped by the
// precompiled tables of src/compiledMachine.ts; a machine it cannot compile runs on XState's own
// `transition`, and the run reports which and why. `driver: 'xstate'` keeps XState's algorithm
// for every machine; bench/hashes.ts and test/kernel/compiledMachine.test.ts show both give the
// same traces.
//
// Conventions a machine follows to live here:
// - its context keeps everything that survives a crash under `durable`; the rest is volatile;
// - its input may carry `durable`, which a restart passes back so the machine resumes from it;
// - it talks to other components only by emitting `{ type: 'send', to, event }` and writes
//   trace notes by emitting `{ type: 'note', kind, data }`;
// - a delivered event carries `at`, the tick it arrived, and a network event `from`, the
//   sender's name (machines have no clock of their own; retention and TTLs read `at`);
// - states in which a process is waiting for new work carry the tag `idle`;
// - a server that can crash marks its failure windows within a step by emitting
//   `{ type: 'window', state }` before the replies that step sends.
import type { AnyStateMachine, EventObject, StateValue } from 'xstate';
import type { StuckReason } from './checkers/finding.ts';
import { arrived } from './arrived.ts';
import { SimClock } from './clock.ts';
import type { ExecutedAction } from './compiledMachine.ts';
import { windowMarkOf } from './emitted.ts';
import { includesPlan, isWindowFault, sameFault, type Fault, type FaultPlan, type MessageFault, type WindowFault } from './faults.ts';
import { Network, type Envelope, type NetworkOptions } from './network.ts';
import { windowName } from './place.ts';
import { Prng } from './prng.ts';
import { pointKey, windowKey, type ResumeFrom, type ResumePoints, type SavedWorld } from './resumePoints.ts';
import { isQuiet, type QuietSubject } from './quiet.ts';
import { Schedule } from './schedule.ts';
import { stepperFor, type Driver, type MachineSnapshot, type Stepper } from './stepper.ts';
import { TimerTable } from './timerTable.ts';
import { Trace, type TraceEvent } from './trace.ts';

export type { Driver } from './stepper.ts';

export interface ComponentSpec {
  readonly name: string;
  /** The component's definition: its states are its failure windows, and the drivers step it. */
  readonly machine: AnyStateMachine;
  readonly input?: Record<string, unknown>;
  /**
   * Process machines have failure windows (their resting states) and can crash. A server
   * (database, broker) crashes only where `crashes` is set, at the windows its machine declares.
   */
  readonly process: boolean;
  /**
   * A server that crashes and restarts at its own windows (src/failureWindows.ts): what it had
   * made durable survives, everything else it held is gone, and the replies of the step the
   * crash struck are never sent.
   */
  readonly crashes?: boolean;
  /**
   * The client sessions a server's volatile context holds open (a database's open transactions,
   * by `client/tx`). A crash breaks them, and the restarted server is given them as
   * `input.broken`, so a request that later arrives on one is refused as on a closed connection
   * rather than taken for a new transaction with its earlier statements missing.
   */
  readonly sessionsOf?: (context: unknown) => readonly string[];
  /**
   * Steps this component some other way than the driver would (the benchmark's plain reducers);
   * it must behave as `machine` does, state for state.
   */
  readonly stepper?: () => Stepper;
  /** How long it stays down after a crash; the world's `restartDelayTicks` when absent. */
  readonly restartDelayTicks?: number;
  /**
   * A component that can be restored from a snapshot: given its durable state now and the tick of
   * the restore, the durable state its snapshot restores (a database's last backup, the newest
   * backup at least some age old, a broker's group offsets as they stood, a stream processor's
   * older checkpoint). A `restore` fault crashes it and restarts it from that state; without
   * this, nothing restores it.
   */
  readonly restore?: (durable: unknown, now: number) => unknown;
  /**
   * Components restored with this one, at the same moment and each to its own snapshot (each
   * declares `restore`): a database and the broker holding its consumer's committed offsets, set
   * back as one consistent snapshot by one `restore` fault that names this component.
   */
  readonly restoresWith?: readonly string[];
  /**
   * A component whose clock can jump: a `skew` fault delivers it `{ type: 'sys.clockSkew',
   * ticks }`, and from then on its clock reads that many ticks ahead. The model decides what
   * its clock stamps (a device's event times); without this, no skew strikes it.
   */
  readonly skewTicks?: number;
}

export interface WorldOptions extends NetworkOptions {
  readonly seed: number | string;
  readonly plan: FaultPlan;
  /** A crashed component stays down this many ticks before it restarts. */
  readonly restartDelayTicks: number;
  /** The safety phase (faults apply) ends at this tick, or earlier once the world is quiet. */
  readonly safetyTicksMax: number;
  /** The liveness phase (faults healed) gets this many ticks to reach quiescence. */
  readonly livenessTicksMax: number;
  /** The world is quiet when no durable state has changed for this many ticks. */
  readonly quietTicks: number;
  /** A hard bound on scheduled items processed, so a livelock ends as `stuck`. */
  readonly stepsMax: number;
  /** Keep every trace event (replay, reports) or only the hash (long explorations). */
  readonly keepTrace: boolean;
  /** Hash the trace; off for runs whose hash nobody reads, such as most of an exploration. */
  readonly hashTrace: boolean;
  /**
   * How machines are stepped: `xstate` through `machine.transition`, `compiled` through the
   * precomputed tables of src/compiledMachine.ts (a machine it cannot compile runs on XState's
   * step, and the run reports why). Both give the same runs, trace for trace.
   */
  readonly driver: Driver;
  /**
   * Save the World before every step of the safety phase at which a fault could strike, so that
   * faulted runs can start where their first fault strikes (src/resumePoints.ts). For a
   * fault-free reference run; its report then carries the points.
   */
  readonly capture: boolean;
}

export const DEFAULT_WORLD_OPTIONS: Omit<WorldOptions, 'seed' | 'plan'> = {
  latencyTicksMin: 1,
  latencyTicksMax: 3,
  delayFaultTicks: 40,
  restartDelayTicks: 10,
  safetyTicksMax: 2_000,
  livenessTicksMax: 4_000,
  quietTicks: 60,
  stepsMax: 200_000,
  keepTrace: true,
  hashTrace: true,
  driver: 'compiled',
  capture: false,
};

/** How a run ended: quiescent after healing, or stuck (no quiescence within the bounds). */
export type Ending = { readonly kind: 'quiescent' } | { readonly kind: 'stuck'; readonly reason: StuckReason };

/** A message on its way when a fault struck: sent, not yet delivered (or held back by a reorder). */
export interface InFlight {
  readonly from: string;
  readonly to: string;
  readonly event: EventObject;
}

/** A fault that actually struck, with what was durable and what was in flight at that moment. */
export interface Strike {
  readonly fault: Fault;
  readonly tick: number;
  readonly durable: Readonly<Record<string, unknown>>;
  readonly inFlight: readonly InFlight[];
}

/** Something a model wrote into the trace: a guard that suppressed a repeat, an effect applied. */
export interface Note {
  readonly tick: number;
  readonly seq: number;
  readonly component: string;
  readonly kind: string;
  readonly data?: unknown;
}

/** A component the compiled driver refused, which therefore ran on XState's own step. */
export interface DriverRefusal {
  readonly component: string;
  readonly reason: string;
}

/** Everything a run leaves behind, as data: what happened, what struck, what is durable at the end. */
export interface RunReport {
  readonly ending: Ending;
  readonly ticks: number;
  readonly steps: number;
  readonly strikes: readonly Strike[];
  /** Faults of the plan that never struck: their place was never entered or sent at that occurrence. */
  readonly unstruck: readonly Fault[];
  readonly traceHash: string;
  /** How many messages of each point were sent (the message census windows mode enumerates). */
  readonly census: ReadonlyMap<string, number>;
  /** How many times each failure window was entered. */
  readonly windowCounts: ReadonlyMap<string, number>;
  /**
   * The census and the window counts as they stood when faults were healed: the occurrences a
   * fault could strike at, since none strikes in the liveness phase.
   */
  readonly struckable: { readonly census: ReadonlyMap<string, number>; readonly windowCounts: ReadonlyMap<string, number> };
  /** Notes the models wrote, kept even when the trace keeps only its hash. */
  readonly notes: readonly Note[];
  /** Every component's durable context at the end. */
  readonly durable: Readonly<Record<string, unknown>>;
  /** The trace's events, when the run kept them. */
  readonly trace: readonly TraceEvent[] | undefined;
  readonly refusals: readonly DriverRefusal[];
  /** Where faulted runs of the same seed can start, when the run was made with `capture`. */
  readonly resume?: ResumePoints;
  /** Of `steps`, those a resumed run took over from its reference run rather than performing them. */
  readonly sharedSteps?: number;
}

type MessageItem = { readonly kind: 'message'; readonly envelope: Envelope };
type RestartItem = { readonly kind: 'restart'; readonly component: string };
/** A timer a component set: data rather than a callback, so a saved schedule can be taken up by another World. */
type TimerItem = { readonly kind: 'timer'; readonly component: string; key: string; readonly event: EventObject };
/** What the World's schedule holds. */
export type WorldItem = TimerItem | MessageItem | RestartItem;

interface Host {
  readonly spec: ComponentSpec;
  readonly stepper: Stepper;
  readonly actions: ExecutedAction[];
  snapshot: MachineSnapshot;
  state: string;
  down: boolean;
  /** XState timer id → schedule seq, so a `cancel` action finds its timer. */
  readonly timers: TimerTable;
  /** The durable state a restore set it back to, for its next boot; undefined once booted. */
  restoreTo: unknown;
  /** Its windows' names by state, made once: the census is keyed by them on every state entered. */
  readonly windows: Map<string, string>;
}

/** The event a `skew` fault delivers: the component's clock now reads `ticks` further ahead. */
export type ClockSkewed = { readonly type: 'sys.clockSkew'; readonly ticks: number; readonly at: number };

/** `a` for a flat machine, `a.b` for a nested state value. */
export function stateKey(value: StateValue): string {
  if (typeof value === 'string') return value;
  return Object.keys(value)
    .map((k) => {
      const child = (value as Record<string, StateValue>)[k];
      return child === undefined || (typeof child === 'object' && Object.keys(child).length === 0) ? k : `${k}.${stateKey(child)}`;
    })
    .join('+');
}

export class World {
  readonly options: WorldOptions;
  readonly prng: Prng;
  readonly clock: SimClock;
  readonly trace: Trace;
  readonly network: Network;
  private readonly schedule = new Schedule<WorldItem>();
  private readonly hosts = new Map<string, Host>();
  private readonly order: Host[] = [];
  /** Crash, restore and skew faults of the plan, by the window they strike at. */
  private readonly windowFaults = new Map<string, WindowFault[]>();
  /** How many times each failure window was entered: the census windows mode enumerates. */
  private readonly windowCounts = new Map<string, number>();
  private readonly strikes: Strike[] = [];
  private readonly notes: Note[] = [];
  private readonly refusals: DriverRefusal[] = [];
  private healed = false;
  /** The counts at the heal (or at the end, for a run stopped in its safety phase). */
  private struckable: RunReport['struckable'] | undefined;
  /** The tick faults were healed; quiet is never measured from before it. */
  private healTick = 0;
  private inFlight = 0;
  private steps = 0;
  private lastProgressTick = 0;
  /** The tick the last fault struck (0 before any): quiet is measured from after it too. */
  private lastFaultTick = 0;
  /** While a captured run's safety phase lasts: the strike keys counted since the last save. */
  private keyLog: string[] | undefined;
  private readonly captured: { saved: SavedWorld[]; at: Map<string, number> } | undefined;
  private readonly from: ResumeFrom | undefined;

  /**
   * A World of these components under these options; `from` starts it where a captured
   * reference run of the same components and seed stood before one of its steps.
   */
  constructor(components: readonly ComponentSpec[], options: Partial<WorldOptions> & Pick<WorldOptions, 'seed' | 'plan'>, from?: ResumeFrom) {
    this.options = Object.assign({}, DEFAULT_WORLD_OPTIONS, options);
    this.prng = new Prng(this.options.seed);
    this.clock = new SimClock(this.schedule);
    if (from && (from.points.seed !== String(this.options.seed) || from.points.components.length !== components.length || components.some((c, i) => c !== from.points.components[i]))) throw new Error('a run resumes only from a reference run of its own components and seed');
    if (from && !includesPlan(this.options.plan, from.points.plan)) throw new Error('a run resumes only from a run whose faults are all in its own plan');
    this.from = from;
    this.captured = this.options.capture ? capturedSoFar(from) : undefined;
    this.keyLog = this.options.capture ? [] : undefined;
    this.trace = new Trace(this.options.keepTrace || this.options.capture, this.options.hashTrace, this.options.capture);
    const messageFaults: MessageFault[] = [];
    for (const f of this.options.plan) {
      if (isWindowFault(f)) {
        const list = this.windowFaults.get(f.window) ?? [];
        list.push(f);
        this.windowFaults.set(f.window, list);
      } else {
        messageFaults.push(f);
      }
    }
    this.network = new Network(this.prng.fork('network'), this.options, messageFaults, {
      schedule: (tick, envelope) => {
        this.inFlight++;
        this.schedule.push(tick, { kind: 'message', envelope });
      },
      record: (fault, envelope) => {
        this.trace.add(this.clock.now, envelope.from, fault.kind, { to: envelope.to, event: envelope.event });
        this.strike(fault);
      },
    });
    if (this.keyLog) this.network.onCount = (point, n) => this.keyLog?.push(pointKey(point, n));
    for (const [i, spec] of components.entries()) {
      if (this.hosts.has(spec.name)) throw new Error(`two components are named ${spec.name}`);
      let stepper: Stepper;
      // A resumed run steps its machines with the reference run's steppers, which hold nothing of a run.
      if (from) stepper = from.points.steppers[i]!;
      else if (spec.stepper) stepper = spec.stepper();
      else {
        const chosen = stepperFor(spec.machine, spec.name, spec.input, this.options.driver);
        stepper = chosen.stepper;
        if (chosen.refused !== undefined) this.refusals.push({ component: spec.name, reason: chosen.refused });
      }
      if (from) this.refusals.push(...from.points.refusals.filter((r) => r.component === spec.name));
      const host: Host = { spec, stepper, actions: [], snapshot: undefined as unknown as MachineSnapshot, state: '', down: false, timers: new TimerTable(), restoreTo: undefined, windows: new Map() };
      this.hosts.set(spec.name, host);
      this.order.push(host);
    }
  }

  /** Starts every component, runs the safety phase with faults, heals, then runs to quiescence. */
  run(): RunReport {
    // Every parameter that shapes the run is printed and hashed with it, as a simulator should
    // (the driver is left out: both drivers give the same trace, and tests hold them to it).
    const { latencies } = this.options;
    this.trace.add(0, 'world', 'start', { seed: this.prng.seed, plan: this.options.plan, options: behaviourOf(this.options), ...(latencies ? { latencies } : {}) });
    if (this.from) this.load(this.from);
    else for (const host of this.order) this.boot(host, undefined);
    // What the boot counted can strike only a run started from the beginning.
    if (this.captured) for (const key of this.keyLog!.splice(0)) this.captured.at.set(key, -1);
    const safetyEnd = this.runPhase(this.options.safetyTicksMax);
    if (safetyEnd === 'steps') return this.finish({ kind: 'stuck', reason: { kind: 'steps', bound: this.options.stepsMax, phase: 'safety' } });
    this.heal();
    const end = this.runPhase(this.clock.now + this.options.livenessTicksMax);
    if (end === 'quiet') return this.finish({ kind: 'quiescent' });
    if (end === 'silent') {
      const busy = this.order.filter((h) => h.spec.process && !h.snapshot.hasTag('idle'));
      if (busy.length === 0) return this.finish({ kind: 'quiescent' });
      return this.finish({ kind: 'stuck', reason: { kind: 'waiting', components: busy.map((h) => windowName(h.spec.name, h.state)) } });
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
    return this.host(name).snapshot.context.durable as T;
  }

  /** The whole context of a component (volatile parts included), for tests and evidence. */
  context<T = unknown>(name: string): T {
    return this.host(name).snapshot.context as T;
  }

  stateOf(name: string): string {
    return this.host(name).state;
  }

  isDown(name: string): boolean {
    return this.host(name).down;
  }

  get now(): number {
    return this.clock.now;
  }

  get componentNames(): string[] {
    return this.order.map((h) => h.spec.name);
  }

  /** Every component's durable context, keyed by name. */
  durableState(): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const h of this.order) out[h.spec.name] = h.snapshot?.context?.durable;
    return out;
  }

  /** Crashes a component now: volatile context, timers and in-flight requests to it are lost. */
  crash(name: string, window?: string): void {
    const host = this.host(name);
    if (host.down) return;
    host.down = true;
    this.trace.add(this.clock.now, name, 'crash', window === undefined ? undefined : { window });
    // Every timer the component set is in `timers` (the World tracks each one it schedules).
    for (let i = 0; i < host.timers.size; i++) this.schedule.cancel(host.timers.at(i).seq);
    host.timers.clear();
    for (const e of this.network.dropHeldFrom(name)) this.trace.add(this.clock.now, e.to, 'drop', { from: name, event: e.event, reason: 'sender crashed' });
    // What is on its way to the component travels on connections that die with it: delivered
    // after a restart, a late reply would answer a request the new incarnation never made.
    const toIt = (item: WorldItem) => item.kind === 'message' && item.envelope.to === name;
    const stale = this.schedule.entries().flatMap((e) => (toIt(e.item) && e.item.kind === 'message' ? [e.item.envelope] : []));
    if (stale.length > 0) this.schedule.removeWhere(toIt);
    this.inFlight -= stale.length;
    for (const e of [...stale, ...this.network.dropHeldTo(name)]) this.trace.add(this.clock.now, name, 'drop', { from: e.from, event: e.event, reason: 'receiver crashed' });
    // Peers learn of the crash the way a server learns of a dropped connection: a database
    // aborts the component's open transactions, a broker ends its consumer session. The notice
    // travels each link behind what the component had already sent, so a commit already on
    // the wire still lands and a statement already on the wire runs before the abort.
    for (const peer of this.order) {
      if (peer !== host) this.network.send(this.clock.now, name, peer.spec.name, { type: 'sys.peerCrashed', peer: name } as EventObject, false, true);
    }
    this.schedule.push(this.clock.now + (host.spec.restartDelayTicks ?? this.options.restartDelayTicks), { kind: 'restart', component: name });
  }

  /**
   * Restores a component from its snapshot now: it goes down as in a crash (its volatile state,
   * timers and connections are lost, and peers are told) and restarts from the durable state its
   * snapshot gives. One already down restarts from the snapshot when its restart comes.
   */
  restore(name: string, window?: string): void {
    this.setBack(name, window);
    // The components restored with it go back at the same moment: one fault, one snapshot of all.
    for (const other of this.host(name).spec.restoresWith ?? []) if (this.host(other).snapshot !== undefined) this.setBack(other, window);
  }

  private setBack(name: string, window: string | undefined): void {
    const host = this.host(name);
    const restore = host.spec.restore;
    if (restore === undefined) throw new Error(`${name} declares no snapshot to restore`);
    host.restoreTo = restore(host.snapshot.context.durable, this.clock.now);
    this.trace.add(this.clock.now, name, 'restore', window === undefined ? undefined : { window });
    this.crash(name, window);
  }

  /** What a component boots from at a restart: the state a restore set it back to, or its durable state. */
  private durableAtRestart(host: Host): unknown {
    const durable = host.restoreTo ?? host.snapshot.context.durable;
    host.restoreTo = undefined;
    return durable;
  }

  private host(name: string): Host {
    const host = this.hosts.get(name);
    if (!host) throw new Error(`no component named ${name}`);
    return host;
  }

  private boot(host: Host, durable: unknown): void {
    host.actions.length = 0;
    const broken = durable === undefined ? undefined : brokenSessions(host.spec, host.snapshot.context);
    const input = durable === undefined ? host.spec.input : { ...host.spec.input, durable, ...(broken === undefined ? {} : { broken }) };
    host.snapshot = host.stepper.initial(input, host.actions);
    host.state = '';
    this.afterStep(host, undefined, stateKey(host.snapshot.value));
  }

  private runPhase(untilTick: number): 'quiet' | 'silent' | 'bound' | 'steps' {
    for (;;) {
      if (this.isQuiet()) return 'quiet';
      const next = this.schedule.peek();
      if (!next) return 'silent';
      if (next.tick > untilTick) {
        // Nothing is due before the bound, so the world may have been still long enough by then:
        // a timer beyond the phase, which quiet does not wait for, must not make the run stuck.
        this.clock.advanceTo(untilTick);
        return this.isQuiet() ? 'quiet' : 'bound';
      }
      if (this.steps >= this.options.stepsMax) return 'steps';
      if (this.captured && !this.healed) this.capturedStep(this.captured);
      else this.step();
    }
  }

  /** One step of a captured run's safety phase, saved first when a fault could strike in it. */
  private capturedStep(captured: { saved: SavedWorld[]; at: Map<string, number> }): void {
    const saved = this.save();
    this.step();
    const keys = this.keyLog!;
    if (keys.length === 0) return;
    const index = captured.saved.push(saved) - 1;
    for (const key of keys) captured.at.set(key, index);
    keys.length = 0;
  }

  /** The World between two steps, for a run that starts here (src/resumePoints.ts). */
  private save(): SavedWorld {
    return {
      now: this.clock.now,
      steps: this.steps,
      inFlight: this.inFlight,
      lastProgressTick: this.lastProgressTick,
      lastFaultTick: this.lastFaultTick,
      hosts: this.order.map((h) => ({ snapshot: h.snapshot, state: h.state, down: h.down, timers: h.timers.entries(), restoreTo: h.restoreTo })),
      schedule: this.schedule.save(),
      network: this.network.save(),
      windowCounts: [...this.windowCounts],
      strikes: this.strikes.length,
      traceLength: this.trace.length,
      notesLength: this.notes.length,
    };
  }

  /** Becomes the World a captured reference run saved, keeping this run's own plan. */
  private load({ points, index }: ResumeFrom): void {
    const saved = points.saved[index]!;
    this.clock.advanceTo(saved.now);
    this.steps = saved.steps;
    this.inFlight = saved.inFlight;
    this.lastProgressTick = saved.lastProgressTick;
    this.lastFaultTick = saved.lastFaultTick;
    saved.hosts.forEach((s, i) => {
      const h = this.order[i]!;
      h.snapshot = s.snapshot;
      h.state = s.state;
      h.down = s.down;
      for (const [key, t] of s.timers) h.timers.set(key, t);
      h.restoreTo = s.restoreTo;
    });
    this.schedule.load(saved.schedule);
    this.network.load(saved.network);
    for (const [w, n] of saved.windowCounts) this.windowCounts.set(w, n);
    this.strikes.push(...points.strikes.slice(0, saved.strikes));
    this.notes.push(...points.notes.slice(0, saved.notesLength));
    this.trace.continueFrom(points.trace, saved.traceLength);
  }

  /** Quiet, by the rule check mode asks too (src/quiet.ts), measured from the later of the last change, the last fault and the heal. */
  private isQuiet(): boolean {
    return isQuiet(this.quietSubject, this.options);
  }

  /** What the quiet rule reads of this World, made once. */
  private readonly quietSubject: QuietSubject = ((world: World): QuietSubject => {
    const order = world.order;
    return {
      get now() {
        return world.clock.now;
      },
      get since() {
        return Math.max(world.lastProgressTick, world.lastFaultTick, world.healTick);
      },
      carrying: () => world.inFlight > 0 || world.network.holding,
      get components() {
        return order.length;
      },
      isDown: (i) => order[i]!.down,
      isIdle: (i) => order[i]!.snapshot.hasTag('idle'),
      isProcess: (i) => order[i]!.spec.process,
      timerCount: (i) => order[i]!.timers.size,
      timerSet: (i, k) => order[i]!.timers.at(k).set,
      timerDelay: (i, k) => order[i]!.timers.at(k).delay,
    };
  })(this);

  private step(): void {
    const next = this.schedule.pop()!;
    this.steps++;
    this.clock.advanceTo(next.tick);
    const item = next.item;
    switch (item.kind) {
      case 'message': {
        this.inFlight--;
        const { envelope } = item;
        const host = this.host(envelope.to);
        if (host.down) {
          this.trace.add(this.clock.now, envelope.to, 'drop', { from: envelope.from, event: envelope.event });
          return;
        }
        this.trace.add(this.clock.now, envelope.to, 'deliver', { from: envelope.from, event: envelope.event });
        this.deliver(host, arrived(envelope.event, envelope.from, this.clock.now));
        return;
      }
      case 'timer': {
        const host = this.host(item.component);
        host.timers.delete(item.key);
        this.trace.add(this.clock.now, item.component, 'timer', item.event.type);
        this.deliver(host, arrived(item.event, undefined, this.clock.now));
        return;
      }
      case 'restart': {
        const host = this.host(item.component);
        if (!host.down) return;
        host.down = false;
        this.trace.add(this.clock.now, item.component, 'restart');
        this.boot(host, this.durableAtRestart(host));
        return;
      }
    }
  }

  private deliver(host: Host, event: EventObject): void {
    host.actions.length = 0;
    const prev = host.snapshot;
    const next = host.stepper.transition(prev, event, host.actions);
    if (next.status === 'error') {
      throw new Error(`${host.spec.name} failed on ${event.type} in state ${host.state}: ${String(next.error)}`);
    }
    host.snapshot = next;
    // A transition that re-enters the state it leaves (`reenter: true`, a timeout that sends
    // again) enters its window once more, though the state's name does not change.
    const state = stateKey(next.value);
    const reentered = host.spec.process && state === host.state && host.stepper.lastReentered;
    this.afterStep(host, prev, state, reentered);
  }

  private afterStep(host: Host, prev: MachineSnapshot | undefined, state: string, reentered = false): void {
    const name = host.spec.name;
    if (prev === undefined || prev.context.durable !== host.snapshot.context.durable) this.lastProgressTick = this.clock.now;
    // Read in place: performing an action never steps a machine, so nothing refills the list
    // before the loop is done, and the next step clears it.
    const actions = host.actions;
    if (host.spec.crashes && !host.spec.process && this.serverWindow(host, prev, actions)) return;
    for (const action of actions) this.perform(host, action);
    if (state === host.state && !reentered) return;
    host.state = state;
    this.trace.add(this.clock.now, name, 'state', state);
    if (!host.spec.process) return;
    const window = windowOf(host, state);
    const n = (this.windowCounts.get(window) ?? 0) + 1;
    this.windowCounts.set(window, n);
    if (this.healed) return;
    this.keyLog?.push(windowKey(window, n));
    const faults = this.windowFaults.get(window)?.filter((f) => f.occurrence === n);
    if (faults === undefined || faults.length === 0) return;
    // A skew and a restore strike before a crash at the same moment, so a plan that pairs them
    // with a crash of this component still sees them happen.
    for (const f of faults) if (f.kind === 'skew') this.skew(host, f);
    for (const f of faults) {
      // A component not yet started (the World boots them in design order) has nothing to set
      // back, so the restore does not strike.
      if (f.kind !== 'restore' || this.host(f.component).snapshot === undefined) continue;
      this.strike(f);
      this.restore(f.component, window);
    }
    const crash = faults.find((f) => f.kind === 'crash');
    if (crash && !host.down) {
      this.strike(crash);
      this.crash(name, window);
    }
  }

  /** A skew fault: the component is told its clock now reads its declared skew ahead. */
  private skew(host: Host, fault: WindowFault): void {
    const ticks = host.spec.skewTicks;
    if (ticks === undefined) throw new Error(`${host.spec.name} declares no clock skew`);
    this.strike(fault);
    this.trace.add(this.clock.now, host.spec.name, 'skew', { ticks });
    this.deliver(host, { type: 'sys.clockSkew', ticks, at: this.clock.now } as EventObject);
  }

  /**
   * Counts the windows a crashing server's step reached, in order, and crashes it at the first
   * one the plan names: the actions before that window happen, those after it (the step's
   * replies) do not. A window that says its step's change is `undone` crashes from the snapshot
   * before the step. Whether it crashed.
   */
  private serverWindow(host: Host, prev: MachineSnapshot | undefined, actions: readonly ExecutedAction[]): boolean {
    for (let at = 0; at < actions.length; at++) {
      const marked = windowMarkOf(actions[at]!);
      if (marked === undefined) continue;
      const window = windowOf(host, marked.state);
      const n = (this.windowCounts.get(window) ?? 0) + 1;
      this.windowCounts.set(window, n);
      if (!this.healed) this.keyLog?.push(windowKey(window, n));
      const fault = this.healed ? undefined : this.windowFaults.get(window)?.find((f) => f.kind === 'crash' && f.occurrence === n);
      if (!fault) continue;
      for (const before of actions.slice(0, at)) this.perform(host, before);
      if (marked.undone && prev !== undefined) host.snapshot = prev;
      this.strike(fault);
      this.crash(host.spec.name, window);
      return true;
    }
    return false;
  }

  private perform(host: Host, action: ExecutedAction): void {
    const name = host.spec.name;
    switch (action.type) {
      case 'xstate.emit': {
        const event = (action.params as { event: { type: string; to?: string; event?: EventObject; kind?: string; data?: unknown; unordered?: boolean } }).event;
        if (event.type === 'send') {
          if (!event.to || !event.event) throw new Error(`${name} emitted a send without 'to' or 'event'`);
          if (!this.hosts.has(event.to)) throw new Error(`${name} sent ${event.event.type} to unknown component ${event.to}`);
          this.network.send(this.clock.now, name, event.to, event.event, event.unordered === true);
        } else if (event.type === 'note') {
          const data = { kind: event.kind, ...(event.data === undefined ? {} : { data: event.data }) };
          this.notes.push({ tick: this.clock.now, seq: this.trace.length, component: name, kind: event.kind!, ...(event.data === undefined ? {} : { data: event.data }) });
          this.trace.add(this.clock.now, name, 'note', data);
        }
        return;
      }
      case 'xstate.raise': {
        const { event, id, delay } = action.params as { event: EventObject; id?: string; delay?: number };
        if (delay === undefined) return;
        const item: TimerItem = { kind: 'timer', component: name, key: id ?? '', event };
        const seq = this.schedule.push(this.clock.now + Math.max(0, Math.ceil(delay)), item);
        // An unnamed timer is known by its seq, which only the push gives.
        if (id === undefined) item.key = `#${seq}`;
        host.timers.set(item.key, { seq, delay, set: this.clock.now });
        return;
      }
      case 'xstate.cancel': {
        const { sendId } = action.params as { sendId: string };
        const timer = host.timers.get(sendId);
        if (timer !== undefined) {
          this.schedule.cancel(timer.seq);
          host.timers.delete(sendId);
        }
        return;
      }
      default:
        // Anything else (sendTo, spawn, a custom function) would silently do nothing here.
        throw new Error(`${name} asked for action ${action.type}, which the World does not perform; emit send/note instead`);
    }
  }

  private strike(fault: Fault): void {
    this.lastFaultTick = this.clock.now;
    this.strikes.push({ fault, tick: this.clock.now, durable: this.durableState(), inFlight: this.inFlightNow() });
    this.trace.add(this.clock.now, 'world', 'fault', fault);
  }

  /** Every message sent and not yet delivered, in delivery order, then those a reorder holds back. */
  private inFlightNow(): InFlight[] {
    const out: InFlight[] = [];
    for (const e of this.schedule.entries()) if (e.item.kind === 'message') out.push(inFlightOf(e.item.envelope));
    for (const e of this.network.heldEnvelopes()) out.push(inFlightOf(e));
    return out;
  }

  private heal(): void {
    this.healed = true;
    this.struckable = { census: new Map(this.network.census()), windowCounts: new Map(this.windowCounts) };
    this.keyLog = undefined;
    this.healTick = this.clock.now;
    this.trace.add(this.clock.now, 'world', 'phase', 'liveness');
    this.network.heal(this.clock.now);
    this.schedule.removeWhere((item) => item.kind === 'restart');
    for (const host of this.order) {
      if (!host.down) continue;
      host.down = false;
      this.trace.add(this.clock.now, host.spec.name, 'restart');
      this.boot(host, this.durableAtRestart(host));
    }
  }

  private finish(ending: Ending): RunReport {
    const strikes = this.strikes;
    return {
      ending,
      ticks: this.clock.now,
      steps: this.steps,
      strikes,
      unstruck: this.options.plan.filter((f) => !strikes.some((s) => sameFault(s.fault, f))),
      traceHash: this.trace.hash(),
      census: this.network.census(),
      windowCounts: this.windowCounts,
      struckable: this.struckable ?? { census: this.network.census(), windowCounts: this.windowCounts },
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
      components: this.order.map((h) => h.spec),
      steppers: this.order.map((h) => h.stepper),
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

/** The options that decide what happens in a run, as the trace's start event records them. */
export function behaviourOf(o: WorldOptions): Record<string, number> {
  return {
    latencyTicksMin: o.latencyTicksMin,
    latencyTicksMax: o.latencyTicksMax,
    delayFaultTicks: o.delayFaultTicks,
    restartDelayTicks: o.restartDelayTicks,
    safetyTicksMax: o.safetyTicksMax,
    livenessTicksMax: o.livenessTicksMax,
    quietTicks: o.quietTicks,
    stepsMax: o.stepsMax,
  };
}

/** A component's window at a state, by the name made the first time it was entered. */
function windowOf(host: Host, state: string): string {
  let window = host.windows.get(state);
  if (window === undefined) host.windows.set(state, (window = windowName(host.spec.name, state)));
  return window;
}

function inFlightOf(e: Envelope): InFlight {
  return { from: e.from, to: e.to, event: e.event };
}

/**
 * The sessions a restarting server's clients still think open, given the context it crashed in:
 * those an earlier crash had broken already and those it held, in that order, so equal histories
 * give equal contexts. The World and check mode both hand these to the restarted server.
 */
export function brokenSessions(spec: Pick<ComponentSpec, 'sessionsOf'>, context: unknown): readonly string[] | undefined {
  const of = spec.sessionsOf;
  if (of === undefined) return undefined;
  const all = [...new Set([...((context as { broken?: readonly string[] }).broken ?? []), ...of(context)])];
  return all.length === 0 ? undefined : all;
}

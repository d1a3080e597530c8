// The one set of rules a run follows, whichever mode drives it: how a component boots and steps,
// what its step's actions do (a message sent, a note written, a timer set or cancelled), how a
// crash drops what was on its way and tells its peers, how a restore and a clock skew strike, how
// a message fault changes a message, when a world is quiet. Every state is an immutable value
// and every step a function of a state and a choice (a delivery, a due timer, a restart, the
// clock moving on, the heal, or a fault), so the World's seeded runs (src/run/world.ts: windows,
// explore, replay) and the exhaustive search (src/check/: every choice, over a visited set) drive
// the same code, as Stateright's `Model` is explored by simulation and by search alike.
//
// Two ways of timing messages share the rules:
// - `exact` (the World): each message's landing tick is fixed when it is sent, from a latency the
//   driver draws (or reads from a schedule), never before what was last sent on its link; things
//   due at one tick happen in the order they were scheduled (`seq`), and a plan's faults strike
//   as a step reaches their place (a window entered, a message sent);
// - a window (check): a message may land at any tick from its send plus the least latency to its
//   send plus the most, a link delivering its head only, and faults are choices of their own.
import type { EventObject } from 'xstate';
import { arrived } from './arrived.ts';
import type { ExecutedAction } from './compiledMachine.ts';
import { windowMarkOf } from './emitted.ts';
import { MESSAGE_WORLDS, WINDOW_STRIKE_ORDER, WINDOW_WORLDS, type Fault, type FaultChoice, type MessageFault, type MessageFaultKind, type WindowChoice, type WindowFault, type WindowFaultKind } from '../faults/faults.ts';
import type { MessageOps, ServerCrashChoice, ServerWindow, WindowOps, WorldView, WindowWorld } from '../faults/faultWorld.ts';
import { pointName, windowName } from '../faults/place.ts';
import { isQuiet } from './quiet.ts';
import { InputError } from '../base/inputError.ts';
import type { ComponentSpec } from './componentSpec.ts';
import { linkFaults } from '../faults/linkFaults.ts';
import { stepperFor, type Driver, type MachineSnapshot, type Stepper } from './stepper.ts';
import { Hasher, hashOf, type Hash64 } from './stateHash.ts';
import { eventHashesOf, TransitionCache } from './transitionCache.ts';
import { SearchState } from './searchState.ts';
import { Draft, type KernelState } from './draft.ts';
import { Comp, Link, Msg, type Timer } from './parts.ts';
import { NO_LOG, type StepLog, type StrikeMoment } from './stepLog.ts';
import { brokenSessions } from './brokenSessions.ts';
import { stateKey } from './stateKey.ts';
import { handlesEvent } from './handlesEvent.ts';

export interface KernelOptions {
  readonly latencyTicksMin: number;
  readonly latencyTicksMax: number;
  readonly delayFaultTicks: number;
  readonly restartDelayTicks: number;
  readonly livenessTicksMax: number;
  readonly quietTicks: number;
  /** Each message's landing tick fixed at its send from a drawn latency (the World), or a window of ticks (check). */
  readonly exact: boolean;
  /** At most this many faults in one path, where faults are choices. */
  readonly faults: number;
  /** Which faults a search may choose: the window faults (each where its kind finds a place), and the message faults a link allows. */
  readonly windowFaults: readonly WindowFaultKind[];
  readonly messageFaults: readonly MessageFaultKind[];
  readonly driver: Driver;
  /** Remember each component's steps (a search's default); off, every step is worked out anew. */
  readonly transitionCache?: boolean;
  /**
   * Send a crash notice also to components whose machine never handles one, as the World always
   * does; a search leaves them out unless a test, comparing the two, asks.
   */
  readonly everyNotice?: boolean;
  /** Steppers to use instead of the driver's (a resumed run shares its reference run's). */
  readonly steppers?: readonly Stepper[];
}

/**
 * The tick the wait a timer ends began: when it was set, or, for a timer re-armed for what is left
 * of an earlier wait, the tick its event names as `waitedSince` (src/kernel/quiet.ts). A state's
 * hash covers a timer by its id, due tick and delay only, so a model that names `waitedSince` must
 * keep that tick in its context too (the database keeps each transaction's last activity), or two
 * states the quiet rule tells apart would share a hash.
 */
function waitStart(t: Timer): number {
  const since = (t.event as { waitedSince?: unknown }).waitedSince;
  return typeof since === 'number' && since < t.set ? since : t.set;
}

/** A choice: one of the world's own steps, or a fault (each kind says what its choices are: src/faults/kinds/). */
export type Choice =
  | { readonly kind: 'deliver'; readonly link: string }
  | { readonly kind: 'timer'; readonly comp: number; readonly id: string }
  | { readonly kind: 'restart'; readonly comp: number }
  | { readonly kind: 'advance'; readonly to: number }
  | { readonly kind: 'release'; readonly link: string }
  /** A search's heal, where a path first goes quiet: as the World's, no fault strikes after it. */
  | { readonly kind: 'heal' }
  | FaultChoice;

export type { FaultChoice, ServerWindow };

const HEAL: Choice = { kind: 'heal' };

/** Whether a choice is a fault: every kind that is not one of the world's own steps. */
export function isFault(c: Choice): c is FaultChoice {
  switch (c.kind) {
    case 'deliver':
    case 'timer':
    case 'restart':
    case 'advance':
    case 'release':
    case 'heal':
      return false;
    default:
      return true;
  }
}

/** What a path's end says: quiet (judge the claims), or stuck and why. */
export type PathEnd =
  | { readonly kind: 'quiet' }
  | { readonly kind: 'stuck'; readonly reason: { readonly kind: 'no quiescence'; readonly ticks: number } | { readonly kind: 'waiting'; readonly components: readonly string[] } };

/** A component's step, as the kernel reads it, with the hashes a search keeps of it. */
interface StepTaken {
  readonly next: MachineSnapshot;
  readonly actions: readonly ExecutedAction[];
  readonly state: string;
  readonly reentered: boolean;
  readonly contextHash: Hash64 | undefined;
  readonly eventHashes: readonly (Hash64 | undefined)[] | undefined;
}

/** A component booted: its snapshot, the hashes of its context and of what it sends, and its actions. */
interface Boot {
  readonly snapshot: MachineSnapshot;
  readonly ch: Hash64 | undefined;
  readonly state: string;
  readonly actions: readonly ExecutedAction[];
  readonly hashes: readonly (Hash64 | undefined)[] | undefined;
}

/** The message faults a search may choose for one kind of message on one link: on the link, and on a connection of its own. */
interface LinkFaults {
  readonly shared: readonly MessageFaultKind[];
  readonly own: readonly MessageFaultKind[];
}

/** A message point, made once per design: its link's key, its id and its name. */
interface SendPoint {
  readonly pair: string;
  readonly id: number;
  readonly name: string;
}

/** What a plan's message fault does to a message as it is sent, recorded for the send to carry out (MessageOps). */
class SendEffect implements MessageOps {
  dropped = false;
  held = false;
  extraTicks = 0;
  doubled = false;
  notice: string | undefined = undefined;
  constructor(readonly delayTicks: number) {}
  drop(): void {
    this.dropped = true;
  }
  hold(): void {
    this.held = true;
  }
  later(ticks: number): void {
    this.extraTicks += ticks;
  }
  twice(): void {
    this.doubled = true;
  }
  tellSender(type: string): void {
    this.notice = type;
  }
}

/** A sender and receiver: their link's key, and by message type each point's id and name and the faults its messages can suffer. */
interface Pair {
  readonly key: string;
  readonly points: Map<string, SendPoint>;
  readonly faults: Map<string, LinkFaults>;
}

export class Kernel {
  readonly names: readonly string[];
  readonly steppers: readonly Stepper[];
  /** Each component's steps, remembered, where a search asks for them again and again. */
  private readonly cache: readonly (TransitionCache | undefined)[];
  /** By sender and receiver (`from * n + to`), each made on first use. */
  private readonly pairs: (Pair | undefined)[] = [];
  private points = 0;
  private readonly firstBoots: (Boot | undefined)[] = [];
  private readonly restartBoots: WeakMap<object, Map<string, Boot>>[];
  private readonly deliverChoices = new Map<string, Choice>();
  /** The window kinds a search may choose, in the order their choices are offered. */
  private readonly windowWorlds: readonly WindowWorld<WindowFault, WindowChoice>[];
  private readonly restartChoices: readonly Choice[];
  private readonly timerChoices: readonly Map<string, Choice>[];
  private readonly windowNames: Map<string, string>[];
  /**
   * Whether each component's machine has a transition for a peer's crash notice. A search sends
   * the notice only to those that do (see crash); the World sends it to every peer, so its traces
   * keep every notice they always had.
   */
  readonly hearsCrash: readonly boolean[];
  private readonly stateHasher = new Hasher();
  private readonly partHasher = new Hasher();
  private readonly listHasher = new Hasher();

  constructor(
    readonly components: readonly ComponentSpec[],
    readonly options: KernelOptions,
  ) {
    this.names = components.map((c) => c.name);
    this.steppers = options.steppers ?? components.map((c) => (c.stepper ? c.stepper() : stepperFor(c.machine, c.name, c.input, options.driver).stepper));
    const remember = !options.exact && options.transitionCache !== false;
    this.cache = components.map(() => (options.exact ? undefined : new TransitionCache(remember ? undefined : 0)));
    this.windowNames = components.map(() => new Map());
    this.hearsCrash = components.map((c) => handlesEvent(c.machine, 'sys.peerCrashed'));
    this.windowWorlds = [...WINDOW_WORLDS].filter(([kind]) => options.windowFaults.includes(kind)).map(([, world]) => world);
    this.restartChoices = components.map((_, comp) => ({ kind: 'restart', comp }));
    this.timerChoices = components.map(() => new Map());
    this.restartBoots = components.map(() => new WeakMap());
  }

  /** A sender and receiver's pair, made when it first carries a message: most of the n² pairs never do, and a run builds its kernel anew. */
  private pair(from: number, to: number): Pair {
    const at = from * this.names.length + to;
    return this.pairs[at] ?? (this.pairs[at] = { key: `${this.names[from]}->${this.names[to]}`, points: new Map(), faults: new Map() });
  }

  /** Every component booted in order at tick 0. */
  initial(log: StepLog = NO_LOG): KernelState {
    const exact = this.options.exact ? { nextSeq: 0, sends: 0, nextHeld: 0 } : undefined;
    const empty: KernelState = new SearchState<Comp, Link>(0, [], [], 0, 0, -1, 0, [], exact);
    const d = new Draft(empty, 0, this.numbered(log));
    for (let i = 0; i < this.components.length; i++) d.comps.push(undefined as unknown as Comp);
    for (let i = 0; i < this.components.length; i++) this.boot(d, i, undefined, log);
    return d.freeze();
  }

  private numbered(log: StepLog): boolean {
    return log.trace !== undefined || log.sent !== undefined;
  }

  private draft(s: KernelState, log: StepLog, now = s.now): Draft {
    return new Draft(s, now, this.numbered(log));
  }

  /** The state after a choice. */
  apply(s: KernelState, c: Choice, log: StepLog = NO_LOG): KernelState {
    switch (c.kind) {
      case 'advance':
        return s.jump(c.to, this.activeTicks(s, c.to));
      case 'deliver': {
        const d = this.draft(s, log);
        this.deliverMsg(d, this.shift(d, c.link), log);
        return d.freeze();
      }
      case 'timer': {
        const d = this.draft(s, log);
        const { event, eh } = this.takeTimer(d, c.comp, c.id, log);
        this.deliverTo(d, c.comp, event, eh, undefined, log);
        return d.freeze();
      }
      case 'restart': {
        const d = this.draft(s, log);
        this.restart(d, c.comp, log);
        return d.freeze();
      }
      case 'release':
        return this.release(s, c.link, log);
      case 'heal': {
        const d = this.draft(s, log);
        d.healTick = d.now;
        log.trace?.(d.now, 'world', 'phase', 'liveness');
        return d.freeze();
      }
      default:
        return this.chosenFault(s, c, log);
    }
  }

  /** Component `i` back up, from its durable state or the one a restore set it back to. */
  private restart(d: Draft, i: number, log: StepLog): void {
    const comp = d.comps[i]!;
    d.comps[i] = comp.withDown(false, -1);
    log.trace?.(d.now, this.names[i]!, 'restart');
    // What is still on its way to it was sent while it was down (its crash dropped all that was on
    // its way before): no connection to it existed, so none of it reaches the new incarnation,
    // however its latency, a delay or a reorder carried it past the restart.
    this.dropOnItsWay(d, i, 'receiver down when sent', log);
    this.boot(d, i, comp.restoreTo ?? comp.snapshot.context.durable, log, brokenSessions(this.components[i]!, comp.snapshot.context));
  }

  /**
   * Drops what is on its way to component `i`, which a crash or a restart ends the connections
   * of: what its links carry (in the order it was due, where the world keeps one), then what a
   * reorder held back for it (in the order it was held). A link's landing order goes with its
   * connection: what is sent to the next incarnation need not land behind a message that never
   * lands (a delayed one).
   */
  private dropOnItsWay(d: Draft, i: number, reason: string, log: StepLog): void {
    const to = (m: Msg) => m.to === i;
    const dropped: Msg[] = [];
    for (const l of d.links.slice()) {
      if (!l.msgs.some(to)) continue;
      dropped.push(...l.msgs.filter(to));
      d.setLink(l.key, l.msgs.filter((m) => !to(m)), l.held, -1);
    }
    if (d.exact !== undefined) dropped.sort((a, b) => a.earliest - b.earliest || a.seq - b.seq);
    for (const l of d.links.filter((x) => x.held.length > 0 && to(x.held[0]!)).sort((a, b) => a.heldSince - b.heldSince)) {
      dropped.push(...l.held);
      d.setLink(l.key, l.msgs, []);
    }
    for (const m of dropped) log.trace?.(d.now, this.names[i]!, 'drop', { from: this.names[m.from]!, event: m.event, reason });
  }

  /**
   * The end of the phase with faults, where the world draws latencies (the World): no fault
   * strikes any more, messages a reorder held back are released (each link's, in name order, a
   * latency after now and behind what its link carries), and every crashed component restarts now.
   */
  heal(s: KernelState, log: StepLog): KernelState {
    const d = this.draft(s, log);
    d.healTick = d.now;
    // Only the World heals, and it always traces and draws latencies.
    log.trace!(d.now, 'world', 'phase', 'liveness');
    // Each link released here keeps at least what it releases, so setLink replaces it in place
    // and the list can be walked as it is.
    for (const l of d.links) {
      if (l.held.length === 0) continue;
      const tick = Math.max(d.now + log.latency!(undefined), l.tail);
      d.setLink(l.key, [...l.msgs, ...l.held.map((m) => m.within(tick, tick, d.seq()))], [], tick);
    }
    for (let i = 0; i < d.comps.length; i++) if (d.comps[i]!.down) this.restart(d, i, log);
    return d.freeze();
  }

  /** A fault a search chose. */
  private chosenFault(s: KernelState, c: FaultChoice, log: StepLog): KernelState {
    const d = this.draft(s, log);
    d.struck();
    if ('link' in c) this.messageFault(d, c.kind, c.link, log);
    else {
      const outer = this.onDraft;
      this.onDraft = { d, log, planned: undefined };
      WINDOW_WORLDS.get(c.kind)!.take(this.windowOps, this.viewOf(s), c);
      this.onDraft = outer;
    }
    return d.freeze();
  }

  /** A chosen fault as the plan entry a windows run would strike it by (its kind says which); `entered` counts the windows entered on its path. */
  faultEntry(s: KernelState, c: FaultChoice, entered: ReadonlyMap<string, number>): Fault {
    if ('link' in c) {
      const m = s.links.find((l) => l.key === c.link)!.msgs[0]!;
      return { kind: c.kind, point: pointName(this.names[m.from]!, this.names[m.to]!, m.event.type), occurrence: m.n };
    }
    return WINDOW_WORLDS.get(c.kind)!.entry(this.viewOf(s), c, entered);
  }

  /**
   * What a window kind can do to a draft: the kernel's primitives, and the record of a strike
   * (`planned`, a plan's entry; undefined for a search's choice). One object, made once, acts on
   * the draft in `onDraft`, which each caller sets for its call and puts back after (a skew's
   * step may strike again inside it), so a fault allocates no closures.
   */
  private onDraft: { readonly d: Draft; readonly log: StepLog; readonly planned: Fault | undefined } = { d: undefined as unknown as Draft, log: NO_LOG, planned: undefined };
  private readonly windowOps: WindowOps = {
    crash: (i, window) => this.crash(this.onDraft.d, i, window, this.onDraft.log),
    crashInStep: (i, at) => {
      const { d, log } = this.onDraft;
      const { event, eh, from, closedTo } = this.takeStep(d, i, at.step, log);
      d.closedTo = closedTo;
      this.deliverTo(d, i, event, eh, from, log, at);
      d.closedTo = -1;
    },
    restore: (i, window) => this.restore(this.onDraft.d, i, window, this.onDraft.log),
    skew: (i) => this.skew(this.onDraft.d, i, this.onDraft.log),
    booted: (i) => this.onDraft.d.comps[i] !== undefined,
    down: (i) => this.onDraft.d.comps[i]!.down,
    indexOf: (name) => this.names.indexOf(name),
    chosen: (place) => this.onDraft.log.trace?.(this.onDraft.d.now, 'world', 'fault', place),
    struck: () => this.strike(this.onDraft.d, this.onDraft.planned!, this.onDraft.log),
  };

  /** Whether a path ends here, and how (a search's ending; the World's runs end by their phases); `choices` is what `choices(s)` offers. */
  end(s: KernelState, choices: readonly Choice[]): PathEnd | undefined {
    // A path that first goes quiet heals (a choice of its own, which `choices` offers first, having
    // asked the quiet rule already) and ends only once quiet again.
    if (s.healTick < 0) {
      if (choices[0] === HEAL) return undefined;
    } else if (!s.jumped && this.quiet(s, false)) return { kind: 'quiet' };
    // The liveness bound counts the time in which something happened (see SearchState.jump).
    if (s.now - s.stillTicks > Math.max(s.lastFault, s.healTick, 0) + this.options.livenessTicksMax) return { kind: 'stuck', reason: { kind: 'no quiescence', ticks: this.options.livenessTicksMax } };
    if (choices.every(isFault)) {
      const waiting = this.waiting(s);
      return waiting.length === 0 ? { kind: 'quiet' } : { kind: 'stuck', reason: { kind: 'waiting', components: waiting } };
    }
    return undefined;
  }

  /** The processes not at rest (`component.state`), for a run that ended with nothing left to happen. */
  waiting(s: KernelState): string[] {
    return s.comps.flatMap((c, i) => (this.components[i]!.process && !c.down && !c.snapshot.hasTag('idle') ? [this.windowNameOf(i, c.state)] : []));
  }

  /** Every component's durable context. */
  durable(s: { readonly comps: readonly (Comp | undefined)[] }): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    s.comps.forEach((c, i) => (out[this.names[i]!] = c?.snapshot.context?.durable));
    return out;
  }

  /** The hash of every component's durable context: equal end states judge equal. */
  durableHash(s: KernelState): Hash64 {
    const x = new Hasher();
    for (const c of s.comps) x.value(c.snapshot.context?.durable);
    return x.digest();
  }

  /**
   * Messages on their way, in the order they land (by tick, then as scheduled), then those a
   * reorder holds back, link by link in name order; a search's list leaves out connection notices.
   */
  inFlight(s: { readonly links: readonly Link[] }): { from: string; to: string; event: EventObject }[] {
    const msgs: Msg[] = [];
    for (const l of s.links) for (const m of l.msgs) if (this.options.exact || !m.system) msgs.push(m);
    if (this.options.exact) msgs.sort((a, b) => a.earliest - b.earliest || a.seq - b.seq);
    const out = msgs.map((m) => ({ from: this.names[m.from]!, to: this.names[m.to]!, event: m.event }));
    for (const l of s.links) for (const m of l.held) out.push({ from: this.names[m.from]!, to: this.names[m.to]!, event: m.event });
    return out;
  }

  /** What a fault kind reads of a state (src/faults/faultWorld.ts): one object, pointed at the state asked about. */
  private viewOf(s: KernelState): WorldView {
    this.view.s = s;
    return this.view;
  }

  private readonly view = ((kernel: Kernel) => {
    const view = {
      s: undefined as unknown as KernelState,
      get components() {
        return kernel.components.length;
      },
      liveProcess: (i: number) => kernel.components[i]!.process && !view.s.comps[i]!.down,
      restorable: (i: number) => kernel.components[i]!.restore !== undefined,
      skewable: (i: number) => kernel.components[i]!.skewTicks !== undefined,
      name: (i: number) => kernel.names[i]!,
      windowOf: (i: number) => kernel.windowNameOf(i, view.s.comps[i]!.state),
      serverCrashes: (out: ServerCrashChoice[]) => kernel.serverCrashes(view.s, out),
    };
    return view;
  })(this);

  /**
   * How much of the time from a state's clock to `to` counts toward the liveness bound, in which
   * nothing else happens: the part within the quiet period after its last durable change, fault
   * or heal (the world is changing), and while a process is busy (not idle) up to a quiet period
   * of it (a retry loop that changes nothing still churns; a single long wait for a timer does
   * not). A poll that changes nothing, or a wait of days for a timer that redoes work, costs the
   * bound nothing, so the run reaches what comes after it.
   */
  activeTicks(s: KernelState, to: number): number {
    this.quietOf.s = s;
    const gap = Math.max(0, to - s.now);
    const changing = Math.max(0, Math.min(to, this.quietOf.since + this.options.quietTicks) - s.now);
    const busy = s.comps.some((c, i) => this.components[i]!.process && !c.down && !c.snapshot.hasTag('idle'));
    return busy ? Math.max(changing, Math.min(gap, this.options.quietTicks)) : changing;
  }

  /** Quiet, by the rule the World and a search both ask (src/kernel/quiet.ts); `ignoreHeld` asks whether only held messages keep it awake. */
  quiet(s: KernelState, ignoreHeld: boolean): boolean {
    this.quietOf.s = s;
    return isQuiet(this.quietOf, this.options, ignoreHeld);
  }

  /** What the quiet rule reads of a state: one object, pointed at the state asked about. */
  private readonly quietOf = ((kernel: Kernel) => {
    const subject = {
      s: undefined as unknown as KernelState,
      get now() {
        return subject.s.now;
      },
      get since() {
        return Math.max(subject.s.lastProgress, subject.s.lastFault, subject.s.healTick);
      },
      carrying: (ignoreHeld: boolean) => subject.s.links.some((l) => l.msgs.length > 0 || (!ignoreHeld && l.held.length > 0)),
      get components() {
        return subject.s.comps.length;
      },
      isDown: (i: number) => subject.s.comps[i]!.down,
      isIdle: (i: number) => subject.s.comps[i]!.snapshot.hasTag('idle'),
      isProcess: (i: number) => kernel.components[i]!.process,
      timerCount: (i: number) => subject.s.comps[i]!.timers.length,
      timerSet: (i: number, k: number) => waitStart(subject.s.comps[i]!.timers[k]!),
      timerDelay: (i: number, k: number) => {
        const t = subject.s.comps[i]!.timers[k]!;
        return t.set + t.delay - waitStart(t);
      },
    };
    return subject;
  })(this);

  // ---- the choices a search may take ----

  /**
   * The choices a state offers, in a fixed order (deliveries, timers, restarts, the clock, a
   * release, then faults), so a path of choice indices replays the same run. Since the faults
   * come last, `faults` false gives the same list without them.
   */
  choices(s: KernelState, faults = true): Choice[] {
    const out: Choice[] = [];
    // Where a path first goes quiet, its one step of its own is the heal (and a fault may still
    // strike the world at rest); every timer still pending then fires once more before it ends.
    if (s.healTick < 0 && !s.jumped && this.quiet(s, false)) {
      out.push(HEAL);
      if (faults && s.faults < this.options.faults) this.faultChoices(s, out);
      return out;
    }
    let blocked = false;
    let next = Infinity;
    let held = false;
    for (const l of s.links) {
      if (l.held.length > 0) held = true;
      const m = l.msgs[0];
      if (m === undefined) continue;
      if (m.earliest <= s.now) {
        out.push(this.deliverChoice(l.key));
        // It may land at any tick up to its deadline, so the clock moves one tick at a time
        // while it waits: each tick it lands at is stamped on what it causes (TTLs, timeouts).
        if (m.deadline <= s.now) blocked = true;
        else next = Math.min(next, s.now + 1);
      } else next = Math.min(next, m.earliest);
    }
    for (let i = 0; i < s.comps.length; i++) {
      const c = s.comps[i]!;
      for (const t of c.timers) {
        if (t.due <= s.now) {
          out.push(this.timerChoice(i, t.id));
          blocked = true;
        } else next = Math.min(next, t.due);
      }
      if (c.down) {
        if (c.restartAt <= s.now) {
          out.push(this.restartChoices[i]!);
          blocked = true;
        } else next = Math.min(next, c.restartAt);
      }
    }
    // A held message is released once nothing but it keeps the world from quiet, or once nothing
    // else is left to happen at all (no message, timer or restart to come), as the World releases
    // it at the heal when its faulty phase goes quiet or silent; the clock does not run on past
    // that moment without it. Without the second case a reorder of the last message sent left a
    // path with no choice but faults, which ended it with the message never delivered.
    if (held && ((!blocked && next === Infinity) || this.quiet(s, true))) {
      for (const l of s.links) if (l.held.length > 0) out.push({ kind: 'release', link: l.key });
    } else if (!blocked && next !== Infinity) out.push({ kind: 'advance', to: next });
    // No fault strikes after the heal, as none does in the World's liveness phase.
    if (faults && s.healTick < 0 && s.faults < this.options.faults) this.faultChoices(s, out);
    return out;
  }

  /** The window kinds' choices (each kind says where it strikes), then every message fault each link head may suffer. */
  private faultChoices(s: KernelState, out: Choice[]): void {
    if (this.windowWorlds.length > 0) {
      const view = this.viewOf(s);
      for (const w of this.windowWorlds) w.offer(view, out as WindowChoice[]);
    }
    if (this.options.messageFaults.length > 0) this.messageFaultChoices(s, out);
  }

  private timerChoice(comp: number, id: string): Choice {
    const byId = this.timerChoices[comp]!;
    let c = byId.get(id);
    if (c === undefined) byId.set(id, (c = { kind: 'timer', comp, id }));
    return c;
  }

  private deliverChoice(link: string): Choice {
    let c = this.deliverChoices.get(link);
    if (c === undefined) this.deliverChoices.set(link, (c = { kind: 'deliver', link }));
    return c;
  }

  /** A message fault of every kind each link head may suffer. */
  private messageFaultChoices(s: KernelState, out: Choice[]): void {
    for (const l of s.links) {
      const m = l.msgs[0];
      if (m === undefined || m.system || m.earliest > s.now) continue;
      // A request on a connection of its own has no order to break: its window already lets
      // it arrive before or after anything else (MessageWorld.ownConnection).
      const kinds = this.linkFaults(m.from, m.to, m.event.type);
      for (const kind of l.key.includes('#') ? kinds.own : kinds.shared) out.push({ kind, link: l.key });
    }
  }

  /**
   * A crash for every window mark each step open to a crashing server would reach: its link
   * heads that may land now, then its due timers. The step is run once to find its marks.
   */
  private serverCrashes(s: KernelState, out: ServerCrashChoice[]): void {
    const offer = (comp: number, step: ServerWindow['step'], event: EventObject, eh: Hash64 | undefined, from: string | undefined) => {
      const marks = this.stepOf(comp, s.comps[comp]!.snapshot, event, eh, from, s.now).actions.flatMap((a) => windowMarkOf(a) ?? []);
      const seen = new Map<string, number>();
      marks.forEach((mark, k) => {
        const window = this.windowNameOf(comp, mark.state);
        const nth = (seen.get(window) ?? 0) + 1;
        seen.set(window, nth);
        out.push({ kind: 'crash', comp, at: { step, mark: k, window, nth } });
      });
    };
    for (const l of s.links) {
      const m = l.msgs[0];
      if (m === undefined || m.earliest > s.now || !this.crashingServer(m.to) || s.comps[m.to]!.down) continue;
      offer(m.to, { kind: 'deliver', link: l.key }, m.event, m.eh, this.names[m.from]!);
    }
    for (let i = 0; i < s.comps.length; i++) {
      const c = s.comps[i]!;
      if (!this.crashingServer(i) || c.down) continue;
      for (const t of c.timers) if (t.due <= s.now) offer(i, { kind: 'timer', id: t.id }, t.event, t.eh, undefined);
    }
  }

  private crashingServer(i: number): boolean {
    const spec = this.components[i]!;
    return spec.crashes === true && !spec.process;
  }

  /** The message faults a search may choose for a message of `type` from `from` to `to`, on its link and on a connection of its own. */
  private linkFaults(from: number, to: number, type: string): LinkFaults {
    const byType = this.pair(from, to).faults;
    let kinds = byType.get(type);
    if (kinds === undefined) {
      const shared = linkFaults(this.components, this.names[from]!, this.names[to]!, type).filter((k) => this.options.messageFaults.includes(k));
      kinds = { shared, own: shared.filter((k) => MESSAGE_WORLDS.get(k)!.ownConnection) };
      byType.set(type, kinds);
    }
    return kinds;
  }

  // ---- a search's state identity ----

  /**
   * The state's identity for the visited set: everything its future depends on (every
   * snapshot's state and context, timers, restarts, every message and its window, the clock and
   * the fault budget), and `extra`, which the search uses to keep apart paths it reports apart.
   */
  hash(s: KernelState, extra = 0): Hash64 {
    this.hashLanes(s, extra);
    return [this.hashHi, this.hashLo];
  }

  /** `hash` without the pair: its lanes are left in `hashHi` and `hashLo`. */
  hashLanes(s: KernelState, extra = 0): void {
    const x = this.stateHasher.reset().word(s.now).word(s.faults).word(s.lastProgress).word(s.lastFault).word(s.nextUnordered).word(s.stillTicks).word(s.healTick).word(s.jumped ? 1 : 0).word(extra);
    for (const c of s.comps) x.hash(this.compHash(c));
    x.word(s.links.length);
    for (const l of s.links) x.hash(this.linkHash(l));
    this.hashHi = x.digestHi();
    this.hashLo = x.digestLo();
  }

  hashHi = 0;
  hashLo = 0;

  /** A component's share of `hash`. */
  compHash(c: Comp): Hash64 {
    let h = c.h;
    if (h === undefined) {
      const x = this.partHasher.reset().value(c.state).hash(c.ch!).word(c.down ? 1 : 0).word(c.restartAt).word(c.timers.length);
      if (c.restoreTo !== undefined) x.value(c.restoreTo);
      for (const t of c.timers) x.value(t.id).word(t.due).word(t.delay);
      h = c.h = x.digest();
    }
    return h;
  }

  /** A 64-bit key over every field of a link list, each message's ordinal too. */
  linksKey(links: readonly Link[]): Hash64 {
    const x = this.listHasher.reset().word(links.length);
    for (const l of links) {
      x.hash(this.linkHash(l));
      for (const m of l.msgs) x.word(m.n);
      for (const m of l.held) x.word(m.n);
    }
    return x.digest();
  }

  private linkHash(l: Link): Hash64 {
    let h = l.h;
    if (h === undefined) {
      const x = this.partHasher.reset().value(l.key).word(l.msgs.length).word(l.held.length);
      // An orphan (Msg.orphan) is told apart without changing any other message's words.
      for (const m of l.msgs) x.hash(m.eh!).word(m.earliest).word(m.deadline).word((m.system ? 1 : 0) | (m.orphan ? 2 : 0));
      for (const m of l.held) x.hash(m.eh!).word(m.orphan ? ~m.earliest : m.earliest).word(m.deadline);
      h = l.h = x.digest();
    }
    return h;
  }

  // ---- the rules of a step ----

  /** Takes a link's head off it: the message that lands now. */
  private shift(d: Draft, key: string): Msg {
    const l = d.link(key)!;
    d.setLink(key, l.msgs.slice(1), l.held);
    return l.msgs[0]!;
  }

  /** Takes a due timer off its component: the event it delivers. */
  private takeTimer(d: Draft, i: number, id: string, log: StepLog): { event: EventObject; eh: Hash64 | undefined } {
    const comp = d.comps[i]!;
    const t = comp.timers.find((x) => x.id === id)!;
    d.comps[i] = comp.withTimers(comp.timers.filter((x) => x !== t));
    log.trace?.(d.now, this.names[i]!, 'timer', t.event.type);
    return { event: t.event, eh: t.eh };
  }

  /** Takes a delivery's message off its link, or a due timer off its component: the event it delivers, and its sender. */
  private takeStep(d: Draft, i: number, step: ServerWindow['step'], log: StepLog): { event: EventObject; eh: Hash64 | undefined; from: string | undefined; closedTo: number } {
    if (step.kind === 'timer') return { ...this.takeTimer(d, i, step.id, log), from: undefined, closedTo: -1 };
    const m = this.shift(d, step.link);
    const from = this.names[m.from]!;
    log.trace?.(d.now, this.names[i]!, 'deliver', { from, event: m.event });
    return { event: m.event, eh: m.eh, from, closedTo: m.orphan ? m.from : -1 };
  }

  private deliverMsg(d: Draft, m: Msg, log: StepLog): void {
    const from = this.names[m.from]!;
    const to = this.names[m.to]!;
    if (d.comps[m.to]!.down) {
      log.trace?.(d.now, to, 'drop', { from, event: m.event });
      return;
    }
    log.trace?.(d.now, to, 'deliver', { from, event: m.event });
    if (m.orphan) d.closedTo = m.from;
    this.deliverTo(d, m.to, m.event, m.eh, from, log);
    d.closedTo = -1;
  }

  /** Component `i` booted, from its input or from `durable` with the sessions a crash broke. */
  private boot(d: Draft, i: number, durable: unknown, log: StepLog, broken?: readonly string[]): void {
    const { snapshot, ch, state, actions, hashes } = this.bootOf(i, durable, broken);
    // A boot uses up a restore: the restored state is now the component's own. It enters its
    // state from none.
    d.comps[i] = new Comp(snapshot, ch, state, false, -1, 0, []);
    this.afterStep(d, i, undefined, '', state, false, actions, hashes, log);
  }

  /**
   * A boot is a pure function of the component, its durable state and the sessions a crash broke,
   * so a search remembers it as it remembers a step: the same boot gives the very same snapshot.
   */
  private bootOf(i: number, durable: unknown, broken: readonly string[] | undefined): Boot {
    const exact = this.options.exact;
    if (durable === undefined) return exact ? this.newBoot(i, this.components[i]!.input) : (this.firstBoots[i] ??= this.newBoot(i, this.components[i]!.input));
    const input = { ...this.components[i]!.input, durable, ...(broken === undefined ? {} : { broken }) };
    if (exact || typeof durable !== 'object' || durable === null) return this.newBoot(i, input);
    let byBroken = this.restartBoots[i]!.get(durable);
    if (byBroken === undefined) this.restartBoots[i]!.set(durable, (byBroken = new Map()));
    const key = broken === undefined ? '' : JSON.stringify(broken);
    let boot = byBroken.get(key);
    if (boot === undefined) byBroken.set(key, (boot = this.newBoot(i, input)));
    return boot;
  }

  private newBoot(i: number, input: Record<string, unknown> | undefined): Boot {
    const actions: ExecutedAction[] = [];
    const snapshot = this.steppers[i]!.initial(input, actions);
    if (this.options.exact) return { snapshot, ch: undefined, state: stateKey(snapshot.value), actions, hashes: undefined };
    return { snapshot, ch: hashOf(snapshot.context), state: stateKey(snapshot.value), actions, hashes: eventHashesOf(actions) };
  }

  /** Component `i`'s step on `event`, stamped with the tick and, for a message, its sender. */
  private stepOf(i: number, snapshot: MachineSnapshot, event: EventObject, eh: Hash64 | undefined, from: string | undefined, at: number): StepTaken {
    try {
      return this.stepTaken(i, snapshot, event, eh, from, at);
    } catch (error) {
      // A design mistake a model meets only when it runs (a table its database lacks) is bad
      // input, said once with the component and the step it failed on.
      if (error instanceof InputError) throw new InputError(`${this.names[i]} failed on ${event.type} in state ${stateKey(snapshot.value)}: ${error.message}`);
      throw error;
    }
  }

  private stepTaken(i: number, snapshot: MachineSnapshot, event: EventObject, eh: Hash64 | undefined, from: string | undefined, at: number): StepTaken {
    const cache = this.cache[i];
    if (cache !== undefined) return cache.step(this.steppers[i]!, snapshot, event, from, at, undefined, eh ?? hashOf(event));
    const stepper = this.steppers[i]!;
    const actions: ExecutedAction[] = [];
    const next = stepper.transition(snapshot, arrived(event, from, at), actions);
    const state = next.status === 'error' ? '' : stateKey(next.value);
    return { next, actions, state, reentered: stepper.lastReentered, contextHash: undefined, eventHashes: undefined };
  }

  /** Steps component `i` on `event`; `crashAt` stops a server's step at one of its window marks. */
  private deliverTo(d: Draft, i: number, event: EventObject, eh: Hash64 | undefined, from: string | undefined, log: StepLog, crashAt?: ServerWindow): void {
    const comp = d.comps[i]!;
    const step = this.stepOf(i, comp.snapshot, event, eh, from, d.now);
    const next = step.next;
    if (next.status === 'error') {
      const failed = `${this.names[i]} failed on ${event.type} in state ${comp.state}: ${next.error instanceof Error ? next.error.message : String(next.error)}`;
      throw next.error instanceof InputError ? new InputError(failed) : new Error(failed);
    }
    const state = step.state;
    const reentered = this.components[i]!.process && state === comp.state && step.reentered;
    // A crash inside the step stops it before its state is reached; otherwise the part takes
    // its snapshot and state at once.
    d.comps[i] = crashAt === undefined ? comp.withStep(next, step.contextHash, state) : comp.withSnapshot(next, step.contextHash);
    this.afterStep(d, i, comp, comp.state, state, reentered, step.actions, step.eventHashes, log, crashAt);
  }

  /** Whether a step changed what the component says others may wait on besides its durable state (ComponentSpec.progressOf). */
  private progressed(i: number, prev: Comp, next: Comp): boolean {
    const of = this.components[i]!.progressOf;
    if (of === undefined) return false;
    const before = prev.snapshot.context;
    const after = next.snapshot.context;
    return before !== after && of(before) !== of(after);
  }

  /**
   * What a step leaves: its progress mark, its actions performed (a crashing server's only up to
   * the mark its crash strikes at), the state it entered recorded, and the faults that strike a
   * process entering its window.
   */
  private afterStep(d: Draft, i: number, prev: Comp | undefined, before: string, state: string, reentered: boolean, actions: readonly ExecutedAction[], hashes: readonly (Hash64 | undefined)[] | undefined, log: StepLog, crashAt?: ServerWindow): void {
    if (prev === undefined || prev.snapshot.context.durable !== d.comps[i]!.snapshot.context.durable || this.progressed(i, prev, d.comps[i]!)) d.lastProgress = d.now;
    if (this.crashingServer(i) && this.serverWindow(d, i, prev, actions, hashes, log, crashAt)) return;
    for (let k = 0; k < actions.length; k++) this.perform(d, i, actions[k]!, hashes?.[k], log);
    if (state === before && !reentered) return;
    const name = this.names[i]!;
    log.trace?.(d.now, name, 'state', state);
    if (!this.components[i]!.process) return;
    const window = this.windowNameOf(i, state);
    const faults = log.enter(i, window);
    if (faults !== undefined && faults.length > 0) this.strikeAtWindow(d, i, window, faults, log);
  }

  /**
   * A plan's faults at a window a process just entered, kind by kind in the order their kinds
   * rank them (WindowWorld.rank: a skew and a restore before a crash at the same moment), each
   * kind's in plan order; a kind's entry that finds nothing to strike (a restore of a component
   * not yet booted, a crash of one already down) does not strike.
   */
  private strikeAtWindow(d: Draft, i: number, window: string, faults: readonly Fault[], log: StepLog): void {
    for (const kind of WINDOW_STRIKE_ORDER) {
      for (const f of faults) {
        if (f.kind !== kind) continue;
        const outer = this.onDraft;
        this.onDraft = { d, log, planned: f };
        WINDOW_WORLDS.get(kind)!.strike(this.windowOps, i, window, f as WindowFault);
        this.onDraft = outer;
      }
    }
  }

  /**
   * Counts the window marks a crashing server's step reaches, in order, and crashes it at the
   * first one a plan names or a search chose: the actions before that mark happen, those after
   * it (the step's replies) do not, and a mark whose change is `undone` takes the server back to
   * its snapshot before the step. Whether it crashed.
   */
  private serverWindow(d: Draft, i: number, prev: Comp | undefined, actions: readonly ExecutedAction[], hashes: readonly (Hash64 | undefined)[] | undefined, log: StepLog, crashAt: ServerWindow | undefined): boolean {
    let k = 0;
    for (let at = 0; at < actions.length; at++) {
      const marked = windowMarkOf(actions[at]!);
      if (marked === undefined) continue;
      const window = this.windowNameOf(i, marked.state);
      // A server's step is cut short only by a kind that strikes inside one (a crash).
      const planned = log.enter(i, window)?.find((f) => WINDOW_WORLDS.get(f.kind as WindowFaultKind)?.insideStep === true);
      const chosen = crashAt !== undefined && k === crashAt.mark;
      k++;
      if (planned === undefined && !chosen) continue;
      for (let j = 0; j < at; j++) this.perform(d, i, actions[j]!, hashes?.[j], log);
      if (marked.undone && prev !== undefined) d.comps[i] = d.comps[i]!.withSnapshot(prev.snapshot, prev.ch);
      if (planned !== undefined) this.strike(d, planned, log);
      else log.trace?.(d.now, 'world', 'fault', { kind: 'crash', window });
      this.crash(d, i, window, log);
      return true;
    }
    // The marks were found by running this very step, and steps are deterministic.
    // Stryker disable next-line StringLiteral: no run reaches this line, so no test can read its words.
    if (crashAt !== undefined) throw new Error(`${this.names[i]}'s step reached no window mark ${crashAt.mark} (${crashAt.window}) on a second run`);
    return false;
  }

  /** A plan's fault struck now: the driver records the moment, and the trace says so. */
  private strike(d: Draft, fault: Fault, log: StepLog): void {
    d.struck();
    log.struck?.(fault, this.momentOf(d));
    log.trace?.(d.now, 'world', 'fault', fault);
  }

  private momentOf(d: Draft): StrikeMoment {
    return { tick: d.now, durable: () => this.durable(d), inFlight: () => this.inFlight(d) };
  }

  /** Performs an action; `eh` is the hash of the event it sends or sets a timer for, when known. */
  private perform(d: Draft, i: number, action: ExecutedAction, eh: Hash64 | undefined, log: StepLog): void {
    const name = this.names[i]!;
    switch (action.type) {
      case 'xstate.emit': {
        const e = (action.params as { event: { type: string; to?: string; event?: EventObject; kind?: string; data?: unknown; unordered?: boolean } }).event;
        if (e.type === 'send') {
          if (!e.to || !e.event) throw new Error(`${name} emitted a send without 'to' or 'event'`);
          const to = this.names.indexOf(e.to);
          if (to < 0) throw new Error(`${name} sent ${e.event.type} to unknown component ${e.to}`);
          this.send(d, i, to, e.event, e.unordered === true, false, log, eh);
        } else if (e.type === 'note') {
          log.trace?.(d.now, name, 'note', { kind: e.kind, ...(e.data === undefined ? {} : { data: e.data }) });
        }
        return;
      }
      case 'xstate.raise':
        return this.setTimer(d, i, action, eh);
      case 'xstate.cancel': {
        const { sendId } = action.params as { sendId: string };
        const comp = d.comps[i]!;
        if (comp.timers.some((t) => t.id === sendId)) d.comps[i] = comp.withTimers(comp.timers.filter((t) => t.id !== sendId));
        return;
      }
      default:
        // Anything else (sendTo, spawn, a custom function) would silently do nothing here.
        throw new Error(`${name} asked for action ${action.type}, which the World does not perform; emit send/note instead`);
    }
  }

  /** A delayed raise: a timer due its delay from now, replacing one of the same id. */
  private setTimer(d: Draft, i: number, action: ExecutedAction, eh: Hash64 | undefined): void {
    const { event, id, delay } = action.params as { event: EventObject; id?: string; delay?: number };
    if (delay === undefined) return;
    const seq = d.seq();
    if (id === undefined && !this.options.exact) throw new Error(`${this.names[i]} raised a delayed ${event.type} without an id; the exhaustive search needs every timer named`);
    const key = id ?? `#${seq}`;
    const comp = d.comps[i]!;
    const timers = comp.timers.filter((t) => t.id !== key);
    const hash = this.options.exact ? undefined : (eh ?? hashOf(event));
    timers.push({ id: key, due: d.now + Math.max(0, Math.ceil(delay)), delay, set: d.now, seq, event, eh: hash });
    timers.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    d.comps[i] = comp.withTimers(timers);
  }

  // ---- the network ----

  /** The key of the link a send takes, and its point's name and id. */
  private pointOfSend(from: number, to: number, type: string): SendPoint {
    const pair = this.pair(from, to);
    let p = pair.points.get(type);
    if (p === undefined) pair.points.set(type, (p = { pair: pair.key, id: this.points++, name: pointName(this.names[from]!, this.names[to]!, type) }));
    return p;
  }

  /**
   * Sends one message. A `system` message (a connection-drop notice) takes the link like any
   * other, so it lands after what the sender had already sent, but no fault strikes it and no
   * point counts it. Where the world draws latencies, a plan's fault for the message strikes as
   * it is sent; an unordered send travels on a connection of its own.
   */
  private send(d: Draft, from: number, to: number, event: EventObject, unordered: boolean, system: boolean, log: StepLog, eh: Hash64 | undefined): void {
    const point = this.pointOfSend(from, to, event.type);
    const nth = d.exact === undefined ? 0 : d.exact.sends++;
    let n = 0;
    let fault: MessageFault | undefined;
    if (!system) {
      if (log.sent !== undefined) ({ n, fault } = log.sent(point.name));
      else if (d.numbered) n = d.count(point.id);
    }
    const hash = this.options.exact ? undefined : (eh ?? hashOf(event));
    let effect: SendEffect | undefined;
    if (fault !== undefined) {
      log.trace?.(d.now, this.names[from]!, fault.kind, { to: this.names[to], event });
      this.strike(d, fault, log);
      effect = new SendEffect(this.options.delayFaultTicks);
      MESSAGE_WORLDS.get(fault.kind)!.act(effect);
    }
    // Sent in the step that handles a message from `to`'s crashed incarnation, it answers on that
    // incarnation's connection, which the crash closed: the restarted one never asked, and a reply
    // matched by request id would be taken for the answer to its own request.
    if (to === d.closedTo) {
      // It still draws its latency, so every later message of the run lands as it would have.
      if (d.exact !== undefined && !(effect?.dropped === true || effect?.held === true)) log.latency!(nth);
      log.trace?.(d.now, this.names[to]!, 'drop', { from: this.names[from], event, reason: 'connection closed' });
      return;
    }
    if (effect !== undefined) {
      if (effect.dropped || effect.held) {
        if (effect.held) this.hold(d, point.pair, new Msg(from, to, event, d.now, d.now, system, n, 0, hash));
        if (effect.notice !== undefined) this.tellSender(d, from, to, event, effect.notice);
        return;
      }
    }
    if (d.exact === undefined) return this.sendWithin(d, point.pair, from, to, event, unordered, system, n, hash);
    this.sendExact(d, point.pair, from, to, event, unordered, system, n, nth, effect, log);
  }

  /** A message a reorder holds back on its link, to go right behind the next one sent there. */
  private hold(d: Draft, key: string, m: Msg): void {
    const l = d.link(key);
    d.setLink(key, l?.msgs ?? [], [...(l?.held ?? []), m]);
  }

  /**
   * A send where the world draws latencies: its landing tick is now plus its latency, never before
   * what was last sent on its link (unless it travels on a connection of its own); a delay adds
   * its ticks, a duplicate lands right behind it, a rebalance notice goes back to the sender at
   * once, and messages a reorder held back on the link go right behind it.
   */
  private sendExact(d: Draft, pair: string, from: number, to: number, event: EventObject, unordered: boolean, system: boolean, n: number, nth: number, effect: SendEffect | undefined, log: StepLog): void {
    const link = d.link(pair);
    const tail = link?.tail ?? -1;
    let tick = unordered ? d.now + log.latency!(nth) : Math.max(d.now + log.latency!(nth), tail);
    if (effect !== undefined) tick += effect.extraTicks;
    const m = new Msg(from, to, event, tick, tick, system, n, d.seq(), undefined);
    const sent = effect?.doubled === true ? [m, m.within(tick, tick, d.seq())] : [m];
    if (unordered) d.setLink(`${pair}#${d.nextUnordered++}`, sent, []);
    else d.setLink(pair, [...(link?.msgs ?? []), ...sent], link?.held ?? [], tick);
    if (effect?.notice !== undefined) this.tellSender(d, from, to, event, effect.notice);
    // A held message goes right behind the one that overtook it, but never ahead of what the
    // link already carries: an unordered message may land before the link's tail.
    const after = d.link(pair);
    if (after === undefined || after.held.length === 0) return;
    const release = Math.max(tick, after.tail);
    d.setLink(pair, [...after.msgs, ...after.held.map((h) => h.within(release, release, d.seq()))], [], release);
  }

  /** A send where each message may land within a window of ticks (a search). */
  private sendWithin(d: Draft, pair: string, from: number, to: number, event: EventObject, unordered: boolean, system: boolean, n: number, eh: Hash64 | undefined, now = false): void {
    const key = unordered ? `${pair}#${d.nextUnordered++}` : pair;
    const earliest = now ? d.now : d.now + this.options.latencyTicksMin;
    const deadline = now ? d.now : d.now + this.options.latencyTicksMax;
    const m = new Msg(from, to, event, earliest, deadline, system, n, 0, eh);
    const l = d.link(key);
    if (l === undefined) return d.setLink(key, [m], []);
    if (l.held.length === 0) return d.setLink(key, [...l.msgs, m], l.held);
    // Messages a reorder held back go right behind this one, in its window.
    const held = l.held.map((h) => h.within(m.earliest, m.deadline));
    d.setLink(key, [...l.msgs, m, ...held], []);
  }

  /**
   * A send's sender told at once, with a system event of `type` naming the receiver and the
   * message, on a connection of its own: a rebalance's notice that the work went elsewhere.
   */
  private tellSender(d: Draft, from: number, to: number, event: EventObject, type: string): void {
    const notice = { type, peer: this.names[to], event } as EventObject;
    d.setLink(`${this.pair(to, from).key}#${d.nextUnordered++}`, [new Msg(to, from, notice, d.now, d.now, true, 0, d.seq(), undefined)], []);
  }

  /**
   * A message fault a search chose, on a link's head: its kind does one thing to the message
   * (MessageOps), and may tell its sender besides.
   */
  private messageFault(d: Draft, kind: MessageFaultKind, key: string, log: StepLog): void {
    const l = d.link(key)!;
    const m = l.msgs[0]!;
    const from = this.names[m.from]!;
    log.trace?.(d.now, 'world', 'fault', { kind, point: pointName(from, this.names[m.to]!, m.event.type) });
    log.trace?.(d.now, from, kind, { to: this.names[m.to], event: m.event });
    const outer = this.atHead;
    this.atHead = { d, key, l, m, rest: l.msgs.slice(1), log };
    MESSAGE_WORLDS.get(kind)!.act(this.headOps);
    this.atHead = outer;
  }

  /** The link head a search's message fault strikes, for `headOps` (made once, so a fault allocates no closures). */
  private atHead: { readonly d: Draft; readonly key: string; readonly l: Link; readonly m: Msg; readonly rest: readonly Msg[]; readonly log: StepLog } = undefined as never;
  private readonly headOps: MessageOps = ((kernel: Kernel) => ({
    get delayTicks() {
      return kernel.options.delayFaultTicks;
    },
    drop: () => {
      const { d, key, l, rest } = kernel.atHead;
      d.setLink(key, rest, l.held);
    },
    // The first copy arrives now; the second is right behind it and due at once.
    twice: () => {
      const { d, key, l, m, rest, log } = kernel.atHead;
      d.setLink(key, [m.within(d.now, d.now), ...rest], l.held);
      kernel.deliverMsg(d, m, log);
    },
    later: (ticks: number) => {
      const { d, key, l, m, rest } = kernel.atHead;
      d.setLink(key, [m.within(m.earliest + ticks, m.deadline + ticks), ...rest], l.held);
    },
    // The next message is already on its way: the held one goes right behind it; with none yet,
    // it waits for the next one sent.
    hold: () => {
      const { d, key, l, m, rest, log } = kernel.atHead;
      if (rest.length === 0) return d.setLink(key, rest, [...l.held, m]);
      const next = rest[0]!;
      // Behind it is its sender's crash notice: held back past it, the message would land on a
      // connection already dropped. The World drops what a reorder held when its sender crashes,
      // and so does this: it is lost with the connection.
      if (next.system && next.from === m.from && next.event.type === 'sys.peerCrashed') {
        log.trace?.(d.now, kernel.names[m.to]!, 'drop', { from: kernel.names[m.from], event: m.event, reason: 'sender crashed' });
        return d.setLink(key, rest, l.held);
      }
      d.setLink(key, [next, m.within(next.earliest, Math.max(m.deadline, next.deadline)), ...rest.slice(1)], l.held);
    },
    // The message stays on its way as sent.
    tellSender: (type: string) => {
      const { d, m } = kernel.atHead;
      const notice = { type, peer: kernel.names[m.to], event: m.event } as EventObject;
      kernel.sendWithin(d, kernel.pair(m.to, m.from).key, m.to, m.from, notice, false, true, 0, hashOf(notice), true);
    },
  }))(this);

  /** A search releases the messages a reorder held back on a link, once only they keep the world awake. */
  private release(s: KernelState, key: string, log: StepLog): KernelState {
    const d = this.draft(s, log);
    const l = d.link(key)!;
    const released = l.held.map((m) => m.within(s.now + this.options.latencyTicksMin, s.now + this.options.latencyTicksMax));
    d.setLink(key, [...l.msgs, ...released], []);
    return d.freeze();
  }

  // ---- crashes, restores, skews ----

  /**
   * Crashes a component now: its timers and the messages it held back die, what is on its way to
   * it is dropped (it travels on connections that die with it: delivered after a restart, a late
   * reply would answer a request the new incarnation never made), peers are told as a server
   * learns of a dropped connection (behind what the component had already sent, so a commit
   * already on the wire still lands), and it restarts after its delay.
   */
  private crash(d: Draft, i: number, window: string, log: StepLog): void {
    const name = this.names[i]!;
    log.trace?.(d.now, name, 'crash', { window });
    d.comps[i] = d.comps[i]!.withDown(true, d.now + (this.components[i]!.restartDelayTicks ?? this.options.restartDelayTicks));
    const heldLinks = d.links.filter((l) => l.held.length > 0).sort((a, b) => a.heldSince - b.heldSince);
    for (const l of heldLinks) {
      if (l.held[0]!.from !== i) continue;
      for (const m of l.held) log.trace?.(d.now, this.names[m.to]!, 'drop', { from: name, event: m.event, reason: 'sender crashed' });
      d.setLink(l.key, l.msgs, []);
    }
    this.dropOnItsWay(d, i, 'receiver crashed', log);
    // What it had already sent still lands, but on connections whose far end is gone (Msg.orphan).
    for (const l of d.links.slice()) {
      if (l.msgs.some((m) => m.from === i && !m.orphan)) d.setLink(l.key, l.msgs.map((m) => (m.from === i ? m.orphaned() : m)), l.held);
    }
    // A search leaves out the notice to a component whose machine never handles one: delivering
    // it would change nothing but its link, and each such notice, deliverable in any order with
    // the rest, would double the states every crash leads to.
    for (let p = 0; p < this.components.length; p++) {
      if (p === i || (d.exact === undefined && !this.options.everyNotice && !this.hearsCrash[p])) continue;
      this.send(d, i, p, { type: 'sys.peerCrashed', peer: name } as EventObject, false, true, log, undefined);
    }
    if (d.exact !== undefined) d.comps[i] = d.comps[i]!.withDown(true, d.comps[i]!.restartAt, d.seq());
  }

  /**
   * Restores a component (and those the design restores with it, at the same moment, each to its
   * own snapshot): it goes down as in a crash and restarts from the durable state its snapshot
   * gives. One already down restarts from the snapshot when its restart comes.
   */
  private restore(d: Draft, i: number, window: string, log: StepLog): void {
    for (const j of [i, ...(this.components[i]!.restoresWith ?? []).map((n) => this.names.indexOf(n))]) {
      const comp = d.comps[j];
      if (comp === undefined) continue;
      const restore = this.components[j]!.restore;
      if (restore === undefined) throw new Error(`${this.names[j]} declares no snapshot to restore`);
      d.comps[j] = comp.withRestoreTo(restore(comp.snapshot.context.durable, d.now));
      log.trace?.(d.now, this.names[j]!, 'restore', { window });
      if (!comp.down) this.crash(d, j, window, log);
    }
  }

  /** A skew: the component is told its clock jumps its declared skew further ahead (skews add up). */
  private skew(d: Draft, i: number, log: StepLog): void {
    const ticks = this.components[i]!.skewTicks;
    if (ticks === undefined) throw new Error(`${this.names[i]} declares no clock skew`);
    log.trace?.(d.now, this.names[i]!, 'skew', { ticks });
    const skew = { type: 'sys.clockSkew', ticks } as EventObject;
    this.deliverTo(d, i, skew, this.options.exact ? undefined : hashOf(skew), undefined, log);
  }

  /** A component's window name for a state, made once. */
  private windowNameOf(i: number, state: string): string {
    const names = this.windowNames[i]!;
    let name = names.get(state);
    if (name === undefined) names.set(state, (name = windowName(this.names[i]!, state)));
    return name;
  }
}

// The world of the exhaustive search: the same components, steppers and conventions as the
// World (src/world.ts), but every state is an immutable value and every step is a choice, so a
// search can branch at each one. Where the World draws each message's latency from the seed and
// strikes faults at planned occurrences, here:
// - a message in flight has a delivery window, from its send plus the least latency to its send
//   plus the most; a link delivers in order, so only its head can be delivered (a request sent
//   `unordered` travels on a connection of its own, as in the World);
// - time is discrete, and advancing the clock is itself a choice: to the next moment something
//   can happen (the next tick while a message may land), never past a head message's deadline,
//   a due timer or a due restart (timers fire exactly when due, and the order of everything due
//   at one moment is free);
// - a fault is a choice too, while the budget lasts: crash any live process where it rests, or
//   lose, duplicate, delay or reorder a link's head message where the link can suffer that kind.
//   A server that can crash (ComponentSpec.crashes) has its windows inside a step, so its crash
//   is a delivery to it (or a timer of it) that stops at one of the window marks that step
//   reaches: the actions before the mark happen, those after it (the replies) do not, a mark
//   that says `undone` takes the server back to its snapshot before the step, and on restart it
//   is given the sessions the crash broke, all as the World does (src/world.ts, serverWindow).
//   A reordered message waits for the next message sent on its link and goes right behind it; if
//   nothing else is left to happen, it is released, as the World releases it at the heal. Where
//   a design declares them, a restore sets a component back to its snapshot (it goes down as in
//   a crash and restarts from the durable state its snapshot gives) and a skew tells a resting
//   process that its clock jumped, as in the World;
// - a path ends when the world is quiet (the one rule of src/quiet.ts, measured from the later of
//   the last durable change and the last fault), or is stuck when it is not quiet a liveness phase after its last
//   fault (after the start when it has none), or when nothing is left to happen while some
//   process still waits.
// Actions are performed as the World performs them (send, note, delayed raise, cancel), and a
// crash notifies every peer through the link behind what the crashed component had sent;
// test/check/worldAsChoices.test.ts replays World runs as choice paths to hold the two to the
// same semantics.
//
// States share structure: a step copies the component and link it changes and keeps the rest,
// and each component's and link's hash is computed once, so hashing a successor costs what
// changed (src/check/stateHash.ts).
import type { EventObject } from 'xstate';
import type { ExecutedAction } from '../compiledMachine.ts';
import { windowName, pointName } from '../place.ts';
import type { DesignComponent } from '../scenario.ts';
import { linkFaults } from '../scenario.ts';
import { stepperFor, type Driver, type MachineSnapshot, type Stepper } from '../stepper.ts';
import type { TraceKind } from '../trace.ts';
import { windowMarkOf, type WindowEmitted } from '../emitted.ts';
import { brokenSessions, stateKey } from '../world.ts';
import type { MessageFaultKind } from '../faults.ts';
import { Hasher, hashOf, type Hash64 } from './stateHash.ts';
import { eventHashesOf, TransitionCache } from './transitionCache.ts';
import { SearchState } from './searchState.ts';
import { isQuiet } from '../quiet.ts';

export interface CheckWorldOptions {
  readonly latencyTicksMin: number;
  readonly latencyTicksMax: number;
  readonly delayFaultTicks: number;
  readonly restartDelayTicks: number;
  readonly livenessTicksMax: number;
  readonly quietTicks: number;
  /** At most this many faults in one path. */
  readonly faults: number;
  /** Which faults may strike: crash, restore and skew where declared, and the message faults a link allows. */
  readonly crash: boolean;
  readonly restore: boolean;
  readonly skew: boolean;
  readonly messageFaults: readonly MessageFaultKind[];
  readonly driver: Driver;
  /** Remember each component's steps (default true); off, every step is worked out anew. */
  readonly transitionCache?: boolean;
}

interface Timer {
  readonly id: string;
  readonly due: number;
  readonly delay: number;
  readonly event: EventObject;
  /** The event's hash, worked out once when the timer is set: the transition cache's key. */
  readonly eh: Hash64;
}

/**
 * A component's part of a state: immutable, so a step makes a new one through the `with`
 * methods and keeps the rest. One class gives every part one shape, and its hash is kept in a
 * field, worked out the first time it is asked for (a copy starts without it, so it is never stale).
 */
export class Comp {
  /** The hash `CheckWorld.compHash` worked out, once asked for. */
  h: Hash64 | undefined = undefined;
  constructor(
    readonly snapshot: MachineSnapshot,
    /** The hash of the snapshot's context, worked out with the step that made it. */
    readonly ch: Hash64,
    readonly state: string,
    readonly down: boolean,
    /** When a crashed component comes back; -1 when it is up. */
    readonly restartAt: number,
    /** Sorted by id. */
    readonly timers: readonly Timer[],
    /** The durable state a restore set it back to, for its next boot. */
    readonly restoreTo: unknown = undefined,
  ) {}

  withSnapshot(snapshot: MachineSnapshot, ch: Hash64): Comp {
    return new Comp(snapshot, ch, this.state, this.down, this.restartAt, this.timers, this.restoreTo);
  }

  /** A step's outcome: its snapshot and the state it rests in, as one part rather than two. */
  withStep(snapshot: MachineSnapshot, ch: Hash64, state: string): Comp {
    return new Comp(snapshot, ch, state, this.down, this.restartAt, this.timers, this.restoreTo);
  }

  withTimers(timers: readonly Timer[]): Comp {
    return new Comp(this.snapshot, this.ch, this.state, this.down, this.restartAt, timers, this.restoreTo);
  }

  /** Down until `restartAt` (up again when it is -1), with no timers while down. */
  withDown(down: boolean, restartAt: number): Comp {
    return new Comp(this.snapshot, this.ch, this.state, down, restartAt, down ? [] : this.timers, this.restoreTo);
  }

  withRestoreTo(restoreTo: unknown): Comp {
    return new Comp(this.snapshot, this.ch, this.state, this.down, this.restartAt, this.timers, restoreTo);
  }
}

/** A message on its way: immutable; a fault that moves its delivery window makes another. */
export class Msg {
  constructor(
    readonly from: number,
    readonly to: number,
    readonly event: EventObject,
    readonly earliest: number,
    readonly deadline: number,
    /** A connection-drop notice: no fault strikes it. */
    readonly system: boolean,
    /**
     * Which message of its point this is (1-based), for the plan a report prints; not part of the
     * state's identity. A run traced for a report numbers its messages; a search, which reports no
     * plan from its own states, leaves every one at 0 and keeps no counts.
     */
    readonly n: number,
    /** The event's hash, worked out once at the send: its link's hash and the transition cache's key use it. */
    readonly eh: Hash64,
  ) {}

  /** The same message, delivered between `earliest` and `deadline`. */
  within(earliest: number, deadline: number): Msg {
    return new Msg(this.from, this.to, this.event, earliest, deadline, this.system, this.n, this.eh);
  }
}

/** A link's messages: immutable, made anew by each step that changes it, its hash kept as a component's is. */
export class Link {
  h: Hash64 | undefined = undefined;
  constructor(
    readonly key: string,
    readonly msgs: readonly Msg[],
    /**
     * Messages a reorder holds back: each goes right behind the next message sent on the link, or,
     * when nothing else is left to happen, is released as the World releases them at the heal.
     */
    readonly held: readonly Msg[],
  ) {}
}

/** A state of the search: its clock, components, links, fault budget and progress marks (src/check/searchState.ts). */
export type CheckState = SearchState<Comp, Link>;

export type Choice =
  | { readonly kind: 'deliver'; readonly link: string }
  | { readonly kind: 'timer'; readonly comp: number; readonly id: string }
  | { readonly kind: 'restart'; readonly comp: number }
  | { readonly kind: 'advance'; readonly to: number }
  | { readonly kind: 'release'; readonly link: string }
  | { readonly kind: 'crash'; readonly comp: number; readonly at?: ServerWindow }
  /** Restore `comp` from its snapshot while process `at` rests in its window (the moment the row names). */
  | { readonly kind: 'restore'; readonly comp: number; readonly at: number }
  | { readonly kind: 'skew'; readonly comp: number }
  | { readonly kind: MessageFaultKind; readonly link: string };

/** Where inside a step a server's crash strikes: the step, and which of its window marks. */
export interface ServerWindow {
  readonly step: { readonly kind: 'deliver'; readonly link: string } | { readonly kind: 'timer'; readonly id: string };
  /** Which window mark of the step, counting from 0. */
  readonly mark: number;
  readonly window: string;
  /** Which mark of this window within the step, counting from 1: the World counts each one. */
  readonly nth: number;
}

export type FaultChoice = Extract<Choice, { kind: 'crash' | 'restore' | 'skew' | MessageFaultKind }>;

/** Whether a choice is a fault: every kind that is not one of the world's own steps (a switch, asked of every choice a search takes). */
export function isFault(c: Choice): c is FaultChoice {
  switch (c.kind) {
    case 'deliver':
    case 'timer':
    case 'restart':
    case 'advance':
    case 'release':
      return false;
    default:
      return true;
  }
}

/** What a path's end says: quiet (judge the claims), or stuck and why. */
export type PathEnd =
  | { readonly kind: 'quiet' }
  | { readonly kind: 'stuck'; readonly reason: { readonly kind: 'no quiescence'; readonly ticks: number } | { readonly kind: 'waiting'; readonly components: readonly string[] } };

/**
 * What a step did, for a traced replay and for coverage. A search leaves `trace` out, and then
 * no event's data is even built: every call site calls it as `log.trace?.(…)`.
 */
export interface StepLog {
  trace?(tick: number, component: string, kind: TraceKind, data?: unknown): void;
  /** A process entered a failure window. */
  enter(window: string): void;
}

const NO_LOG: StepLog = { enter: () => {} };

/** A component booted: its snapshot, the hashes of its context and of what it sends, and its actions. */
interface Boot {
  readonly snapshot: MachineSnapshot;
  readonly ch: Hash64;
  /** The state it rests in, as `stateKey` names it. */
  readonly state: string;
  readonly actions: readonly ExecutedAction[];
  readonly hashes: readonly (Hash64 | undefined)[];
}

/** A mutable draft of a state, made for one step and frozen into the next state. */
class Draft {
  comps: Comp[];
  links: Link[];
  lastProgress: number;
  nextUnordered: number;
  sent: readonly number[];
  private sentCopied = false;
  /** Whether messages are numbered (`Msg.n`): in a traced run (its log has a trace), not in a search. */
  readonly numbered: boolean;
  constructor(
    s: CheckState,
    readonly now: number,
    log: StepLog,
  ) {
    this.numbered = log.trace !== undefined;
    this.comps = s.comps.slice();
    this.links = s.links.slice();
    this.lastProgress = s.lastProgress;
    this.nextUnordered = s.nextUnordered;
    this.sent = s.sent;
  }

  /** The next ordinal of a point. */
  count(point: number): number {
    if (!this.sentCopied) {
      this.sent = this.sent.slice();
      this.sentCopied = true;
    }
    const counts = this.sent as number[];
    while (counts.length <= point) counts.push(0);
    return ++counts[point]!;
  }

  link(key: string): Link | undefined {
    const i = this.indexOf(key);
    return i >= 0 ? this.links[i] : undefined;
  }

  /** Replaces (or adds, or with nothing left removes) a link. */
  setLink(key: string, msgs: readonly Msg[], held: readonly Msg[]): void {
    const i = this.indexOf(key);
    const empty = msgs.length === 0 && held.length === 0;
    // Removed and inserted by hand: a splice would make an array of what it removed.
    const links = this.links;
    if (i >= 0) {
      if (!empty) links[i] = new Link(key, msgs, held);
      else {
        for (let j = i; j < links.length - 1; j++) links[j] = links[j + 1]!;
        links.pop();
      }
      return;
    }
    if (empty) return;
    let at = 0;
    while (at < links.length && links[at]!.key < key) at++;
    const link = new Link(key, msgs, held);
    links.push(link);
    for (let j = links.length - 1; j > at; j--) links[j] = links[j - 1]!;
    links[at] = link;
  }

  private indexOf(key: string): number {
    for (let i = 0; i < this.links.length; i++) if (this.links[i]!.key === key) return i;
    return -1;
  }
}

export class CheckWorld {
  readonly names: readonly string[];
  private readonly steppers: readonly Stepper[];
  /** Each component's steps, remembered: a search meets one snapshot and event again and again. */
  private readonly cache: readonly TransitionCache[];
  /**
   * By sender and receiver (`from * n + to`): the key of their link, made once so every message
   * on it names its link by the same string, and by message type, each point's id and the
   * faults its messages can suffer.
   */
  private readonly pairs: { readonly key: string; readonly points: Map<string, number>; readonly faults: Map<string, readonly MessageFaultKind[]> }[] = [];
  private points = 0;
  /** Boots remembered (`bootOf`): each component's first, and its restarts by durable state, then by broken sessions. */
  private readonly firstBoots: (Boot | undefined)[] = [];
  private readonly restartBoots: WeakMap<object, Map<string, Boot>>[];
  /** The choice that delivers a link's head, by link key, made once. */
  private readonly deliverChoices = new Map<string, Choice>();
  /** The choice that crashes each component where it rests: choices are values, made once where they can be. */
  private readonly crashChoices: readonly Choice[];
  /** The same for each component's restart, and for its timers by id. */
  private readonly restartChoices: readonly Choice[];
  private readonly timerChoices: readonly Map<string, Choice>[];
  /** Window names by component, then by state. */
  private readonly windowNames: Map<string, string>[];
  /** Kept for `hash`, `linksKey`, and the component and link hashes they ask for (never nested in one another). */
  private readonly stateHasher = new Hasher();
  private readonly partHasher = new Hasher();
  private readonly listHasher = new Hasher();

  constructor(
    readonly components: readonly DesignComponent[],
    readonly options: CheckWorldOptions,
  ) {
    this.names = components.map((c) => c.name);
    this.steppers = components.map((c) => (c.stepper ? c.stepper() : stepperFor(c.machine, c.name, c.input, options.driver).stepper));
    this.cache = components.map(() => (options.transitionCache === false ? new TransitionCache(0) : new TransitionCache()));
    this.windowNames = components.map(() => new Map());
    this.crashChoices = components.map((_, comp) => ({ kind: 'crash', comp }));
    this.restartChoices = components.map((_, comp) => ({ kind: 'restart', comp }));
    this.timerChoices = components.map(() => new Map());
    this.restartBoots = components.map(() => new WeakMap());
    for (const from of this.names) for (const to of this.names) this.pairs.push({ key: `${from}->${to}`, points: new Map(), faults: new Map() });
  }

  /** Every component booted in order at tick 0. */
  initial(log: StepLog = NO_LOG): CheckState {
    const empty: CheckState = new SearchState<Comp, Link>(0, [], [], 0, 0, -1, 0, []);
    const d = new Draft(empty, 0, log);
    for (let i = 0; i < this.components.length; i++) d.comps.push(undefined as unknown as Comp);
    for (let i = 0; i < this.components.length; i++) this.boot(d, i, undefined, log);
    return this.freeze(d, 0, -1);
  }

  /**
   * The choices a state offers, in a fixed order (deliveries, timers, restarts, the clock, a
   * release, then faults), so a path of choice indices replays the same run. Since the faults
   * come last, `faults` false gives the same list without them: a path that takes no fault
   * names the same choices in both.
   */
  choices(s: CheckState, faults = true): Choice[] {
    const out: Choice[] = [];
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
    // A held message is released once nothing but it keeps the world from quiet, as the World
    // releases it at the heal; the clock does not run on past that moment without it.
    if (held && this.quiet(s, true)) {
      for (const l of s.links) if (l.held.length > 0) out.push({ kind: 'release', link: l.key });
    } else if (!blocked && next !== Infinity) out.push({ kind: 'advance', to: next });
    if (faults && s.faults < this.options.faults) {
      if (this.options.crash) {
        for (let i = 0; i < s.comps.length; i++) if (!s.comps[i]!.down && this.components[i]!.process) out.push(this.crashChoices[i]!);
        this.serverCrashes(s, out);
      }
      // A restore strikes a component with a snapshot at the moment any live process rests in its
      // window (the World strikes it as a process enters one), whether the component is up or
      // already down (then it restarts from the snapshot); a skew, a resting process whose clock
      // can jump.
      if (this.options.restore) {
        for (let i = 0; i < s.comps.length; i++) {
          if (!this.components[i]!.restore) continue;
          for (let p = 0; p < s.comps.length; p++) if (this.components[p]!.process && !s.comps[p]!.down) out.push({ kind: 'restore', comp: i, at: p });
        }
      }
      if (this.options.skew) for (let i = 0; i < s.comps.length; i++) if (this.components[i]!.skewTicks !== undefined && this.components[i]!.process && !s.comps[i]!.down) out.push({ kind: 'skew', comp: i });
      if (this.options.messageFaults.length > 0) this.messageFaultChoices(s, out);
    }
    return out;
  }

  private timerChoice(comp: number, id: string): Choice {
    const byId = this.timerChoices[comp]!;
    let c = byId.get(id);
    if (c === undefined) {
      c = { kind: 'timer', comp, id };
      byId.set(id, c);
    }
    return c;
  }

  private deliverChoice(link: string): Choice {
    let c = this.deliverChoices.get(link);
    if (c === undefined) {
      c = { kind: 'deliver', link };
      this.deliverChoices.set(link, c);
    }
    return c;
  }

  /** A message fault of every kind each link head may suffer. */
  private messageFaultChoices(s: CheckState, out: Choice[]): void {
    for (const l of s.links) {
      const m = l.msgs[0];
      if (m === undefined || m.system || m.earliest > s.now) continue;
      // A request on a connection of its own has no order to break: its window already lets
      // it arrive before or after anything else.
      const own = l.key.includes('#');
      for (const kind of this.linkFaults(m.from, m.to, m.event.type)) if (!(own && kind === 'reorder')) out.push({ kind, link: l.key });
    }
  }

  /** The state after a choice. */
  apply(s: CheckState, c: Choice, log: StepLog = NO_LOG): CheckState {
    switch (c.kind) {
      case 'advance':
        return s.at(c.to);
      case 'deliver': {
        const d = new Draft(s, s.now, log);
        this.deliverMsg(d, this.shift(d, c.link), log);
        return this.freeze(d, s.faults, s.lastFault);
      }
      case 'timer': {
        const d = new Draft(s, s.now, log);
        const comp = d.comps[c.comp]!;
        const t = comp.timers.find((x) => x.id === c.id)!;
        d.comps[c.comp] = comp.withTimers(comp.timers.filter((x) => x !== t));
        log.trace?.(s.now, this.names[c.comp]!, 'timer', t.event.type);
        this.deliverTo(d, c.comp, t.event, t.eh, undefined, log);
        return this.freeze(d, s.faults, s.lastFault);
      }
      case 'restart': {
        const d = new Draft(s, s.now, log);
        const comp = d.comps[c.comp]!;
        d.comps[c.comp] = comp.withDown(false, -1);
        log.trace?.(s.now, this.names[c.comp]!, 'restart');
        this.boot(d, c.comp, comp.restoreTo ?? comp.snapshot.context.durable, log, brokenSessions(this.components[c.comp]!, comp.snapshot.context));
        return this.freeze(d, s.faults, s.lastFault);
      }
      case 'release': {
        const d = new Draft(s, s.now, log);
        const l = d.link(c.link)!;
        const released = l.held.map((m) => m.within(s.now + this.options.latencyTicksMin, s.now + this.options.latencyTicksMax));
        d.setLink(c.link, [...l.msgs, ...released], []);
        return this.freeze(d, s.faults, s.lastFault);
      }
      case 'crash': {
        const d = new Draft(s, s.now, log);
        if (c.at !== undefined) {
          const { event, eh, from } = this.takeStep(d, c.comp, c.at.step, log);
          this.deliverTo(d, c.comp, event, eh, from, log, c.at);
        } else this.crash(d, c.comp, this.windowNameOf(c.comp, d.comps[c.comp]!.state), log);
        return this.freeze(d, s.faults + 1, s.now);
      }
      case 'restore': {
        const d = new Draft(s, s.now, log);
        const window = this.windowOf(s, c.at);
        log.trace?.(d.now, 'world', 'fault', { kind: 'restore', component: this.names[c.comp], window });
        // The component and those restored with it, at the same moment, each to its own snapshot.
        for (const i of [c.comp, ...(this.components[c.comp]!.restoresWith ?? []).map((n) => this.names.indexOf(n))]) {
          const comp = d.comps[i]!;
          log.trace?.(d.now, this.names[i]!, 'restore', { window });
          d.comps[i] = comp.withRestoreTo(this.components[i]!.restore!(comp.snapshot.context.durable, d.now));
          if (!comp.down) this.crash(d, i, window, log, false);
        }
        return this.freeze(d, s.faults + 1, s.now);
      }
      case 'skew': {
        const d = new Draft(s, s.now, log);
        const ticks = this.components[c.comp]!.skewTicks!;
        log.trace?.(d.now, 'world', 'fault', { kind: 'skew', window: this.windowNameOf(c.comp, d.comps[c.comp]!.state) });
        log.trace?.(d.now, this.names[c.comp]!, 'skew', { ticks });
        const skew = { type: 'sys.clockSkew', ticks } as EventObject;
        this.deliverTo(d, c.comp, skew, hashOf(skew), undefined, log);
        return this.freeze(d, s.faults + 1, s.now);
      }
      default:
        return this.messageFault(s, c.kind, c.link, log);
    }
  }

  /** Whether a path ends here, and how. */
  end(s: CheckState, choices: readonly Choice[]): PathEnd | undefined {
    if (this.quiet(s, false)) return { kind: 'quiet' };
    if (s.now > Math.max(s.lastFault, 0) + this.options.livenessTicksMax) return { kind: 'stuck', reason: { kind: 'no quiescence', ticks: this.options.livenessTicksMax } };
    if (choices.every(isFault)) {
      const waiting = s.comps.flatMap((c, i) => (this.components[i]!.process && !c.down && !c.snapshot.hasTag('idle') ? [this.windowNameOf(i, c.state)] : []));
      return waiting.length === 0 ? { kind: 'quiet' } : { kind: 'stuck', reason: { kind: 'waiting', components: waiting } };
    }
    return undefined;
  }

  /** Every component's durable context. */
  durable(s: CheckState): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    s.comps.forEach((c, i) => (out[this.names[i]!] = c.snapshot.context?.durable));
    return out;
  }

  /** The hash of every component's durable context: equal end states judge equal. */
  durableHash(s: CheckState): Hash64 {
    const x = new Hasher();
    for (const c of s.comps) x.value(c.snapshot.context?.durable);
    return x.digest();
  }

  /** Messages on their way, head first, then those a reorder holds back, as the World's strikes list them. */
  inFlight(s: CheckState): { from: string; to: string; event: EventObject }[] {
    const out = [];
    for (const l of s.links) for (const m of l.msgs) if (!m.system) out.push({ from: this.names[m.from]!, to: this.names[m.to]!, event: m.event });
    for (const l of s.links) for (const m of l.held) out.push({ from: this.names[m.from]!, to: this.names[m.to]!, event: m.event });
    return out;
  }

  /** The window a process rests in, for a crash choice. */
  windowOf(s: CheckState, comp: number): string {
    return this.windowNameOf(comp, s.comps[comp]!.state);
  }

  /** The message point of a link's head, and which of its point it is, for a message-fault choice. */
  pointOf(s: CheckState, link: string): { point: string; occurrence: number } {
    const m = s.links.find((l) => l.key === link)!.msgs[0]!;
    return { point: pointName(this.names[m.from]!, this.names[m.to]!, m.event.type), occurrence: m.n };
  }

  /**
   * The state's identity for the visited set: everything its future depends on (every
   * snapshot's state and context, timers, restarts, every message and its window, the clock and
   * the fault budget), and `extra`, which the search uses to keep apart paths it reports apart.
   */
  hash(s: CheckState, extra = 0): Hash64 {
    this.hashLanes(s, extra);
    return [this.hashHi, this.hashLo];
  }

  /**
   * `hash` without the pair: its lanes are left in `hashHi` and `hashLo`. The search hashes every
   * successor and keeps fewer than half of them, so its loop allocates no pair for the rest.
   */
  hashLanes(s: CheckState, extra = 0): void {
    const x = this.stateHasher.reset().word(s.now).word(s.faults).word(s.lastProgress).word(s.lastFault).word(s.nextUnordered).word(extra);
    for (const c of s.comps) x.hash(this.compHash(c));
    x.word(s.links.length);
    for (const l of s.links) x.hash(this.linkHash(l));
    this.hashHi = x.digestHi();
    this.hashLo = x.digestLo();
  }

  /** The lanes `hashLanes` left. */
  hashHi = 0;
  hashLo = 0;

  /** A component's share of `hash`: the breadth-first level takes two with equal hashes for one. */
  compHash(c: Comp): Hash64 {
    let h = c.h;
    if (h === undefined) {
      const x = this.partHasher.reset().value(c.state).hash(c.ch).word(c.down ? 1 : 0).word(c.restartAt).word(c.timers.length);
      if (c.restoreTo !== undefined) x.value(c.restoreTo);
      for (const t of c.timers) x.value(t.id).word(t.due).word(t.delay);
      h = c.h = x.digest();
    }
    return h;
  }

  /**
   * A 64-bit key over every field of a link list, each message's ordinal too (which `hash`
   * leaves out): a breadth-first level takes two lists with equal keys for one.
   */
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
      for (const m of l.msgs) x.hash(m.eh).word(m.earliest).word(m.deadline).word(m.system ? 1 : 0);
      for (const m of l.held) x.hash(m.eh).word(m.earliest).word(m.deadline);
      h = l.h = x.digest();
    }
    return h;
  }

  /**
   * A crash for every window mark each step open to a crashing server would reach: its link
   * heads that may land now, then its due timers. The step is run once to find its marks.
   */
  private serverCrashes(s: CheckState, out: Choice[]): void {
    const offer = (comp: number, step: ServerWindow['step'], event: EventObject, eh: Hash64, from: string | undefined) => {
      const marks = this.marksOf(s.comps[comp]!.snapshot, comp, event, eh, from, s.now);
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

  /** The window marks a server's step reaches, in order; the step itself is thrown away. */
  private marksOf(snapshot: MachineSnapshot, i: number, event: EventObject, eh: Hash64, from: string | undefined, at: number): WindowEmitted[] {
    const { actions } = this.cache[i]!.step(this.steppers[i]!, snapshot, event, from, at, undefined, eh);
    const marks: WindowEmitted[] = [];
    for (const a of actions) {
      const e = windowMarkOf(a);
      if (e !== undefined) marks.push(e);
    }
    return marks;
  }

  /** Takes a delivery's message off its link, or a due timer off its component, as the plain step does; the event it delivers, and its sender. */
  private takeStep(d: Draft, i: number, step: ServerWindow['step'], log: StepLog): { event: EventObject; eh: Hash64; from: string | undefined } {
    if (step.kind === 'deliver') {
      const m = this.shift(d, step.link);
      const from = this.names[m.from]!;
      log.trace?.(d.now, this.names[i]!, 'deliver', { from, event: m.event });
      return { event: m.event, eh: m.eh, from };
    }
    const comp = d.comps[i]!;
    const t = comp.timers.find((x) => x.id === step.id)!;
    d.comps[i] = comp.withTimers(comp.timers.filter((x) => x !== t));
    log.trace?.(d.now, this.names[i]!, 'timer', t.event.type);
    return { event: t.event, eh: t.eh, from: undefined };
  }

  /**
   * Crashes a component: its timers and held messages die, what is on its way to it is dropped,
   * peers are told, and it restarts after its delay.
   */
  private crash(d: Draft, i: number, window: string, log: StepLog, fault = true): void {
    const name = this.names[i]!;
    const comp = d.comps[i]!;
    if (fault) log.trace?.(d.now, 'world', 'fault', { kind: 'crash', window });
    log.trace?.(d.now, name, 'crash', { window });
    d.comps[i] = comp.withDown(true, d.now + (this.components[i]!.restartDelayTicks ?? this.options.restartDelayTicks));
    // A crashed sender's held messages die with its connections, as in the World.
    for (const l of d.links.slice()) {
      if (l.held.length === 0 || l.held[0]!.from !== i) continue;
      for (const m of l.held) log.trace?.(d.now, this.names[m.to]!, 'drop', { from: name, event: m.event, reason: 'sender crashed' });
      d.setLink(l.key, l.msgs, []);
    }
    // What is on its way to it travels on connections that die with it, as in the World.
    for (const l of d.links.slice()) {
      const stale = [...l.msgs, ...l.held].filter((m) => m.to === i);
      if (stale.length === 0) continue;
      for (const m of stale) log.trace?.(d.now, name, 'drop', { from: this.names[m.from]!, event: m.event, reason: 'receiver crashed' });
      d.setLink(l.key, [], []);
    }
    // Peers learn of the crash as a dropped connection, behind what it had already sent.
    for (let p = 0; p < this.components.length; p++) if (p !== i) this.send(d, i, p, { type: 'sys.peerCrashed', peer: name } as EventObject, false, true);
  }

  private messageFault(s: CheckState, kind: MessageFaultKind, key: string, log: StepLog): CheckState {
    const d = new Draft(s, s.now, log);
    const l = d.link(key)!;
    const m = l.msgs[0]!;
    const from = this.names[m.from]!;
    log.trace?.(s.now, 'world', 'fault', { kind, point: pointName(from, this.names[m.to]!, m.event.type) });
    log.trace?.(s.now, from, kind, { to: this.names[m.to], event: m.event });
    const rest = l.msgs.slice(1);
    if (kind === 'lose') {
      d.setLink(key, rest, l.held);
    } else if (kind === 'duplicate') {
      // The first copy arrives now; the second is right behind it and due at once.
      d.setLink(key, [m.within(s.now, s.now), ...rest], l.held);
      this.deliverMsg(d, m, log);
    } else if (kind === 'rebalance') {
      // The message is delivered as sent; its sender hears at once that the receiver's share of
      // the work moved to another member (the World sends the notice at the send tick, which with
      // the default zero latency is this tick too).
      this.send(d, m.to, m.from, { type: 'sys.rebalance', peer: this.names[m.to], event: m.event } as EventObject, false, true, true);
    } else if (kind === 'delay') {
      const delay = this.options.delayFaultTicks;
      d.setLink(key, [m.within(m.earliest + delay, m.deadline + delay), ...rest], l.held);
    } else if (rest.length > 0) {
      // The next message is already on its way: the held one goes right behind it.
      const next = rest[0]!;
      d.setLink(key, [next, m.within(next.earliest, Math.max(m.deadline, next.deadline)), ...rest.slice(1)], l.held);
    } else {
      d.setLink(key, rest, [...l.held, m]);
    }
    return this.freeze(d, s.faults + 1, s.now);
  }

  /** Quiet, by the rule the World asks too (src/quiet.ts); `ignoreHeld` asks whether only held messages keep the world from quiet. */
  private quiet(s: CheckState, ignoreHeld: boolean): boolean {
    this.quietOf.s = s;
    return isQuiet(this.quietOf, this.options, ignoreHeld);
  }

  /** What the quiet rule reads of a state: one object, pointed at the state asked about. */
  private readonly quietOf = ((world: CheckWorld) => {
    const subject = {
      s: undefined as unknown as CheckState,
      get now() {
        return subject.s.now;
      },
      // A check has no heal: after its last fault, the path is its liveness phase.
      get since() {
        return Math.max(subject.s.lastProgress, subject.s.lastFault);
      },
      carrying: (ignoreHeld: boolean) => subject.s.links.some((l) => l.msgs.length > 0 || (!ignoreHeld && l.held.length > 0)),
      get components() {
        return subject.s.comps.length;
      },
      isDown: (i: number) => subject.s.comps[i]!.down,
      isIdle: (i: number) => subject.s.comps[i]!.snapshot.hasTag('idle'),
      isProcess: (i: number) => world.components[i]!.process,
      timerCount: (i: number) => subject.s.comps[i]!.timers.length,
      timerSet: (i: number, k: number) => {
        const t = subject.s.comps[i]!.timers[k]!;
        return t.due - t.delay;
      },
      timerDelay: (i: number, k: number) => subject.s.comps[i]!.timers[k]!.delay,
    };
    return subject;
  })(this);

  private linkFaults(from: number, to: number, type: string): readonly MessageFaultKind[] {
    const byType = this.pairs[from * this.names.length + to]!.faults;
    let kinds = byType.get(type);
    if (kinds === undefined) {
      kinds = linkFaults(this.components, this.names[from]!, this.names[to]!, type).filter((k) => this.options.messageFaults.includes(k));
      byType.set(type, kinds);
    }
    return kinds;
  }

  private shift(d: Draft, key: string): Msg {
    const l = d.link(key)!;
    d.setLink(key, l.msgs.slice(1), l.held);
    return l.msgs[0]!;
  }

  private deliverMsg(d: Draft, m: Msg, log: StepLog): void {
    const from = this.names[m.from]!;
    const to = this.names[m.to]!;
    if (d.comps[m.to]!.down) {
      log.trace?.(d.now, to, 'drop', { from, event: m.event });
      return;
    }
    log.trace?.(d.now, to, 'deliver', { from, event: m.event });
    this.deliverTo(d, m.to, m.event, m.eh, from, log);
  }

  private boot(d: Draft, i: number, durable: unknown, log: StepLog, broken?: readonly string[]): void {
    const { snapshot, ch, state, actions, hashes } = this.bootOf(i, durable, broken);
    // A boot uses up a restore: the restored state is now the component's own. It enters its
    // state from none.
    d.comps[i] = new Comp(snapshot, ch, state, false, -1, []);
    this.afterStep(d, i, undefined, '', state, false, actions, hashes, log);
  }

  /**
   * Component `i` booted from its input, or restarted from `durable` with the sessions a crash
   * broke. A boot is a pure function of these, so it is remembered as a step is: the same boot
   * gives the very same snapshot object, and the steps that follow it are found in the
   * transition cache (a replay from the start, or a restart in another path, meets them again).
   */
  private bootOf(i: number, durable: unknown, broken: readonly string[] | undefined): Boot {
    if (durable === undefined) return (this.firstBoots[i] ??= this.newBoot(i, this.components[i]!.input));
    const input = { ...this.components[i]!.input, durable, ...(broken === undefined ? {} : { broken }) };
    if (typeof durable !== 'object' || durable === null) return this.newBoot(i, input);
    let byBroken = this.restartBoots[i]!.get(durable);
    if (byBroken === undefined) {
      byBroken = new Map();
      this.restartBoots[i]!.set(durable, byBroken);
    }
    const key = broken === undefined ? '' : JSON.stringify(broken);
    let boot = byBroken.get(key);
    if (boot === undefined) {
      boot = this.newBoot(i, input);
      byBroken.set(key, boot);
    }
    return boot;
  }

  private newBoot(i: number, input: Record<string, unknown> | undefined): Boot {
    const actions: ExecutedAction[] = [];
    const snapshot = this.steppers[i]!.initial(input, actions);
    return { snapshot, ch: hashOf(snapshot.context), state: stateKey(snapshot.value), actions, hashes: eventHashesOf(actions) };
  }

  /** Steps component `i` on `event`, stamped with the clock and, for a message, its sender. */
  private deliverTo(d: Draft, i: number, event: EventObject, eh: Hash64, from: string | undefined, log: StepLog, crashAt?: ServerWindow): void {
    const comp = d.comps[i]!;
    const step = this.cache[i]!.step(this.steppers[i]!, comp.snapshot, event, from, d.now, undefined, eh);
    const next = step.next;
    if (next.status === 'error') throw new Error(`${this.names[i]} failed on ${event.type} in state ${comp.state}: ${String(next.error)}`);
    const state = step.state;
    const reentered = this.components[i]!.process && state === comp.state && step.reentered;
    // A crash inside the step stops it before its state is reached; otherwise the part takes
    // its snapshot and state at once.
    d.comps[i] = crashAt === undefined ? comp.withStep(next, step.contextHash, state) : comp.withSnapshot(next, step.contextHash);
    this.afterStep(d, i, comp, comp.state, state, reentered, step.actions, step.eventHashes, log, crashAt);
  }

  /**
   * The step's actions performed (up to a crash's window mark), and the state it entered, `state`
   * (already in the component's part), recorded where it differs from `before` or was re-entered.
   */
  private afterStep(d: Draft, i: number, prev: Comp | undefined, before: string, state: string, reentered: boolean, actions: readonly ExecutedAction[], hashes: readonly (Hash64 | undefined)[], log: StepLog, crashAt?: ServerWindow): void {
    const name = this.names[i]!;
    if (prev === undefined || prev.snapshot.context.durable !== d.comps[i]!.snapshot.context.durable) d.lastProgress = d.now;
    if (crashAt !== undefined) return this.crashInStep(d, i, prev, actions, hashes, crashAt, log);
    for (let k = 0; k < actions.length; k++) this.perform(d, i, actions[k]!, hashes[k], log);
    if (state === before && !reentered) return;
    log.trace?.(d.now, name, 'state', state);
    if (this.components[i]!.process) log.enter(this.windowNameOf(i, state));
  }

  /**
   * Performs a server's step up to the window mark its crash strikes at, then crashes it there,
   * as the World's serverWindow does: the mark is entered, the actions after it are never
   * performed, and a mark whose change is `undone` puts back the snapshot before the step.
   */
  private crashInStep(d: Draft, i: number, prev: Comp | undefined, actions: readonly ExecutedAction[], hashes: readonly (Hash64 | undefined)[], at: ServerWindow, log: StepLog): void {
    let k = 0;
    for (let j = 0; j < actions.length; j++) {
      const a = actions[j]!;
      const mark = windowMarkOf(a);
      if (mark === undefined || k++ < at.mark) {
        this.perform(d, i, a, hashes[j], log);
        continue;
      }
      log.enter(at.window);
      if (mark.undone && prev !== undefined) d.comps[i] = d.comps[i]!.withSnapshot(prev.snapshot, prev.ch);
      return this.crash(d, i, at.window, log);
    }
    // The marks were found by running this very step, and steps are deterministic.
    throw new Error(`${this.names[i]}'s step reached no window mark ${at.mark} (${at.window}) on a second run`);
  }

  /** Performs an action; `eh` is the hash of the event it sends or sets a timer for, when known. */
  private perform(d: Draft, i: number, action: ExecutedAction, eh: Hash64 | undefined, log: StepLog): void {
    const name = this.names[i]!;
    switch (action.type) {
      case 'xstate.emit': {
        const e = (action.params as { event: { type: string; to?: string; event?: EventObject; kind?: string; data?: unknown; unordered?: boolean; state?: string } }).event;
        if (e.type === 'send') {
          const to = this.names.indexOf(e.to ?? '');
          if (to < 0 || !e.event) throw new Error(`${name} sent ${e.event?.type} to unknown component ${e.to}`);
          this.send(d, i, to, e.event, e.unordered === true, false, false, eh);
        } else if (e.type === 'note') {
          log.trace?.(d.now, name, 'note', { kind: e.kind, ...(e.data === undefined ? {} : { data: e.data }) });
        } else if (e.type === 'window' && this.crashingServer(i)) {
          // A crashing server's window is entered as its step reaches it, as the World counts it.
          log.enter(this.windowNameOf(i, e.state!));
        }
        return;
      }
      case 'xstate.raise': {
        const { event, id, delay } = action.params as { event: EventObject; id?: string; delay?: number };
        if (delay === undefined) return;
        if (id === undefined) throw new Error(`${name} raised a delayed ${event.type} without an id; the exhaustive search needs every timer named`);
        const comp = d.comps[i]!;
        const timers = comp.timers.filter((t) => t.id !== id);
        timers.push({ id, due: d.now + delay, delay, event, eh: eh ?? hashOf(event) });
        timers.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
        d.comps[i] = comp.withTimers(timers);
        return;
      }
      case 'xstate.cancel': {
        const { sendId } = action.params as { sendId: string };
        const comp = d.comps[i]!;
        if (comp.timers.some((t) => t.id === sendId)) d.comps[i] = comp.withTimers(comp.timers.filter((t) => t.id !== sendId));
        return;
      }
      default:
        throw new Error(`${name} asked for action ${action.type}, which the World does not perform; emit send/note instead`);
    }
  }

  private send(d: Draft, from: number, to: number, event: EventObject, unordered: boolean, system: boolean, now = false, eh: Hash64 = hashOf(event)): void {
    const pair = this.pairs[from * this.names.length + to]!.key;
    const key = unordered ? `${pair}#${d.nextUnordered++}` : pair;
    const n = system || !d.numbered ? 0 : d.count(this.pointId(from, to, event.type));
    const earliest = now ? d.now : d.now + this.options.latencyTicksMin;
    const deadline = now ? d.now : d.now + this.options.latencyTicksMax;
    const m = new Msg(from, to, event, earliest, deadline, system, n, eh);
    const l = d.link(key);
    if (l === undefined) return d.setLink(key, [m], []);
    if (l.held.length === 0) return d.setLink(key, [...l.msgs, m], l.held);
    // Messages a reorder held back go right behind this one, in its window.
    const held = l.held.map((h) => h.within(m.earliest, m.deadline));
    d.setLink(key, [...l.msgs, m, ...held], []);
  }

  /** A component's window name for a state, made once: a search enters the same windows again and again. */
  private windowNameOf(i: number, state: string): string {
    const names = this.windowNames[i]!;
    let name = names.get(state);
    if (name === undefined) {
      name = windowName(this.names[i]!, state);
      names.set(state, name);
    }
    return name;
  }

  private pointId(from: number, to: number, type: string): number {
    const byType = this.pairs[from * this.names.length + to]!.points;
    let id = byType.get(type);
    if (id === undefined) {
      id = this.points++;
      byType.set(type, id);
    }
    return id;
  }

  private freeze(d: Draft, faults: number, lastFault: number): CheckState {
    return new SearchState(d.now, d.comps, d.links, faults, d.lastProgress, lastFault, d.nextUnordered, d.sent);
  }
}


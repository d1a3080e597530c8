// What a fault kind can see of a running world and do to it. The kernel (src/kernel/kernel.ts)
// knows the rules of a step and offers them here as a few primitives: crash a component, crash a
// server inside its step, restore one from its snapshot, jump its clock, and, for a message,
// drop it, hold it back, make it late, land it twice or tell its sender. Each kind
// (src/faults/kinds/) says with them what it does, which choices a search is offered, and what
// plan entry a chosen fault is, so a kind's whole story is its one file; the kernel holds no list
// of kinds.

/** Where inside a step a server's crash strikes: the step, and which of its window marks. */
export interface ServerWindow {
  readonly step: { readonly kind: 'deliver'; readonly link: string } | { readonly kind: 'timer'; readonly id: string };
  /** Which window mark of the step, counting from 0. */
  readonly mark: number;
  readonly window: string;
  /** Which mark of this window within the step, counting from 1: each one counts. */
  readonly nth: number;
}

/** A crash a search may choose inside a server's step. */
export type ServerCrashChoice = { readonly kind: 'crash'; readonly comp: number; readonly at: ServerWindow };

/** A message fault a search may choose: it strikes the head of one link. */
export type MessageChoiceOf<K extends string> = { readonly kind: K; readonly link: string };

/** What a kind reads of a state, to offer its choices and to name a chosen fault as a plan entry. */
export interface WorldView {
  /** How many components the design has, numbered in design order. */
  readonly components: number;
  /** Whether component `i` is a process that is up: one resting in a window a fault can strike at. */
  liveProcess(i: number): boolean;
  /** Whether component `i` declares a snapshot a restore sets it back to. */
  restorable(i: number): boolean;
  /** Whether component `i` declares a clock that can jump. */
  skewable(i: number): boolean;
  /** The name of component `i`. */
  name(i: number): string;
  /** The window component `i` rests in now. */
  windowOf(i: number): string;
  /** Every place inside a step a crashing server that is up could be stopped at now, as crash choices. */
  serverCrashes(out: ServerCrashChoice[]): void;
}

/** What a window fault can do to a component, now. */
export interface WindowOps {
  /** Component `i` crashes at `window`: its volatile context is lost, and it restarts after its delay. */
  crash(i: number, window: string): void;
  /** A crashing server takes the step `at` names and crashes at its mark. */
  crashInStep(i: number, at: ServerWindow): void;
  /** Component `i` (and those it is restored with) goes back to its snapshot, at the moment `window` names. */
  restore(i: number, window: string): void;
  /** Component `i`'s clock jumps ahead by its declared skew. */
  skew(i: number): void;
  /** Whether component `i` has booted yet (components boot in design order). */
  booted(i: number): boolean;
  /** Whether component `i` is down (crashed, not yet restarted). */
  down(i: number): boolean;
  /** The component of that name, or -1. */
  indexOf(name: string): number;
  /** Records that a search chose this fault, named by its place: the trace names it before what it does. */
  chosen(place: Readonly<Record<string, unknown>>): void;
  /** Records that the plan's entry being struck strikes now, before what it does; an entry that finds nothing to strike records nothing. */
  struck(): void;
}

/**
 * What a message fault can do to the message it strikes: at its send, where a plan names it (the
 * World), or as it heads its link, where a search chose it. The two timings give each primitive
 * the same meaning: the message never lands; it waits behind the next one sent on its link; it
 * lands `ticks` later than it would have; it lands, with a copy right behind it; its sender hears
 * at once, with a system event of this type, that its work went elsewhere.
 */
export interface MessageOps {
  drop(): void;
  hold(): void;
  later(ticks: number): void;
  twice(): void;
  tellSender(type: string): void;
  /** How much later a delayed message lands (WorldOptions.delayFaultTicks). */
  readonly delayTicks: number;
}

/** A window kind's part in a running world. */
export interface WindowWorld<F, C> {
  /**
   * Where its plan entries strike among others that strike as one window is entered, lowest
   * first: a skew and a restore strike before a crash at the same moment, so a plan that pairs
   * them with a crash of the component still sees them happen.
   */
  readonly rank: number;
  /**
   * Whether a plan's entry of it also strikes a crashing server at a window mark inside its step
   * (the step is cut short at the mark and the server crashes there: WindowOps.crashInStep).
   */
  readonly insideStep: boolean;
  /** Its choices a search is offered in this state, appended to `out`. */
  offer(view: WorldView, out: C[]): void;
  /** Takes a chosen fault. */
  take(ops: WindowOps, view: WorldView, c: C): void;
  /** Strikes a plan's entry as process `i` enters `window`, calling `ops.struck` first, or does nothing where it finds nothing to strike. */
  strike(ops: WindowOps, i: number, window: string, f: F): void;
  /** A chosen fault as the plan entry a windows run would strike it by; `entered` counts the windows each was entered on its path. */
  entry(view: WorldView, c: C, entered: ReadonlyMap<string, number>): F;
}

/** A message kind's part in a running world. */
export interface MessageWorld {
  /** Whether it can strike a request that travels on a connection of its own (a reorder cannot: such a request has no order to break). */
  readonly ownConnection: boolean;
  /** What it does to the message it strikes. */
  act(ops: MessageOps): void;
}

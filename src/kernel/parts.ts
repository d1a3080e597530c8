// The parts of a world's state, each immutable: a step makes a new part for what it changes and
// keeps the rest, so states share structure, a search can branch at every step, and a run can be
// taken up again from any state it kept. A component's part holds its machine snapshot and what
// the world keeps for it (down or up, its timers, the state a restore set it back to); a link's
// part holds the messages on their way between two components, in the order they will land, and
// those a reorder holds back. Each part keeps its hash once asked for (a copy starts without it).
import type { EventObject } from 'xstate';
import type { Hash64 } from './stateHash.ts';
import type { MachineSnapshot } from './stepper.ts';

/** A timer a component set: due at `due`, set at `set` for `delay` ticks; `seq` orders it among everything due at once. */
export interface Timer {
  readonly id: string;
  readonly due: number;
  readonly delay: number;
  readonly set: number;
  readonly seq: number;
  readonly event: EventObject;
  /** The event's hash, worked out once when the timer is set, where a search needs it. */
  readonly eh: Hash64 | undefined;
}

export class Comp {
  /** The hash a search worked out, once asked for. */
  h: Hash64 | undefined = undefined;
  constructor(
    readonly snapshot: MachineSnapshot,
    /** The hash of the snapshot's context, where a search works it out with the step that made it. */
    readonly ch: Hash64 | undefined,
    readonly state: string,
    readonly down: boolean,
    /** When a crashed component comes back; -1 when it is up. */
    readonly restartAt: number,
    /** Orders its restart among everything due at the same tick. */
    readonly restartSeq: number,
    /** Sorted by id. */
    readonly timers: readonly Timer[],
    /** The durable state a restore set it back to, for its next boot. */
    readonly restoreTo: unknown = undefined,
  ) {}

  withSnapshot(snapshot: MachineSnapshot, ch: Hash64 | undefined): Comp {
    return new Comp(snapshot, ch, this.state, this.down, this.restartAt, this.restartSeq, this.timers, this.restoreTo);
  }

  /** A step's outcome: its snapshot and the state it rests in, as one part rather than two. */
  withStep(snapshot: MachineSnapshot, ch: Hash64 | undefined, state: string): Comp {
    return new Comp(snapshot, ch, state, this.down, this.restartAt, this.restartSeq, this.timers, this.restoreTo);
  }

  withTimers(timers: readonly Timer[]): Comp {
    return new Comp(this.snapshot, this.ch, this.state, this.down, this.restartAt, this.restartSeq, timers, this.restoreTo);
  }

  /** Down until `restartAt` (up again when it is -1), with no timers while down. */
  withDown(down: boolean, restartAt: number, restartSeq = 0): Comp {
    return new Comp(this.snapshot, this.ch, this.state, down, restartAt, restartSeq, down ? [] : this.timers, this.restoreTo);
  }

  withRestoreTo(restoreTo: unknown): Comp {
    return new Comp(this.snapshot, this.ch, this.state, this.down, this.restartAt, this.restartSeq, this.timers, restoreTo);
  }
}

/** A message on its way: it may land from `earliest` to `deadline` (at `earliest` exactly where the world draws latencies). */
export class Msg {
  constructor(
    readonly from: number,
    readonly to: number,
    readonly event: EventObject,
    readonly earliest: number,
    readonly deadline: number,
    /** A connection-drop or rebalance notice: no fault strikes it. */
    readonly system: boolean,
    /** Which message of its point this is (1-based), where the world counts them; not part of a state's identity. */
    readonly n: number,
    /** Orders it among everything due at the same tick; not part of a state's identity. */
    readonly seq: number,
    /** The event's hash, worked out once at the send, where a search needs it. */
    readonly eh: Hash64 | undefined,
    /**
     * Sent by an incarnation of its sender that has since crashed: the connection it travels on is
     * closed at the sender's end, so whatever its receiver sends back in the step that handles it
     * goes nowhere (Kernel.send).
     */
    readonly orphan = false,
  ) {}

  /** The same message, landing between `earliest` and `deadline`. */
  within(earliest: number, deadline: number, seq = this.seq): Msg {
    return new Msg(this.from, this.to, this.event, earliest, deadline, this.system, this.n, seq, this.eh, this.orphan);
  }

  /** The same message, its sender's incarnation gone. */
  orphaned(): Msg {
    return this.orphan ? this : new Msg(this.from, this.to, this.event, this.earliest, this.deadline, this.system, this.n, this.seq, this.eh, true);
  }
}

/** A link's messages, in the order they land, and those a reorder holds back. */
export class Link {
  h: Hash64 | undefined = undefined;
  constructor(
    readonly key: string,
    readonly msgs: readonly Msg[],
    /** Messages a reorder holds back: each goes right behind the next message sent on the link. */
    readonly held: readonly Msg[],
    /**
     * Where the world draws latencies: the tick the last message sent on the link lands at, which
     * a later one may not land before (a link is FIFO); and when its held messages were first held,
     * which orders links whose held messages a crash drops.
     */
    readonly tail: number = -1,
    readonly heldSince: number = -1,
  ) {}
}

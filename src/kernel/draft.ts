// A mutable draft of a world's state, made for one step and frozen into the next state: it copies
// the component and link arrays once, and a step replaces the parts it changes. Links are kept in
// key order, so two states with the same links list them alike.
import { SearchState, type Exact } from './searchState.ts';
import { Comp, Link, type Msg } from './parts.ts';

/** A world state: its clock, components, links, fault budget and progress marks. */
export type KernelState = SearchState<Comp, Link>;

export class Draft {
  comps: Comp[];
  links: Link[];
  /** Faults struck so far in the path, and the tick of the last (-1 before the first). */
  faults: number;
  lastFault: number;
  lastProgress: number;
  nextUnordered: number;
  readonly stillTicks: number;
  sent: readonly number[];
  /** The world's own counters where it draws latencies (the World); undefined in a search. */
  exact: { nextSeq: number; sends: number; nextHeld: number } | undefined;
  /** The tick the faults were healed at; -1 before. */
  healTick: number;
  /**
   * The component whose crashed incarnation sent the message this step handles, or -1: what the
   * step sends back to it would travel on the connection the crash closed. Not part of a state.
   */
  closedTo = -1;
  private sentCopied = false;

  constructor(
    s: KernelState,
    readonly now: number,
    /** Whether messages are numbered (`Msg.n`): in a traced run, not in a search. */
    readonly numbered: boolean,
  ) {
    this.comps = s.comps.slice();
    this.links = s.links.slice();
    this.faults = s.faults;
    this.lastFault = s.lastFault;
    this.lastProgress = s.lastProgress;
    this.nextUnordered = s.nextUnordered;
    this.stillTicks = s.stillTicks;
    this.sent = s.sent;
    this.exact = s.exact === undefined ? undefined : { ...s.exact };
    this.healTick = s.healTick;
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

  /** The next schedule number, where the world keeps one; 0 in a search. */
  seq(): number {
    return this.exact === undefined ? 0 : this.exact.nextSeq++;
  }

  link(key: string): Link | undefined {
    const i = this.indexOf(key);
    return i >= 0 ? this.links[i] : undefined;
  }

  /**
   * Replaces (or adds) a link. One with nothing left on it is removed, unless the world keeps its
   * tail (a later send may not land before what was last sent on it, even once that is gone).
   */
  setLink(key: string, msgs: readonly Msg[], held: readonly Msg[], tail = this.link(key)?.tail ?? -1, heldSince = this.heldSinceOf(key, held)): void {
    const i = this.indexOf(key);
    const empty = msgs.length === 0 && held.length === 0 && (this.exact === undefined || tail < 0);
    const links = this.links;
    if (i >= 0) {
      if (!empty) links[i] = new Link(key, msgs, held, tail, heldSince);
      else {
        for (let j = i; j < links.length - 1; j++) links[j] = links[j + 1]!;
        links.pop();
      }
      return;
    }
    if (empty) return;
    let at = 0;
    while (at < links.length && links[at]!.key < key) at++;
    const link = new Link(key, msgs, held, tail, heldSince);
    links.push(link);
    for (let j = links.length - 1; j > at; j--) links[j] = links[j - 1]!;
    links[at] = link;
  }

  /** When a link's held messages were first held: kept while it holds some, new when it starts to. */
  private heldSinceOf(key: string, held: readonly Msg[]): number {
    if (held.length === 0) return -1;
    const before = this.link(key);
    if (before !== undefined && before.held.length > 0) return before.heldSince;
    return this.exact === undefined ? 0 : this.exact.nextHeld++;
  }

  private indexOf(key: string): number {
    for (let i = 0; i < this.links.length; i++) if (this.links[i]!.key === key) return i;
    return -1;
  }

  /** A fault struck now: one more of the path's budget, and quiet is measured from here. */
  struck(): void {
    this.faults++;
    this.lastFault = this.now;
  }

  /** The next state. */
  freeze(): KernelState {
    return new SearchState(this.now, this.comps, this.links, this.faults, this.lastProgress, this.lastFault, this.nextUnordered, this.sent, this.exact, this.stillTicks, this.healTick);
  }
}

export type { Exact };

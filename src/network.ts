// The links between components. Every message takes a latency drawn from the network's own
// Prng stream, or the one a given schedule names for it; each link (from, to) is FIFO unless a
// fault says otherwise, as TCP connections and broker partitions are. Message faults strike the
// n-th message of a kind on a link:
// - lose: the message is never delivered.
// - duplicate: a second copy is delivered right behind the first.
// - delay: the message arrives `delayFaultTicks` late and the link behind it waits (FIFO kept).
// - reorder: the message is held until the next message on the same link has been scheduled,
//   then delivered right after it, so it is overtaken exactly once (or released at heal).
// - rebalance: the message is delivered as usual, and at the same tick its sender is told
//   (`sys.rebalance`, a system notice on the reverse link) to take the work that message carries
//   away from its receiver: a broker moves the record's partition to another member of the
//   group while the record is still on its way, so two members hold it at once.
import type { EventObject } from 'xstate';
import type { Rebalance } from './emitted.ts';
import type { MessageFault } from './faults.ts';
import { pointName } from './place.ts';
import { Prng, type PrngState } from './prng.ts';

export interface Envelope {
  readonly id: number;
  readonly from: string;
  readonly to: string;
  readonly point: string;
  readonly event: EventObject;
}

export interface NetworkOptions {
  /** Every message takes at least this many ticks. */
  readonly latencyTicksMin: number;
  /** And at most this many; draws come from the network's own stream. */
  readonly latencyTicksMax: number;
  /** The extra ticks a `delay` fault adds to one message. */
  readonly delayFaultTicks: number;
  /**
   * A schedule instead of draws: the n-th message sent (lost, held and connection-drop ones
   * counted too) takes `latencyTicksMin` plus the n-th entry, kept within the window, and every
   * message past the last entry takes the least latency. Being data, a schedule can be shrunk
   * entry by entry, which a seed cannot.
   */
  readonly latencies?: readonly number[];
}

export interface NetworkSink {
  /** Puts an envelope on the schedule for delivery at `tick`. */
  schedule(tick: number, envelope: Envelope): void;
  /** Records a fault the network applied to an envelope, for the trace and the strikes. */
  record(fault: MessageFault, envelope: Envelope): void;
}

/** The network as it stood at one moment, faults aside, for `Network.load`. */
export interface NetworkState {
  readonly nextId: number;
  readonly sent: number;
  readonly linkTail: readonly (readonly [string, number])[];
  readonly counts: readonly (readonly [string, number])[];
  readonly held: readonly (readonly [string, readonly Envelope[]])[];
  readonly healed: boolean;
  readonly prng: PrngState | undefined;
}

/** A link's name and the names of the points on it, made once and shared by every run. */
interface LinkNames {
  readonly from: string;
  readonly to: string;
  readonly link: string;
  readonly points: Map<string, string>;
}

/**
 * Names by sender, then receiver. A send looks its names up here rather than building them: a
 * string built per send is hashed afresh by every Map it keys, while one kept here carries its
 * hash, so the census and the link's tail are found at the cost of a lookup.
 */
const namesByLink = new Map<string, Map<string, LinkNames>>();

function linkNamesOf(from: string, to: string): LinkNames {
  let byTo = namesByLink.get(from);
  if (byTo === undefined) namesByLink.set(from, (byTo = new Map()));
  let names = byTo.get(to);
  if (names === undefined) byTo.set(to, (names = { from, to, link: `${from}->${to}`, points: new Map() }));
  return names;
}

function pointOf(names: LinkNames, type: string): string {
  let point = names.points.get(type);
  if (point === undefined) names.points.set(type, (point = pointName(names.from, names.to, type)));
  return point;
}

export class Network {
  private nextId = 1;
  /** Messages sent so far: the next one's place in a schedule. */
  private sent = 0;
  private linkTail = new Map<string, number>();
  private counts = new Map<string, number>();
  private held = new Map<string, Envelope[]>();
  private faults: Map<string, MessageFault[]>;
  private healed = false;
  /** Called with each counted send's point and its occurrence, before any fault is looked up. */
  onCount: ((point: string, n: number) => void) | undefined;

  constructor(
    private prng: Prng,
    private readonly options: NetworkOptions,
    faults: readonly MessageFault[],
    private readonly sink: NetworkSink,
  ) {
    this.faults = new Map();
    for (const f of faults) {
      const list = this.faults.get(f.point) ?? [];
      list.push(f);
      this.faults.set(f.point, list);
    }
  }

  /** How many messages of each point were sent so far: the reference run's message census. */
  census(): ReadonlyMap<string, number> {
    return this.counts;
  }

  /**
   * Sends one message. A `system` message (a connection-drop notice) takes the link like any
   * other, so it arrives after what the sender had already sent, but no fault strikes it and the
   * census does not count it.
   */
  send(now: number, from: string, to: string, event: EventObject, unordered = false, system = false): void {
    const names = linkNamesOf(from, to);
    const point = pointOf(names, event.type);
    const link = names.link;
    const envelope: Envelope = { id: this.nextId++, from, to, point, event };
    const nth = this.sent++;
    let fault: MessageFault | undefined;
    if (!system) {
      const n = (this.counts.get(point) ?? 0) + 1;
      this.counts.set(point, n);
      this.onCount?.(point, n);
      // One message suffers at most one fault: the plan's first for this point and occurrence.
      fault = this.healed || this.faults.size === 0 ? undefined : this.faults.get(point)?.find((f) => f.occurrence === n);
      if (fault) this.sink.record(fault, envelope);
    }
    if (fault?.kind === 'lose') return;
    if (fault?.kind === 'reorder') {
      const list = this.held.get(link) ?? [];
      list.push(envelope);
      this.held.set(link, list);
      return;
    }
    // An unordered send (a concurrent request on its own connection) neither waits for nor
    // holds back the link's FIFO order.
    let tick = unordered ? now + this.latency(nth) : Math.max(now + this.latency(nth), this.linkTail.get(link) ?? 0);
    if (fault?.kind === 'delay') tick += this.options.delayFaultTicks;
    if (!unordered) this.linkTail.set(link, tick);
    this.sink.schedule(tick, envelope);
    if (fault?.kind === 'duplicate') this.sink.schedule(tick, { ...envelope, id: this.nextId++ });
    if (fault?.kind === 'rebalance') {
      const notice: Rebalance = { type: 'sys.rebalance', peer: to, event };
      this.sink.schedule(now, { id: this.nextId++, from: to, to: from, point: pointName(to, from, notice.type), event: notice });
    }
    // A held message goes right behind the one that overtook it, but never ahead of what the
    // link already carries: an unordered message may land before the link's tail, and a held
    // message released with it would then overtake messages sent before it as well.
    const overtaken = this.held.size === 0 ? undefined : this.held.get(link);
    if (overtaken) {
      this.held.delete(link);
      const release = Math.max(tick, this.linkTail.get(link) ?? 0);
      this.linkTail.set(link, release);
      for (const h of overtaken) this.sink.schedule(release, h);
    }
  }

  /**
   * What `load` needs to put the network back as it is now (its faults aside: a network loaded
   * with this state keeps the faults it was made with). The draws are saved only when the
   * stream can say where it stands, which a schedule of latencies never reads anyway.
   */
  save(): NetworkState {
    return {
      nextId: this.nextId,
      sent: this.sent,
      linkTail: [...this.linkTail],
      counts: [...this.counts],
      held: [...this.held].map(([link, list]) => [link, [...list]] as const),
      healed: this.healed,
      prng: this.options.latencies ? undefined : this.prng.state(),
    };
  }

  /** Becomes the network `save` saw, keeping its own faults. */
  load(state: NetworkState): void {
    this.nextId = state.nextId;
    this.sent = state.sent;
    this.linkTail = new Map(state.linkTail);
    this.counts = new Map(state.counts);
    this.held = new Map(state.held.map(([link, list]) => [link, [...list]]));
    this.healed = state.healed;
    if (state.prng) this.prng = new Prng(this.prng.seed, state.prng);
  }

  /** Ends the fault phase: no further faults apply and held messages are released. */
  heal(now: number): void {
    this.healed = true;
    for (const [link, list] of [...this.held.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      const tick = Math.max(now + this.latency(), this.linkTail.get(link) ?? 0);
      this.linkTail.set(link, tick);
      for (const h of list) this.sink.schedule(tick, h);
    }
    this.held.clear();
  }

  /**
   * A crashed sender's held messages die with its connections: releasing one after the restart
   * would deliver it on the new connection as if the new incarnation had sent it.
   */
  dropHeldFrom(from: string): Envelope[] {
    const dropped: Envelope[] = [];
    for (const [link, list] of [...this.held.entries()]) {
      if (!link.startsWith(`${from}->`)) continue;
      dropped.push(...list);
      this.held.delete(link);
    }
    return dropped;
  }

  /** A crashed receiver's held messages die with its connections too. */
  dropHeldTo(to: string): Envelope[] {
    const dropped: Envelope[] = [];
    for (const [link, list] of [...this.held.entries()]) {
      if (!link.endsWith(`->${to}`)) continue;
      dropped.push(...list);
      this.held.delete(link);
    }
    return dropped;
  }

  /** Messages a reorder fault holds back, link by link in name order. */
  heldEnvelopes(): Envelope[] {
    return [...this.held.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).flatMap(([, list]) => list);
  }

  /** Whether any message is held back by a reorder fault. */
  get holding(): boolean {
    return this.held.size > 0;
  }

  /** The latency of the `nth` message sent; a release at heal is no send and passes none. */
  private latency(nth?: number): number {
    const { latencyTicksMin: lo, latencyTicksMax: hi, latencies } = this.options;
    // A schedule replaces every draw, so a run given one never reads the stream.
    if (latencies) {
      const extra = nth === undefined ? 0 : (latencies[nth] ?? 0);
      return lo + Math.min(Math.max(extra, 0), hi - lo);
    }
    return lo === hi ? lo : this.prng.between(lo, hi);
  }
}

// One level of the breadth-first search, held compactly. A search holds the level it reads and
// the level it builds, and held as objects each state costs several hundred bytes of its own (the
// state, its component and link arrays, its send counts, the search's item), even though its
// components' snapshots are shared with its neighbours'; a garbage-collected heap then grows well
// past what is live. Here a state is a row of numbers: its clock and budget fields, and for each
// component, for its link list and for its send counts the index of that part in a table of the
// level's distinct parts, as SPIN's collapse compression keeps each process's local state once and
// a global state as indices. A level draws on far fewer distinct parts than it has states (a
// global state is a product of local ones: mercury-outbox with two faults, at its widest level of
// 69,271 states, has at most 183 distinct states of any one component and 35,837 link lists),
// and the parts die with the level.
//
// A component is taken for an earlier one of the same level when the search's state hash of the
// two (src/check/checkWorld.ts) is equal in all 64 bits, the identity the visited set already
// relies on. A link list is taken for an earlier one when a 64-bit key over every one of its
// fields, the `n` of each message included, is equal (a chance of a wrong merge as small as the
// visited set's), and send counts only when equal in every number, so a state comes back as it
// was pushed.
import type { Hash64 } from '../../kernel/stateHash.ts';
import { SearchState } from '../../kernel/searchState.ts';

/** A search state's fields, with components and links of any type (the search's, or a test's). */
type Parts<C, L> = Omit<SearchState<C, L>, 'at' | 'jump'>;

/** What the level asks of the world: the hashes that name a component and a link list. */
export interface PartHashes<C, L> {
  compHash(c: C): Hash64;
  /** Every field of the list, each message's ordinal included. */
  linksKey(links: readonly L[]): Hash64;
}

/**
 * Distinct values by 64-bit hash: the first of each hash stands for the rest. An open-addressing
 * table of indices (a Map keyed by one lane would box the half of its keys past the small-integer
 * range, and this lookup runs for every part of every state a level takes).
 */
class Interner<T> {
  readonly items: T[] = [];
  private his = new Int32Array(1 << 6);
  private los = new Int32Array(1 << 6);
  /** Index + 1 of the item in each slot; 0 is an empty slot. */
  private slots = new Int32Array(1 << 7);

  id(item: T, h: Hash64): number {
    const hi = h[0] | 0;
    const lo = h[1] | 0;
    const mask = this.slots.length - 1;
    for (let i = lo & mask; ; i = (i + 1) & mask) {
      const at = this.slots[i]!;
      if (at === 0) return this.add(item, hi, lo, i);
      if (this.los[at - 1] === lo && this.his[at - 1] === hi) return at - 1;
    }
  }

  private add(item: T, hi: number, lo: number, slot: number): number {
    const j = this.items.length;
    this.items.push(item);
    if (j === this.his.length) {
      const his = new Int32Array(j * 2);
      his.set(this.his);
      this.his = his;
      const los = new Int32Array(j * 2);
      los.set(this.los);
      this.los = los;
    }
    this.his[j] = hi;
    this.los[j] = lo;
    this.slots[slot] = j + 1;
    // Kept at most half full, so a probe ends soon at an empty slot.
    if ((j + 1) * 2 > this.slots.length) this.rehash();
    return j;
  }

  /**
   * Empties the table and keeps its memory. Only the slots its items took are cleared, so a
   * small level after a wide one costs what it holds, not the table's size.
   */
  clear(): void {
    const mask = this.slots.length - 1;
    for (let j = 0; j < this.items.length; j++) {
      let i = this.los[j]! & mask;
      while (this.slots[i] !== j + 1) i = (i + 1) & mask;
      this.slots[i] = 0;
    }
    this.items.length = 0;
  }

  private rehash(): void {
    const slots = new Int32Array(this.slots.length * 2);
    const mask = slots.length - 1;
    for (let j = 0; j < this.items.length; j++) {
      let i = this.los[j]! & mask;
      while (slots[i] !== 0) i = (i + 1) & mask;
      slots[i] = j + 1;
    }
    this.slots = slots;
  }
}

/** Send counts by their content; the same array object is found first by identity. */
class SentTable {
  readonly items: (readonly number[])[] = [];
  private readonly byObject = new Map<readonly number[], number>();
  private readonly byText = new Map<string, number>();

  clear(): void {
    this.items.length = 0;
    this.byObject.clear();
    this.byText.clear();
  }

  id(sent: readonly number[]): number {
    let i = this.byObject.get(sent);
    if (i !== undefined) return i;
    const text = sent.join(',');
    i = this.byText.get(text);
    if (i === undefined) {
      i = this.items.length;
      this.items.push(sent);
      this.byText.set(text, i);
    }
    this.byObject.set(sent, i);
    return i;
  }
}

const SCALARS = 8;
/** Int32 fields of a row before its components'. */
const ROW = 6;

/** The states of one breadth-first level, each with its hash in the visited set, the search's node id and fault tag. */
export class Frontier<C, L> {
  private scalars: Float64Array;
  private ids: Int32Array;
  private comps: Interner<C>[] = [];
  private links = new Interner<readonly L[]>();
  private sent = new SentTable();
  private count = 0;
  /** Int32 fields a row has: node id, tag, links, sent, the hash's two lanes, then one per component. */
  private width = 0;

  constructor(private readonly hashes: PartHashes<C, L>, capacity = 1 << 10) {
    this.scalars = new Float64Array(capacity * SCALARS);
    this.ids = new Int32Array(0);
  }

  get length(): number {
    return this.count;
  }

  /** Bytes the level's rows take (its parts are shared objects, counted nowhere). */
  get bytes(): number {
    return this.scalars.byteLength + this.ids.byteLength;
  }

  push(s: Parts<C, L>, hi: number, lo: number, id: number, tag: number): void {
    if (this.width === 0) {
      this.width = ROW + s.comps.length;
      this.ids = new Int32Array((this.scalars.length / SCALARS) * this.width);
      for (let k = 0; k < s.comps.length; k++) this.comps.push(new Interner<C>());
    }
    if (this.count * SCALARS === this.scalars.length) this.grow();
    const f = this.count * SCALARS;
    this.scalars[f] = s.now;
    this.scalars[f + 1] = s.faults;
    this.scalars[f + 2] = s.lastProgress;
    this.scalars[f + 3] = s.lastFault;
    this.scalars[f + 4] = s.nextUnordered;
    this.scalars[f + 5] = s.stillTicks;
    this.scalars[f + 6] = s.healTick;
    this.scalars[f + 7] = s.jumped ? 1 : 0;
    const r = this.count * this.width;
    this.ids[r] = id;
    this.ids[r + 1] = tag;
    this.ids[r + 2] = this.links.id(s.links, this.hashes.linksKey(s.links));
    this.ids[r + 3] = this.sent.id(s.sent);
    this.ids[r + 4] = hi;
    this.ids[r + 5] = lo;
    for (let k = 0; k < s.comps.length; k++) this.ids[r + ROW + k] = this.comps[k]!.id(s.comps[k]!, this.hashes.compHash(s.comps[k]!));
    this.count++;
  }

  /**
   * Empties the level and keeps its memory: a search keeps two levels and swaps them, rather than
   * making each level's tables anew (a design of 160 levels made and dropped 160 sets of them).
   * The parts it held are let go.
   */
  clear(): void {
    this.count = 0;
    for (const c of this.comps) c.clear();
    this.links.clear();
    this.sent.clear();
  }

  /** Row `i`'s state, rebuilt from the level's parts. */
  state(i: number): SearchState<C, L> {
    const f = i * SCALARS;
    const r = i * this.width;
    const comps: C[] = [];
    for (let k = ROW; k < this.width; k++) comps.push(this.comps[k - ROW]!.items[this.ids[r + k]!]!);
    const sc = this.scalars;
    return new SearchState(sc[f]!, comps, this.links.items[this.ids[r + 2]!]!, sc[f + 1]!, sc[f + 2]!, sc[f + 3]!, sc[f + 4]!, this.sent.items[this.ids[r + 3]!]!, undefined, sc[f + 5]!, sc[f + 6]!, sc[f + 7] === 1);
  }

  /** Row `i`'s hash in the visited set: its high lane, then its low lane. */
  hi(i: number): number {
    return this.ids[i * this.width + 4]!;
  }

  lo(i: number): number {
    return this.ids[i * this.width + 5]!;
  }

  /** Row `i`'s node id in the search's tree. */
  id(i: number): number {
    return this.ids[i * this.width]!;
  }

  /** Row `i`'s fault tag. */
  tag(i: number): number {
    return this.ids[i * this.width + 1]!;
  }

  private grow(): void {
    const scalars = new Float64Array(this.scalars.length * 2);
    scalars.set(this.scalars);
    this.scalars = scalars;
    const ids = new Int32Array(this.ids.length * 2);
    ids.set(this.ids);
    this.ids = ids;
  }
}

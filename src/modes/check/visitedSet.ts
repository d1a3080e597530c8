// The states the exhaustive search has seen, by 64-bit hash, in an open-addressing table kept at
// most three quarters full, the two lanes of each slot side by side in one Uint32Array (a probe
// then reads one cache line, not one in each of two arrays): eight bytes a slot, where a
// JavaScript Set of strings would take well over a hundred a state. A table made with values keeps one Int32 beside
// each slot for the search's own use (its sleep sets, src/modes/check/sleepSets.ts): twelve bytes a
// slot, and sixteen once it is widened to a second Int32, which only a design with many steps
// asks for. A slot holding 0 in both lanes is empty, so the one hash that is 0 in both is kept
// past the last slot, in a place of its own. Two different states with the same 64-bit hash would
// be taken for one (hash compaction, as SPIN's -DHC); at ten million states the chance of any
// such omission is about 10^14 / 2^65, under one in three hundred thousand.

export class VisitedSet {
  /** Slot i's high lane at 2i, its low lane at 2i + 1. */
  private keys: Uint32Array;
  /** Values by slot, the all-zero hash's at index `mask + 1`; empty in a table without values. */
  private first: Int32Array;
  private second: Int32Array | undefined;
  private mask: number;
  private count = 0;
  private zero = false;

  constructor(
    initialCapacity = 1 << 16,
    private readonly withValues = false,
  ) {
    let cap = 1;
    while (cap < initialCapacity) cap <<= 1;
    this.keys = new Uint32Array(cap * 2);
    this.first = new Int32Array(withValues ? cap + 1 : 0);
    this.mask = cap - 1;
  }

  get size(): number {
    return this.count;
  }

  /**
   * Empties the table and keeps its memory: a second search run after the first uses it rather
   * than leave the first one's to the garbage collector while it builds a table of its own. A
   * table made with values keeps the first; the second goes until the search widens it again.
   */
  clear(): void {
    this.keys.fill(0);
    this.first.fill(0);
    this.second = undefined;
    this.count = 0;
    this.zero = false;
  }

  /** Whether the table keeps a value beside each slot. */
  get valued(): boolean {
    return this.withValues;
  }

  /** Bytes the table holds. */
  get bytes(): number {
    return this.keys.byteLength + this.first.byteLength + (this.second?.byteLength ?? 0);
  }

  /** Whether each slot has a second value. */
  get wide(): boolean {
    return this.second !== undefined;
  }

  /** Adds a hash; false when it was already there. */
  add(hi: number, lo: number): boolean {
    return this.put(hi, lo) < 0;
  }

  has(hi: number, lo: number): boolean {
    return this.slot(hi, lo) >= 0;
  }

  /**
   * Adds a hash and returns `~slot` (a negative number) where it is new, or returns the slot it
   * already has. A slot stays valid until a hash is added: only adding one can grow the table.
   */
  put(hi: number, lo: number): number {
    hi >>>= 0;
    lo >>>= 0;
    if ((hi | lo) === 0) {
      if (this.zero) return this.mask + 1;
      this.zero = true;
      this.count++;
      return ~(this.mask + 1);
    }
    let i = this.probe(hi, lo);
    if ((this.keys[2 * i]! | this.keys[2 * i + 1]!) !== 0) return i;
    if ((this.count + 1) * 4 > (this.mask + 1) * 3) {
      this.grow();
      i = this.probe(hi, lo);
    }
    this.keys[2 * i] = hi;
    this.keys[2 * i + 1] = lo;
    this.count++;
    return ~i;
  }

  /** The slot holding a hash, or -1 when it is not there. */
  slot(hi: number, lo: number): number {
    hi >>>= 0;
    lo >>>= 0;
    if ((hi | lo) === 0) return this.zero ? this.mask + 1 : -1;
    const i = this.probe(hi, lo);
    return (this.keys[2 * i]! | this.keys[2 * i + 1]!) === 0 ? -1 : i;
  }

  /** The slot holding a hash that is not all zero, or the empty slot where it would go. */
  private probe(hi: number, lo: number): number {
    let i = (lo ^ Math.imul(hi, 0x9e3779b1)) & this.mask;
    const keys = this.keys;
    for (;;) {
      const h = keys[2 * i]!;
      const l = keys[2 * i + 1]!;
      if ((h === hi && l === lo) || (h | l) === 0) return i;
      i = (i + 1) & this.mask;
    }
  }

  /** A slot's first value (0 until set). */
  value(slot: number): number {
    return this.first[slot]!;
  }

  /** A slot's second value (0 until set, and in a table not widened). */
  value2(slot: number): number {
    return this.second === undefined ? 0 : this.second[slot]!;
  }

  setValue(slot: number, value: number): void {
    if (!this.withValues) throw new Error('the visited set was made without values');
    this.first[slot] = value;
  }

  setValue2(slot: number, value: number): void {
    if (this.second === undefined) throw new Error('the visited set has no second value until it is widened');
    this.second[slot] = value;
  }

  /** Gives every slot a second value, 0 for the hashes already there. */
  widen(): void {
    if (!this.withValues) throw new Error('the visited set was made without values');
    this.second ??= new Int32Array(this.first.length);
  }

  private grow(): void {
    const { keys, first, second } = this;
    const old = this.mask + 1;
    const cap = old * 2;
    this.keys = new Uint32Array(cap * 2);
    this.mask = cap - 1;
    if (this.withValues) {
      this.first = new Int32Array(cap + 1);
      this.first[cap] = first[old]!;
      if (second !== undefined) {
        this.second = new Int32Array(cap + 1);
        this.second[cap] = second[old]!;
      }
    }
    for (let i = 0; i < old; i++) {
      const h = keys[2 * i]!;
      const l = keys[2 * i + 1]!;
      if ((h | l) === 0) continue;
      // Each hash is in the old table once, so the probe ends at an empty slot.
      const j = this.probe(h, l);
      this.keys[2 * j] = h;
      this.keys[2 * j + 1] = l;
      if (this.withValues) {
        this.first[j] = first[i]!;
        if (second !== undefined) this.second![j] = second[i]!;
      }
    }
  }
}

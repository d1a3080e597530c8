// The states the exhaustive search has seen, by 64-bit hash, in an open-addressing table of two
// Uint32Arrays: eight bytes a state plus the table's slack, where a JavaScript Set of strings
// would take well over a hundred. Two different states with the same 64-bit hash would be taken
// for one (hash compaction, as SPIN's -DHC); at ten million states the chance of any such
// omission is about 10^14 / 2^65, under one in three hundred thousand.

export class VisitedSet {
  private hi: Uint32Array;
  private lo: Uint32Array;
  private used: Uint8Array;
  private mask: number;
  private count = 0;

  constructor(initialCapacity = 1 << 16) {
    let cap = 1;
    while (cap < initialCapacity) cap <<= 1;
    this.hi = new Uint32Array(cap);
    this.lo = new Uint32Array(cap);
    this.used = new Uint8Array(cap);
    this.mask = cap - 1;
  }

  get size(): number {
    return this.count;
  }

  /** Bytes the table holds. */
  get bytes(): number {
    return this.hi.byteLength + this.lo.byteLength + this.used.byteLength;
  }

  /** Adds a hash; false when it was already there. */
  add(hi: number, lo: number): boolean {
    if ((this.count + 1) * 2 > this.mask + 1) this.grow();
    return this.insert(hi >>> 0, lo >>> 0);
  }

  has(hi: number, lo: number): boolean {
    let i = (lo ^ Math.imul(hi, 0x9e3779b1)) & this.mask;
    for (;;) {
      if (!this.used[i]) return false;
      if (this.hi[i] === hi >>> 0 && this.lo[i] === lo >>> 0) return true;
      i = (i + 1) & this.mask;
    }
  }

  private insert(hi: number, lo: number): boolean {
    let i = (lo ^ Math.imul(hi, 0x9e3779b1)) & this.mask;
    for (;;) {
      if (!this.used[i]) {
        this.used[i] = 1;
        this.hi[i] = hi;
        this.lo[i] = lo;
        this.count++;
        return true;
      }
      if (this.hi[i] === hi && this.lo[i] === lo) return false;
      i = (i + 1) & this.mask;
    }
  }

  private grow(): void {
    const { hi, lo, used } = this;
    const cap = (this.mask + 1) * 2;
    this.hi = new Uint32Array(cap);
    this.lo = new Uint32Array(cap);
    this.used = new Uint8Array(cap);
    this.mask = cap - 1;
    this.count = 0;
    for (let i = 0; i < used.length; i++) if (used[i]) this.insert(hi[i]!, lo[i]!);
  }
}

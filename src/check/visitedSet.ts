// The states the exhaustive search has seen, by 64-bit hash, in an open-addressing table of two
// Uint32Arrays kept at most three quarters full: eight bytes a slot, where a JavaScript Set of
// strings would take well over a hundred a state. A slot holding 0 in both lanes is empty, so the
// one hash that is 0 in both is kept in a flag of its own. Two different states with the same
// 64-bit hash would be taken for one (hash compaction, as SPIN's -DHC); at ten million states the
// chance of any such omission is about 10^14 / 2^65, under one in three hundred thousand.

export class VisitedSet {
  private hi: Uint32Array;
  private lo: Uint32Array;
  private mask: number;
  private count = 0;
  private zero = false;

  constructor(initialCapacity = 1 << 16) {
    let cap = 1;
    while (cap < initialCapacity) cap <<= 1;
    this.hi = new Uint32Array(cap);
    this.lo = new Uint32Array(cap);
    this.mask = cap - 1;
  }

  get size(): number {
    return this.count;
  }

  /** Bytes the table holds. */
  get bytes(): number {
    return this.hi.byteLength + this.lo.byteLength;
  }

  /** Adds a hash; false when it was already there. */
  add(hi: number, lo: number): boolean {
    hi >>>= 0;
    lo >>>= 0;
    if ((hi | lo) === 0) {
      if (this.zero) return false;
      this.zero = true;
      this.count++;
      return true;
    }
    if ((this.count + 1) * 4 > (this.mask + 1) * 3) this.grow();
    return this.insert(hi, lo);
  }

  has(hi: number, lo: number): boolean {
    hi >>>= 0;
    lo >>>= 0;
    if ((hi | lo) === 0) return this.zero;
    let i = (lo ^ Math.imul(hi, 0x9e3779b1)) & this.mask;
    for (;;) {
      const h = this.hi[i]!;
      const l = this.lo[i]!;
      if ((h | l) === 0) return false;
      if (h === hi && l === lo) return true;
      i = (i + 1) & this.mask;
    }
  }

  private insert(hi: number, lo: number): boolean {
    let i = (lo ^ Math.imul(hi, 0x9e3779b1)) & this.mask;
    for (;;) {
      const h = this.hi[i]!;
      const l = this.lo[i]!;
      if ((h | l) === 0) {
        this.hi[i] = hi;
        this.lo[i] = lo;
        this.count++;
        return true;
      }
      if (h === hi && l === lo) return false;
      i = (i + 1) & this.mask;
    }
  }

  private grow(): void {
    const { hi, lo } = this;
    const cap = (this.mask + 1) * 2;
    this.hi = new Uint32Array(cap);
    this.lo = new Uint32Array(cap);
    this.mask = cap - 1;
    this.count = this.zero ? 1 : 0;
    for (let i = 0; i < hi.length; i++) if ((hi[i]! | lo[i]!) !== 0) this.insert(hi[i]!, lo[i]!);
  }
}

// A 64-bit structural hash of model state, for the visited set of the exhaustive search. Model
// contexts are immutable and share structure from step to step (a step copies the path it
// changes and keeps the rest), so each object's hash is remembered by identity: hashing a
// successor costs the objects that changed, not the whole world. Two values whose stable JSON
// (src/kernel/trace.ts) is equal hash equal: an object's fields are combined by a sum, which does not
// depend on the order they were set in, so no key is ever sorted; undefined fields are left out;
// -0 is 0. A hash is two 32-bit lanes, mixed separately; the visited set stores both (SPIN's
// hash compaction keeps 64 bits too).

export type Hash64 = readonly [hi: number, lo: number];

const cache = new WeakMap<object, Hash64>();
const HASH = Symbol('faultline.hash');
const strings = new Map<string, Hash64>();

/** Mixes a 32-bit word into a lane (a murmur3-style round). */
function mix(h: number, k: number): number {
  k = Math.imul(k, 0xcc9e2d51);
  k = (k << 15) | (k >>> 17);
  k = Math.imul(k, 0x1b873593);
  h ^= k;
  h = (h << 13) | (h >>> 19);
  return (Math.imul(h, 5) + 0xe6546b64) | 0;
}

function fmix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** A hash being built: two lanes with different seeds, fed the same words. */
export class Hasher {
  private hi = 0x9747b28c | 0;
  private lo = 0x1b873593 | 0;
  private n = 0;

  /** Starts again, as a new Hasher: a hot caller keeps one and hashes without allocating it. */
  reset(): this {
    this.hi = 0x9747b28c | 0;
    this.lo = 0x1b873593 | 0;
    this.n = 0;
    return this;
  }

  word(w: number): this {
    this.hi = mix(this.hi, w);
    this.lo = mix(this.lo, w ^ 0x5bd1e995);
    this.n++;
    return this;
  }

  /**
   * Mixes in a hash already made: each lane takes the same lane of `h`, one round a lane rather
   * than a round of each lane of `h` in both. The lanes of a hash are made apart from their first
   * word (different seeds, different words), so the two stay independent, and a state's hash, which
   * is mostly its parts' hashes, costs half the rounds.
   */
  hash(h: Hash64): this {
    this.hi = mix(this.hi, h[0]);
    this.lo = mix(this.lo, h[1]);
    this.n++;
    return this;
  }

  value(v: unknown): this {
    hashInto(v);
    return this.word(outHi).word(outLo);
  }

  digest(): Hash64 {
    return [this.digestHi(), this.digestLo()];
  }

  /** The digest's high lane alone: a caller that needs no pair allocates none. */
  digestHi(): number {
    return fmix(this.hi ^ this.n);
  }

  digestLo(): number {
    return fmix(this.lo ^ Math.imul(this.n, 0x27d4eb2d));
  }
}

// The lanes of the value `hashInto` hashed last: returned through the module so hashing a
// number or a field allocates nothing.
let outHi = 0;
let outLo = 0;
/** The same hash as a kept pair, where `hashInto` had one (an object's, a string's), else undefined. */
let outTuple: Hash64 | undefined;

const scratch = new Float64Array(1);
const words = new Uint32Array(scratch.buffer);

function hashString(s: string): Hash64 {
  let h = strings.get(s);
  if (h === undefined) {
    const x = new Hasher().word(3).word(s.length);
    for (let i = 0; i < s.length; i++) x.word(s.charCodeAt(i));
    h = x.digest();
    if (strings.size < 1 << 16) strings.set(s, h);
  }
  return h;
}

const NULL: Hash64 = new Hasher().word(1).digest();
const TRUE: Hash64 = new Hasher().word(2).word(1).digest();
const FALSE: Hash64 = new Hasher().word(2).word(0).digest();

function set(h: Hash64): void {
  outTuple = h;
  outHi = h[0];
  outLo = h[1];
}

/** An array's hash: its length and each element's hash, in order. */
function arrayHash(obj: readonly unknown[]): Hash64 {
  let hi = mix(0x3c6ef372, obj.length);
  let lo = mix(0xa54ff53a, obj.length ^ 5);
  for (let i = 0; i < obj.length; i++) {
    hashInto(obj[i]);
    hi = mix(hi, outHi);
    lo = mix(lo, outLo);
  }
  return [fmix(hi ^ 5), fmix(lo ^ Math.imul(obj.length, 0x27d4eb2d))];
}

/** A map's or a plain object's hash: each defined field's key and value, in any order. */
function fieldsHash(obj: object): Hash64 {
  // Each defined field's key and value mixed into one pair, and the pairs summed: the order
  // of the fields does not change the sum.
  let hi = 0;
  let lo = 0;
  let n = 0;
  const isMap = obj instanceof Map;
  if (isMap) {
    for (const [k, value] of obj) {
      if (value === undefined || typeof value === 'function') continue;
      hashInto(k);
      const kh = outHi;
      const kl = outLo;
      hashInto(value);
      hi = (hi + fmix(mix(mix(0x510e527f, kh), outHi))) | 0;
      lo = (lo + fmix(mix(mix(0x9b05688c, kl), outLo))) | 0;
      n++;
    }
  } else {
    // The same loop over a plain object's own fields (written twice: a shared closure would
    // be made for every object hashed).
    const rec = obj as Record<string, unknown>;
    for (const k in rec) {
      const value = rec[k];
      if (value === undefined || typeof value === 'function' || !Object.prototype.hasOwnProperty.call(rec, k)) continue;
      const kh0 = hashString(k);
      hashInto(value);
      hi = (hi + fmix(mix(mix(0x510e527f, kh0[0]), outHi))) | 0;
      lo = (lo + fmix(mix(mix(0x9b05688c, kh0[1]), outLo))) | 0;
      n++;
    }
  }
  const tag = isMap ? 7 : 6;
  return [fmix(mix(mix(hi, n), tag)), fmix(mix(mix(lo, n ^ 0x1f83d9ab), tag))];
}

/** Hashes a value into outHi and outLo. */
function hashInto(v: unknown): void {
  switch (typeof v) {
    case 'string':
      return set(hashString(v));
    case 'number': {
      scratch[0] = Number.isFinite(v) ? v + 0 : NaN;
      const a = words[0]!;
      const b = words[1]!;
      outTuple = undefined;
      outHi = fmix(mix(mix(0x2f1a3c4d, a), b) ^ 4);
      outLo = fmix(mix(mix(0x7e1b2a99, b), a) ^ 4);
      return;
    }
    case 'boolean':
      return set(v ? TRUE : FALSE);
    case 'object':
      if (v === null) return set(NULL);
      break;
    default:
      return set(NULL);
  }
  const obj = v as { [HASH]?: Hash64 };
  const known = obj[HASH] ?? cache.get(obj);
  if (known !== undefined) return set(known);
  const h = Array.isArray(obj) ? arrayHash(obj) : fieldsHash(obj);
  // The hash rides on the object itself, out of sight of for…in, Object.keys and JSON; a frozen
  // object keeps it in the side table instead.
  if (Object.isExtensible(obj)) Object.defineProperty(obj, HASH, { value: h });
  else cache.set(obj, h);
  set(h);
}

/** The hash of a JSON-like value; objects are remembered by identity. */
export function hashOf(v: unknown): Hash64 {
  hashInto(v);
  // An object's pair is the one kept for it, not a copy: a search holds many references to it.
  return outTuple ?? [outHi, outLo];
}

// The only source of chance in a simulation. A root Prng is made from one seed; every
// component forks its own stream by label, so drawing more from one component's stream never
// shifts another's draws (the property that keeps a shrunk counterexample replayable after a
// change elsewhere in the world).
import seedrandom from 'seedrandom';

/**
 * Where a stream stands: Alea's three seeds and its carry, enough to go on drawing from there
 * (written out rather than taken from seedrandom's types, which a user's project may not have).
 */
export interface PrngState {
  readonly c: number;
  readonly s0: number;
  readonly s1: number;
  readonly s2: number;
}

export class Prng {
  readonly seed: string;
  private readonly start: PrngState | undefined;
  /**
   * Made on the first draw: seeding hashes the seed string, and many streams are never drawn
   * from (a run given a schedule of latencies never reads the network's).
   */
  private stream: seedrandom.StatefulPRNG<seedrandom.State.Alea> | undefined;

  /** A stream from its seed, or from the position `state` a stream of that seed reached. */
  constructor(seed: number | string, state?: PrngState) {
    this.seed = String(seed);
    this.start = state;
  }

  /** Where this stream stands now; a Prng made from it draws what this one would draw next. */
  state(): PrngState {
    const { c, s0, s1, s2 } = this.generator().state();
    return { c, s0, s1, s2 };
  }

  private generator(): seedrandom.StatefulPRNG<seedrandom.State.Alea> {
    // Alea is seedrandom's fastest generator with a 2^116 period; it is fully determined by the
    // seed string, so the same seed gives the same stream in every process.
    return (this.stream ??= seedrandom.alea(this.seed, { state: this.start ?? true }));
  }

  private next(): number {
    return this.generator()();
  }

  /** A fresh independent stream whose seed derives from this stream's seed and the label only. */
  fork(label: string): Prng {
    return new Prng(`${this.seed}/${label}`);
  }

  /** A float in [0, 1). */
  float(): number {
    return this.next();
  }

  /** An integer in [0, maxExclusive). */
  int(maxExclusive: number): number {
    if (!Number.isInteger(maxExclusive) || maxExclusive <= 0) {
      throw new RangeError(`Prng.int needs a positive integer bound, got ${maxExclusive}`);
    }
    return Math.floor(this.next() * maxExclusive);
  }

  /** An integer in [min, max], both ends included. */
  between(min: number, max: number): number {
    if (max < min) throw new RangeError(`Prng.between(${min}, ${max}) has an empty range`);
    return min + this.int(max - min + 1);
  }

  /** True with probability `ratio`; 0 never draws true, 1 always does. */
  chance(ratio: number): boolean {
    if (ratio <= 0) return false;
    if (ratio >= 1) return true;
    return this.next() < ratio;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new RangeError('Prng.pick from an empty list');
    return items[this.int(items.length)] as T;
  }
}

// One shard of a sweep spread over CI machines: `--shard i/n` runs the i-th of n equal, contiguous
// stretches of each scenario's numbered plans (windows) or cases (explore), or every n-th scenario
// (check, whose search does not split), and writes what it tallied as a part file. `faultline
// merge` joins the n parts into the result one unsharded run would have given (src/sweep/sweepParts.ts).
import { InputError } from '../base/inputError.ts';

export interface Shard {
  /** 1-based, as the flag gives it. */
  readonly index: number;
  readonly count: number;
}

/** `--shard i/n`, with 1 ≤ i ≤ n ≤ 10,000. */
export function parseShard(flag: string, value: string | true | undefined): Shard | undefined {
  if (value === undefined) return undefined;
  const m = typeof value === 'string' ? /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(value) : null;
  if (!m) throw new InputError(`${flag} must be i/n, the i-th of n shards (for example 2/4), got ${JSON.stringify(value)}`);
  const index = Number(m[1]);
  const count = Number(m[2]);
  if (count < 1 || count > 10_000) throw new InputError(`${flag}: n must be between 1 and 10,000, got ${count}`);
  if (index < 1 || index > count) throw new InputError(`${flag}: i must be between 1 and ${count}, got ${index}`);
  return { index, count };
}

/** The shard's stretch [from, to) of `total` numbered items: the i-th of n as equal as whole items allow. */
export function shardRange(total: number, shard: Shard): [number, number] {
  const at = (k: number) => Math.floor((total * k) / shard.count);
  return [at(shard.index - 1), at(shard.index)];
}

/** Whether the shard takes the k-th (0-based) of a list of whole items: every n-th, from the i-th. */
export function shardTakes(k: number, shard: Shard): boolean {
  return k % shard.count === shard.index - 1;
}

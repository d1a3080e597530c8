// The flags that spread a sweep: `--workers N` (threads in this process) and `--shard i/n` (one
// of n machines), shared by windows, explore and check, and the part a shard writes.
import { InputError } from '../base/inputError.ts';
import type { Shard } from '../sweep/shard.ts';
import type { CatalogueEntry } from '../scenario/catalogue.ts';
import { PART_FILE, scenarioFingerprint, type PartFile } from '../sweep/sweepParts.ts';
import { SweepPool } from '../sweep/sweepPool.ts';
import { writeFileSet } from '../report/writeReports.ts';
import { wholeNumber } from './flagValues.ts';
import { version } from './main.ts';

/** `--workers N`, 1 to 256; 1 (the default) runs in this thread and starts none. */
export function workersFlag(value: string | true | undefined): number {
  return wholeNumber('--workers', value, 1, 256) ?? 1;
}

/** Where a shard's part goes unless --out says. */
export function shardOut(shard: Shard): string {
  return `faultline-shard-${shard.index}-of-${shard.count}`;
}

/** Runs `body` with a pool of `workers` threads, and ends the threads however it ends. */
export async function withPool<T>(workers: number, body: (pool: SweepPool) => Promise<T>): Promise<T> {
  const pool = new SweepPool(workers);
  try {
    return await body(pool);
  } finally {
    await pool.close();
  }
}

/** What every part a shard writes says of itself: which sweep it is a part of, and which part. */
/**
 * A part's head: what merge holds every part of one sweep to. `settings` are the sweep's with its
 * defaults spelt out, so a shard given `--seed 1` and one left at the default seed 1 merge.
 */
export function partHead<C extends PartFile['command']>(command: C, shard: Shard, entries: readonly Pick<CatalogueEntry, 'scenario' | 'ref'>[], settings: object) {
  return {
    format: 'faultline-part' as const,
    version: version(),
    command,
    shard,
    refs: entries.map((e) => e.ref),
    settings: { ...settings },
    fingerprints: entries.map((e) => scenarioFingerprint(e.scenario)),
  };
}

/** Writes a shard's part as a set of one file, replacing `outDir` as report sets do. */
export async function writePart(part: PartFile, outDir: string): Promise<void> {
  writeFileSet([{ file: PART_FILE, content: () => `${JSON.stringify(part)}\n` }], outDir);
}

/** Refuses --shard with flags whose answer only the merge has. */
export function refuseWithShard(shard: Shard | undefined, flags: Readonly<Record<string, unknown>>, names: readonly string[]): void {
  if (!shard) return;
  for (const n of names) if (flags[n] !== undefined) throw new InputError(`--shard writes a part, not a verdict; give --${n} to faultline merge`);
}

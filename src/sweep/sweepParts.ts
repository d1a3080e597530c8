// The part file a shard writes (`--shard i/n`) and `faultline merge` reads: what the shard
// tallied for every scenario, with the settings it ran under and the version that ran it, so
// parts of different sweeps (another seed, another fault depth, another engine) are refused
// rather than merged into a result no run would give.
import { createHash } from 'node:crypto';
import type { ExplorePart } from '../modes/explore.ts';
import { claimSentence } from '../report/claimSentence.ts';
import { runScenario } from '../run/runScenario.ts';
import type { Scenario } from '../scenario/scenario.ts';
import type { Shard } from './shard.ts';
import type { PortableCheck } from './sweepTask.ts';
import { DEFAULT_SEED } from '../modes/windows.ts';
import type { WindowsPart } from '../modes/windowsPart.ts';

/** The part's file name inside the folder a shard writes. */
export const PART_FILE = 'part.json';

/**
 * What a scenario is, as far as a sweep's result goes: the trace of its fault-free run (its
 * design, options and workload), its claims as sentences and its expectation. Parts of a
 * scenario changed between two shards do not merge.
 */
export function scenarioFingerprint(scenario: Scenario): string {
  const reference = runScenario(scenario, { seed: DEFAULT_SEED, plan: [] });
  return createHash('sha256')
    .update(JSON.stringify([reference.report.traceHash, scenario.name, scenario.claims.map(claimSentence), scenario.expect, scenario.workload]))
    .digest('hex')
    .slice(0, 16);
}

/** What every part says of itself. */
interface PartHead {
  readonly format: 'faultline-part';
  /** The faultline version that ran the shard; parts merge only with parts of the same one. */
  readonly version: string;
  readonly shard: Shard;
  /** The references the command was given, expanded, in the order the unsharded run takes them. */
  readonly refs: readonly string[];
  /** The settings that decide the result (flags, defaults filled in): equal in every part of one sweep. */
  readonly settings: Readonly<Record<string, unknown>>;
  /** Each scenario's fingerprint, in `refs` order. */
  readonly fingerprints: readonly string[];
}

export interface WindowsPartFile extends PartHead {
  readonly command: 'windows';
  /** One per scenario, in `refs` order: the tally of this shard's stretch of its plans. */
  readonly scenarios: readonly { readonly ref: string; readonly total: number; readonly part: WindowsPart }[];
}

export interface ExplorePartFile extends PartHead {
  readonly command: 'explore';
  readonly scenarios: readonly { readonly ref: string; readonly part: ExplorePart }[];
}

export interface CheckPartFile extends PartHead {
  readonly command: 'check';
  /** The scenarios this shard searched (every n-th), with their place in `refs`. */
  readonly scenarios: readonly { readonly ref: string; readonly index: number; readonly result: PortableCheck; readonly seconds: number }[];
}

export type PartFile = WindowsPartFile | ExplorePartFile | CheckPartFile;

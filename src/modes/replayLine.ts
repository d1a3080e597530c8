// The paste-able line that reproduces a run, as data first: which scenario (named as the user
// named it, a catalogue name or a file path), and how to rerun it: a simulation seed and a fault
// plan (windows mode and replay), fast-check's seed and path (explore), or a choice path (check). Every form of every
// report renders it with `replayLine`, so the line printed anywhere is the one that works.
import type { FaultKind, FaultPlan } from '../faults/faults.ts';

export type ReplayRef =
  | { readonly kind: 'plan'; readonly scenario: string; readonly seed: number; readonly plan: FaultPlan; readonly size?: number }
  | {
      readonly kind: 'path';
      readonly scenario: string;
      readonly seed: number;
      readonly path: string;
      /** The explore options that shape the search space, repeated so the path means the same case. */
      readonly maxFaults?: number;
      readonly maxOccurrence?: number;
    }
  /** A check run: the index of the choice taken at each step, with the fault budget and size that shape the choices. */
  | {
      readonly kind: 'choices';
      readonly scenario: string;
      readonly choices: string;
      readonly faults: number;
      /** The fault kinds, when the check was given its own. */
      readonly kinds?: readonly FaultKind[];
      readonly size?: number;
      readonly worldLatency?: boolean;
    };

/** A shell word: left bare when it is safe, single-quoted otherwise. */
function shellWord(s: string): string {
  return /^[A-Za-z0-9_./:@%+=,-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

export function replayLine(r: ReplayRef): string {
  if (r.kind === 'choices') {
    const size = r.size === undefined ? '' : ` --size ${r.size}`;
    const latency = r.worldLatency ? ' --world-latency' : '';
    const kinds = r.kinds === undefined ? '' : ` --kinds ${r.kinds.join(',')}`;
    return `npx faultline replay ${shellWord(r.scenario)} --faults ${r.faults}${kinds}${size}${latency} --choices ${shellWord(r.choices)}`;
  }
  const head = `npx faultline replay ${shellWord(r.scenario)} --seed ${r.seed}`;
  if (r.kind === 'plan') {
    const size = r.size === undefined ? '' : ` --size ${r.size}`;
    return `${head}${size} --plan ${shellWord(JSON.stringify(r.plan))}`;
  }
  const faults = r.maxFaults === undefined ? '' : ` --max-faults ${r.maxFaults}`;
  const occurrence = r.maxOccurrence === undefined ? '' : ` --max-occurrence ${r.maxOccurrence}`;
  return `${head} --path ${r.path}${faults}${occurrence}`;
}

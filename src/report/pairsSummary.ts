// What a `--pairs` sweep's pairs broke, in words, for every form. First what pairs are run for:
// the clauses a pair broke that neither of its faults breaks alone, one row per fault that
// struck first and clause, grouped by that first fault, with how many pairs did and the line
// that replays the first of them. Then, in a sentence each, the single faults that break a
// clause alone and so break it in every pair they are part of, with how many pairs that was.
import { replayLine } from '../modes/replayLine.ts';
import type { WindowsResult } from '../modes/windows.ts';
import { CLAUSE_TITLES, count } from './describeCoverage.ts';
import { describeFault } from './describePlan.ts';

export interface PairRow {
  readonly first: string;
  readonly clause: string;
  readonly pairs: number;
  /** The other fault of the first such pair. */
  readonly second: string;
  readonly replay: string;
}

function clauseName(result: WindowsResult, effect: string, clause: keyof typeof CLAUSE_TITLES): string {
  return `${result.claims.length > 1 ? `${effect}: ` : ''}${CLAUSE_TITLES[clause]}`;
}

/** The sentence over the table: how many pairs ran, how many broke a clause, how many of those only as a pair. */
export function pairsLead(result: WindowsResult): string | undefined {
  const p = result.pairs;
  if (p === undefined) return undefined;
  const fresh = p.fresh.reduce((n, b) => n + b.count, 0);
  const only = fresh === 0 ? 'every one of them breaks a clause one of its faults breaks alone' : `${count(fresh, 'break')} of a clause came from pairs neither of whose faults breaks it alone`;
  return `${count(p.broke, 'pair')} of ${count(p.pairs, 'pair')} broke a clause; ${only}.`;
}

/** The clauses only pairs broke, grouped by first fault in the order their first pair came. */
export function pairRows(result: WindowsResult): PairRow[] {
  const fresh = result.pairs?.fresh ?? [];
  const order = [...new Set(fresh.map((b) => describeFault(b.first)))];
  return order.flatMap((first) =>
    fresh
      .filter((b) => describeFault(b.first) === first)
      .map((b) => ({ first, clause: clauseName(result, b.effect, b.clause), pairs: b.count, second: describeFault(b.second), replay: replayLine(b.replay) })),
  );
}

/** A sentence for each single fault that breaks a clause alone, and so in the pairs it is part of. */
export function knownLines(result: WindowsResult): string[] {
  return (result.pairs?.known ?? []).map((k) => `${describeFault(k.fault)} breaks ${clauseName(result, k.effect, k.clause)} alone, and so in ${count(k.count, 'pair')} with it`);
}

// What a verdict covers, as data: the mode, how many faults a run could hold, which fault kinds
// at how many places, how many runs, how interleavings were chosen, whether a bound cut the
// search short, and, clause by clause, whether each part of each claim was actually judged.
// A report prints it next to the verdict, so "holds" always says what it holds for.
import type { ClaimVerdict, ClauseStatus } from './checkers/compose.ts';
import type { ClauseId } from './checkers/clause.ts';
import type { FaultKind } from './faults.ts';
import type { Undecided } from './verdict.ts';

export type Interleavings =
  /** One schedule per plan, drawn from the simulation seed (latencies). */
  | { readonly kind: 'seeded'; readonly seed: number }
  /** Schedules of message latencies generated with the plans (explore). */
  | { readonly kind: 'sampled' }
  /** The one interleaving a check's choice path names (a replay of a check counterexample). */
  | { readonly kind: 'chosen' }
  /** One given schedule of message latencies (the replay of an explore case). */
  | { readonly kind: 'scheduled' }
  /**
   * Every interleaving of enabled steps, within the search's bounds. `slept` counts the
   * transitions sleep sets skipped, each of which commutes with one taken and leads to a state
   * the search reaches anyway; absent when the search took every transition (`--no-reduction`).
   */
  | { readonly kind: 'all'; readonly states: number; readonly transitions: number; readonly depth: number; readonly slept?: number };

/**
 * The other order of an exhaustive search, where check ran both: a breadth-first search that
 * reached its state bound without deciding is followed by a depth-first one within the same
 * bound, which reaches the end of long paths a level-by-level search never gets to.
 */
export interface OtherSearch {
  /**
   * The order of that other search, which found no violation: `breadth-first` when this result
   * is the depth-first pass that followed it, `depth-first` when this is the breadth-first result
   * and the depth-first pass found nothing either.
   */
  readonly order: 'breadth-first' | 'depth-first';
  readonly states: number;
  readonly depth: number;
}

/** What cut a search short. */
export type SearchBound =
  /** A sampling search looked at this many plans of a space it did not enumerate. */
  | { readonly kind: 'samples'; readonly runs: number }
  /** An exhaustive search stopped at its state or depth bound. */
  | { readonly kind: 'states'; readonly max: number }
  | { readonly kind: 'depth'; readonly max: number }
  /** The search stopped at its first violation (check by default, windows with --fail-fast), after this many runs or end states. */
  | { readonly kind: 'firstViolation'; readonly after: number };

export interface ClauseCoverage {
  /** Which claim (by its effect) and which clause of it. */
  readonly effect: string;
  readonly clause: ClauseId;
  /** holds / violated / unknown over every run; not checked: no observer; not exercised: no run gave it anything to judge. */
  readonly status: ClauseStatus;
  /** Runs in which the clause judged something. */
  readonly exercised: number;
  /** The first reason it could not be decided, when unknown. */
  readonly reason?: string;
}

export interface Coverage {
  readonly mode: 'windows' | 'explore' | 'replay' | 'check';
  /** The most faults one run could hold. */
  readonly faultDepth: number;
  readonly kinds: readonly FaultKind[];
  /** Failure windows and message points the faults could strike. */
  readonly windows: number;
  readonly points: number;
  /** The single faults of the space (each place, each kind its link allows, each occurrence), when the mode enumerates them. */
  readonly faults?: number;
  /** Each place was struck at its first `maxOccurrence` occurrences (windows mode); every occurrence when absent. */
  readonly maxOccurrence?: number;
  /**
   * Windows mode: the occurrences of places the runs reached (a pair's second fault counted in
   * the run of its first), the most one place had, and how many a bound left unstruck.
   */
  readonly occurrences?: { readonly reached: number; readonly beyond: number; readonly most: number };
  readonly runs: number;
  /** Runs in which some planned fault never struck (its place was not reached at that occurrence). */
  readonly unstruckRuns: number;
  readonly interleavings: Interleavings;
  /** A bound that stopped the search before it covered its whole space. */
  readonly bound?: SearchBound;
  /** Check mode: the states still waiting to be expanded when the search stopped. */
  readonly frontier?: number;
  /** Check mode: the search in the other order that was also run (see OtherSearch). */
  readonly otherSearch?: OtherSearch;
  readonly clauses: readonly ClauseCoverage[];
}

/** The claims (by effect) some clause of which was violated in some run. */
export function violatedClaims(clauses: readonly ClauseCoverage[]): string[] {
  return [...new Set(clauses.filter((c) => c.status === 'violated').map((c) => c.effect))];
}

/** A ClauseTally as plain data, in the order its clauses were first seen: what a sweep's part carries. */
export type ClauseTallyState = readonly { readonly key: string; readonly effect: string; readonly clause: ClauseId; readonly seen: readonly ClauseStatus[]; readonly exercised: number; readonly reason?: string; readonly cut?: string }[];

/** Accumulates clause statuses over the runs of a sweep. */
export class ClauseTally {
  /** Per clause: the statuses seen, the runs that judged it, why it was unknown, and why a run could not judge it (`cut`). */
  private readonly entries = new Map<string, { effect: string; clause: ClauseId; seen: Set<ClauseStatus>; exercised: number; reason?: string; cut?: string }>();

  /** The tally as data. */
  state(): ClauseTallyState {
    return [...this.entries].map(([key, e]) => ({ key, effect: e.effect, clause: e.clause, seen: [...e.seen], exercised: e.exercised, ...(e.reason === undefined ? {} : { reason: e.reason }), ...(e.cut === undefined ? {} : { cut: e.cut }) }));
  }

  /** Adds the tally of later runs: the same as having added those runs here, one by one. */
  merge(state: ClauseTallyState): void {
    for (const s of state) {
      let e = this.entries.get(s.key);
      if (!e) {
        e = { effect: s.effect, clause: s.clause, seen: new Set(), exercised: 0 };
        this.entries.set(s.key, e);
      }
      for (const status of s.seen) e.seen.add(status);
      e.exercised += s.exercised;
      if (e.reason === undefined && s.reason !== undefined) e.reason = s.reason;
      if (e.cut === undefined && s.cut !== undefined) e.cut = s.cut;
    }
  }

  add(claims: readonly ClaimVerdict[]): void {
    claims.forEach((c, i) => {
      for (const r of c.clauses) {
        const key = `${i}\u0000${r.clause}`;
        let e = this.entries.get(key);
        if (!e) {
          e = { effect: c.effect, clause: r.clause, seen: new Set(), exercised: 0 };
          this.entries.set(key, e);
        }
        e.seen.add(r.status);
        if (r.status === 'holds' || r.status === 'violated') e.exercised++;
        if (r.status === 'unknown' && e.reason === undefined && r.reason !== undefined) e.reason = r.reason;
        if (r.status === 'inconclusive' && e.cut === undefined && r.reason !== undefined) e.cut = r.reason;
      }
    });
  }

  /** The clauses some run could not decide, with the first reason given. */
  undecided(): Undecided[] {
    return [...this.entries.values()].filter((e) => e.seen.has('unknown')).map((e) => ({ effect: e.effect, clause: e.clause, reason: e.reason ?? 'no reason given' }));
  }

  result(): ClauseCoverage[] {
    return [...this.entries.values()].map((e) => {
      const status: ClauseStatus = e.seen.has('violated')
        ? 'violated'
        : e.seen.has('unknown')
          ? 'unknown'
          : e.seen.has('inconclusive')
            ? 'inconclusive'
          : e.seen.has('holds')
            ? 'holds'
            : e.seen.has('not exercised')
              ? 'not exercised'
              : 'not checked';
      const reason = status === 'inconclusive' ? e.cut : e.reason;
      return { effect: e.effect, clause: e.clause, status, exercised: e.exercised, ...(reason === undefined ? {} : { reason }) };
    });
  }
}

// What a verdict covers, as data: the mode, how many faults a run could hold, which fault kinds
// at how many places, how many runs, how interleavings were chosen, whether a bound cut the
// search short, and, clause by clause, whether each part of each claim was actually judged.
// A report prints it next to the verdict, so "holds" always says what it holds for.
import type { ClaimVerdict, ClauseStatus } from './compose.ts';
import type { ClauseId } from './clause.ts';
import type { FaultKind } from '../faults/faults.ts';
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
  /** Runs in which it had nothing to judge (no fact committed, no outcome to count). */
  readonly idle?: number;
  /** Runs in which its checker could not decide (it threw). */
  readonly undecided?: number;
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
   * the run of its first), the most one place had, and how many a bound left unstruck. Explore,
   * not told a bound: the occurrences the fault-free run reached, which its faults are drawn from.
   */
  readonly occurrences?: { readonly reached: number; readonly beyond: number; readonly most: number };
  readonly runs: number;
  /** Runs in which some planned fault never struck (its place was not reached at that occurrence). */
  readonly unstruckRuns: number;
  readonly interleavings: Interleavings;
  /** A bound that stopped the search before it covered its whole space. */
  readonly bound?: SearchBound;
  /** Check with `--size` below the scenario's own: the workload searched, and the scenario's. A smaller one is a bound too. */
  readonly workload?: { readonly size: number; readonly of: number };
  /**
   * Check mode: the message latencies the search took, in ticks: none (`{ min: 0, max: 0 }`,
   * every message lands before the clock moves) unless `--world-latency` gave the World's window.
   * A bug that needs a message slower than a timer (a reply outliving an inbox row's TTL) lives only in the second.
   */
  readonly latency?: { readonly min: number; readonly max: number };
  /** Check mode: the states still waiting to be expanded when the search stopped. */
  readonly frontier?: number;
  /** The one failure window or message point the sweep was asked to run (`--only`). */
  readonly only?: string;
  /** Check mode: the search in the other order that was also run (see OtherSearch). */
  readonly otherSearch?: OtherSearch;
  readonly clauses: readonly ClauseCoverage[];
}

/** The claims (by effect) some clause of which was violated in some run. */
export function violatedClaims(clauses: readonly ClauseCoverage[]): string[] {
  return [...new Set(clauses.filter((c) => c.status === 'violated').map((c) => c.effect))];
}

/** A ClauseTally as plain data, in the order its clauses were first seen: what a sweep's part carries. */
export type ClauseTallyState = readonly {
  readonly key: string;
  readonly effect: string;
  readonly clause: ClauseId;
  readonly seen: readonly ClauseStatus[];
  readonly exercised: number;
  readonly idle?: number;
  readonly undecided?: number;
  readonly reason?: string;
  readonly cut?: string;
}[];

interface TallyEntry {
  effect: string;
  clause: ClauseId;
  seen: Set<ClauseStatus>;
  exercised: number;
  idle: number;
  undecided: number;
  /** Why it was unknown, and why a run could not judge it (`cut`). */
  reason?: string;
  cut?: string;
}

/** Accumulates clause statuses over the runs of a sweep. */
export class ClauseTally {
  private readonly entries = new Map<string, TallyEntry>();

  /** The tally as data. */
  state(): ClauseTallyState {
    return [...this.entries].map(([key, e]) => ({ key, effect: e.effect, clause: e.clause, seen: [...e.seen], exercised: e.exercised, idle: e.idle, undecided: e.undecided, ...(e.reason === undefined ? {} : { reason: e.reason }), ...(e.cut === undefined ? {} : { cut: e.cut }) }));
  }

  private entry(key: string, effect: string, clause: ClauseId): TallyEntry {
    let e = this.entries.get(key);
    if (!e) {
      e = { effect, clause, seen: new Set(), exercised: 0, idle: 0, undecided: 0 };
      this.entries.set(key, e);
    }
    return e;
  }

  /** Adds the tally of later runs: the same as having added those runs here, one by one. */
  merge(state: ClauseTallyState): void {
    for (const s of state) {
      const e = this.entry(s.key, s.effect, s.clause);
      for (const status of s.seen) e.seen.add(status);
      e.exercised += s.exercised;
      e.idle += s.idle ?? 0;
      e.undecided += s.undecided ?? 0;
      e.reason ??= s.reason;
      e.cut ??= s.cut;
    }
  }

  add(claims: readonly ClaimVerdict[]): void {
    claims.forEach((c, i) => {
      for (const r of c.clauses) {
        const e = this.entry(`${i}\u0000${r.clause}`, c.effect, r.clause);
        e.seen.add(r.status);
        if (r.status === 'holds' || r.status === 'violated') e.exercised++;
        else if (r.status === 'not exercised') e.idle++;
        else if (r.status === 'unknown') e.undecided++;
        // The first reason given is kept: a run that gave none leaves the field as it found it.
        if (r.status === 'unknown' && e.reason === undefined) e.reason = r.reason;
        if (r.status === 'inconclusive' && e.cut === undefined) e.cut = r.reason;
      }
    });
  }

  /** The clauses some run could not decide, with the first reason given. */
  undecided(): Undecided[] {
    return [...this.entries.values()].filter((e) => e.seen.has('unknown')).map((e) => ({ effect: e.effect, clause: e.clause, reason: e.reason ?? 'no reason given' }));
  }

  /**
   * Each claim that runs were judged for but none of whose clauses (quiescence aside) judged
   * anything in any of them. Such a claim reads what no component ever writes, or gives no
   * observer a run could use: a "holds" would be a pass that tested nothing (see judge).
   */
  vacuous(): Undecided[] {
    const byClaim = new Map<string, TallyEntry[]>();
    for (const [key, e] of this.entries) {
      const claim = key.slice(0, key.indexOf('\u0000'));
      const entries = byClaim.get(claim);
      if (entries === undefined) byClaim.set(claim, [e]);
      else entries.push(e);
    }
    const found: Undecided[] = [];
    for (const entries of byClaim.values()) {
      const judgedRuns = Math.max(...entries.map((e) => e.exercised + e.idle + e.undecided));
      const effectClauses = entries.filter((e) => e.clause !== 'quiescence');
      if (judgedRuns === 0 || effectClauses.some((e) => e.exercised > 0 || e.undecided > 0 || e.seen.has('inconclusive'))) continue;
      const idle = effectClauses.find((e) => e.idle > 0);
      const first = idle ?? effectClauses[0] ?? entries[0]!;
      const reason =
        idle === undefined
          ? 'the claim gives no observer a run could judge: every clause but quiescence is unchecked'
          : `no run of this search gave any clause of the claim anything to judge (${judgedRuns.toLocaleString('en-US')} run${judgedRuns === 1 ? '' : 's'} without one outcome or fact of it): no component writes what its observers read, or the search's bounds (a smaller --size, --max-depth) reached no run that would`;
      found.push({ effect: first.effect, clause: first.clause, reason });
    }
    return found;
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
      return { effect: e.effect, clause: e.clause, status, exercised: e.exercised, idle: e.idle, undecided: e.undecided, ...(reason === undefined ? {} : { reason }) };
    });
  }
}

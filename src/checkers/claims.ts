// An effect-uniqueness claim: the sentence every "exactly once" review should require, as data,
// plus how to observe the world it speaks about. Each part of the sentence is a clause, and each
// clause compiles to one checker of src/checkers/ over the durable end state; a clause whose
// observer the claim does not supply is reported "not checked", never counted as holding.
// report/claimSentence.ts renders the claim back to the sentence.
import type { WiringCheck } from './designIndex.ts';
import type { WorldView } from '../kernel/worldView.ts';

/** The clauses that judge outcomes against source facts, by the violation each finds. */
export const FACT_CLAUSES = ['lost effect', 'phantom effect'] as const;
export type FactClause = (typeof FACT_CLAUSES)[number];

/** What a claim promises about its effect. */
export type Guarantee =
  /** At most one committed outcome per key, and every committed source fact gets one. */
  | 'exactlyOnceEffect'
  /** At most one outcome per key; losing one is accepted and declared (page views). */
  | 'atMostOnce'
  /** Every fact gets an outcome; repeats are accepted and declared ("at least one attempt"). */
  | 'atLeastOnce';

/** One committed outcome of the effect, as the authority recorded it. */
export interface Outcome {
  /** The effect key, rendered (for example `o-1|1`). */
  readonly key: string;
  /** The canonical intent behind it, when the authority records one. */
  readonly intent?: string;
}

/** A reply a caller received for an intent (for same-intent replay). */
export interface Reply {
  readonly intent: string;
  readonly outcome: string;
  readonly ok: boolean;
}

/** An attempt with a different intent under a key that already had an outcome, and whether it was refused. */
export interface ConflictAttempt {
  readonly key: string;
  readonly refused: boolean;
}

/**
 * A revision of a published period's result after it was final, as the authority recorded it: a
 * `silent` one changed the result readers had without saying so (in place, under the same
 * version, or with no link to what it corrects); a visible one is a new version readers can
 * tell, or a correction linked to the result it corrects.
 */
export interface Revision {
  /** The period (a window) whose result was revised. */
  readonly key: string;
  readonly silent: boolean;
  /** How, in a few words: `revised in place after it closed`, `a correction linked to nothing`. */
  readonly how: string;
}

/** A column type of a table a claim declares as a view. */
export type SqlType = 'text' | 'bigint' | 'boolean' | 'jsonb';

/**
 * A table that is no database's: the authority's own records (a provider's ledger, a topic, a
 * results store) as the table a production team would query them in (the provider's export, a
 * topic's sink-connector table), or a history a team must keep to see the past (an audit table).
 * Its rows are read off the end state, so a query written over it can be run on a run's end state.
 */
export interface TableView {
  readonly table: string;
  readonly columns: Readonly<Record<string, SqlType>>;
  readonly rows: (view: WorldView) => readonly Readonly<Record<string, unknown>>[];
}

/**
 * A table the claim reads, with the entries that hold the key, in the claim's key order: a column,
 * a constant the table implies (a number or a quoted string: every order's reservation is version
 * 1), or an SQL expression over the row, its columns written `$column`.
 */
export interface ClaimTable {
  readonly table: string;
  readonly key: readonly string[];
  /** The condition that makes a row count (a source row that is a committed fact), in SQL, its columns written `$column`. */
  readonly where?: string;
  /** How a finding names the key, `{0}`, `{1}`… for its entries (`w{0}@v{1}`); the entries joined by `|` when absent. */
  readonly format?: string;
}

/** A table of applied versions in the order they were applied: an effect's history. */
export interface VersionHistory extends ClaimTable {
  /** The column holding the applied version. */
  readonly version: string;
  /** The column that orders the history (a commit sequence). */
  readonly order: string;
}

/**
 * Where the claim's effect and its source facts live, so a report can write the query that finds
 * the damage a finding points at: a fact with no effect, a key with two effects, an effect with
 * no fact, a version applied after a later one, and the rows that record the other findings.
 */
export interface ClaimTables {
  readonly effect: ClaimTable;
  /** The committed facts that must each yield the effect (the claim's `facts`). */
  readonly source?: ClaimTable;
  /** What an effect may answer to, when that is more than `source` (the claim's `sources`). */
  readonly causes?: ClaimTable;
  /** The effect's applied versions in commit order (the claim's `versions`). */
  readonly history?: VersionHistory;
  /** The rows whose key got two different results for one intent (the claim's `replies`). */
  readonly replays?: ClaimTable;
  /** The rows of a different intent accepted under a key bound to another (the claim's `conflicts`). */
  readonly conflicts?: ClaimTable;
  /** The rows that still say an outcome is not known (the claim's `unresolved`); several are one union, named by the first's format. */
  readonly unresolved?: readonly ClaimTable[];
  /** The rows that revised a final result silently (the claim's `revisions`). */
  readonly revisions?: ClaimTable;
  /** The tables above that are no database's, with how each reads off the end state. */
  readonly views?: readonly TableView[];
}

export interface Claim {
  /** The effect, in the reader's words: "inventory reservation". */
  readonly effect: string;
  /** The fields that identify one effect: ["order_id", "reservation_version"]. */
  readonly key: readonly string[];
  readonly namespace?: string;
  /** Who enforces uniqueness: "the inventory database's unique constraint". */
  readonly authority: string;
  /** For how long: "the lifetime of the order". */
  readonly lifetime: string;
  /** What a repeat of the same intent gets: "the stored reservation state". Absent: the claim says nothing of replies. */
  readonly sameIntent?: string;
  /** What a different intent under the same key gets: "a conflict; the reservation is unchanged". */
  readonly differentIntent?: string;
  /** How an unknown external completion is resolved: "status lookup by key". Absent for a local effect. */
  readonly unknownCompletion?: string;
  /**
   * What becomes of a result once its period is final: "a closed period is never revised in
   * place; a late fact becomes one correction linked to the closed result" (a ledger), or "a
   * revision carries a new version readers can see" (a dashboard). Absent: the claim says nothing
   * of finality.
   */
  readonly finality?: string;
  readonly guarantee?: Guarantee;
  /**
   * The clauses this claim declares it does not check, by the violation each finds: a claim with
   * no source facts to compare outcomes with says so here (`['lost effect', 'phantom effect']`),
   * since a claim that needs facts and has none is refused when its scenario is loaded.
   */
  readonly unchecked?: readonly FactClause[];
  /**
   * Checks of what the claim keys on against the design, run when the scenario is loaded: a
   * claim keyed on a payload field no record carries would give every outcome the empty key.
   */
  readonly wiring?: WiringCheck;
  /** The tables its outcomes and facts are read from, when they are tables. */
  readonly tables?: ClaimTables;

  /** Committed outcomes of the effect in the end state. */
  readonly outcomes: (view: WorldView) => readonly Outcome[];
  /** Keys of committed source facts that must each yield the effect (liveness, and phantom unless `sources` says otherwise). */
  readonly facts?: (view: WorldView) => readonly string[];
  /**
   * Keys an effect may answer to (phantom): every source fact that could legitimately have
   * caused it, when that is more than the facts that must yield it. A checkout attempt the client
   * was told failed may still have its order: that order is no phantom, though nobody owes it.
   */
  readonly sources?: (view: WorldView) => readonly string[];
  /** Per-aggregate version histories of what the effect applied, in commit order. */
  readonly versions?: (view: WorldView) => Readonly<Record<string, readonly number[]>>;
  /** Replies callers got, to check that the same intent always got the recorded result. */
  readonly replies?: (view: WorldView) => readonly Reply[];
  /** Attempts with a different intent under an existing key, and whether each was refused. */
  readonly conflicts?: (view: WorldView) => readonly ConflictAttempt[];
  /** Outcomes still unknown (pending, unresolved) at the end. */
  readonly unresolved?: (view: WorldView) => readonly string[];
  /** Every revision of a result after its period was final (for the finality clause). */
  readonly revisions?: (view: WorldView) => readonly Revision[];
}

// A clause of a claim and the checker it compiles to. A checker reports what it observed: nothing
// (the claim gives it no observer: the clause is "not checked"), or how many items it judged and
// what it found wrong. A clause that judged nothing in a run held vacuously there; summed over a
// sweep, a clause no run ever exercised is "not exercised", which is not the same as holding.
import type { Claim } from './claims.ts';
import type { WorldView } from '../kernel/worldView.ts';
import type { Finding, Violation } from './finding.ts';

export type ClauseId = 'atMostOne' | 'liveness' | 'phantom' | 'versions' | 'sameIntent' | 'differentIntent' | 'unknownResolved' | 'finality' | 'quiescence';

/** Every clause, in the order reports list them. */
export const CLAUSE_IDS: readonly ClauseId[] = ['atMostOne', 'liveness', 'phantom', 'versions', 'sameIntent', 'differentIntent', 'unknownResolved', 'finality', 'quiescence'];

/** The violation each clause finds, so a clause's status reads as the finding it stands for. */
export const CLAUSE_FINDS: Readonly<Record<ClauseId, Violation>> = {
  atMostOne: 'duplicate effect',
  liveness: 'lost effect',
  phantom: 'phantom effect',
  versions: 'order regression',
  sameIntent: 'replay mismatch',
  differentIntent: 'conflict mishandled',
  unknownResolved: 'unresolved unknown outcome',
  finality: 'silent revision',
  quiescence: 'stuck',
};

export type Observation =
  /** The claim supplies no observer for this clause. */
  | { readonly observed: false }
  /** `judged` items were looked at (outcomes, facts, replies…); `findings` are what was wrong. */
  | { readonly observed: true; readonly judged: number; readonly findings: readonly Finding[] };

export type Checker = (claim: Claim, view: WorldView) => Observation;

export const NOT_OBSERVED: Observation = { observed: false };

export function observed(judged: number, findings: readonly Finding[]): Observation {
  return { observed: true, judged, findings };
}

/**
 * A key read off the world that names no value: empty, or with a part that is `undefined`,
 * `null` or `NaN` as text. A claim reading a field or column its rows lack makes such keys
 * (`String(row.purchaseId)`), and judged as keys they would merge every outcome into one.
 */
function emptyKey(key: unknown): boolean {
  if (typeof key !== 'string') return true;
  return key === '' || NO_VALUE_PART.test(key);
}

/** A `|`-separated part of a key that is `undefined`, `null` or `NaN` as text (a test, not a split: it runs for every key of every run). */
const NO_VALUE_PART = /(?:^|\|)(?:undefined|null|NaN)(?:\||$)/;

function refuseEmpty(what: string, key: unknown): void {
  if (emptyKey(key)) throw new Error(`a${what === 'outcome' ? 'n' : ''} ${what} key ${JSON.stringify(key)} names no value: does the claim read a field or column its rows lack?`);
}

/**
 * What each observer gave for a view, once it gave it without a key that names no value. Three
 * clauses read a claim's outcomes and two its facts, in every run; a view is made for one end
 * state and never changes, and an observer is a function of it, so each is asked once a view.
 */
const observedBy = new WeakMap<WorldView, Map<Function, readonly unknown[]>>();

function observedOnce<T>(view: WorldView, claim: Claim, observer: (view: WorldView) => readonly T[], what: 'outcome' | 'fact', keyOf: (item: T) => unknown): readonly T[] {
  let byObserver = observedBy.get(view);
  const known = byObserver?.get(observer);
  if (known !== undefined) return known as readonly T[];
  // Called on its claim, as `claim.outcomes(view)` is: an observer written as a method may read `this`.
  const items = observer.call(claim, view);
  for (const item of items) refuseEmpty(what, keyOf(item));
  if (byObserver === undefined) observedBy.set(view, (byObserver = new Map()));
  byObserver.set(observer, items);
  return items;
}

/** A claim's outcomes, refused (the clause undecided) when a key names no value. */
export function outcomesOf(claim: Claim, view: WorldView): ReturnType<Claim['outcomes']> {
  return observedOnce(view, claim, claim.outcomes, 'outcome', (o) => o.key) as ReturnType<Claim['outcomes']>;
}

/** A claim's committed facts, refused (the clause undecided) when a key names no value. */
export function factsOf(claim: Claim & { readonly facts: NonNullable<Claim['facts']> }, view: WorldView): string[] {
  return [...observedOnce(view, claim, claim.facts, 'fact', (f) => f)];
}

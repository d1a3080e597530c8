// Which pairs of faults broke which clause, tallied over a `--pairs` sweep. A pair that breaks a
// clause one of its faults already breaks alone says nothing new: its break is counted against
// that fault. A pair that breaks a clause neither of its faults breaks alone is what pairs are
// run for: it is counted by the fault that struck first, with the first such pair (by plan
// number), whose plan replays it. Which clauses each single fault broke alone is tallied in the
// same sweep, so the two are told apart once every part is in. Plain data, merged in plan order
// like the rest of a sweep's tally, so parts made on other threads or machines merge into what
// one sweep would have made.
import type { ClaimVerdict } from '../checkers/compose.ts';
import type { ClauseId } from '../checkers/clause.ts';
import { faultLabel, faultPlaceName, type Fault } from '../faults/faults.ts';

/** A clause a pair's run broke: the pair (its first fault first) and its plan number. */
interface PairRun {
  readonly index: number;
  readonly first: Fault;
  readonly second: Fault;
}

export interface PairTallyState {
  /** Pair runs that broke some clause. */
  readonly broke: number;
  /** Each clause (effect and clause) some pair broke, with those pairs in plan order. */
  readonly breaks: readonly { readonly effect: string; readonly clause: ClauseId; readonly runs: readonly PairRun[] }[];
  /** Keys (fault, effect, clause) of clauses a single fault broke on its own. */
  readonly alone: readonly string[];
}

/** A clause pairs broke that neither of their faults breaks alone, by the fault that struck first. */
export interface FreshBreak {
  readonly first: Fault;
  readonly effect: string;
  readonly clause: ClauseId;
  /** Such pairs with this first fault. */
  readonly count: number;
  /** The first of them, by plan number, and its other fault. */
  readonly index: number;
  readonly second: Fault;
}

/** A clause a single fault breaks alone, and how many pairs with it broke it too. */
export interface KnownBreak {
  readonly fault: Fault;
  readonly effect: string;
  readonly clause: ClauseId;
  readonly count: number;
}

/** A fault as a key: its place, its kind (and restored component) and its occurrence. */
export function faultKey(f: Fault): string {
  return `${faultPlaceName(f)}\u0000${faultLabel(f)}\u0000${f.occurrence}`;
}

const clauseKey = (effect: string, clause: ClauseId) => `${effect}\u0000${clause}`;

function violated(claims: readonly ClaimVerdict[]): { effect: string; clause: ClauseId }[] {
  return claims.flatMap((c) => c.clauses.filter((k) => k.status === 'violated').map((k) => ({ effect: c.effect, clause: k.clause })));
}

export class PairTally {
  private readonly breaks = new Map<string, { effect: string; clause: ClauseId; runs: PairRun[] }>();
  private readonly alone = new Set<string>();
  private broke = 0;

  /** A single fault's run: the clauses it broke on its own. */
  addSingle(fault: Fault, claims: readonly ClaimVerdict[]): void {
    for (const v of violated(claims)) this.alone.add(`${faultKey(fault)}\u0000${clauseKey(v.effect, v.clause)}`);
  }

  /** A pair's run, numbered `index`: `first` struck first, `second` after it. */
  addPair(index: number, first: Fault, second: Fault, claims: readonly ClaimVerdict[]): void {
    const broken = violated(claims);
    if (broken.length > 0) this.broke++;
    for (const v of broken) this.entry(v.effect, v.clause).runs.push({ index, first, second });
  }

  private entry(effect: string, clause: ClauseId): { effect: string; clause: ClauseId; runs: PairRun[] } {
    const key = clauseKey(effect, clause);
    let e = this.breaks.get(key);
    if (e === undefined) this.breaks.set(key, (e = { effect, clause, runs: [] }));
    return e;
  }

  /** Adds the tally of later plans: the same as having added their runs here. */
  merge(state: PairTallyState): void {
    this.broke += state.broke;
    for (const k of state.alone) this.alone.add(k);
    // One push per run: a part's runs of one break can be too many to spread into one call.
    for (const b of state.breaks) {
      const runs = this.entry(b.effect, b.clause).runs;
      for (const r of b.runs) runs.push(r);
    }
  }

  state(): PairTallyState {
    return { broke: this.broke, breaks: [...this.breaks.values()].map((b) => ({ effect: b.effect, clause: b.clause, runs: [...b.runs] })), alone: [...this.alone].sort() };
  }

  /** Pair runs that broke some clause. */
  get brokeRuns(): number {
    return this.broke;
  }

  private breaksAlone(f: Fault, effect: string, clause: ClauseId): boolean {
    return this.alone.has(`${faultKey(f)}\u0000${clauseKey(effect, clause)}`);
  }

  /** What the pairs broke: what no single fault breaks alone, by first fault; and what one does, by that fault. */
  result(): { readonly fresh: FreshBreak[]; readonly known: KnownBreak[] } {
    const fresh = new Map<string, FreshBreak>();
    const known = new Map<string, KnownBreak>();
    for (const b of this.breaks.values()) {
      for (const r of [...b.runs].sort((x, y) => x.index - y.index)) {
        const culprit = this.breaksAlone(r.first, b.effect, b.clause) ? r.first : this.breaksAlone(r.second, b.effect, b.clause) ? r.second : undefined;
        const key = `${faultKey(culprit ?? r.first)}\u0000${clauseKey(b.effect, b.clause)}`;
        if (culprit !== undefined) {
          const k = known.get(key);
          known.set(key, { fault: culprit, effect: b.effect, clause: b.clause, count: (k?.count ?? 0) + 1 });
          continue;
        }
        const f = fresh.get(key);
        fresh.set(key, f === undefined ? { first: r.first, effect: b.effect, clause: b.clause, count: 1, index: r.index, second: r.second } : { ...f, count: f.count + 1 });
      }
    }
    return { fresh: [...fresh.values()].sort((a, b) => a.index - b.index), known: [...known.values()].sort((a, b) => b.count - a.count) };
  }
}

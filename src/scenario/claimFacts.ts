// A claim judges outcomes against source facts twice: every fact must yield its effect (the
// lost-effect clause) and every effect must answer to a fact (the phantom clause). A claim with no
// facts would pass the first by omission and fail the second on every outcome, so it is refused
// when its scenario is loaded unless it says which of those clauses are off (`unchecked`). A
// facts observer that takes no view reads nothing of the world: what it gives at load time is
// what it gives in every run, so one that gives nothing is no facts either.
import { FACT_CLAUSES, type Claim, type FactClause } from '../checkers/claims.ts';
import type { WorldView } from '../kernel/worldView.ts';

/** Whether an observer gives facts: it reads the world, or it is a constant list with something in it. */
function givesFacts(observer: ((view: WorldView) => readonly string[]) | undefined): boolean {
  if (observer === undefined) return false;
  if (observer.length > 0) return true;
  try {
    return observer(undefined as unknown as WorldView).length > 0;
  } catch {
    // It does read a view after all (through `arguments`, say), so it may give facts in a run.
    return true;
  }
}

/** The fact clauses a claim keeps: the lost-effect clause unless its guarantee accepts a loss, the phantom clause; less what it declares unchecked. */
export function factClausesOf(claim: Claim): readonly FactClause[] {
  const off = claim.unchecked ?? [];
  return FACT_CLAUSES.filter((c) => !off.includes(c) && !(c === 'lost effect' && claim.guarantee === 'atMostOnce'));
}

/** Why a claim cannot keep the fact clauses it has, or nothing. */
export function factProblems(claim: Claim): string[] {
  const observerOf = (c: FactClause) => (c === 'phantom effect' ? (claim.sources ?? claim.facts) : claim.facts);
  const needs = factClausesOf(claim).filter((c) => !givesFacts(observerOf(c)));
  if (needs.length === 0) return [];
  // An absent observer would pass its clause by omission; an empty one finds every outcome a phantom.
  const what = needs.map((c) => (c === 'lost effect' ? 'no lost effect could ever be found' : observerOf(c) === undefined ? 'no phantom effect could ever be found' : 'every outcome would be a phantom effect'));
  const given = claim.facts === undefined ? 'gives no facts(view)' : 'has a facts() that gives none';
  const off = `[${needs.map((c) => `'${c}'`).join(', ')}]`;
  return [`claim ${JSON.stringify(claim.effect)} ${given}, so ${what.join(' and ')}: give facts(view), the committed source facts that must each yield the effect, or turn those clauses off with unchecked: ${off}`];
}

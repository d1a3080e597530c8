// A claim's observers read once against the design's start, before any run: every component
// each asks for must be one the design draws, every table it reads one its database holds, and
// every reader must be given the kind of component it reads. A claim is code
// (`rowsOf(v.durable('shipmentDb'), 'shipments')`), so what it reads is found by reading it: a
// misspelt name then throws NotInDesign here (a reader given another kind of component,
// NotOfKind), where it is one line of bad input, rather than at the end of every run, where it
// would be judged. A read that only happens once some data exists is not seen here: the
// fault-free run reads those (src/run/referenceProbe.ts).
import type { Claim } from '../checkers/claims.ts';
import { CLAUSE_FINDS } from '../checkers/clause.ts';
import { clausesOf } from '../checkers/compose.ts';
import type { Violation } from '../checkers/finding.ts';
import { NotInDesign } from '../base/notInDesign.ts';
import type { DesignPart } from '../checkers/designIndex.ts';
import { stepperFor } from '../kernel/stepper.ts';
import type { WorldView } from '../kernel/worldView.ts';

/** Every component's durable state before the workload starts: what a machine's initial snapshot holds. */
export function startOf(components: readonly DesignPart[]): ReadonlyMap<string, unknown> {
  const out = new Map<string, unknown>();
  for (const c of components) {
    try {
      const stepper = c.stepper ? c.stepper() : stepperFor(c.machine, c.name, c.input, 'xstate').stepper;
      out.set(c.name, stepper.initial(c.input, []).context?.durable);
    } catch {
      // A machine that cannot start from its input alone fails its first run, which says why.
      out.set(c.name, undefined);
    }
  }
  return out;
}

/** The end state of a run that did nothing: the design's start, and a component it lacks refused. */
function startView(start: ReadonlyMap<string, unknown>): WorldView {
  return {
    durable: <T>(name: string) => {
      if (!start.has(name)) throw new NotInDesign('component', name, [...start.keys()], 'the design');
      return start.get(name) as T;
    },
    result: { ending: { kind: 'quiescent' } },
    notes: [],
  };
}

/** The errors a reader throws for a read the drawing cannot answer: a name it lacks, a component of another kind. */
export const READ_MISTAKES: ReadonlySet<string> = new Set(['NotInDesign', 'NotOfKind']);

/** The observers of a claim, by the name a user gave them. */
export function observersOf(claim: Claim): readonly (readonly [string, (view: WorldView) => unknown])[] {
  const named = (['outcomes', 'facts', 'sources', 'versions', 'replies', 'conflicts', 'unresolved', 'revisions'] as const).flatMap((k) => {
    const f = claim[k];
    return typeof f === 'function' ? [[`${k}()`, f as (view: WorldView) => unknown] as const] : [];
  });
  const views = (claim.tables?.views ?? []).map((v) => [`view ${v.table}`, v.rows] as const);
  return [...named, ...views];
}

/** What each observer of the claim reads that the design does not have, one phrase each. */
export function probeClaim(claim: Claim, start: ReadonlyMap<string, unknown>): string[] {
  const view = startView(start);
  const problems: string[] = [];
  for (const [name, observe] of observersOf(claim)) {
    try {
      observe(view);
    } catch (error) {
      // Only a read of something missing is a mistake in the drawing; anything else an observer
      // does with an empty start is its own affair, judged (or made unknown) in the runs.
      // By name: a user's file may import another copy of faultline than the command's.
      if (error instanceof Error && READ_MISTAKES.has(error.name)) problems.push(`claim ${JSON.stringify(claim.effect)}: ${name} ${error.message}`);
    }
  }
  return problems;
}

/**
 * The violations the claims can find at all: those of each clause whose checker has the observer
 * it reads (a claim without `versions(view)` can never find an order regression). Which observers
 * a claim gives does not change from run to run, so the design's start tells it; a checker that
 * throws there may still find something in a run.
 */
export function findableViolations(claims: readonly Claim[], start: ReadonlyMap<string, unknown>): Set<Violation> {
  const view = startView(start);
  const out = new Set<Violation>();
  for (const claim of claims) {
    for (const [id, checker] of clausesOf(claim)) {
      let seen = true;
      try {
        seen = checker(claim, view).observed;
      } catch {
        seen = true;
      }
      if (seen) out.add(CLAUSE_FINDS[id]);
    }
  }
  return out;
}

// A state of the exhaustive search, as a class: every state the search makes, whether a step
// froze it (src/check/checkWorld.ts) or a breadth-first level rebuilt it from a row
// (src/check/frontier.ts), has this one shape, so the search's reads of its fields see one kind of
// object. Its parts are generic only so a level can be tested with parts of its own.
export class SearchState<C, L> {
  constructor(
    readonly now: number,
    readonly comps: readonly C[],
    /** Links with something in flight or held, in key order. */
    readonly links: readonly L[],
    readonly faults: number,
    readonly lastProgress: number,
    /** The tick of the last fault; -1 before the first. */
    readonly lastFault: number,
    /** Numbers the links of unordered sends, which each travel on their own connection. */
    readonly nextUnordered: number,
    /** Messages sent so far, by point id: the `n` of the next one; not part of the state's identity, and empty in a search. */
    readonly sent: readonly number[],
  ) {}

  /** The same state with the clock at `now`. */
  at(now: number): SearchState<C, L> {
    return new SearchState(now, this.comps, this.links, this.faults, this.lastProgress, this.lastFault, this.nextUnordered, this.sent);
  }
}

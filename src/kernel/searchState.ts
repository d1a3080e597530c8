// A state of the exhaustive search, as a class: every state the search makes, whether a step
// froze it (src/kernel/draft.ts) or a breadth-first level rebuilt it from a row
// (src/modes/check/frontier.ts), has this one shape, so the search's reads of its fields see one kind of
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
    /** The counters of a world that draws its latencies (the World's runs); absent in a search. */
    readonly exact?: Exact,
    /**
     * Ticks the clock spent still (Kernel.activeTicks says which): they do not count toward the
     * liveness bound, so a path waiting days for a timer reaches it.
     */
    readonly stillTicks = 0,
    /**
     * The tick the faults were healed at (-1 before): the World heals when its phase with faults
     * ends, a search when a path first goes quiet. Quiet is measured from it, so every timer still
     * pending then fires once more before the world is quiet for good.
     */
    readonly healTick = -1,
    /**
     * Whether the clock was just advanced to this state with nothing happening (a search's
     * `advance`). The World asks whether it is quiet only after a step, never at a tick it jumps
     * to before the step due there, so a search does not either.
     */
    readonly jumped = false,
  ) {}

  /** The same state with the clock at `now`. */
  at(now: number): SearchState<C, L> {
    return new SearchState(now, this.comps, this.links, this.faults, this.lastProgress, this.lastFault, this.nextUnordered, this.sent, this.exact, this.stillTicks, this.healTick);
  }

  /** The clock advanced to `now` with nothing happening, `active` ticks of it counting toward the liveness bound (Kernel.activeTicks). */
  jump(now: number, active: number): SearchState<C, L> {
    const still = this.stillTicks + (now - this.now - active);
    return new SearchState(now, this.comps, this.links, this.faults, this.lastProgress, this.lastFault, this.nextUnordered, this.sent, this.exact, still, this.healTick, true);
  }
}

/**
 * What a world that fixes each message's landing tick when it is sent keeps besides: the next
 * schedule number (everything due at one tick happens in the order it was scheduled), how many
 * messages were sent (a schedule of latencies is read by it), and the order links first held
 * messages back in. None of it is part of a searched state.
 */
export interface Exact {
  readonly nextSeq: number;
  readonly sends: number;
  readonly nextHeld: number;
}

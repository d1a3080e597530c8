// When a run has nothing left to do: the one quiet rule, which the World (windows, explore,
// replay) and check mode both ask, so a path ends at the same moment whichever engine runs it.
//
// A world is quiet when nothing is on its way or held back, nobody is down (so nothing restarts),
// every process rests in an `idle` state, every other component that holds a timer is idle too,
// `quietTicks` have gone by since the last change (the later of the last durable change, the
// last fault and the heal), and no timer a live component holds could still change something.
// That last part is what a poll loop or a redelivery sweep needs: a timer that fires every `d`
// ticks and acts on work at least `d` old (a broker redelivering what was delivered and never
// committed) has handled everything that was there at the last change only once it has fired
// `d` or more after that change. So each pending timer that can fire within the liveness phase
// must have been armed at least its own delay after the last change (by such a firing, for a
// periodic timer); one armed earlier still holds work it may redo, and keeps the world awake,
// however long it is: a two-hour visibility timeout or a thirty-day partner redelivery still
// comes, and a run judged before it would report the wait as a lost effect. A timer re-armed for
// what is left of a wait begun earlier (a database's idle-in-transaction timeout, which checks on
// firing whether the transaction was touched meanwhile) names the tick that wait began in its
// event's `waitedSince`, and counts as armed then for the whole wait: read as a short timer armed
// late, it would look as if it had nothing left to redo, and a search with no heal to wake it
// would end with the transaction's locks still held. (A stretch of time in
// which nothing happens costs a run nothing: the World jumps it, see World.runPhase.)

/** What the rule reads of a world; each engine answers from its own state, without copying it. */
export interface QuietSubject {
  readonly now: number;
  /** The later of the last durable change, the last fault and the heal. */
  readonly since: number;
  /** Whether a message is on its way (or, unless `ignoreHeld` is asked, held back by a reorder). */
  carrying(ignoreHeld: boolean): boolean;
  readonly components: number;
  isDown(i: number): boolean;
  /** Whether component `i` rests in a state tagged `idle`. */
  isIdle(i: number): boolean;
  isProcess(i: number): boolean;
  timerCount(i: number): number;
  /** The tick timer `k` of component `i` was armed at, and the delay it was armed with. */
  timerSet(i: number, k: number): number;
  timerDelay(i: number, k: number): number;
}

export interface QuietOptions {
  readonly quietTicks: number;
}

/** Whether the world is quiet; `ignoreHeld` asks whether only held-back messages keep it awake. */
export function isQuiet(w: QuietSubject, o: QuietOptions, ignoreHeld = false): boolean {
  if (w.carrying(ignoreHeld)) return false;
  const since = w.since;
  for (let i = 0; i < w.components; i++) {
    if (w.isDown(i)) return false;
    const timers = w.timerCount(i);
    if (!w.isIdle(i) && (w.isProcess(i) || timers > 0)) return false;
    for (let k = 0; k < timers; k++) if (timerKeepsAwake(w.timerSet(i, k), w.timerDelay(i, k), since)) return false;
  }
  return w.now - since >= o.quietTicks;
}

/** Whether a timer armed at `set` for `delay` ticks may still redo work that was there at `since`. */
export function timerKeepsAwake(set: number, delay: number, since: number): boolean {
  return set < since + delay;
}

// Memoised component steps for the exhaustive search. A component's step is a pure function of
// its snapshot and the event (src/kernel/stepper.ts), and a search meets the same pair again and again:
// a global state is a product of component states, so one database snapshot receives the same
// request in every state that differs only in the other components (a breadth-first level of
// mercury-outbox at two faults holds 69,271 states and at most 183 distinct states of any one
// component). Breadth-first levels keep one object per distinct component state
// (src/modes/check/frontier.ts), and a step answered here hands back the very snapshot object it made
// the first time, so a snapshot is usually met again by identity; the hashes the search asks of a
// step (of its next context, and of each event it sends or sets a timer for) are kept with it, so
// a step answered here hashes nothing. On mercury-outbox 29 steps in 30 are answered here.
//
// The key is the snapshot object, the event as sent (by its 64-bit structural hash, the identity
// the visited set already relies on: two different events with the same hash sent to one snapshot
// would be taken for one), its sender and the tick it lands at, the last two compared exactly. The
// event the stepper sees, stamped with sender and tick, is built only for a step not answered
// here. The table is dropped whole once it has taken so many new steps, so its memory stays
// bounded however long the search; a dropped step is only worked out again.
import type { EventObject } from 'xstate';
import { arrived } from './arrived.ts';
import type { ExecutedAction } from './compiledMachine.ts';
import type { MachineSnapshot, Stepper } from './stepper.ts';
import { stateKey } from './stateKey.ts';
import { hashOf, type Hash64 } from './stateHash.ts';

/**
 * A step taken, as the table keeps it, with the hashes the search asks of it: a step answered
 * here hashes nothing again.
 */
export interface Step {
  readonly next: MachineSnapshot;
  readonly actions: readonly ExecutedAction[];
  /** The state `next` rests in, as `stateKey` names it (src/kernel/stateKey.ts). */
  readonly state: string;
  /** Whether it left its state and entered it again (`reenter: true`). */
  readonly reentered: boolean;
  /** The hash of `next`'s context. */
  readonly contextHash: Hash64;
  /** By action, the hash of the event it sends or sets a timer for (`actionEventOf`), where it has one. */
  readonly eventHashes: readonly (Hash64 | undefined)[];
}

/** The event an action sends (an emitted `send`) or sets a timer for (a raise), if any. */
export function actionEventOf(action: ExecutedAction): EventObject | undefined {
  if (action.type === 'xstate.raise') return (action.params as { event: EventObject }).event;
  if (action.type !== 'xstate.emit') return undefined;
  const e = (action.params as { event: { type: string; event?: EventObject } }).event;
  return e.type === 'send' ? e.event : undefined;
}

/** `actionEventOf`'s event hashed, by action. */
export function eventHashesOf(actions: readonly ExecutedAction[]): (Hash64 | undefined)[] {
  return actions.map((a) => {
    const e = actionEventOf(a);
    return e === undefined ? undefined : hashOf(e);
  });
}

interface Kept extends Step {
  readonly hi: number;
  readonly lo: number;
  readonly from: string | undefined;
  readonly at: number;
}

/** New steps the table takes before it starts afresh. */
export const TRANSITION_CACHE_STEPS = 5_000;

export class TransitionCache {
  /** Steps by snapshot, then by part of the event hash's high lane (a short list, told apart by the rest). */
  private steps = new WeakMap<MachineSnapshot, Map<number, Kept[]>>();
  private kept = 0;
  /** Steps answered from the table, and steps the stepper took. */
  hits = 0;
  misses = 0;

  /** `limit` new steps are kept before the table starts afresh; 0 keeps none. */
  constructor(private readonly limit = TRANSITION_CACHE_STEPS) {}

  /**
   * The step of `stepper` from `snapshot` on `event` sent by `from` (undefined for a timer or
   * the world's own event) landing at tick `at`: its next snapshot, its actions and whether it
   * re-entered its state. Given `actions`, the step's actions are appended to it too, as the
   * stepper would have appended them. `eventHash` is the event's hash when the caller has it.
   */
  step(stepper: Stepper, snapshot: MachineSnapshot, event: EventObject, from: string | undefined, at: number, actions?: ExecutedAction[], eventHash: Hash64 = hashOf(event)): Step {
    const hi = eventHash[0];
    const lo = eventHash[1];
    // Keyed by 30 bits of the high lane, a small integer, so the key is never a boxed number.
    const key = hi & 0x3fffffff;
    let byEvent = this.steps.get(snapshot);
    const known = byEvent?.get(key);
    if (known !== undefined) {
      for (const k of known) {
        if (k.lo !== lo || k.hi !== hi || k.from !== from || k.at !== at) continue;
        this.hits++;
        if (actions !== undefined) for (const a of k.actions) actions.push(a);
        return k;
      }
    }
    this.misses++;
    const stamped = arrived(event, from, at);
    const out = actions ?? [];
    const first = out.length;
    const next = stepper.transition(snapshot, stamped, out);
    const own = actions === undefined ? out : out.slice(first);
    const reentered = stepper.lastReentered;
    // A stepper that failed has no context to hash; the caller reports the failure.
    const contextHash = next.status === 'error' ? hashOf(null) : hashOf(next.context);
    const state = next.status === 'error' ? '' : stateKey(next.value);
    const kept: Kept = { hi, lo, from, at, next, state, actions: own, reentered, contextHash, eventHashes: eventHashesOf(own) };
    if (this.limit === 0) return kept;
    if (++this.kept > this.limit) {
      this.steps = new WeakMap();
      this.kept = 1;
      byEvent = undefined;
    }
    if (byEvent === undefined) {
      byEvent = new Map();
      this.steps.set(snapshot, byEvent);
    }
    const list = byEvent.get(key);
    if (list === undefined) byEvent.set(key, [kept]);
    else list.push(kept);
    return kept;
  }
}

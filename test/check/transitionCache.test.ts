// Remembered component steps: a step asked again (the same snapshot object, an equal event, the
// same sender and tick) is answered without the stepper, with the same next snapshot and actions;
// any difference is a new step; the table forgets at its limit. On real designs a search with the
// table and one without give the same result in every figure, path and trace hash.
import type { EventObject } from 'xstate';
import { sampled } from '../support/suite.ts';
import { describe, expect, it } from 'vitest';
import { check } from '../../src/modes/check/check.ts';
import { TransitionCache } from '../../src/kernel/transitionCache.ts';
import { loadScenario } from '../../src/scenario/catalogue.ts';
import type { ExecutedAction } from '../../src/kernel/compiledMachine.ts';
import type { MachineSnapshot, Stepper } from '../../src/kernel/stepper.ts';

interface FakeStepper extends Stepper {
  /** Whether its next step re-enters its state. */
  reenter: boolean;
  lastReentered: boolean;
}

/** A counter machine: each step adds the event's `n` and emits a note of what it saw. */
function counter() {
  const seen: EventObject[] = [];
  const snap = (v: number): MachineSnapshot => ({ value: 'on', context: { v }, status: 'active', hasTag: () => false });
  const stepper: FakeStepper = {
    reenter: false,
    lastReentered: false,
    initial: () => snap(0),
    transition(s, e, actions) {
      seen.push(e);
      actions.push({ type: 'xstate.emit', params: { event: { type: 'note', kind: 'saw', data: e } } } as ExecutedAction);
      this.lastReentered = this.reenter;
      return snap((s.context as { v: number }).v + (e as unknown as { n: number }).n);
    },
  };
  return { stepper, seen, start: snap(0) };
}

describe('TransitionCache', () => {
  it('answers a step asked again from the table: the same next snapshot and actions, and the stepper not asked', () => {
    const { stepper, seen, start } = counter();
    const cache = new TransitionCache();
    const first: ExecutedAction[] = [{ type: 'earlier' } as ExecutedAction];
    const a = cache.step(stepper, start, { type: 'add', n: 2 } as EventObject, 'db', 5, first);
    expect(seen).toEqual([{ type: 'add', n: 2, from: 'db', at: 5 }]);
    // An equal event, not the same object: the structural hash names it.
    const again: ExecutedAction[] = [];
    const b = cache.step(stepper, start, { type: 'add', n: 2 } as EventObject, 'db', 5, again);
    expect(seen).toHaveLength(1);
    expect(b.next).toBe(a.next);
    // The very action objects come back, not copies.
    expect(again).toHaveLength(1);
    expect(again[0]).toBe(first[1]);
    expect(first).toHaveLength(2);
    expect([cache.hits, cache.misses]).toEqual([1, 1]);
  });

  it('takes a step anew where the snapshot, the event, the sender or the tick differs, and stamps a timer without a sender', () => {
    const { stepper, seen, start } = counter();
    const cache = new TransitionCache();
    const e = { type: 'add', n: 1 } as EventObject;
    cache.step(stepper, start, e, 'db', 5, []);
    cache.step(stepper, start, e, 'relay', 5, []);
    cache.step(stepper, start, e, 'db', 6, []);
    cache.step(stepper, start, e, undefined, 5, []);
    cache.step(stepper, start, { type: 'add', n: 3 } as EventObject, 'db', 5, []);
    // An equal snapshot that is another object is not looked up by value.
    cache.step(stepper, { ...start }, e, 'db', 5, []);
    expect(seen).toEqual([
      { type: 'add', n: 1, from: 'db', at: 5 },
      { type: 'add', n: 1, from: 'relay', at: 5 },
      { type: 'add', n: 1, from: 'db', at: 6 },
      { type: 'add', n: 1, at: 5 },
      { type: 'add', n: 3, from: 'db', at: 5 },
      { type: 'add', n: 1, from: 'db', at: 5 },
    ]);
    expect(cache.hits).toBe(0);
  });

  it('keeps whether the step re-entered its state', () => {
    const { stepper, start } = counter();
    const cache = new TransitionCache();
    stepper.reenter = true;
    expect(cache.step(stepper, start, { type: 'add', n: 1 } as EventObject, 'db', 1, []).reentered).toBe(true);
    stepper.reenter = false;
    stepper.lastReentered = false;
    expect(cache.step(stepper, start, { type: 'add', n: 1 } as EventObject, 'db', 1, []).reentered).toBe(true);
  });

  it('starts afresh past its limit, and keeps nothing at 0', () => {
    const { stepper, seen, start } = counter();
    const two = new TransitionCache(2);
    for (const n of [1, 2, 1, 3, 3, 1]) two.step(stepper, start, { type: 'add', n } as EventObject, 'db', 0, []);
    // Two steps kept: 1 is found again. The third new step starts the table afresh with itself
    // alone: 3 is found again, 1 is not.
    expect(seen.map((e) => (e as unknown as { n: number }).n)).toEqual([1, 2, 3, 1]);
    expect([two.hits, two.misses]).toEqual([2, 4]);
    const none = new TransitionCache(0);
    none.step(stepper, start, { type: 'add', n: 1 } as EventObject, 'db', 0, []);
    none.step(stepper, start, { type: 'add', n: 1 } as EventObject, 'db', 0, []);
    expect([none.hits, none.misses]).toEqual([0, 2]);
  });
});

describe('a search with remembered steps', () => {
  // outbox-servers-crash strikes servers inside their steps, which asks for each such step twice;
  // stream-clock-skew sends the world's own skew event; the last case steps by XState's own driver.
  // The quick suite keeps the server crashes under both drivers (test/support/suite.ts).
  it.each(
    sampled(
      [
        ['mercury-outbox', 'compiled'],
        ['inventory-inbox-separate-tx', 'compiled'],
        ['outbox-servers-crash', 'compiled'],
        ['email-confirmation-restored-snapshot', 'compiled'],
        ['stream-clock-skew', 'compiled'],
        ['outbox-servers-crash', 'xstate'],
      ] as const,
      ([name]) => name === 'outbox-servers-crash',
    ),
  )('%s (%s driver): the same result as one that works every step out anew', async (name, driver) => {
    const { scenario } = await loadScenario(name);
    const options = { faults: 1, failFast: false, maxStates: driver === 'xstate' ? 5_000 : 40_000, driver } as const;
    const fresh = check(scenario, { ...options, transitionCache: false });
    const kept = check(scenario, options);
    expect(kept).toEqual(fresh);
  }, 120_000);
});

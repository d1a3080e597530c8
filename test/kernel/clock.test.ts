import { describe, expect, it } from 'vitest';
import { createActor, setup } from 'xstate';
import { SimClock } from '../../src/kernel/clock.ts';

const blinker = setup({}).createMachine({
  initial: 'off',
  states: { off: { after: { 10: 'on' } }, on: { after: { 5: 'off' } } },
});

describe('SimClock', () => {
  it('runs an XState actor\'s delayed transitions in simulated ticks, never on real timers', () => {
    const clock = new SimClock();
    const actor = createActor(blinker, { clock }).start();
    expect(actor.getSnapshot().value).toBe('off');
    clock.runUntil(9);
    expect(actor.getSnapshot().value).toBe('off');
    clock.runUntil(10);
    expect(actor.getSnapshot().value).toBe('on');
    clock.runUntil(15);
    expect(actor.getSnapshot().value).toBe('off');
    expect(clock.now).toBe(15);
    actor.stop();
  });

  it('cancels a timer through clearTimeout and refuses to run backwards', () => {
    const clock = new SimClock();
    let fired = 0;
    const id = clock.setTimeout(() => fired++, 3);
    clock.setTimeout(() => fired++, 4);
    clock.clearTimeout(id);
    clock.runUntil(10);
    expect(fired).toBe(1);
    expect(() => clock.advanceTo(2)).toThrow();
  });
});

// Simulated time. A tick is the simulation's only unit of time; nothing here reads the host's
// clock. SimClock implements XState's `Clock`, so an actor created with `{ clock }` runs its
// delayed transitions in ticks, and the World uses the same clock for the delayed events that
// the pure machine steps ask for.
import type { ActorOptions, AnyActorLogic } from 'xstate';
import { Schedule } from './schedule.ts';

/** XState's `Clock` (the `clock` option of `createActor`), which its index does not export by name. */
export type Clock = NonNullable<ActorOptions<AnyActorLogic>['clock']>;

/** A callback due at a tick. */
export interface TimerTask {
  readonly kind: 'timer';
  readonly run: () => void;
}

export class SimClock implements Clock {
  private nowTick = 0;

  constructor(readonly schedule: Schedule<TimerTask | { kind: string }> = new Schedule()) {}

  get now(): number {
    return this.nowTick;
  }

  /**
   * XState's Clock: `timeout` is in ticks. Returns an id that `clearTimeout` accepts. Written as
   * properties so the simulated timer is never mistaken for the host's.
   */
  readonly setTimeout = (fn: (...args: unknown[]) => void, timeout: number): number => this.setTimer(fn, timeout);

  readonly clearTimeout = (id: number): void => this.schedule.cancel(id);

  /** Schedules `run` after `delayTicks`; the returned seq cancels it through `clearTimeout`. */
  setTimer(run: () => void, delayTicks: number): number {
    const task: TimerTask = { kind: 'timer', run };
    return this.schedule.push(this.nowTick + Math.max(0, Math.ceil(delayTicks)), task);
  }

  /** Moves time forward; time never runs backwards, so an out-of-order call is a harness bug. */
  advanceTo(tick: number): void {
    if (tick < this.nowTick) throw new Error(`SimClock cannot go back from ${this.nowTick} to ${tick}`);
    this.nowTick = tick;
  }

  /**
   * Runs every task due up to `tick` in (tick, seq) order, then stops at `tick`. Used when a
   * hosted actor (rather than the World) owns the schedule.
   */
  runUntil(tick: number): number {
    let ran = 0;
    for (let next = this.schedule.peek(); next && next.tick <= tick; next = this.schedule.peek()) {
      this.schedule.pop();
      this.advanceTo(next.tick);
      const task = next.item;
      if (task.kind === 'timer') (task as TimerTask).run();
      ran++;
    }
    this.advanceTo(Math.max(this.nowTick, tick));
    return ran;
  }
}

// The timers one component has pending in the World, by the id its machine gave each (XState's
// `xstate.after.…` ids, a model's own such as a database's `idle <tx>`, or `#<seq>` for an
// unnamed one). A component holds a few at a time and sets and clears one on most steps, so they
// sit in two short lists searched in order, which never give their slots back: a Map
// reallocates its table as entries come and go, and so does a list that is spliced, which made
// timer churn a steady share of a run's garbage.

/** A timer the World scheduled: its place in the schedule, the delay it was set for, and the tick it was set at. */
export interface PendingTimer {
  readonly seq: number;
  readonly delay: number;
  readonly set: number;
}

/** What a freed slot holds, so it keeps no timer alive. */
const FREE: PendingTimer = { seq: -1, delay: 0, set: 0 };

export class TimerTable {
  private readonly ids: string[] = [];
  private readonly timers: PendingTimer[] = [];
  private count = 0;

  get size(): number {
    return this.count;
  }

  /** The i-th pending timer in the order they were first set, for i below `size`. */
  at(i: number): PendingTimer {
    return this.timers[i]!;
  }

  get(id: string): PendingTimer | undefined {
    const i = this.indexOf(id);
    return i < 0 ? undefined : this.timers[i];
  }

  /** Sets a timer; one set again under the same id keeps its place, as a Map's entry does. */
  set(id: string, timer: PendingTimer): void {
    const i = this.indexOf(id);
    if (i >= 0) {
      this.timers[i] = timer;
      return;
    }
    this.ids[this.count] = id;
    this.timers[this.count] = timer;
    this.count++;
  }

  delete(id: string): boolean {
    const i = this.indexOf(id);
    if (i < 0) return false;
    for (let j = i + 1; j < this.count; j++) {
      this.ids[j - 1] = this.ids[j]!;
      this.timers[j - 1] = this.timers[j]!;
    }
    this.count--;
    this.ids[this.count] = '';
    this.timers[this.count] = FREE;
    return true;
  }

  clear(): void {
    for (let i = 0; i < this.count; i++) {
      this.ids[i] = '';
      this.timers[i] = FREE;
    }
    this.count = 0;
  }

  /** Every id with its timer, in the order they were first set: what a saved World keeps. */
  entries(): (readonly [string, PendingTimer])[] {
    const out: (readonly [string, PendingTimer])[] = [];
    for (let i = 0; i < this.count; i++) out.push([this.ids[i]!, this.timers[i]!]);
    return out;
  }

  private indexOf(id: string): number {
    for (let i = 0; i < this.count; i++) if (this.ids[i] === id) return i;
    return -1;
  }
}

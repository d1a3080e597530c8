// The queue of everything that will happen: message deliveries and timer expiries, each at a
// simulated tick. Entries leave in (tick, seq) order, where seq is the order of scheduling, so
// two entries due at the same tick never race on the host's iteration order.

export interface Scheduled<T> {
  readonly tick: number;
  readonly seq: number;
  readonly item: T;
}

/** A schedule as it stood at one moment, for `Schedule.load`; its entries are never changed. */
export interface ScheduleState<T> {
  readonly heap: readonly Scheduled<T>[];
  readonly nextSeq: number;
  readonly cancelled: readonly number[];
}

export class Schedule<T> {
  private heap: Scheduled<T>[] = [];
  private nextSeq = 0;
  private cancelled = new Set<number>();

  get size(): number {
    return this.heap.length - this.cancelled.size;
  }

  /** Adds an item due at `tick` and returns its seq, which `cancel` accepts. */
  push(tick: number, item: T): number {
    const entry: Scheduled<T> = { tick, seq: this.nextSeq++, item };
    const heap = this.heap;
    heap.push(entry);
    let i = heap.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!before(entry, heap[parent]!)) break;
      heap[i] = heap[parent]!;
      i = parent;
    }
    heap[i] = entry;
    return entry.seq;
  }

  /**
   * Cancels a pending entry; an entry already taken (or unknown) is left alone. It looks for the
   * entry in the heap: cancels are rare (a timer cancelled, a crash) and the heap is short, while
   * a set of the seqs in it would be kept up on every push and take.
   */
  cancel(seq: number): void {
    const heap = this.heap;
    for (let i = 0; i < heap.length; i++) {
      if (heap[i]!.seq === seq) {
        this.cancelled.add(seq);
        return;
      }
    }
  }

  peek(): Scheduled<T> | undefined {
    this.dropCancelled();
    return this.heap[0];
  }

  pop(): Scheduled<T> | undefined {
    this.dropCancelled();
    return this.take();
  }

  /** Removes every entry for which `drop` is true (healing drops the pending restarts). */
  removeWhere(drop: (item: T) => boolean): void {
    const kept = this.heap.filter((e) => !this.cancelled.has(e.seq) && !drop(e.item));
    this.cancelled.clear();
    this.heap = [];
    for (const e of kept.sort(compare)) this.heap.push(e);
  }

  /** What `load` needs to put this schedule back as it is now. */
  save(): ScheduleState<T> {
    return { heap: [...this.heap], nextSeq: this.nextSeq, cancelled: [...this.cancelled] };
  }

  /** Becomes the schedule `save` saw: the same entries in the same heap order, the same next seq. */
  load(state: ScheduleState<T>): void {
    this.heap = [...state.heap];
    this.nextSeq = state.nextSeq;
    this.cancelled = new Set(state.cancelled);
  }

  /** Every live entry, in delivery order; for inspection and reports, not the hot path. */
  entries(): Scheduled<T>[] {
    return this.heap.filter((e) => !this.cancelled.has(e.seq)).sort(compare);
  }

  private dropCancelled(): void {
    // Most schedules have nothing cancelled; every peek and take asks, so the empty case is cut short.
    if (this.cancelled.size === 0) return;
    while (this.heap.length > 0 && this.cancelled.has(this.heap[0]!.seq)) {
      this.cancelled.delete(this.heap[0]!.seq);
      this.take();
    }
  }

  private take(): Scheduled<T> | undefined {
    const heap = this.heap;
    const top = heap[0];
    const last = heap.pop();
    if (top === undefined || last === undefined || heap.length === 0) return top;
    let i = 0;
    const n = heap.length;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) break;
      const r = l + 1;
      const child = r < n && before(heap[r]!, heap[l]!) ? r : l;
      if (!before(heap[child]!, last)) break;
      heap[i] = heap[child]!;
      i = child;
    }
    heap[i] = last;
    return top;
  }
}

function before<T>(a: Scheduled<T>, b: Scheduled<T>): boolean {
  return a.tick < b.tick || (a.tick === b.tick && a.seq < b.seq);
}

function compare<T>(a: Scheduled<T>, b: Scheduled<T>): number {
  return a.tick - b.tick || a.seq - b.seq;
}

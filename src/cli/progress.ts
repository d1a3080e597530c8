// The progress line a long command draws on a terminal's stderr, and erases before it prints
// its answer: what it is working on, how far it has come, how fast, and about how long is
// left (`[2/5] orders-shipping: run 1,234 of 35,512 · 412 runs/s · about 1 m 23 s left`). It is
// drawn only when stderr is a terminal, never into a pipe or a log, and at most ten times a
// second, whatever the rate of the work. Time is read here, in the command line, never in the
// engine.
import { thousands } from '../report/thousands.ts';
import type { CliIo } from './io.ts';

/** The least time between two redraws, in milliseconds. */
const REDRAW_MS = 100;

/** A duration in seconds as a reader estimates it: `12 s`, `4 m 05 s`, `1 h 12 m`. */
export function durationText(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} m ${String(s % 60).padStart(2, '0')} s`;
  return `${Math.floor(s / 3600)} h ${String(Math.floor((s % 3600) / 60)).padStart(2, '0')} m`;
}

export class Progress {
  private label = '';
  private total: number | undefined;
  /** Whether `total` is only a bound the work may stop short of (a check's state bound). */
  private bound = false;
  private started = 0;
  private drawn = -Infinity;
  private shown = false;

  /** `unit` names what is counted (`run`, `state`); nothing is drawn unless `enabled`. */
  constructor(
    private readonly io: CliIo,
    private readonly unit: string,
    readonly enabled: boolean,
  ) {}

  /** Starts counting a new piece of work; `total` is how many units it holds, or with `bound` the most it can hold, when known. */
  begin(label: string, total?: number, bound = false): void {
    this.label = label;
    this.total = total;
    this.bound = bound;
    this.started = this.enabled ? this.io.now() : 0;
    this.drawn = -Infinity;
  }

  /** Redraws the line for `done` units of the current work (of `total`, once known), unless it was drawn a moment ago. */
  update(done: number, total?: number): void {
    if (!this.enabled) return;
    if (total !== undefined) this.total = total;
    const now = this.io.now();
    if (now - this.drawn < REDRAW_MS && done !== this.total) return;
    this.drawn = now;
    this.shown = true;
    this.io.progress(`\r${this.line(done, (now - this.started) / 1000)}\u001b[K`);
  }

  /** Erases the line, so the answer prints on a clean one. */
  clear(): void {
    if (this.shown) this.io.progress('\r\u001b[K');
    this.shown = false;
  }

  private line(done: number, seconds: number): string {
    const rate = seconds > 0 ? done / seconds : 0;
    const of = this.total === undefined || this.bound ? '' : ` of ${thousands(this.total)}`;
    const parts = [`${this.label}: ${this.unit} ${thousands(done)}${of}`];
    if (rate > 0) parts.push(`${thousands(Math.round(rate))} ${this.unit}s/s`);
    if (rate > 0 && this.total !== undefined && done < this.total) {
      const left = durationText((this.total - done) / rate);
      parts.push(this.bound ? `at most ${left} to its bound of ${thousands(this.total)}` : `about ${left} left`);
    }
    return parts.join(' · ');
  }
}

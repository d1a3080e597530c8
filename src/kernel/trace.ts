// The record of one run: every delivery, timer, state change, fault and note, in the order the
// World performed them. Its hash is the determinism check: the same scenario, seed and fault
// plan must give a byte-identical hash in any process.
import { createHash, type Hash } from 'node:crypto';

export type TraceKind =
  | 'start' | 'deliver' | 'timer' | 'state' | 'send' | 'drop' | 'lose' | 'duplicate' | 'delay'
  | 'reorder' | 'rebalance' | 'crash' | 'restore' | 'skew' | 'restart' | 'note' | 'phase' | 'fault';

export interface TraceEvent {
  readonly tick: number;
  readonly seq: number;
  readonly component: string;
  readonly kind: TraceKind;
  readonly data?: unknown;
}

/**
 * A finished trace kept whole, for runs that resume part-way through its run: its events, and
 * their hashed lines when the trace was hashed (only a hashed run can give a resumed run its hash).
 */
export interface TraceLog {
  readonly events: readonly TraceEvent[];
  readonly lines: readonly string[] | undefined;
}

export class Trace {
  readonly events: TraceEvent[] = [];
  /** Made on the first line hashed, so a run that hashes nothing never makes one. */
  private hasher: Hash | undefined;
  /** Every event's hashed line, when a hashed trace is logged for resuming (`log`). */
  private readonly lines: string[] | undefined;
  private readonly logged: boolean;
  /**
   * Event lines not yet fed to the hasher. Hashing them in batches gives the same digest as one
   * `update` per event (sha-256 is a stream), at a fraction of the per-call cost.
   */
  private pending = '';
  private count = 0;
  private digest: string | undefined;
  /**
   * Told of each event just before it is recorded, while the World is as the event finds it: a
   * counterexample's step-through view (src/run/framedRun.ts) reads the World's state there. Unset
   * for every other run.
   */
  beforeAdd: ((seq: number, component: string, kind: TraceKind, data: unknown) => void) | undefined;

  /**
   * `keep` false records only the hash, so long explorations stay flat in memory; `hashed`
   * false records only the count, for runs whose hash nobody reads (a counterexample is run
   * again, traced and hashed, before it is reported).
   */
  constructor(
    readonly keep: boolean = true,
    readonly hashed: boolean = true,
    log = false,
  ) {
    if (log && !keep) throw new Error('a trace logged for resuming keeps its events');
    this.logged = log;
    // An unhashed trace logs no lines: the runs resumed from it (a pair's, from its first fault's
    // run) hash nothing either, and a line is a stable JSON of the event's data.
    this.lines = log && hashed ? [] : undefined;
  }

  /** The events and lines of a trace made with `log`, for `continueFrom`. */
  get log(): TraceLog | undefined {
    return this.logged ? { events: this.events, lines: this.lines } : undefined;
  }

  /**
   * Takes on events 1 to `upTo` - 1 of a logged trace after this trace's own first event (its
   * start, which names its own plan): the hash and the events are those the run would have
   * made had it performed those events itself.
   */
  continueFrom(log: TraceLog, upTo: number): void {
    if (this.count !== 1) throw new Error('a trace continues from a log right after its start event');
    if (this.digest !== undefined) throw new Error('Trace is sealed: its hash was already read');
    if (this.hashed) {
      if (log.lines === undefined) throw new Error('a hashed trace continues only from the log of a hashed trace');
      this.flush();
      this.hasherNow().update(log.lines.slice(1, upTo).join(''));
      if (this.lines) for (let i = 1; i < upTo; i++) this.lines.push(log.lines[i]!);
    }
    if (this.keep) for (let i = 1; i < upTo; i++) this.events.push(log.events[i]!);
    this.count = upTo;
  }

  get length(): number {
    return this.count;
  }

  add(tick: number, component: string, kind: TraceKind, data?: unknown): void {
    if (this.digest !== undefined) throw new Error('Trace is sealed: its hash was already read');
    this.beforeAdd?.(this.count, component, kind, data);
    const seq = this.count++;
    if (!this.hashed && !this.keep) return;
    if (this.hashed) {
      const line = `${tick}|${seq}|${component}|${kind}|${data === undefined ? '' : stableJson(data)}\n`;
      this.lines?.push(line);
      this.pending += line;
      if (this.pending.length >= PENDING_MAX) this.flush();
    }
    if (this.keep) this.events.push(data === undefined ? { tick, seq, component, kind } : { tick, seq, component, kind, data });
  }

  /**
   * The hex sha-256 of every event; reading it seals the trace. A trace made with `hashed` false
   * has no hash: it returns '' and stays open.
   */
  hash(): string {
    if (!this.hashed) return '';
    if (this.digest === undefined) {
      this.flush();
      this.digest = this.hasherNow().digest('hex');
    }
    return this.digest;
  }

  private flush(): void {
    if (this.pending.length === 0) return;
    this.hasherNow().update(this.pending);
    this.pending = '';
  }

  private hasherNow(): Hash {
    return (this.hasher ??= createHash('sha256'));
  }
}

/** Characters of event lines buffered before they are hashed. */
const PENDING_MAX = 1 << 15;

/**
 * JSON with object keys sorted, so a hash never depends on the order properties were set.
 * Every trace event goes through it, so it is written for speed; its output is exactly that of
 * the plain definition: a primitive as `JSON.stringify` gives it (`null` where that gives
 * nothing), an array element by element (a hole stays empty), an object with its own
 * enumerable keys whose values are defined, sorted. (A plain object's keys are read with
 * `for…in`, which allocates nothing; such an object inherits no enumerable keys.)
 */
export function stableJson(value: unknown): string {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'number':
      return Number.isFinite(value) ? String(value) : 'null';
    case 'boolean':
      return value ? 'true' : 'false';
    case 'bigint':
      // JSON has no big integers, and refuses them; written as a string of their digits and an n.
      return `"${value}n"`;
    case 'object':
      if (value === null) return 'null';
      break;
    default:
      return JSON.stringify(value) ?? 'null';
  }
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out += ',';
      const v: unknown = value[i];
      if (v === undefined && !(i in value)) continue;
      out += stableJson(v);
    }
    return out + ']';
  }
  const obj = value as Record<string, unknown>;
  const proto: unknown = Object.getPrototypeOf(obj);
  let keys: string[];
  if (proto === Object.prototype || proto === null) {
    keys = [];
    for (const k in obj) if (obj[k] !== undefined) keys.push(k);
  } else {
    keys = Object.keys(obj).filter((k) => obj[k] !== undefined);
  }
  for (let i = 1; i < keys.length; i++) {
    if (keys[i - 1]! > keys[i]!) {
      keys.sort();
      break;
    }
  }
  let out = '{';
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!;
    if (i > 0) out += ',';
    out += quotedKey(k) + ':' + stableJson(obj[k]);
  }
  return out + '}';
}

/** `JSON.stringify` of object keys, remembered: traces use few distinct keys, many times. */
const quotedKeys = new Map<string, string>();

function quotedKey(k: string): string {
  let q = quotedKeys.get(k);
  if (q === undefined) {
    q = JSON.stringify(k);
    if (quotedKeys.size < 4096) quotedKeys.set(k, q);
  }
  return q;
}

/** One readable line per event, for replay output and counterexamples. */
export function formatTraceEvent(e: TraceEvent): string {
  const data = e.data === undefined ? '' : ` ${stableJson(e.data)}`;
  return `t=${String(e.tick).padStart(4)} #${String(e.seq).padStart(4)} ${e.component.padEnd(10)} ${e.kind}${data}`;
}

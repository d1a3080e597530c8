// The record of one run: every delivery, timer, state change, fault and note, in the order the
// World performed them. Its hash is the determinism check: the same scenario, seed and fault
// plan must give a byte-identical hash in any process.
import { createHash, type Hash } from 'node:crypto';

export type TraceKind =
  | 'start' | 'deliver' | 'timer' | 'state' | 'send' | 'drop' | 'lose' | 'duplicate' | 'delay'
  | 'reorder' | 'crash' | 'restart' | 'note' | 'phase' | 'fault';

export interface TraceEvent {
  readonly tick: number;
  readonly seq: number;
  readonly component: string;
  readonly kind: TraceKind;
  readonly data?: unknown;
}

export class Trace {
  readonly events: TraceEvent[] = [];
  private readonly hasher: Hash = createHash('sha256');
  private count = 0;
  private digest: string | undefined;

  /** `keep` false records only the hash, so long explorations stay flat in memory. */
  constructor(readonly keep: boolean = true) {}

  get length(): number {
    return this.count;
  }

  add(tick: number, component: string, kind: TraceKind, data?: unknown): void {
    if (this.digest !== undefined) throw new Error('Trace is sealed: its hash was already read');
    const seq = this.count++;
    const event: TraceEvent = data === undefined ? { tick, seq, component, kind } : { tick, seq, component, kind, data };
    this.hasher.update(`${tick}|${seq}|${component}|${kind}|${data === undefined ? '' : stableJson(data)}\n`);
    if (this.keep) this.events.push(event);
  }

  /** The hex sha-256 of every event; reading it seals the trace. */
  hash(): string {
    this.digest ??= this.hasher.digest('hex');
    return this.digest;
  }
}

/** JSON with object keys sorted, so a hash never depends on the order properties were set. */
export function stableJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  const obj = value as Record<string, unknown>;
  const keys = Object.keys(obj).filter((k) => obj[k] !== undefined).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${stableJson(obj[k])}`).join(',')}}`;
}

/** One readable line per event, for replay output and counterexamples. */
export function formatTraceEvent(e: TraceEvent): string {
  const data = e.data === undefined ? '' : ` ${stableJson(e.data)}`;
  return `t=${String(e.tick).padStart(4)} #${String(e.seq).padStart(4)} ${e.component.padEnd(10)} ${e.kind}${data}`;
}

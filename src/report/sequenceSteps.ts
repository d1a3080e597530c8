// Turns a counterexample's trace into the steps of a sequence diagram, once, so the Mermaid
// diagram in Markdown and the SVG in HTML show the same story. A trace records everything the
// World did; a reviewer needs the messages, the fault and what it cost, so state changes, timer
// firings and the simulator's own crash notifications are left out, and a long trace is cut
// down around its faults with a visible count of what was left out.
import type { TraceEvent } from '../trace.ts';

export type SequenceStep =
  /**
   * A message delivered from one component to another. `inFlight` marks one delivered while its
   * sender was down: it was sent before the crash, so the diagram must not read as a dead sender speaking.
   */
  | { readonly kind: 'message'; readonly tick: number; readonly from: string; readonly to: string; readonly label: string; readonly inFlight?: true }
  /** A message the network lost: it never arrives. */
  | { readonly kind: 'lost'; readonly tick: number; readonly from: string; readonly to: string; readonly label: string }
  /** A message that arrived while its receiver was down, so nobody processed it. */
  | { readonly kind: 'dropped'; readonly tick: number; readonly from: string; readonly to: string; readonly label: string }
  | { readonly kind: 'crash'; readonly tick: number; readonly component: string; readonly window: string | undefined }
  | { readonly kind: 'restart'; readonly tick: number; readonly component: string }
  /** Something a component recorded or suffered that is not a message: an effect, a guard, a delayed message. */
  | { readonly kind: 'note'; readonly tick: number; readonly component: string; readonly text: string }
  /** A change that concerns every component: the start of the liveness phase. */
  | { readonly kind: 'phase'; readonly tick: number; readonly text: string }
  /** Steps cut out to keep the diagram readable. */
  | { readonly kind: 'omitted'; readonly count: number };

export interface SequenceDiagram {
  /** Components in the order they first take part, so the diagram reads left to right like the pipeline. */
  readonly participants: readonly string[];
  readonly steps: readonly SequenceStep[];
  /** How many steps the cap removed (0 when the whole trace fits). */
  readonly omitted: number;
}

export interface SequenceOptions {
  /** The most steps a diagram shows before it is cut (faults and their neighbours are always kept). */
  readonly maxSteps?: number;
  /** Steps kept on each side of a fault, so the reader sees what led to it and what followed. */
  readonly contextSteps?: number;
}

const DEFAULT_MAX_STEPS = 60;
const DEFAULT_CONTEXT_STEPS = 3;

function eventType(data: unknown): string {
  const event = (data as { event?: { type?: unknown } } | undefined)?.event;
  return typeof event?.type === 'string' ? event.type : 'message';
}

function peer(data: unknown, key: 'from' | 'to'): string | undefined {
  const value = (data as Record<string, unknown> | undefined)?.[key];
  return typeof value === 'string' ? value : undefined;
}

function noteText(data: unknown): string {
  const d = data as { kind?: unknown; data?: Record<string, unknown> } | undefined;
  const kind = typeof d?.kind === 'string' ? d.kind : 'note';
  if (kind === 'guard' && typeof d?.data?.['guard'] === 'string') return `guard ${d.data['guard']} suppressed a repeat`;
  if (kind === 'effect') {
    const table = d?.data?.['table'];
    return typeof table === 'string' ? `effect committed (${table})` : 'effect committed';
  }
  return kind;
}

/** One step per event a reviewer needs, or undefined for bookkeeping the diagram leaves out. */
function stepOf(e: TraceEvent): SequenceStep | undefined {
  switch (e.kind) {
    case 'deliver':
    case 'drop': {
      const from = peer(e.data, 'from');
      const label = eventType(e.data);
      // The World tells every peer when a component crashes; those notices repeat the crash note.
      if (from === undefined || label.startsWith('sys.')) return undefined;
      return { kind: e.kind === 'deliver' ? 'message' : 'dropped', tick: e.tick, from, to: e.component, label };
    }
    case 'lose': {
      const to = peer(e.data, 'to');
      return to === undefined ? undefined : { kind: 'lost', tick: e.tick, from: e.component, to, label: eventType(e.data) };
    }
    case 'duplicate':
    case 'delay':
    case 'reorder': {
      const to = peer(e.data, 'to') ?? '?';
      const verb = e.kind === 'duplicate' ? 'duplicated' : e.kind === 'delay' ? 'delayed' : 'held back (reorder)';
      return { kind: 'note', tick: e.tick, component: e.component, text: `${eventType(e.data)} to ${to} ${verb}` };
    }
    case 'crash': {
      const window = (e.data as { window?: unknown } | undefined)?.window;
      return { kind: 'crash', tick: e.tick, component: e.component, window: typeof window === 'string' ? window : undefined };
    }
    case 'restart':
      return { kind: 'restart', tick: e.tick, component: e.component };
    case 'note':
      return { kind: 'note', tick: e.tick, component: e.component, text: noteText(e.data) };
    case 'phase':
      return { kind: 'phase', tick: e.tick, text: e.data === 'liveness' ? 'liveness phase: faults healed, crashed components restart' : `phase ${String(e.data)}` };
    default:
      // start, state, timer, send and the World's own fault record are bookkeeping.
      return undefined;
  }
}

function isMarker(step: SequenceStep): boolean {
  return step.kind === 'crash' || step.kind === 'restart' || step.kind === 'lost' || step.kind === 'dropped' || step.kind === 'phase';
}

/** The sequence diagram of a trace, capped at `maxSteps` plus whatever faults lie beyond. */
export function sequenceSteps(trace: readonly TraceEvent[], options: SequenceOptions = {}): SequenceDiagram {
  const maxSteps = Math.max(1, options.maxSteps ?? DEFAULT_MAX_STEPS);
  const context = Math.max(0, options.contextSteps ?? DEFAULT_CONTEXT_STEPS);
  const down = new Set<string>();
  const all = trace.map(stepOf).filter((s): s is SequenceStep => s !== undefined).map((s): SequenceStep => {
    if (s.kind === 'crash') down.add(s.component);
    else if (s.kind === 'restart') down.delete(s.component);
    else if (s.kind === 'message' && down.has(s.from)) return { ...s, inFlight: true };
    return s;
  });
  const participants: string[] = [];
  const join = (name: string) => {
    if (!participants.includes(name)) participants.push(name);
  };
  let kept: SequenceStep[] = all;
  let omitted = 0;
  if (all.length > maxSteps) {
    // Faults and their neighbours first, then the opening of the run until the budget is spent.
    const keep = new Set<number>();
    all.forEach((s, i) => {
      if (!isMarker(s)) return;
      for (let j = Math.max(0, i - context); j <= Math.min(all.length - 1, i + context); j++) keep.add(j);
    });
    for (let i = 0; i < all.length && keep.size < maxSteps; i++) keep.add(i);
    // A note saying "1 step omitted" takes the room of the step itself, so such a gap is shown.
    for (let i = 0; i < all.length; i++) if (!keep.has(i) && (i === 0 || keep.has(i - 1)) && (i === all.length - 1 || keep.has(i + 1))) keep.add(i);
    kept = [];
    let gap = 0;
    all.forEach((s, i) => {
      if (!keep.has(i)) {
        gap++;
        return;
      }
      if (gap > 0) kept.push({ kind: 'omitted', count: gap });
      omitted += gap;
      gap = 0;
      kept.push(s);
    });
    if (gap > 0) kept.push({ kind: 'omitted', count: gap });
    omitted += gap;
  }
  for (const s of kept) {
    if (s.kind === 'message' || s.kind === 'lost' || s.kind === 'dropped') {
      join(s.from);
      join(s.to);
    } else if (s.kind === 'crash' || s.kind === 'restart' || s.kind === 'note') {
      join(s.component);
    }
  }
  // Columns follow the order components booted in (the scenario's own order, usually the
  // pipeline's), not the order they first spoke, so every diagram of a design lines up alike.
  const booted = new Map<string, number>();
  for (const e of trace) if (e.component !== 'world' && !booted.has(e.component)) booted.set(e.component, booted.size);
  const rank = (name: string) => booted.get(name) ?? Number.MAX_SAFE_INTEGER;
  participants.sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));
  // A diagram needs someone to hang its phase and omission notes on.
  if (participants.length === 0 && kept.length > 0) participants.push('world');
  return { participants, steps: kept, omitted };
}

// Turns a counterexample's trace into the steps of a sequence diagram, once, so the Mermaid
// diagram in Markdown and the SVG in HTML show the same story in the same words. A trace records
// everything the World did; a reviewer needs the messages, the fault and what it cost, so state
// changes, timer firings and the simulator's own crash notifications are left out. A
// counterexample is drawn around the key its finding names (src/report/keyFocus.ts): the steps
// that carried the key's messages or changed its rows, the faults, and the steps at which it
// went wrong, marked; every other step is folded into a counted group that says what it held
// (src/report/foldSteps.ts), and so is a loop that repeats itself, so no step is ever dropped
// without a word. Every message is labelled with the keys of what it is about (see
// `messageKeys`), so two orders' commands never read as one command and its retry.
import { faultDescriptor } from '../faults/faults.ts';
import type { KeyMoment } from '../analysis/keyMoments.ts';
import type { TraceEvent } from '../kernel/trace.ts';
import type { Counterexample } from '../modes/windows.ts';
import { foldSteps } from './foldSteps.ts';
import { guardWords } from './guardWords.ts';
import { focusOf, markMoments, relatedSteps, type Focus } from './keyFocus.ts';
import { entityKeys, messageKeys, type MessageKey } from './messageKeys.ts';
import type { Labelled, SequenceStep } from './sequenceStep.ts';

export { messageKeys, type MessageKey } from './messageKeys.ts';
export type { Labelled, SequenceStep, StepMark } from './sequenceStep.ts';

export interface SequenceDiagram {
  /** Components in the order they booted, so the diagram reads left to right like the pipeline. */
  readonly participants: readonly string[];
  readonly steps: readonly SequenceStep[];
  /** How many steps of the trace were folded into groups (0 when every step is drawn). */
  readonly folded: number;
  /** The keys the diagram is centred on, when it is a counterexample's with a keyed finding. */
  readonly focus?: Focus;
}

export interface SequenceOptions {
  /** The most steps a diagram draws before it folds more of them (faults, marked steps and their neighbours are always drawn). */
  readonly maxSteps?: number;
  /** Steps kept on each side of a fault or a marked step, so the reader sees what led to it and what followed. */
  readonly contextSteps?: number;
}

const DEFAULT_MAX_STEPS = 40;
const DEFAULT_CONTEXT_STEPS = 3;

/** The most keys a drawn label carries; the tooltip carries them all. */
const LABEL_KEYS = 2;
/** The longest key value a drawn label shows before it is cut in the middle. */
const VALUE_MAX = 22;
/** The shortest value whose appearance inside another makes it redundant there; `0` or `1` inside `rec-0` is chance. */
const WITHIN_MIN = 3;

/** Whether `inner` appears in `outer` as a whole token, not as part of a longer word or number (`o-1` in `evt-o-1-v1`, not in `o-12`). */
function within(inner: string, outer: string): boolean {
  if (inner.length < WITHIN_MIN || inner.length >= outer.length) return false;
  for (let at = outer.indexOf(inner); at >= 0; at = outer.indexOf(inner, at + 1)) {
    const before = at === 0 ? '' : outer[at - 1]!;
    const after = outer[at + inner.length] ?? '';
    if (!/[A-Za-z0-9]/.test(before) && !/[A-Za-z0-9]/.test(after)) return true;
  }
  return false;
}

/**
 * The keys a drawn label shows: the first `LABEL_KEYS` after the more specific of two related
 * values is kept. A value that contains another as a whole token names the same thing more
 * precisely (event `evt-o-1-v1` of order `o-1`, ref `accept o-2#1` of aggregate `o-2`), so it
 * takes the other's place, and a value inside one already shown is left out.
 */
function labelKeys(keys: readonly MessageKey[]): MessageKey[] {
  const shown: MessageKey[] = [];
  for (const k of keys) {
    if (shown.some((s) => within(k.value, s.value))) continue;
    const replaced = shown.findIndex((s) => within(s.value, k.value));
    if (replaced < 0) {
      shown.push(k);
      continue;
    }
    shown[replaced] = k;
    // The new value may also make a later one redundant (it holds both an order and an event).
    for (let i = shown.length - 1; i > replaced; i--) if (within(shown[i]!.value, k.value)) shown.splice(i, 1);
  }
  return shown.slice(0, LABEL_KEYS);
}

/**
 * A long value cut in the middle. Its end is kept three times longer than its start: a value's
 * start tends to repeat its kind (`evt-`, `customer-84/`), its end holds the counter or version
 * that tells two of them apart (`cart-19/attempt-1#2`).
 */
function shorten(value: string, max = VALUE_MAX): string {
  const chars = [...value];
  if (chars.length <= max) return value;
  const head = Math.floor((max - 1) / 4);
  return `${chars.slice(0, head).join('')}…${chars.slice(chars.length - (max - 1 - head)).join('')}`;
}

/** A key as a label shows it: an `_id`/`Id` suffix dropped (`order=o-2`), the value shortened. */
function shortKey(k: MessageKey): string {
  const name = k.name === 'id' ? 'id' : k.name.replace(/(?:_id|Id)$/, '');
  return `${name}=${shorten(k.value)}`;
}

/** A name followed by the keys of `data`: the first few, shortened, for the label; all, in full, for the detail. */
function labelled(name: string, data: unknown, tail: readonly string[] = []): Labelled {
  const keys = messageKeys(data);
  const parts = [name, ...labelKeys(keys).map(shortKey), ...tail];
  return {
    label: parts.join(' '),
    parts,
    detail: [name, ...keys.map((k) => `${k.name}=${k.value}`), ...tail].join(' '),
  };
}

/** A message as a diagram labels it: its type and its first keys (`db.run key=o-1/1 ref=0.0.local`). */
export function messageLabel(event: { readonly type: string }): string {
  return labelled(event.type, event).label;
}

function messageEvent(data: unknown): { readonly type: string; readonly event: unknown } {
  const event = (data as { event?: { type?: unknown } } | undefined)?.event;
  return { type: typeof event?.type === 'string' ? event.type : 'message', event };
}

function peer(data: unknown, key: 'from' | 'to'): string | undefined {
  const value = (data as Record<string, unknown> | undefined)?.[key];
  return typeof value === 'string' ? value : undefined;
}

/** The notes of a record that went away (models/database.ts, models/provider.ts): why a repeat got through, or a record was never sent. */
const DROPPED_NOTES: ReadonlySet<string> = new Set(['lapsed', 'evicted', 'deleted', 'keyLapsed']);

function noteOf(data: unknown): Labelled {
  const d = data as { kind?: unknown; data?: Record<string, unknown> } | undefined;
  const kind = typeof d?.kind === 'string' ? d.kind : 'note';
  let name = kind;
  if (kind === 'guard' && typeof d?.data?.['guard'] === 'string') name = `${guardWords(d.data['guard'])} suppressed a repeat`;
  else if (kind === 'effect') {
    const table = d?.data?.['table'];
    name = typeof table === 'string' ? `effect committed (${table})` : 'effect committed';
  } else if (kind === 'lapsed' && typeof d?.data?.['table'] === 'string') {
    // A database's row past its time to live (models/database.ts, OpResult.lapsed): named by its own keys.
    const { table, committedAt, ttlTicks } = d.data;
    return labelled(`${table} row past its time to live (committed at t=${String(committedAt)}, kept ${String(ttlTicks)} ticks)`, d.data['row']);
  } else if (kind === 'evicted' && typeof d?.data?.['table'] === 'string') {
    // A row a bounded table dropped at a commit (models/database.ts, TableSpec.capacity).
    const { table, committedAt, capacity } = d.data;
    return labelled(`${table} row evicted (committed at t=${String(committedAt)}, the table keeps ${String(capacity)})`, d.data['row']);
  } else if (kind === 'deleted' && typeof d?.data?.['table'] === 'string') {
    // A committed row a transaction deleted (models/database.ts, DeletedRow): named by its own keys.
    const { table, committedAt } = d.data;
    return labelled(`${table} row deleted (committed at t=${String(committedAt)})`, d.data['row']);
  } else if (kind === 'keyLapsed' && typeof d?.data?.['key'] === 'string') {
    // A provider's idempotency key past its retention (models/provider.ts): the call under it was new work.
    const { key, firstAt, retentionTicks } = d.data;
    return labelled(`idempotency key past its retention (first used at t=${String(firstAt)}, kept ${String(retentionTicks)} ticks)`, { key });
  } else if (kind === 'idleRollback' && typeof d?.data?.['tx'] === 'string') {
    // A database rolled back a transaction left idle (models/database.ts): named by the rows it had written.
    return labelled(`transaction ${d.data['tx']} rolled back after ${String(d.data['idleTicks'])} ticks idle`, d.data['rows']);
  }
  return labelled(name, d?.data);
}

const IN_FLIGHT = '(sent before the crash)';

/** The words a diagram writes beside a message: its label, and whether it was sent before its sender crashed. */
export function messageText(step: Labelled & { readonly inFlight?: true }, full = false): string {
  return `${full ? step.detail : step.label}${step.inFlight === true ? ` ${IN_FLIGHT}` : ''}`;
}

/** The same words as `messageText`, in the parts a drawing may break lines between. */
export function messageParts(step: Labelled & { readonly inFlight?: true }): readonly string[] {
  return step.inFlight === true ? [...step.parts, IN_FLIGHT] : step.parts;
}

/**
 * The step a fault drew, as its kind's descriptor says (src/faults/kinds/): a lost message, a note
 * on a message another fault struck, or a window fault's own note (a restore, a skew); undefined
 * for any other event, and for a crash, which is drawn as the crash it is.
 */
function faultStepOf(e: TraceEvent): SequenceStep | undefined {
  const kind = faultDescriptor(e.kind);
  if (kind === undefined) return undefined;
  if (kind.strikes === 'window') {
    const note = kind.note(e.data);
    return note === undefined ? undefined : { kind: 'note', tick: e.tick, component: e.component, fault: true, ...labelled(note, undefined) };
  }
  const to = peer(e.data, 'to');
  const { type, event } = messageEvent(e.data);
  if (kind.drawn === undefined) return to === undefined ? undefined : { kind: 'lost', tick: e.tick, from: e.component, to, ...labelled(type, event) };
  return { kind: 'note', tick: e.tick, component: e.component, fault: true, ...labelled(type, event, [`to ${to ?? '?'} ${kind.drawn}`]) };
}

/** One step per event a reviewer needs, or undefined for bookkeeping the diagram leaves out. */
function stepOf(e: TraceEvent): SequenceStep | undefined {
  const fault = faultStepOf(e);
  if (fault !== undefined) return fault;
  switch (e.kind) {
    case 'deliver':
    case 'drop': {
      const from = peer(e.data, 'from');
      const { type, event } = messageEvent(e.data);
      // The World tells every peer when a component crashes; those notices repeat the crash note.
      if (from === undefined || type.startsWith('sys.')) return undefined;
      return { kind: e.kind === 'deliver' ? 'message' : 'dropped', tick: e.tick, from, to: e.component, ...labelled(type, event) };
    }
    case 'crash': {
      const window = (e.data as { window?: unknown } | undefined)?.window;
      return { kind: 'crash', tick: e.tick, component: e.component, window: typeof window === 'string' ? window : undefined };
    }
    case 'restart':
      return { kind: 'restart', tick: e.tick, component: e.component };
    case 'note':
      return { kind: 'note', tick: e.tick, component: e.component, ...noteOf(e.data), ...(DROPPED_NOTES.has((e.data as { kind?: string } | undefined)?.kind ?? '') ? { dropped: true as const } : {}) };
    case 'phase':
      // The heal is drawn where the World recorded it, with its tick, so a reader sees which
      // messages still belong to the faulty phase and which to the healed one.
      return { kind: 'phase', tick: e.tick, text: e.data === 'liveness' ? `t=${e.tick} liveness phase: faults healed, crashed components restart` : `t=${e.tick} phase ${String(e.data)}` };
    default:
      // start, state, timer, send and the World's own fault record are bookkeeping.
      return undefined;
  }
}

/** The diagram of a whole trace: every step, with loops and long stretches folded into counted groups. */
export function sequenceSteps(trace: readonly TraceEvent[], options: SequenceOptions = {}): SequenceDiagram {
  return drawSteps(trace, options, undefined, []);
}

/**
 * A counterexample's diagram, centred on the keys of its findings of its violation: the steps
 * about them, the faults and the marked moments drawn, the rest folded. Made once per
 * counterexample, since the Markdown and the HTML report draw the same one.
 */
export function counterexampleSteps(ce: Pick<Counterexample, 'trace' | 'findings' | 'violation' | 'moments'>, options: SequenceOptions = {}): SequenceDiagram {
  const focus = focusOf(ce.findings, ce.violation);
  if (options.maxSteps !== undefined || options.contextSteps !== undefined) return drawSteps(ce.trace, options, focus, ce.moments ?? []);
  let diagram = drawn.get(ce);
  if (diagram === undefined) drawn.set(ce, (diagram = drawSteps(ce.trace, options, focus, ce.moments ?? [])));
  return diagram;
}

/** Each counterexample's default drawing; a counterexample is not changed once it is made. */
const drawn = new WeakMap<object, SequenceDiagram>();

/**
 * For a message event (delivered, dropped, or struck by a fault on its way): the entity of the
 * conversation it continues when it names none itself (`event=evt-partner-2` for a `db.commit
 * tx=d0.1.t2.1`), undefined otherwise. Conversations are learnt as messages naming an entity and a
 * `tx` or `ref` pass between two components.
 */
function subjectOf(e: TraceEvent, subjects: Map<string, string>): string | undefined {
  const d = e.data as { from?: unknown; to?: unknown; event?: unknown } | undefined;
  const [from, to] = e.kind === 'deliver' || e.kind === 'drop' ? [d?.from, e.component] : faultDescriptor(e.kind)?.strikes === 'point' ? [e.component, d?.to] : [undefined, undefined];
  if (typeof from !== 'string' || typeof to !== 'string' || d?.event === undefined) return undefined;
  const refs = messageKeys(d.event)
    .filter((k) => k.name === 'tx' || k.name === 'ref')
    .map((k) => `${from < to ? from : to}\u0000${from < to ? to : from}\u0000${k.value}`);
  const entity = entityKeys(d.event)[0];
  if (entity !== undefined) {
    for (const r of refs) subjects.set(r, named(entity));
    return undefined;
  }
  return refs.map((r) => subjects.get(r)).find((x) => x !== undefined);
}

function named(key: MessageKey): string {
  return `${key.name}=${key.value}`;
}

/** Every step of a trace a diagram can draw, each knowing its event's index; a message sent before its sender crashed says so. */
export function traceSteps(trace: readonly TraceEvent[]): SequenceStep[] {
  const down = new Set<string>();
  /** Components a restore took down, until they restart from its snapshot. */
  const restored = new Set<string>();
  /** By pair and `tx` or `ref`: the entity the conversation began about. */
  const subjects = new Map<string, string>();
  const all: SequenceStep[] = [];
  trace.forEach((e, at) => {
    // A restore's own crash is part of the restore, drawn as its note: the window it records is
    // the one whose entry struck the restore, usually another component's, not one it crashed in.
    const before = trace[at - 1];
    if (e.kind === 'crash' && before?.kind === 'restore' && before.component === e.component) {
      down.add(e.component);
      return;
    }
    // One restored while down comes back from the snapshot too, when its restart comes.
    if (e.kind === 'restore') restored.add(e.component);
    const struck = subjectOf(e, subjects);
    const drawn = stepOf(e);
    if (drawn === undefined) return;
    let s: SequenceStep = drawn.kind === 'restart' && restored.delete(drawn.component) ? { ...drawn, restored: true } : drawn;
    // A fault on a message that names no entity (a transaction's commit) says whose it was.
    if (struck !== undefined && (s.kind === 'lost' || (s.kind === 'note' && faultDescriptor(e.kind) !== undefined))) s = { ...s, label: `${s.label} (for ${struck})`, parts: [...s.parts, `(for ${struck})`], detail: `${s.detail} (for ${struck})` };
    if (s.kind === 'crash') down.add(s.component);
    else if (s.kind === 'restart') down.delete(s.component);
    all.push(s.kind === 'message' && down.has(s.from) ? { ...s, inFlight: true, at } : ({ ...s, at } as SequenceStep));
  });
  return all;
}

function drawSteps(trace: readonly TraceEvent[], options: SequenceOptions, focus: Focus | undefined, moments: readonly KeyMoment[]): SequenceDiagram {
  const maxSteps = Math.max(1, options.maxSteps ?? DEFAULT_MAX_STEPS);
  const context = Math.max(0, options.contextSteps ?? DEFAULT_CONTEXT_STEPS);
  const all = markMoments(traceSteps(trace), trace, moments, focus);
  const related = focus === undefined ? all.map(() => true) : relatedSteps(all, trace, focus);
  const { steps, folded } = foldSteps(all, related, { maxSteps, context });
  return { participants: participantsOf(trace, steps), steps, folded, ...(focus === undefined ? {} : { focus }) };
}

/**
 * The lifelines of the drawn steps, in the order components booted (the scenario's own order,
 * usually the pipeline's), not the order they first spoke, so every diagram of a design lines up alike.
 */
function participantsOf(trace: readonly TraceEvent[], steps: readonly SequenceStep[]): string[] {
  const participants: string[] = [];
  const join = (name: string) => {
    if (!participants.includes(name)) participants.push(name);
  };
  for (const s of steps) {
    if (s.kind === 'message' || s.kind === 'lost' || s.kind === 'dropped') {
      join(s.from);
      join(s.to);
    } else if (s.kind === 'crash' || s.kind === 'restart' || s.kind === 'note' || s.kind === 'missing') {
      join(s.component);
    }
  }
  const booted = new Map<string, number>();
  for (const e of trace) if (e.component !== 'world' && !booted.has(e.component)) booted.set(e.component, booted.size);
  const rank = (name: string) => booted.get(name) ?? Number.MAX_SAFE_INTEGER;
  participants.sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));
  // A diagram needs someone to hang its phase and fold notes on.
  if (participants.length === 0 && steps.length > 0) participants.push('world');
  return participants;
}

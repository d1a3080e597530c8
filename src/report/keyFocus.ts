// Which steps of a counterexample are about the key its finding names. A reader of a duplicate
// wants the messages that carried that key, the statements that changed its rows and the
// replies that answered them, and the faults; not the polls of other orders around them. A
// step is about the key when its data holds the key (or the entity the key's first part names,
// `o-1` of `o-1|1`) as a whole word anywhere inside it, or when it continues a conversation such
// a step began: a reply or a commit under the same `ref` or `tx` between the same two
// components, until one of them crashes or the conversation turns to another entity; or when it
// names nothing at all and its sender last received a message about the key (an offset commit
// after the key's delivery). The
// steps at which the key went wrong are found by the claims' own checkers (src/analysis/keyMoments.ts)
// and marked here: the second committed outcome, the source fact, the break, the missing effect.
import { FAULT_KINDS } from '../faults/faults.ts';
import { findingKey, type Finding, type Violation } from '../checkers/finding.ts';
import type { KeyMoment } from '../analysis/keyMoments.ts';
import { MOMENT_KEYS } from '../analysis/keyMoments.ts';
import type { TraceEvent } from '../kernel/trace.ts';
import { entityKeys, messageKeys } from './messageKeys.ts';
import type { SequenceStep, StepMark } from './sequenceStep.ts';

export interface Focus {
  readonly violation: Violation;
  /** The keys drawn around, with the effect each is a key of. */
  readonly keys: readonly { readonly key: string; readonly effect: string }[];
  /** Keys of the same violation beyond those drawn around. */
  readonly more: number;
  /** The words a step's data is searched for. */
  readonly tokens: readonly string[];
}

/** The shortest entity a key's first part may name and still be searched for on its own (`o-1`, not `1`). */
const ENTITY_MIN = 3;
/** How deep into a message the search looks, and how many elements of an array it reads. */
const DEPTH = 6;
const ELEMENTS = 64;

/** What a counterexample is centred on: the keys of its findings of its violation, or nothing when none names a key (a stuck run). */
export function focusOf(findings: readonly Finding[], violation: Violation): Focus | undefined {
  const keyed = findings.filter((f) => f.violation === violation && findingKey(f) !== undefined).map((f) => ({ key: findingKey(f)!, effect: f.effect }));
  if (keyed.length === 0) return undefined;
  const keys = keyed.slice(0, MOMENT_KEYS);
  const tokens = new Set<string>();
  for (const { key } of keys) {
    tokens.add(key);
    // The entity is the key's leading name: `o-1` of `o-1|1`, `pi-1` of `pi-1 (amount=…)`, `b-1` of `b-1@v2`.
    const entity = /^[A-Za-z0-9_.-]+/.exec(key)?.[0] ?? '';
    if (entity.length >= ENTITY_MIN && entity !== key && /[A-Za-z]/.test(entity)) tokens.add(entity);
  }
  return { violation, keys, more: keyed.length - keys.length, tokens: [...tokens] };
}

/** Whether `token` appears in `text` as a whole word: not inside a longer word or number (`o-1` in `evt-o-1-v1`, not in `o-12`). */
export function holdsToken(text: string, token: string): boolean {
  for (let at = text.indexOf(token); at >= 0; at = text.indexOf(token, at + 1)) {
    const before = at === 0 ? '' : text[at - 1]!;
    const after = text[at + token.length] ?? '';
    if (!/[A-Za-z0-9]/.test(before) && !/[A-Za-z0-9]/.test(after)) return true;
  }
  return false;
}

/** Whether any string (or number) inside `data` holds one of the tokens. */
function mentions(data: unknown, tokens: readonly string[], depth = 0): boolean {
  if (typeof data === 'string') return tokens.some((t) => holdsToken(data, t));
  if (typeof data === 'number') return tokens.includes(String(data));
  if (data === null || typeof data !== 'object' || depth >= DEPTH) return false;
  const values = Array.isArray(data) ? data.slice(0, ELEMENTS) : Object.values(data as Record<string, unknown>);
  return values.some((v) => mentions(v, tokens, depth + 1));
}

/** The part of an event's data a step shows: the message, or a note's own data. */
function payloadOf(e: TraceEvent | undefined): unknown {
  const d = e?.data as { event?: unknown; data?: unknown } | undefined;
  if (e?.kind === 'note') return d?.data;
  return d?.event ?? d;
}

/** The conversation references of a message: its `ref` and `tx` values. */
function refsOf(payload: unknown): string[] {
  return messageKeys(payload).filter((k) => k.name === 'ref' || k.name === 'tx').map((k) => k.value);
}

/** The entity fields of a message (`id`, `…_id`, `…Id`), by name. */
function entitiesOf(payload: unknown): { readonly name: string; readonly value: string }[] {
  return entityKeys(payload);
}

/**
 * Whether a message of a conversation has turned to another entity: a field that named the key's
 * entity when the conversation began (`order_id`) now names another (`o-2`). A field of another
 * kind (the provider's `op_id` in its reply) says nothing about that.
 */
function aboutOther(payload: unknown, names: ReadonlySet<string>, tokens: readonly string[]): boolean {
  return entitiesOf(payload).some((k) => names.has(k.name) && !tokens.some((t) => holdsToken(k.value, t)));
}

/** The trace kinds that are faults of the plan, drawn as notes or lost messages: always part of the story (a crash is drawn as itself, below). */
const FAULT_NOTES = new Set<string>(FAULT_KINDS.filter((k) => k !== 'crash'));

/** For each step, whether it is about the focus's keys (or is a fault, which always is). */
export function relatedSteps(steps: readonly SequenceStep[], trace: readonly TraceEvent[], focus: Focus): boolean[] {
  // Each open conversation, with the names of the fields that named the key's entity when it began.
  const open = new Map<string, ReadonlySet<string>>();
  const conversation = (a: string, b: string, ref: string) => `${a < b ? a : b}\u0000${a < b ? b : a}\u0000${ref}`;
  // Per component, whether the last message naming an entity that it received was about the key:
  // what it then sends that names nothing at all (an offset commit, an acknowledgement) is its
  // handling of that message. A restart forgets it; a crash does not, since what it sent before
  // the crash may still arrive.
  const holding = new Map<string, boolean>();
  return steps.map((s) => {
    const e = s.kind === 'fold' || s.kind === 'missing' || s.at === undefined ? undefined : trace[s.at];
    if (s.kind === 'crash' || s.kind === 'restart') {
      // A conversation does not outlive a crash of either side: a later one under the same `tx` is a new one.
      for (const c of [...open.keys()]) if (c.split('\u0000').slice(0, 2).includes(s.component)) open.delete(c);
      if (s.kind === 'restart') holding.delete(s.component);
      return true;
    }
    if (s.kind === 'message' && e !== undefined) {
      const payload = payloadOf(e);
      if (entitiesOf(payload).length > 0) holding.set(s.to, mentions(payload, focus.tokens));
      else if (refsOf(payload).length === 0 && !mentions(payload, focus.tokens) && holding.get(s.from) === true) return true;
    }
    const marked = s.kind !== 'fold' && s.kind !== 'missing' && 'mark' in s && s.mark !== undefined;
    if (s.kind === 'phase' || s.kind === 'missing' || (e !== undefined && FAULT_NOTES.has(e.kind) && s.kind !== 'lost')) return true;
    if (s.kind !== 'message' && s.kind !== 'lost' && s.kind !== 'dropped') return marked || (s.kind === 'note' && mentions(payloadOf(e), focus.tokens));
    const payload = payloadOf(e);
    const refs = refsOf(payload);
    // A lost message is a fault of the plan: always drawn, and about the key only if it says so.
    if (marked || mentions(payload, focus.tokens) || e?.kind === 'lose') {
      const names = new Set(entitiesOf(payload).filter((k) => focus.tokens.some((t) => holdsToken(k.value, t))).map((k) => k.name));
      for (const r of refs) open.set(conversation(s.from, s.to, r), names);
      return true;
    }
    const continues = refs.filter((r) => open.has(conversation(s.from, s.to, r)));
    if (continues.length === 0) return false;
    const names = new Set(continues.flatMap((r) => [...open.get(conversation(s.from, s.to, r))!]));
    if (aboutOther(payload, names, focus.tokens)) {
      for (const r of continues) open.delete(conversation(s.from, s.to, r));
      return false;
    }
    return true;
  });
}

const ORDINALS = ['0th', '1st', '2nd', '3rd'];
function ordinal(n: number): string {
  return ORDINALS[n] ?? `${n}th`;
}

/** What a moment's step is marked with. */
export function markOf(m: KeyMoment): StepMark {
  switch (m.kind) {
    case 'outcome':
      return m.violation === 'duplicate effect' && (m.nth ?? 1) > 1
        ? { kind: 'duplicate', text: `DUPLICATE: ${ordinal(m.nth!)} committed outcome for ${m.key}` }
        : { kind: 'outcome', text: `${ordinal(m.nth ?? 1)} committed outcome for ${m.key}` };
    case 'fact':
      return { kind: 'fact', text: `source fact ${m.key} committed` };
    case 'applied':
      return { kind: 'outcome', text: `${m.key} applied version ${m.version}` };
    default:
      return { kind: 'broke', text: `${m.violation} for ${m.key} from here on` };
  }
}

/** The type of a delivered message, for a note that stands in for its step. */
function messageType(data: unknown): string {
  const type = (data as { event?: { type?: unknown } } | undefined)?.event?.type;
  return typeof type === 'string' ? type : 'delivery';
}

/**
 * The steps with the moments marked on them: a moment's step carries its mark, or, where the
 * step is not one a diagram draws (a timer firing) or already carries another moment's mark (one
 * delivery committed two keys' outcomes), a note on the component it changed stands in for it. A missing effect ends the story on the component that commits the effect.
 */
export function markMoments(steps: readonly SequenceStep[], trace: readonly TraceEvent[], moments: readonly KeyMoment[], focus: Focus | undefined): SequenceStep[] {
  const out = [...steps];
  for (const m of moments) {
    if (m.kind === 'missing') continue;
    const mark = markOf(m);
    const i = out.findIndex((s) => s.kind !== 'fold' && s.kind !== 'missing' && s.at === m.at && (s.kind === 'message' || s.kind === 'note' || s.kind === 'lost' || s.kind === 'dropped') && s.mark === undefined);
    if (i >= 0) {
      out[i] = { ...out[i], mark } as SequenceStep;
      continue;
    }
    const e = m.at === undefined ? undefined : trace[m.at];
    const component = m.component ?? e?.component ?? 'world';
    const what = e?.kind === 'timer' ? `timer ${String(e.data)}` : e?.kind === 'deliver' ? `the same ${messageType(e.data)}` : (e?.kind ?? 'step');
    const note: SequenceStep = { kind: 'note', tick: e?.tick ?? 0, component, label: what, parts: [what], detail: what, at: m.at!, mark };
    const after = out.findIndex((s) => s.kind !== 'fold' && s.kind !== 'missing' && s.at !== undefined && s.at > m.at!);
    out.splice(after < 0 ? out.length : after, 0, note);
  }
  for (const m of moments.filter((x) => x.kind === 'missing')) {
    const effect = focus?.keys.find((k) => k.key === m.key)?.effect ?? 'the effect';
    const text = `MISSING: no ${effect.replace(/^(a|an|the) /, '')} for ${m.key}`;
    out.push({ kind: 'missing', component: m.component ?? 'world', text, detail: `${text}: its source fact committed and the effect never did, though the world was quiet` });
  }
  return out;
}

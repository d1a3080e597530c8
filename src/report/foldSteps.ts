// Folds the steps a diagram does not need to draw into counted groups that say what they held:
// a stretch of steps about something else ("41 steps about other keys: relay ↔ outboxDb
// db.run/db.ran ×20"), a loop that repeats itself ("the 2 steps above, 38 more times"), and,
// when a diagram is still too long, the steps far from any fault or marked step. A group says
// how many steps it holds, which components exchanged what, and from which event to which, so
// nothing is dropped without a word, and a fault or a marked step (the duplicate, the fact whose
// effect went missing) is never folded.
import type { SequenceStep } from './sequenceStep.ts';

export interface FoldOptions {
  readonly maxSteps: number;
  readonly context: number;
}

/** How many pairs of components a group's drawn text names; its detail names them all. */
const NAMED_PAIRS = 2;
/** The longest loop looked for, in steps. */
const PERIOD_MAX = 6;
/** A loop folds from this many rounds: the first and last are drawn, the rounds between are counted. */
const ROUNDS_MIN = 3;

type Fold = Extract<SequenceStep, { kind: 'fold' }>;

/** Who a step is between, and what it is called: `relay ↔ outboxDb` and `db.run`. */
function partOf(s: SequenceStep): { readonly who: string; readonly what: string } | undefined {
  switch (s.kind) {
    case 'message':
    case 'lost':
    case 'dropped': {
      const [a, b] = s.from < s.to ? [s.from, s.to] : [s.to, s.from];
      return { who: a === b ? a : `${a} ↔ ${b}`, what: `${s.parts[0] ?? s.label}${s.kind === 'message' ? '' : ` (${s.kind})`}` };
    }
    case 'note':
      return { who: s.component, what: s.parts[0] ?? s.label };
    case 'crash':
      return { who: s.component, what: 'crash' };
    case 'restart':
      return { who: s.component, what: 'restart' };
    case 'phase':
      return { who: 'world', what: 'phase' };
    default:
      return undefined;
  }
}

/** How many trace steps a drawn step stands for. */
function weight(s: SequenceStep): number {
  return s.kind === 'fold' ? s.count : 1;
}

function firstAt(s: SequenceStep): number | undefined {
  return s.kind === 'fold' ? s.first : s.kind === 'missing' ? undefined : s.at;
}

function lastAt(s: SequenceStep): number | undefined {
  return s.kind === 'fold' ? s.last : s.kind === 'missing' ? undefined : s.at;
}

/** `db.run/db.ran ×20` when every name came as often, `db.run ×3, db.ran ×2` otherwise. */
function names(counts: ReadonlyMap<string, number>): string {
  const n = [...counts.values()];
  if (n.every((x) => x === n[0])) return `${[...counts.keys()].join('/')}${n[0] === 1 ? '' : ` ×${n[0]}`}`;
  return [...counts].map(([what, k]) => `${what} ×${k}`).join(', ');
}

/** A group of `steps` (some may be groups already), its text opening with `lead`. */
export function foldOf(steps: readonly SequenceStep[], lead: (count: number) => string): Fold {
  const pairs = new Map<string, Map<string, number>>();
  let count = 0;
  for (const s of steps) {
    count += weight(s);
    if (s.kind === 'fold') {
      // A group inside a group keeps its own words in the detail.
      const inner = pairs.get('') ?? new Map<string, number>();
      inner.set(s.text, (inner.get(s.text) ?? 0) + 1);
      pairs.set('', inner);
      continue;
    }
    const p = partOf(s);
    if (p === undefined) continue;
    const m = pairs.get(p.who) ?? new Map<string, number>();
    m.set(p.what, (m.get(p.what) ?? 0) + 1);
    pairs.set(p.who, m);
  }
  const named = [...pairs].filter(([who]) => who !== '');
  const shown = named.slice(0, NAMED_PAIRS).map(([who, m]) => `${who} ${names(m)}`);
  const rest = named.length - shown.length;
  const text = `${lead(count)}${shown.length === 0 ? '' : `: ${shown.join(' · ')}`}${rest > 0 ? ` · ${rest} more` : ''}`;
  const detail = [...pairs].map(([who, m]) => (who === '' ? [...m.keys()].join(' · ') : `${who}: ${names(m)}`)).join(' · ');
  const first = steps.map(firstAt).find((x) => x !== undefined);
  const last = [...steps].reverse().map(lastAt).find((x) => x !== undefined);
  return { kind: 'fold', count, text, detail: `${count} step${count === 1 ? '' : 's'}: ${detail}`, ...(first === undefined ? {} : { first }), ...(last === undefined ? {} : { last }) };
}

const steps = (n: number) => `${n} step${n === 1 ? '' : 's'}`;

/** Runs of steps not to draw, each folded into one group, between the steps to draw. */
function foldRuns(all: readonly SequenceStep[], draw: readonly boolean[], lead: (count: number) => string): SequenceStep[] {
  const out: SequenceStep[] = [];
  let run: SequenceStep[] = [];
  const flush = () => {
    if (run.length > 0) out.push(run.length === 1 && run[0]!.kind === 'fold' ? run[0]! : foldOf(run, lead));
    run = [];
  };
  all.forEach((s, i) => {
    if (draw[i]) {
      flush();
      out.push(s);
    } else {
      run.push(s);
    }
  });
  flush();
  return out;
}

/** What makes two steps the same step of a loop: their kind, who, and words, and never a mark. */
function signature(s: SequenceStep): string {
  if (s.kind === 'fold') return `fold|${s.detail.replace(/×\d+/g, '×').replace(/^\d+ steps?/, '')}`;
  // Several marks may sit on one step (two keys' outcomes committed by one delivery): each is its own.
  if (s.kind !== 'missing' && 'mark' in s && s.mark !== undefined) return `mark|${s.at}|${s.mark.text}`;
  const p = partOf(s);
  return `${s.kind}|${p?.who}|${'label' in s ? s.label : p?.what}`;
}

/** Loops folded: a block of up to `PERIOD_MAX` steps repeated `ROUNDS_MIN` or more times keeps its first and last rounds. */
export function foldRepeats(all: readonly SequenceStep[]): SequenceStep[] {
  const sig = all.map(signature);
  const out: SequenceStep[] = [];
  let i = 0;
  while (i < all.length) {
    let best: { p: number; rounds: number } | undefined;
    for (let p = 1; p <= PERIOD_MAX && i + p * ROUNDS_MIN <= all.length; p++) {
      let rounds = 1;
      while (i + (rounds + 1) * p <= all.length && sig.slice(i + rounds * p, i + (rounds + 1) * p).every((x, k) => x === sig[i + k])) rounds++;
      if (rounds >= ROUNDS_MIN && (best === undefined || rounds * p > best.rounds * best.p)) best = { p, rounds };
    }
    if (best === undefined || all.slice(i, i + best.p).some((s) => s.kind === 'crash' || s.kind === 'phase' || s.kind === 'missing')) {
      out.push(all[i]!);
      i++;
      continue;
    }
    const { p, rounds } = best;
    out.push(...all.slice(i, i + p));
    const middle = all.slice(i + p, i + (rounds - 1) * p);
    out.push(foldOf(middle, () => `the ${steps(p)} above, ${rounds - 2} more time${rounds - 2 === 1 ? '' : 's'}`));
    out.push(...all.slice(i + (rounds - 1) * p, i + rounds * p));
    i += rounds * p;
  }
  return out;
}

/** A step that is always drawn: a fault, its restart, the heal, a marked step, a missing effect. */
function anchors(s: SequenceStep): boolean {
  if (s.kind === 'crash' || s.kind === 'restart' || s.kind === 'lost' || s.kind === 'dropped' || s.kind === 'phase' || s.kind === 'missing') return true;
  return s.kind !== 'fold' && s.mark !== undefined;
}

/** How many messages back a marked step's causes are followed. */
const CAUSE_HOPS = 3;

/** The component that acted in a step: a message's sender, a note's own component. */
function actorOf(s: SequenceStep): string | undefined {
  if (s.kind === 'message' || s.kind === 'lost' || s.kind === 'dropped') return s.from;
  return s.kind === 'note' ? s.component : undefined;
}

/**
 * The indexes of the steps that led to each marked step, each with its hop (0 the nearest): the
 * last message its actor received from anyone but the step's own peer, then the last its sender
 * received before sending that, up to `CAUSE_HOPS` back. A crash or restart of the actor in
 * between ends the chain: what it received before did not survive it.
 */
function causes(all: readonly SequenceStep[], drawn: readonly boolean[]): { readonly at: number; readonly hop: number }[] {
  const out: { at: number; hop: number }[] = [];
  all.forEach((s, i) => {
    if (s.kind === 'fold' || s.kind === 'missing' || !('mark' in s) || s.mark === undefined || !drawn[i]) return;
    let actor = actorOf(s);
    // The replies of the conversation the step belongs to (a transaction's results) are its
    // context, not its cause: the cause came from someone else.
    let partner = s.kind === 'message' || s.kind === 'lost' || s.kind === 'dropped' ? s.to : undefined;
    let from = i;
    for (let hop = 0; hop < CAUSE_HOPS && actor !== undefined; hop++) {
      let found = -1;
      for (let j = from - 1; j >= 0; j--) {
        const t = all[j]!;
        if ((t.kind === 'crash' || t.kind === 'restart') && t.component === actor) break;
        if (t.kind === 'message' && t.to === actor && t.from !== partner) {
          found = j;
          break;
        }
      }
      if (found < 0) break;
      out.push({ at: found, hop });
      const t = all[found]! as Extract<SequenceStep, { kind: 'message' }>;
      partner = actor;
      actor = t.from;
      from = found;
    }
  });
  return out;
}

/** Steps beyond `maxSteps` folded: those near an anchor drawn first, then what led to each marked step, then the first ones. */
function cap(all: readonly SequenceStep[], { maxSteps, context }: FoldOptions, lead: (count: number) => string): SequenceStep[] {
  const drawnCount = all.filter((s) => s.kind !== 'fold').length;
  if (drawnCount <= maxSteps) return [...all];
  const draw = all.map(() => false);
  all.forEach((s, i) => {
    if (!anchors(s)) return;
    for (let j = Math.max(0, i - context); j <= Math.min(all.length - 1, i + context); j++) draw[j] = true;
  });
  // What led to each marked step is drawn with it: the message its actor last received (the
  // delivery of the version it applied), whatever the budget; further back (that message's own
  // cause), as the budget allows.
  const led = causes(all, draw);
  for (const { at, hop } of led) if (hop === 0) draw[at] = true;
  let budget = maxSteps - draw.filter((d, i) => d && all[i]!.kind !== 'fold').length;
  for (const { at } of led) {
    if (budget <= 0) break;
    if (draw[at]) continue;
    draw[at] = true;
    budget--;
  }
  for (let i = 0; i < all.length && budget > 0; i++) {
    if (draw[i] || all[i]!.kind === 'fold') continue;
    draw[i] = true;
    budget--;
  }
  // A group already folded stays where it is unless it sits beside steps that are folded now,
  // whose group then takes it in (two groups in a row would read as two gaps).
  all.forEach((s, i) => {
    if (s.kind === 'fold') draw[i] = (i === 0 || draw[i - 1]! || all[i - 1]!.kind === 'fold') && (i === all.length - 1 || draw[i + 1]! || all[i + 1]!.kind === 'fold');
  });
  return foldRuns(all, draw, lead);
}

/**
 * The steps to draw: those `related` (and every anchor) as they are, the rest folded by stretch,
 * then loops folded, then whatever still exceeds `maxSteps` folded around the anchors.
 * `folded` counts the trace steps inside groups.
 */
export function foldSteps(all: readonly SequenceStep[], related: readonly boolean[], options: FoldOptions, about = ''): { steps: SequenceStep[]; folded: number } {
  const draw = all.map((s, i) => related[i]! || anchors(s));
  // The message that led to a marked step is drawn even when it is about another key (one
  // order's delivery that made the consumer commit another's duplicate).
  for (const { at, hop } of causes(all, draw)) if (hop === 0) draw[at] = true;
  const unrelated = draw.every((d) => d) ? [...all] : foldRuns(all, draw, (n) => `${n} other step${n === 1 ? '' : 's'}${about}`);
  const looped = foldRepeats(unrelated);
  const capped = cap(looped, options, (n) => `${n} more step${n === 1 ? "" : "s"}`);
  const folded = capped.reduce((n, s) => n + (s.kind === 'fold' ? s.count : 0), 0);
  return { steps: capped, folded };
}

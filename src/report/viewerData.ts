// The data a counterexample's step-through viewer reads, embedded in its page as JSON: one entry
// per step of the key-centred diagram (a folded group is one step), each with what changed in
// the World by the end of it: components' states, which are down, the durable state each one's
// describer gives, and the messages in flight. Only changes are written, so a long run costs
// what it changes, not what it holds; the viewer adds them up to the step it shows.
import type { StepFrame, StepFrames } from '../run/stepFrames.ts';
import type { Counterexample } from '../modes/windows.ts';
import { stepWords } from './keyStory.ts';
import { messageLabel, type SequenceDiagram, type SequenceStep } from './sequenceSteps.ts';

/** One step of the viewer: its time, its words, its mark, and the changes it made. */
export interface ViewerStep {
  /** `t=17`, or the span of a folded group. */
  readonly t: string;
  /** The step in words. */
  readonly w: string;
  /** Its mark's kind and words, when it has one. */
  readonly m?: readonly [string, string];
  /** The diagram's `data-step` of the step (its trace index), to highlight it. */
  readonly a?: number;
  /** Changed states: component index, state (`down` while down). */
  readonly s?: readonly (readonly [number, string])[];
  /** Changed durable states: component index, its parts as [label, items]. */
  readonly d?: readonly (readonly [number, readonly (readonly [string, readonly string[]])[]])[];
  /** Messages in flight after the step, when they changed: [from, to, label]. */
  readonly f?: readonly (readonly [string, string, string])[];
}

export interface ViewerData {
  /** The design's components, in its order. */
  readonly c: readonly string[];
  /** The components the diagram draws, which the participant filter shows at first. */
  readonly p: readonly string[];
  readonly steps: readonly ViewerStep[];
}

/** The frame that shows the World once trace event `at` and its step are done: the next frame after it. */
function frameAfter(frames: readonly StepFrame[], at: number): StepFrame {
  let lo = 0;
  let hi = frames.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (frames[mid]!.at > at) hi = mid;
    else lo = mid + 1;
  }
  return frames[lo]!;
}

function lastAt(s: SequenceStep): number | undefined {
  if (s.kind === 'fold') return s.last;
  if (s.kind === 'missing') return undefined;
  return s.at;
}

function stateOf(f: StepFrame, i: number): string {
  return f.down[i] ? 'down' : f.states[i]!;
}

function partsOf(f: StepFrame, i: number): (readonly [string, readonly string[]])[] {
  return f.parts[i]!.map((p) => [p.label, p.items] as const);
}

function inFlightOf(f: StepFrame): [string, string, string][] {
  return f.inFlight.filter((m) => !m.event.type.startsWith('sys.')).map((m) => [m.from, m.to, messageLabel(m.event)]);
}

/** What changed from frame `a` to frame `b`, as a viewer step's fields. */
function changes(a: StepFrame | undefined, b: StepFrame): Pick<ViewerStep, 's' | 'd' | 'f'> {
  const s: [number, string][] = [];
  const d: [number, (readonly [string, readonly string[]])[]][] = [];
  b.states.forEach((_, i) => {
    if (a === undefined || stateOf(a, i) !== stateOf(b, i)) s.push([i, stateOf(b, i)]);
    if (a === undefined || (a.parts[i] !== b.parts[i] && JSON.stringify(a.parts[i]) !== JSON.stringify(b.parts[i]))) d.push([i, partsOf(b, i)]);
  });
  const f = inFlightOf(b);
  const same = a !== undefined && JSON.stringify(inFlightOf(a)) === JSON.stringify(f);
  return { ...(s.length > 0 ? { s } : {}), ...(d.length > 0 ? { d } : {}), ...(same ? {} : { f }) };
}

function timeOf(s: SequenceStep): string {
  if ('tick' in s) return `t=${s.tick}`;
  return '';
}

/** The viewer's data for a counterexample drawn as `diagram`; undefined when its run was not framed. */
export function viewerData(ce: Pick<Counterexample, 'frames'>, diagram: SequenceDiagram): ViewerData | undefined {
  const frames = ce.frames;
  if (frames === undefined || frames.frames.length === 0) return undefined;
  return { c: frames.components, p: diagram.participants, steps: viewerSteps(frames, diagram) };
}

function viewerSteps(frames: StepFrames, diagram: SequenceDiagram): ViewerStep[] {
  const all = frames.frames;
  const end = all[all.length - 1]!;
  // The first step shows the World as the diagram's first step finds it.
  const firstAt = diagram.steps.map((s) => (s.kind === 'fold' ? s.first : s.kind === 'missing' ? undefined : s.at)).find((x) => x !== undefined) ?? 0;
  const start = all.find((f) => f.at >= firstAt) ?? all[0]!;
  const steps: ViewerStep[] = [{ t: 'start', w: 'before the first step drawn', ...changes(undefined, start) }];
  let prev = start;
  for (const s of diagram.steps) {
    const at = lastAt(s);
    const frame = at === undefined ? end : frameAfter(all, at);
    const mark = 'mark' in s && s.mark !== undefined ? ([s.mark.kind, s.mark.text] as const) : s.kind === 'missing' ? (['missing', s.text] as const) : undefined;
    const drawnAt = s.kind === 'fold' || s.kind === 'missing' ? undefined : s.at;
    steps.push({ t: timeOf(s), w: stepWords(s), ...(mark === undefined ? {} : { m: mark }), ...(drawnAt === undefined ? {} : { a: drawnAt }), ...changes(prev, frame) });
    prev = frame;
  }
  return steps;
}

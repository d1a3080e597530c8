// What a reader is shown of the World at each step of a counterexample: every component's state,
// whether it is down, its durable state in the design's own words (the describer that writes a
// window's evidence: `orders: o-1 ACCEPTED v1`), and the messages in flight. It is made from a
// framed run (src/run/framedRun.ts) and is plain data, so a report can embed it for the
// step-through viewer; a durable context that did not change between two frames is described
// once and its words shared.
import type { FramedRun } from './framedRun.ts';
import type { EvidencePart, Scenario } from '../scenario/scenario.ts';
import { timeScaleOf } from '../scenario/scenario.ts';
import type { InFlight } from '../kernel/runEvents.ts';

/** One frame: the World just before the trace event at `at` (the end, for the last frame). */
export interface StepFrame {
  readonly at: number;
  readonly states: readonly string[];
  readonly down: readonly boolean[];
  /** Each component's durable state, as labelled lists of items. */
  readonly parts: readonly (readonly EvidencePart[])[];
  readonly inFlight: readonly InFlight[];
}

export interface StepFrames {
  /** The design's components, in its order: the index every frame's lists follow. */
  readonly components: readonly string[];
  readonly frames: readonly StepFrame[];
}

/** The most characters a durable value without a describer shows. */
const GENERIC_MAX = 160;

/**
 * A durable context no describer speaks for, in plain words: each field a list, a record as
 * `name=value` items, anything else as its JSON, cut to a readable length.
 */
export function genericParts(durable: unknown): EvidencePart[] {
  if (durable === undefined || durable === null || typeof durable !== 'object') return durable === undefined ? [] : [{ label: 'state', items: [short(durable)] }];
  const parts: EvidencePart[] = [];
  for (const [label, value] of Object.entries(durable as Record<string, unknown>)) {
    if (Array.isArray(value)) parts.push({ label, items: value.map(short) });
    else if (value !== null && typeof value === 'object') parts.push({ label, items: Object.entries(value as Record<string, unknown>).map(([k, v]) => `${k}=${short(v)}`) });
    else if (value !== undefined) parts.push({ label, items: [short(value)] });
  }
  return parts;
}

function short(v: unknown): string {
  const s = typeof v === 'string' ? v : (JSON.stringify(v) ?? String(v));
  return s.length <= GENERIC_MAX ? s : `${s.slice(0, GENERIC_MAX - 1)}…`;
}

/** The frames of a framed run, each durable context described by its component's describer. */
export function stepFrames(scenario: Scenario, run: FramedRun): StepFrames {
  const time = timeScaleOf(scenario);
  const described = new Map<unknown, readonly EvidencePart[]>();
  const words = (i: number, durable: unknown): readonly EvidencePart[] => {
    let parts = described.get(durable);
    if (parts === undefined) {
      const describe = run.components[i]!.describe;
      parts = describe === undefined ? genericParts(durable) : describe(durable, time);
      // Only objects are kept by identity; a value such as `undefined` is cheap to describe again.
      if (durable !== null && typeof durable === 'object') described.set(durable, parts);
    }
    return parts;
  };
  return {
    components: run.components.map((c) => c.name),
    frames: run.frames.map((f) => ({ at: f.at, states: f.states, down: f.down, parts: f.durable.map((d, i) => words(i, d)), inFlight: f.inFlight })),
  };
}

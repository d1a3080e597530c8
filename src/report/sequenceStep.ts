// The steps a sequence diagram draws, as data: a message delivered, lost or dropped, a crash, a
// restart, a note, the start of the liveness phase, a counted fold of steps, and an effect that
// never happened, each with where it sits in its trace and the mark that says why it matters.
// src/report/sequenceSteps.ts makes them from a trace; the key focus marks them, the folds
// count them, and the Mermaid and SVG drawings render them.

/** Where a step sits in its trace: the index of the event it was drawn from. */
interface Placed {
  readonly at?: number;
}

/** Why a step is marked: it committed an outcome under the key (the second one is the duplicate), its source fact, or the break. */
export interface StepMark {
  readonly kind: 'outcome' | 'duplicate' | 'fact' | 'broke';
  /** The words the diagram writes beside the step. */
  readonly text: string;
}

/** A step the diagram may mark. */
interface Markable {
  readonly mark?: StepMark;
}

export type SequenceStep =
  /**
   * A message delivered from one component to another. `inFlight` marks one delivered while its
   * sender was down: it was sent before the crash, so the diagram must not read as a dead sender speaking.
   */
  | ({ readonly kind: 'message'; readonly tick: number; readonly from: string; readonly to: string; readonly inFlight?: true } & Labelled & Placed & Markable)
  /** A message the network lost: it never arrives. */
  | ({ readonly kind: 'lost'; readonly tick: number; readonly from: string; readonly to: string } & Labelled & Placed & Markable)
  /** A message that arrived while its receiver was down, so nobody processed it. */
  | ({ readonly kind: 'dropped'; readonly tick: number; readonly from: string; readonly to: string } & Labelled & Placed & Markable)
  | ({ readonly kind: 'crash'; readonly tick: number; readonly component: string; readonly window: string | undefined } & Placed)
  | ({ readonly kind: 'restart'; readonly tick: number; readonly component: string; /** Back from the snapshot a restore put in place, not from the durable state it had. */ readonly restored?: true } & Placed)
  /** Something a component recorded or suffered that is not a message: an effect, a guard, a delayed message. */
  | ({
      readonly kind: 'note';
      readonly tick: number;
      readonly component: string;
      /** A record that stopped a repeat, or made one, went away here: a row past its time to live, evicted or deleted, or a provider's key past its retention. */
      readonly dropped?: true;
      /** A fault drew it: a message duplicated, delayed, held back or rebalanced, a restore, a clock skew. */
      readonly fault?: true;
    } & Labelled &
      Placed &
      Markable)
  /** A change that concerns every component: the start of the liveness phase. */
  | ({ readonly kind: 'phase'; readonly tick: number; readonly text: string } & Placed)
  /**
   * Steps folded into one line that says what they were: `count` steps from trace event `first`
   * to `last`, `text` short enough to draw, `detail` every part of them.
   */
  | { readonly kind: 'fold'; readonly count: number; readonly text: string; readonly detail: string; readonly first?: number; readonly last?: number }
  /** An effect that never happened: drawn where the claim's other outcomes were committed, at the end. */
  | { readonly kind: 'missing'; readonly component: string; readonly text: string; readonly detail: string };

/**
 * What a message or note says: `label` short enough to draw, made of `parts` (its name, then each
 * key) that a drawing may put on lines of their own but never splits, and `detail` with every key
 * in full (an SVG tooltip).
 */
export interface Labelled {
  readonly label: string;
  readonly parts: readonly string[];
  readonly detail: string;
}

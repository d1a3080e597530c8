// The outcome vocabulary of a run, shared by checkers, window tables and reports.

export type Violation =
  | 'duplicate effect'
  | 'lost effect'
  | 'phantom effect'
  | 'order regression'
  | 'conflict mishandled'
  | 'replay mismatch'
  | 'unresolved unknown outcome'
  | 'stuck';

export type RunOutcome = 'holds' | 'unknown' | Violation;

/** Severity order, so the table shows the worst outcome first and merges stay deterministic. */
export const VIOLATIONS: readonly Violation[] = [
  'phantom effect',
  'lost effect',
  'duplicate effect',
  'order regression',
  'conflict mishandled',
  'replay mismatch',
  'unresolved unknown outcome',
  'stuck',
];

export interface Finding {
  readonly violation: Violation;
  /** The claim's effect this finding is about. */
  readonly effect: string;
  /** What exactly is wrong, with the keys involved. */
  readonly detail: string;
}

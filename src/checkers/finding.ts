// The outcome vocabulary of a run, shared by checkers, window tables and reports. A finding is
// data: which violation, of which claim's effect, and the keys involved, so a report, a repair
// query or a test reads the keys without parsing a sentence (report/describeFinding.ts words it).
import type { StuckReason } from '../kernel/runReport.ts';

export type Violation =
  | 'duplicate effect'
  | 'lost effect'
  | 'phantom effect'
  | 'order regression'
  | 'conflict mishandled'
  | 'replay mismatch'
  | 'unresolved unknown outcome'
  | 'silent revision'
  | 'stuck';

/**
 * How a run ended for its claims: held, violated (its worst finding), unknown (a clause could not
 * be decided: a checker threw), or inconclusive (the run was cut by a bound, the World's steps,
 * before the clauses that need its end could be judged; a bound is never a finding).
 */
export type RunOutcome = 'holds' | 'unknown' | 'inconclusive' | Violation;

/** Severity order, so the table shows the worst outcome first and merges stay deterministic. */
export const VIOLATIONS: readonly Violation[] = [
  'phantom effect',
  'lost effect',
  'duplicate effect',
  'order regression',
  'conflict mishandled',
  'replay mismatch',
  'unresolved unknown outcome',
  'silent revision',
  'stuck',
];

type About = { readonly effect: string };

export type Finding =
  /** More than one committed outcome under one key. */
  | (About & { readonly violation: 'duplicate effect'; readonly key: string; readonly count: number })
  /** A committed source fact whose effect never happened. */
  | (About & { readonly violation: 'lost effect'; readonly key: string })
  /** An effect whose source fact never committed. */
  | (About & { readonly violation: 'phantom effect'; readonly key: string })
  /** An aggregate's applied version moved backwards. */
  | (About & { readonly violation: 'order regression'; readonly key: string; readonly from: number; readonly to: number })
  /** A different intent under an existing key was accepted instead of refused. */
  | (About & { readonly violation: 'conflict mishandled'; readonly key: string })
  /** The same intent got two different recorded results. */
  | (About & { readonly violation: 'replay mismatch'; readonly key: string; readonly first: string; readonly then: string })
  /** An outcome still pending or unknown once the world was quiet. */
  | (About & { readonly violation: 'unresolved unknown outcome'; readonly key: string })
  /** A period's final result changed without a version or a link readers could see. */
  | (About & { readonly violation: 'silent revision'; readonly key: string; readonly how: string })
  /** The run never became quiet. */
  | (About & { readonly violation: 'stuck'; readonly reason: StuckReason });

/** The keys a finding is about (none for a stuck run). */
export function findingKey(f: Finding): string | undefined {
  return f.violation === 'stuck' ? undefined : f.key;
}

/** Findings as sets of keys per violation, as Jepsen keeps `:lost` and `:duplicated`. */
export function keysByViolation(findings: readonly Finding[]): Partial<Record<Violation, readonly string[]>> {
  const out: Partial<Record<Violation, string[]>> = {};
  for (const f of findings) {
    const key = findingKey(f);
    if (key === undefined) continue;
    const list = (out[f.violation] ??= []);
    if (!list.includes(key)) list.push(key);
  }
  for (const list of Object.values(out)) list.sort();
  return out;
}

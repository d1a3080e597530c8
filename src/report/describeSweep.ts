// The sentences in which a windows sweep and a check differ, for every form of the report: how
// the runs were chosen (one seed, or every interleaving), how a counterexample is reproduced (a
// seed and a plan, or a choice path), and what "not reached" means (not entered by these runs,
// or unreachable within the search's bound).
import { TimeScale } from '../base/duration.ts';
import type { Counterexample, WindowsResult } from '../modes/windows.ts';
import { count, zeroLatency } from './describeCoverage.ts';

/** "seed 1" or "every zero-latency interleaving, at most 1 fault a path, workload 2", then the tick. */
export function sweepHeader(r: WindowsResult): string {
  const how = r.check ? `every ${zeroLatency(r.coverage)}interleaving, at most ${count(r.check.faults, 'fault')} a path, workload ${r.check.size}` : `seed ${r.seed}`;
  return `${how} · one tick is ${new TimeScale(r.tick).format(1)}`;
}

/** How a counterexample's run is named: its seed or its choice path, and its workload size. */
export function counterexampleRun(ce: Counterexample): { label: string; value: string }[] {
  const first = ce.replay.kind === 'choices' ? { label: 'Choice path', value: ce.replay.choices } : { label: 'Seed', value: String(ce.seed) };
  return [first, { label: 'size', value: String(ce.size) }];
}

/** Sentences on windows no run struck, each naming its windows. */
export function windowReach(r: WindowsResult): { text: string; windows: readonly string[] }[] {
  const out: { text: string; windows: readonly string[] }[] = [];
  if (r.check) {
    const b = r.coverage.bound;
    const within = b === undefined ? '' : b.kind === 'firstViolation' ? ' before the search stopped at its first violation' : ' within the search bound';
    if (r.unreachedWindows.length > 0) out.push({ text: `Failure windows no ${zeroLatency(r.coverage)}interleaving with at most ${count(r.check.faults, 'fault')} reaches${within}`, windows: r.unreachedWindows });
    if (r.check.unstruckWindows.length > 0) out.push({ text: `Failure windows reached only after every fault of the budget was spent, so never struck (a check with --faults ${r.check.faults + 1} strikes them)`, windows: r.check.unstruckWindows });
  } else if (r.unreachedWindows.length > 0 && r.coverage.bound?.kind === 'firstViolation') {
    out.push({ text: 'Failure windows no run entered before --fail-fast stopped the sweep', windows: r.unreachedWindows });
  } else if (r.unreachedWindows.length > 0) {
    out.push({ text: 'Failure windows this workload never entered (a crash planned there never struck)', windows: r.unreachedWindows });
  }
  return out;
}

/** The check's search in one line: states, transitions, depth, end states. */
export function searchLine(r: WindowsResult): string | undefined {
  const c = r.check;
  if (!c) return undefined;
  return `${count(c.states, 'state')}, ${count(c.transitions, 'transition')}, depth ${c.depth}, ${count(c.ends, 'end state')} judged`;
}

// What a verdict covers, in words, for every form of the report: "holds for every single fault:
// 44 places x 5 fault kinds (every occurrence the runs reached: 312, at most 23 at one place),
// 312 runs, one interleaving per plan (simulation seed 1)", and the claim clause by clause with its status ("not checked" where the
// claim gives no observer, "not exercised" where no run gave the clause anything to judge).
import type { ClauseId } from '../checkers/clause.ts';
import type { ClauseStatus } from '../checkers/compose.ts';
import type { ClauseCoverage, Coverage } from '../checkers/coverage.ts';
import type { Verdict } from '../checkers/verdict.ts';
import { thousands } from './thousands.ts';

export const CLAUSE_TITLES: Readonly<Record<ClauseId, string>> = {
  atMostOne: 'at most one committed outcome per key',
  liveness: 'every committed fact yields its effect',
  phantom: 'no effect without a committed fact',
  versions: 'versions never move backwards',
  sameIntent: 'the same intent returns the recorded result',
  differentIntent: 'a different intent conflicts',
  unknownResolved: 'unknown external completion ends resolved',
  finality: 'a final result is never revised silently',
  quiescence: 'the world becomes quiet once faults heal',
};

/** `1 run`, `2 runs`, `1,000 states`. */
export function count(n: number, one: string, many = `${one}s`): string {
  return `${thousands(n)} ${n === 1 ? one : many}`;
}

/**
 * `zero-latency ` for a search whose messages land before the clock moves, said wherever its
 * interleavings are named, not only in their detail: such a search races no message against a
 * timer (a TTL, a redelivery), and a "holds" or an "unreachable" read without it overstates what
 * was shown.
 */
export function zeroLatency(c: Pick<Coverage, 'latency'>): string {
  return c.latency?.max === 0 ? 'zero-latency ' : '';
}

function depth(c: Coverage): string {
  if (c.mode === 'replay') return c.faultDepth === 0 ? 'the fault-free run' : `this plan of ${count(c.faultDepth, 'fault')}`;
  if (c.mode === 'explore') return `sampled plans of up to ${count(c.faultDepth, 'fault')}`;
  if (c.mode === 'check') {
    const at = c.workload === undefined ? '' : ` at workload size ${thousands(c.workload.size)} (the scenario's is ${thousands(c.workload.of)})`;
    const zero = zeroLatency(c);
    return `${c.faultDepth === 0 ? `every fault-free ${zero}interleaving` : `every ${zero}interleaving with at most ${count(c.faultDepth, 'fault')}`}${at}`;
  }
  if (c.faultDepth === 1) return 'every single fault';
  if (c.faultDepth === 2) return 'every single fault and every pair';
  return `every combination of up to ${c.faultDepth} faults`;
}

/** Which occurrences of each place were struck, and how many a bound left out. */
function occurrencesOf(c: Coverage): string {
  const o = c.occurrences;
  const first = c.maxOccurrence === undefined ? undefined : `first ${count(c.maxOccurrence, 'occurrence')} of each`;
  if (o === undefined) return first === undefined ? '' : `, ${first}`;
  if (c.mode === 'explore') return `, occurrences drawn from the ${thousands(o.reached)} the fault-free run reached, up to ${thousands(o.most)} at one place`;
  if (first === undefined) return `, every occurrence the runs reached: ${thousands(o.reached)}, at most ${thousands(o.most)} at one place`;
  if (o.beyond === 0) return `, ${first}: every one of the ${thousands(o.reached)} the runs reached`;
  return `, ${first}: ${thousands(o.reached - o.beyond)} of the ${thousands(o.reached)} the runs reached, up to ${thousands(o.most)} at one place; ${thousands(o.beyond)} left unstruck`;
}

function space(c: Coverage): string {
  const occurrences = occurrencesOf(c);
  const where = `${count(c.windows, 'window')} and ${count(c.points, 'message point')} (${c.kinds.join(', ')}${occurrences})`;
  return c.faults === undefined ? where : `${count(c.faults, 'fault')} at ${where}`;
}

function interleavings(c: Coverage): string {
  const i = c.interleavings;
  if (i.kind === 'seeded') return `one interleaving per plan (simulation seed ${i.seed})`;
  if (i.kind === 'sampled') return 'interleavings sampled with the plans';
  if (i.kind === 'chosen') return 'the interleaving its choice path names';
  if (i.kind === 'scheduled') return 'one interleaving (the schedule of message latencies the search shrank)';
  const slept = i.slept === undefined ? '' : ` (and ${count(i.slept, 'commuting transition')} skipped by sleep sets)`;
  const l = c.latency;
  const latency = l === undefined ? '' : l.max === 0 ? ', every message landing before the clock moves (--world-latency: the World’s latencies)' : `, messages landing ${l.min} to ${l.max} ticks after they are sent`;
  return `${count(i.states, 'state')}, ${count(i.transitions, 'transition')}${slept}, depth ${i.depth}${latency}`;
}

function bound(c: Coverage): string {
  const b = c.bound;
  if (b === undefined) return '';
  if (b.kind === 'samples') return `; the search stopped after ${count(b.runs, 'sample')}`;
  if (b.kind === 'states') return `; the search stopped at its bound of ${count(b.max, 'state')}`;
  // check stops there unless told otherwise; windows only when --fail-fast asks.
  if (b.kind === 'firstViolation') return c.mode === 'check' ? '; the search stopped at its first violation (check --full searches the whole bound)' : '; --fail-fast stopped the sweep at its first violation';
  return `; the search stopped at its depth bound of ${b.max}`;
}

function otherSearch(c: Coverage): string {
  const o = c.otherSearch;
  if (o === undefined) return '';
  const at = `${count(o.states, 'state')}, depth ${o.depth}`;
  // The depth-first pass found what the breadth-first one could not reach: its path is not a shortest one.
  if (o.order === 'breadth-first') return `; found depth-first after a breadth-first search stopped at its bound without a violation (${at}), so the path is not a shortest one`;
  return `; a depth-first search within the same bound found no violation either (${at})`;
}

/**
 * How the verdict meets what was run: a design holds *for* every fault it was run under, but is
 * violated (or left undecided) *in* a search or in runs of them; "violated for every single
 * fault" would read as if every fault broke it.
 */
function connective(verdict: Verdict, c: Coverage): string {
  if (verdict === 'holds' || verdict === 'holds within bound') return ' for ';
  if (c.mode === 'replay') return ' in ';
  return c.mode === 'check' ? ', in a search of ' : ', in runs of ';
}

/** One sentence: what the verdict holds for, or what was run to reach it. */
export function describeCoverage(verdict: Verdict, c: Coverage): string {
  const unstruck = c.unstruckRuns === 0 ? '' : `; in ${count(c.unstruckRuns, 'run')} a planned fault never struck`;
  const runs = c.mode === 'check' ? count(c.runs, 'end state') : count(c.runs, 'run');
  const only = c.only === undefined ? '' : `; only the faults at ${c.only} were run (--only), so the other places say nothing here`;
  return `${verdict}${connective(verdict, c)}${depth(c)}: ${space(c)}, ${runs}, ${interleavings(c)}${bound(c)}${otherSearch(c)}${only}${unstruck}`;
}

export function clauseStatusText(status: ClauseStatus): string {
  switch (status) {
    case 'not checked':
      return 'not checked (the claim gives no observer for it)';
    case 'not exercised':
      return 'not exercised (no run gave it anything to judge)';
    default:
      return status;
  }
}

/** Why a clause had nothing to judge in a run: what that run never did. */
export const NOTHING_TO_JUDGE: Readonly<Record<ClauseId, string>> = {
  atMostOne: 'no outcome was committed',
  liveness: 'no source fact was committed',
  phantom: 'no effect was committed',
  versions: 'no version was applied',
  sameIntent: 'no intent was asked for twice',
  differentIntent: 'no different intent was tried under a used key',
  unknownResolved: 'no outcome was ever unknown',
  finality: 'no final result was revised',
  quiescence: 'there was nothing to wait for',
};

/**
 * Why a clause judged fewer runs than ran: "in 3 there was nothing to judge: no source fact was
 * committed; in 1 its checker could not decide". Empty when it judged every run.
 */
export function unjudgedText(c: ClauseCoverage, judgedOver: 'run' | 'end state' = 'run'): string {
  const parts: string[] = [];
  if ((c.idle ?? 0) > 0) parts.push(`in ${thousands(c.idle!)} there was nothing to judge: ${NOTHING_TO_JUDGE[c.clause]}`);
  if ((c.undecided ?? 0) > 0) parts.push(`in ${thousands(c.undecided!)} its checker could not decide`);
  return parts.join('; ');
}

/** `every committed fact yields its effect: holds (judged in 264 of 267 runs; in 3 there was nothing to judge: no source fact was committed)` */
export function describeClause(c: ClauseCoverage, judgedOver: 'run' | 'end state' = 'run'): string {
  const total = c.exercised + (c.idle ?? 0) + (c.undecided ?? 0);
  const unjudged = unjudgedText(c, judgedOver);
  const judged = unjudged === '' ? `judged in ${count(c.exercised, judgedOver)}` : `judged in ${thousands(c.exercised)} of ${count(total, judgedOver)}; ${unjudged}`;
  const runs = c.status === 'holds' || c.status === 'violated' ? ` (${judged})` : '';
  const reason = (c.status === 'unknown' || c.status === 'inconclusive') && c.reason !== undefined ? `: ${c.reason}` : '';
  return `${CLAUSE_TITLES[c.clause]}: ${clauseStatusText(c.status)}${runs}${reason}`;
}

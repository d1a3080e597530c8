// How one run is shown on the terminal: the claims, the plan, its schedule of message latencies
// when it has one, the world's parameters, then the answer (the findings, or that every claim
// holds), then the run: by default the steps drawn around the key of its worst finding (the
// steps that carried its messages or changed its rows, the faults, the marked moments, the rest
// folded into counted groups), with `full` every event of the trace; then each clause's status,
// the faults that never struck, and the line that replays it. Shared by explore (for its
// counterexample) and replay.
import type { ChalkInstance } from 'chalk';
import type { ClaimVerdict } from '../checkers/compose.ts';
import type { Finding } from '../checkers/finding.ts';
import type { Claim } from '../checkers/claims.ts';
import type { Fault, FaultPlan } from '../faults/faults.ts';
import { replayLine, type ReplayRef } from '../modes/replayLine.ts';
import { claimSentence } from '../report/claimSentence.ts';
import { CLAUSE_TITLES, clauseStatusText } from '../report/describeCoverage.ts';
import { describeFinding } from '../report/describeFinding.ts';
import { describeFault, describePlan } from '../report/describePlan.ts';
import { describeSchedule } from '../report/describeSchedule.ts';
import { describeWorld } from '../report/describeWorld.ts';
import type { Duration } from '../base/duration.ts';
import { formatTraceEvent, type TraceEvent } from '../kernel/trace.ts';
import { VIOLATIONS } from '../checkers/finding.ts';
import type { KeyMoment } from '../analysis/keyMoments.ts';
import { focusSentence, stepLine } from '../report/keyStory.ts';
import { markOf } from '../report/keyFocus.ts';
import { counterexampleSteps } from '../report/sequenceSteps.ts';

export interface PrintableRun {
  readonly claims: readonly Claim[];
  readonly plan: FaultPlan;
  readonly seed: number;
  readonly size: number;
  /** An explore case's message latencies, in ticks above the least; absent when the seed drew them. */
  readonly latencies?: readonly number[] | undefined;
  readonly findings: readonly Finding[];
  readonly claimVerdicts?: readonly ClaimVerdict[];
  readonly unstruck?: readonly Fault[];
  readonly trace: readonly TraceEvent[];
  readonly traceHash: string;
  readonly replay: ReplayRef;
  /** How long one tick is, to print the world's settings as durations. */
  readonly tick?: Duration;
  /** A check run's choice path, which names its interleaving as a seed would. */
  readonly choices?: string;
  /** Where the worst finding's keys went wrong, for the marks of the summary. */
  readonly moments?: readonly KeyMoment[];
}

/** The run's steps around the key of its worst finding, one line each, under a line saying what was drawn. */
function keySteps(out: (text: string) => void, c: ChalkInstance, run: PrintableRun): void {
  const worst = VIOLATIONS.find((v) => run.findings.some((f) => f.violation === v));
  const d = counterexampleSteps({ trace: run.trace, findings: run.findings, violation: worst ?? 'stuck', moments: run.moments ?? [] });
  out(`${c.bold('steps')}  ${focusSentence(d)} Every event: add --trace.`);
  for (const s of d.steps) {
    const line = `  ${stepLine(s)}`;
    const marked = 'mark' in s && s.mark !== undefined;
    out(s.kind === 'crash' || s.kind === 'lost' || s.kind === 'missing' || (marked && (s.mark.kind === 'duplicate' || s.mark.kind === 'broke')) ? c.red(line) : marked ? c.yellow(line) : s.kind === 'fold' ? c.dim(line) : line);
  }
}

/** Every event of the trace, one line each, the event that starts a marked step carrying its marks. */
function fullTrace(out: (text: string) => void, c: ChalkInstance, run: PrintableRun): void {
  out(c.bold('trace'));
  const marks = new Map<number, string[]>();
  for (const m of run.moments ?? []) if (m.at !== undefined && m.kind !== 'missing') marks.set(m.at, [...(marks.get(m.at) ?? []), markOf(m).text]);
  run.trace.forEach((e, i) => {
    const marked = marks.get(i);
    const line = `  ${formatTraceEvent(e)}${marked === undefined ? '' : `   ◀ ${marked.join('; ')}`}`;
    out(e.kind === 'crash' || e.kind === 'lose' || e.kind === 'fault' ? c.red(line) : marked !== undefined ? c.yellow(line) : e.kind === 'note' ? c.cyan(line) : line);
  });
}

export function printRun(out: (text: string) => void, c: ChalkInstance, run: PrintableRun, full = false): void {
  for (const claim of run.claims) out(`${c.bold('claim')}  ${claimSentence(claim)}`);
  out(`${c.bold('plan')}   ${describePlan(run.plan)} (${run.choices === undefined ? `simulation seed ${run.seed}` : 'the interleaving its choice path names'}, workload ${run.size})`);
  if (run.latencies) out(`${c.bold('schedule')} ${describeSchedule(run.latencies, run.tick)}`);
  const start = run.trace.find((e) => e.kind === 'start')?.data as { options?: Record<string, number> } | undefined;
  if (start?.options) out(`${c.bold('world')}  ${describeWorld(start.options, run.tick)}`);
  const undecided = (run.claimVerdicts ?? []).flatMap((v) => v.clauses.filter((k) => k.status === 'unknown').map((k) => ({ effect: v.effect, k })));
  const found = VIOLATIONS.filter((v) => run.findings.some((f) => f.violation === v));
  const verdict = found.length > 0 ? c.red(`violated (${found.join(', ')})`) : undecided.length > 0 ? c.yellow('unknown') : c.green('holds');
  out(`${c.bold('verdict')} ${verdict}`);
  if (run.findings.length === 0 && undecided.length === 0) out(c.green('every claim holds'));
  for (const f of run.findings) out(c.red(`${f.violation}: ${describeFinding(f)}`));
  for (const { effect, k } of undecided) out(c.yellow(`unknown: ${effect}: ${CLAUSE_TITLES[k.clause]} could not be decided: ${k.reason ?? 'no reason given'}`));
  if (full) fullTrace(out, c, run);
  else keySteps(out, c, run);
  for (const f of run.unstruck ?? []) out(c.yellow(`warning: the planned fault "${describeFault(f)}" never struck: its place was not reached at that occurrence, so this run says nothing about it`));
  for (const v of run.claimVerdicts ?? []) {
    const notChecked = v.clauses.filter((k) => k.status === 'not checked' || k.status === 'not exercised');
    for (const k of notChecked) out(c.yellow(`${run.claims.length > 1 ? `${v.effect}: ` : ''}${CLAUSE_TITLES[k.clause]}: ${clauseStatusText(k.status)}`));
  }
  out(`${c.bold('trace hash')} ${run.traceHash}`);
  out(`${c.bold('replay')} ${replayLine(run.replay)}`);
}

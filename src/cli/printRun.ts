// How a run is shown on the terminal: the claim, the plan, the trace step by step and the
// line that replays it. Shared by explore (for its counterexample) and replay.
import type { ChalkInstance } from 'chalk';
import { describePlan, type FaultPlan } from '../faults.ts';
import { formatTraceEvent, type TraceEvent } from '../trace.ts';
import type { Finding } from '../checkers/finding.ts';

export function printRun(
  out: (text: string) => void,
  c: ChalkInstance,
  run: { claims: readonly string[]; plan: FaultPlan; seed: number; size: number; findings: readonly Finding[]; trace: readonly TraceEvent[]; traceHash: string; replay: string },
): void {
  for (const claim of run.claims) out(`${c.bold('claim')}  ${claim}`);
  out(`${c.bold('plan')}   ${describePlan(run.plan)} (simulation seed ${run.seed}, workload ${run.size})`);
  out(c.bold('trace'));
  for (const e of run.trace) {
    const line = `  ${formatTraceEvent(e)}`;
    out(e.kind === 'crash' || e.kind === 'lose' || e.kind === 'fault' ? c.red(line) : e.kind === 'note' ? c.cyan(line) : line);
  }
  if (run.findings.length === 0) out(c.green('every claim holds'));
  for (const f of run.findings) out(c.red(`${f.violation}: ${f.detail}`));
  out(`${c.bold('trace hash')} ${run.traceHash}`);
  out(`${c.bold('replay')} ${run.replay}`);
}

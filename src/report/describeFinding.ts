// Findings in words. The engine keeps a finding as data (violation, effect, keys); this is the
// one place its sentence is made, for the terminal, Markdown, HTML, JSON and JUnit alike.
import type { Finding } from '../checkers/finding.ts';
import type { StuckReason } from '../kernel/runReport.ts';

export function describeStuck(r: StuckReason): string {
  switch (r.kind) {
    case 'steps':
      return `step bound ${r.bound} reached${r.phase === 'safety' ? ' in the safety phase' : ''}`;
    case 'no quiescence':
      return `no quiescence within ${r.ticks} ticks after healing`;
    case 'waiting':
      return `nothing left to happen while ${r.components.join(', ')} waits`;
  }
}

export function describeFinding(f: Finding): string {
  switch (f.violation) {
    case 'duplicate effect':
      return `${f.count} committed outcomes for key ${f.key}`;
    case 'lost effect':
      // An effect named with its article ("a counted page view") reads without it after "no".
      return `committed fact ${f.key} has no ${f.effect.replace(/^(a|an|the) /, '')}`;
    case 'phantom effect':
      return `${f.effect} ${f.key} has no committed source fact`;
    case 'order regression':
      return `${f.key} moved from version ${f.from} back to ${f.to}`;
    case 'conflict mishandled':
      return `a different intent under key ${f.key} was not refused`;
    case 'replay mismatch':
      return `intent ${f.key} got ${f.first} and then ${f.then}`;
    case 'unresolved unknown outcome':
      return `outcome for ${f.key} is still unknown at quiescence`;
    case 'silent revision':
      return `the final result of ${f.key} was ${f.how}`;
    case 'stuck':
      return describeStuck(f.reason);
  }
}

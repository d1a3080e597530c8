// Faults and plans in words, as printed in plans, reports and replay output.
import type { Fault, FaultPlan } from '../faults/faults.ts';

/** One short line per fault. */
export function describeFault(f: Fault): string {
  const nth = f.occurrence === 1 ? '' : ` (occurrence ${f.occurrence})`;
  switch (f.kind) {
    case 'crash':
      return `crash-and-restart at ${f.window}${nth}`;
    case 'restore':
      return `restore ${f.component} from its snapshot at ${f.window}${nth}`;
    case 'skew':
      return `skew the clock of ${f.window.split('.')[0]} at ${f.window}${nth}`;
    case 'lose':
      return `lose ${f.point}${nth}`;
    case 'duplicate':
      return `duplicate ${f.point}${nth}`;
    case 'delay':
      return `delay ${f.point}${nth}`;
    case 'reorder':
      return `reorder ${f.point}${nth}`;
    case 'rebalance':
      return `rebalance ${f.point}${nth}: its work moves to another receiver while it is on its way`;
  }
}

export function describePlan(plan: FaultPlan): string {
  return plan.length === 0 ? 'no faults' : plan.map(describeFault).join('; ');
}

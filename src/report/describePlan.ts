// Faults and plans in words, as printed in plans, reports and replay output.
import { faultSentence, type Fault, type FaultPlan } from '../faults/faults.ts';

/** One short line per fault, in its kind's words (src/faults/kinds/). */
export const describeFault: (f: Fault) => string = faultSentence;

export function describePlan(plan: FaultPlan): string {
  return plan.length === 0 ? 'no faults' : plan.map(describeFault).join('; ');
}

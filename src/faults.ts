// The faults a run can suffer, as plain data. A FaultPlan is printed at the start of a run and
// in every failure, and it is all that (with the seed) a replay needs.
//
// Two kinds of place a fault can strike, both discovered from the models, never hand-listed:
// - a failure window `<component>.<state>`: the moment a process machine has entered that state
//   and not yet taken its next step. A crash there loses the component's volatile context
//   (open transactions, in-flight requests, caches) and keeps its durable context.
// - a message point `<from>-><to>:<type>`: a kind of message on one link. A message fault there
//   loses, duplicates, delays or reorders the n-th such message.

export type CrashFault = {
  readonly kind: 'crash';
  /** `<component>.<state>`: crash when the component enters this state... */
  readonly window: string;
  /** ...for the n-th time (1-based). */
  readonly occurrence: number;
};

export type MessageFaultKind = 'lose' | 'duplicate' | 'delay' | 'reorder';

export type MessageFault = {
  readonly kind: MessageFaultKind;
  /** `<from>-><to>:<type>`: which message... */
  readonly point: string;
  /** ...and its n-th occurrence on that link (1-based). */
  readonly occurrence: number;
};

export type Fault = CrashFault | MessageFault;
export type FaultKind = Fault['kind'];
export type FaultPlan = readonly Fault[];

export const MESSAGE_FAULT_KINDS: readonly MessageFaultKind[] = ['lose', 'duplicate', 'delay', 'reorder'];
export const FAULT_KINDS: readonly FaultKind[] = ['crash', ...MESSAGE_FAULT_KINDS];

/** The place a fault strikes, whichever kind it is. */
export function faultPlace(f: Fault): string {
  return f.kind === 'crash' ? f.window : f.point;
}

/** One short line per fault, as printed in plans, reports and replay output. */
export function describeFault(f: Fault): string {
  const nth = f.occurrence === 1 ? '' : ` (occurrence ${f.occurrence})`;
  switch (f.kind) {
    case 'crash':
      return `crash-and-restart at ${f.window}${nth}`;
    case 'lose':
      return `lose ${f.point}${nth}`;
    case 'duplicate':
      return `duplicate ${f.point}${nth}`;
    case 'delay':
      return `delay ${f.point}${nth}`;
    case 'reorder':
      return `reorder ${f.point}${nth}`;
  }
}

export function describePlan(plan: FaultPlan): string {
  return plan.length === 0 ? 'no faults' : plan.map(describeFault).join('; ');
}

export function messagePoint(from: string, to: string, type: string): string {
  return `${from}->${to}:${type}`;
}

// Which event types a machine can ever react to: those some state node of it, at any depth, has
// a transition for, by its exact type, a `prefix.*` descriptor or `*`. An event no node handles
// leaves the machine exactly as it was in every state (XState v5 selects no transition for it,
// and a stable state takes no eventless transition), so delivering it changes nothing but the
// link it travelled on. Two readers: a run refuses a message its receiver can never handle as a
// wiring mistake (src/run/unhandledMessages.ts), and a search leaves out a crash's notice to a
// component that never listens for one (src/kernel/kernel.ts, crash).
import type { AnyStateMachine, AnyStateNode } from 'xstate';

/** The event types a machine handles somewhere: exact types, `prefix.*` descriptors, and `*`. */
export interface Handled {
  readonly exact: ReadonlySet<string>;
  readonly prefixes: readonly string[];
  readonly any: boolean;
}

const handledOf = new WeakMap<AnyStateMachine, Handled>();

/** Every event type `machine` has a transition for, read once per machine. */
export function handledEvents(machine: AnyStateMachine): Handled {
  let h = handledOf.get(machine);
  if (h !== undefined) return h;
  const exact = new Set<string>();
  const prefixes: string[] = [];
  let any = false;
  const walk = (node: AnyStateNode) => {
    for (const descriptor of (node.transitions as Map<string, unknown>).keys()) {
      if (descriptor === '*') any = true;
      else if (descriptor.endsWith('.*')) prefixes.push(descriptor.slice(0, -1));
      else exact.add(descriptor);
    }
    for (const child of Object.values(node.states ?? {})) walk(child as AnyStateNode);
  };
  walk(machine.root);
  h = { exact, prefixes, any };
  handledOf.set(machine, h);
  return h;
}

/** Whether a machine that handles `h` has a transition for events of `type` in some state. */
export function handles(h: Handled, type: string): boolean {
  return h.any || h.exact.has(type) || h.prefixes.some((p) => type.startsWith(p));
}

/** Whether any state node of `machine` has a transition `type` would take. */
export function handlesEvent(machine: AnyStateMachine, type: string): boolean {
  return handles(handledEvents(machine), type);
}

// Failure windows are never listed by hand: they are the states each process machine can rest
// in, read from its definition, so a new design option or machine brings its windows with it; a
// state the component's options rule out (ruledOutWindows) is no window of its design.
// A window `<component>.<state>` is the moment that component has entered the state and not yet
// taken its next step. A server (database, broker) rests in one state and does its work inside
// single steps, so its windows are the moments within a step its machine declares in its
// definition (`meta.failureWindows`) and marks as it reaches them (src/kernel/emitted.ts, `window`);
// they are struck only where the design lets that server crash (ComponentSpec.crashes).
import type { AnyStateMachine, AnyStateNode } from 'xstate';
import { windowName } from '../faults/place.ts';
import { compileMachine } from '../kernel/compiledMachine.ts';
import type { ComponentSpec } from '../kernel/componentSpec.ts';
import type { StrikeSpace } from '../faults/faultKind.ts';

/** Every state a machine can rest in: atomic states that are not left at once by an unguarded `always`. */
export function restingStates(machine: AnyStateMachine): string[] {
  const out: string[] = [];
  const walk = (node: AnyStateNode, path: string[]) => {
    const children = Object.values(node.states ?? {}) as AnyStateNode[];
    if (children.length === 0) {
      const transient = (node.always ?? []).some((t) => !t.guard);
      if (!transient) out.push(path.join('.'));
      return;
    }
    for (const child of children) walk(child, [...path, child.key]);
  };
  walk(machine.root, []);
  return out;
}

/**
 * The windows a server's machine declares for its input: the moments inside its steps at which
 * it can crash (a broker that syncs before it acks has no moment before a sync).
 */
export function declaredWindows(machine: AnyStateMachine, input: unknown): string[] {
  const meta = machine.root.meta as { failureWindows?: (input: unknown) => readonly string[] } | undefined;
  return [...(meta?.failureWindows?.(input ?? {}) ?? [])];
}

/**
 * The failure windows of a design, named `<component>.<state>`: the resting states of its
 * process machines, then the declared windows of each server that can crash, in design order.
 */
export function failureWindows(components: readonly ComponentSpec[]): string[] {
  return components.flatMap((c) => (c.process ? restingStates(c.machine) : c.crashes ? declaredWindows(c.machine, c.input) : []).map((s) => windowName(c.name, s)));
}

/**
 * The windows of process machines that the design's options rule out: resting states no run of
 * the machine with its component's input can enter, by its definition (CompiledMachine.reachable:
 * a consumer with no inbox never inserts into one). A machine the compiled driver refuses rules
 * out none.
 */
export function ruledOutWindows(components: readonly ComponentSpec[]): ReadonlySet<string> {
  const out = new Set<string>();
  for (const c of components) {
    if (!c.process) continue;
    const compiled = compileMachine(c.machine);
    if (typeof compiled === 'string') continue;
    const reachable = compiled.reachable(c.input);
    for (const s of restingStates(c.machine)) if (!reachable.has(s)) out.add(windowName(c.name, s));
  }
  return out;
}

/**
 * What the design offers the window faults once its options have ruled their windows out
 * (strikeSpace, less ruledOutWindows): a sweep strikes, an exploration draws, and a report counts
 * and lists these. A ruled-out window some run did reach (`reached`) is kept: the runs, not the
 * definition, have the last word.
 */
export function offeredSpace(components: readonly ComponentSpec[], reached: (window: string) => boolean): StrikeSpace {
  const ruledOut = ruledOutWindows(components);
  const keep = (w: string) => !ruledOut.has(w) || reached(w);
  const space = strikeSpace(components);
  return { ...space, windows: space.windows.filter(keep), moments: space.moments.filter(keep), skewable: space.skewable.filter(keep) };
}

/** The failure windows a report counts and lists (offeredSpace). */
export function designWindows(components: readonly ComponentSpec[], reached: (window: string) => boolean): readonly string[] {
  return offeredSpace(components, reached).windows;
}

/** The resting states of the design's process machines alone: the moments a restore or a skew can strike at. */
export function processWindows(components: readonly ComponentSpec[]): string[] {
  return components.flatMap((c) => (c.process ? restingStates(c.machine).map((s) => windowName(c.name, s)) : []));
}

/** The components a restore can set back: those that declare a snapshot. */
export function restorableComponents(components: readonly ComponentSpec[]): string[] {
  return components.filter((c) => c.restore !== undefined).map((c) => c.name);
}

/** The windows a skew can strike at: every resting state of a process whose clock can jump. */
export function skewableWindows(components: readonly ComponentSpec[]): string[] {
  return processWindows(components.filter((c) => c.skewTicks !== undefined));
}

/** What a design offers the window faults (src/faults/faultKind.ts): its windows, its processes' moments, what can be restored or skewed. */
export function strikeSpace(components: readonly ComponentSpec[]): StrikeSpace {
  return { windows: failureWindows(components), moments: processWindows(components), restorable: restorableComponents(components), skewable: skewableWindows(components) };
}

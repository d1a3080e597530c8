// Failure windows are never listed by hand: they are the states each process machine can rest
// in, read from its definition, so a new design option or machine brings its windows with it.
// A window `<component>.<state>` is the moment that component has entered the state and not yet
// taken its next step.
import type { AnyStateMachine, AnyStateNode } from 'xstate';
import { windowName } from './place.ts';
import type { ComponentSpec } from './world.ts';

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

/** The failure windows of a design, named `<component>.<state>`, derived from its process machines. */
export function failureWindows(components: readonly ComponentSpec[]): string[] {
  return components.filter((c) => c.process).flatMap((c) => restingStates(c.machine).map((s) => windowName(c.name, s)));
}

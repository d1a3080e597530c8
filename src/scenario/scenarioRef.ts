// How a replay line names a scenario: a catalogue scenario by its name, a user's file by the path
// it was loaded from. A scenario loaded from a file remembers that path here, so a result made
// through the API without a `ref` (`runWindows(scenario)`) prints a replay line the command can
// run; a scenario made in code, or changed after loading (a new object), is named by its name.
import type { Scenario } from './scenario.ts';

const refs = new WeakMap<Scenario, string>();

/** Notes the ref a loaded scenario's replay lines name it by. */
export function rememberRef(scenario: Scenario, ref: string): void {
  refs.set(scenario, ref);
}

/** The ref a replay line names this scenario by when none is given. */
export function refOf(scenario: Scenario): string {
  return refs.get(scenario) ?? scenario.name;
}

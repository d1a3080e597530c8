// A message sent to a component whose machine handles that type in no state at all is a wiring
// mistake, not a behaviour: a consumer whose database peer names the broker sends it `db.exec`,
// which the broker drops in every state, and the run would end as a lost effect and a stuck
// consumer, a verdict about a design nobody drew. The census of a run (every message point that
// sent) is held against each receiver's machine, and such a point is refused as bad input.
import { InputError } from '../base/inputError.ts';
import type { ComponentSpec } from '../kernel/componentSpec.ts';
import { handledEvents as handled, handles } from '../kernel/handlesEvent.ts';

/** The points each design's runs have sent that their receivers handle: a sweep's runs send the same ones again and again. */
const handledPoints = new WeakMap<readonly ComponentSpec[], Set<string>>();

/** The points of a census (`from->to:type`) whose receiver handles the type in none of its states. */
export function unhandledPoints(census: ReadonlyMap<string, number>, components: readonly ComponentSpec[]): string[] {
  let known = handledPoints.get(components);
  if (known === undefined) handledPoints.set(components, (known = new Set()));
  const out: string[] = [];
  for (const point of census.keys()) {
    if (known.has(point)) continue;
    const m = /^(.*)->(.*):(.*)$/.exec(point);
    const to = m === null ? undefined : components.find((c) => c.name === m[2]);
    if (to !== undefined && !handles(handled(to.machine), m![3]!)) out.push(point);
    else known.add(point);
  }
  return out;
}

/** Refuses a run that sent a message its receiver can never handle, naming the sender's peer to look at. */
export function refuseUnhandled(census: ReadonlyMap<string, number>, components: readonly ComponentSpec[]): void {
  const [first, ...rest] = unhandledPoints(census, components);
  if (first === undefined) return;
  const [, from, to, type] = /^(.*)->(.*):(.*)$/.exec(first)!;
  const h = handled(components.find((c) => c.name === to)!.machine);
  const takes = [...h.exact].filter((t) => !t.startsWith('sys.') && !t.startsWith('xstate.')).sort();
  const more = rest.length === 0 ? '' : ` (and ${rest.length} more such message${rest.length === 1 ? '' : 's'}: ${rest.join(', ')})`;
  throw new InputError(`${from} sends ${type} to ${to}, which handles no ${type} in any state${takes.length > 0 ? ` (it takes ${takes.join(', ')})` : ''}: is one of ${from}'s peers wired to the wrong component?${more}`);
}

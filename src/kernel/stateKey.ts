// The name of the state a machine rests in: `a` for a flat machine, `a.b` for a nested state value.
// A failure window is a component's state by this name (src/faults/place.ts).
import type { StateValue } from 'xstate';

export function stateKey(value: StateValue): string {
  if (typeof value === 'string') return value;
  return Object.keys(value)
    .map((k) => {
      const child = (value as Record<string, StateValue>)[k];
      return child === undefined || (typeof child === 'object' && Object.keys(child).length === 0) ? k : `${k}.${stateKey(child)}`;
    })
    .join('+');
}

// A clock skew: from the moment a process whose clock can jump (DesignComponent.skewTicks) enters
// a window, its clock reads that many ticks ahead of everyone else's, as a device's clock that
// jumped. Only such a process's own windows offer it.
import fc from 'fast-check';
import { textField, type WindowFaultOf, type WindowKind } from '../faultKind.ts';

export type SkewFault = WindowFaultOf<'skew'>;

export const skew: WindowKind<SkewFault> = {
  kind: 'skew',
  strikes: 'window',
  declared: true,
  fields: ['window'],
  read: (entry, fail) => ({ kind: 'skew', window: textField(entry, 'window', 'a skew needs a window', fail), occurrence: entry.occurrence }),
  describe: (f, nth) => `skew the clock of ${f.window.split('.')[0]} at ${f.window}${nth}`,
  label: () => 'skew',
  nowhere: 'no component whose clock can jump (none declares skewTicks)',
  places: (space) => space.skewable.map((window) => ({ window, fault: (occurrence) => ({ kind: 'skew', window, occurrence }) })),
  arbitrary: (space, occurrence) => (space.skewable.length === 0 ? undefined : fc.record({ kind: fc.constant('skew' as const), window: fc.constantFrom(...space.skewable), occurrence })),
  refuse: (f, components, owner) => {
    if (components.find((c) => c.name === owner)?.skewTicks !== undefined) return undefined;
    const skewable = components.filter((c) => c.skewTicks !== undefined).map((c) => c.name);
    return `${owner}'s clock cannot be skewed (${skewable.length === 0 ? 'no component of this design declares a clock skew' : `components whose clock can jump: ${skewable.join(', ')}`})`;
  },
  note: (data) => `clock jumps ${String((data as { ticks?: unknown } | undefined)?.ticks)} ticks ahead`,
};

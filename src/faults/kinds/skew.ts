// A clock skew: from the moment a process whose clock can jump (DesignComponent.skewTicks) enters
// a window, its clock reads that many ticks ahead of everyone else's, as a device's clock that
// jumped. Only such a process's own windows offer it.
import fc from 'fast-check';
import { textField, type WindowFaultOf, type WindowKind } from '../faultKind.ts';

export type SkewFault = WindowFaultOf<'skew'>;

/** A skew a search may choose: of a process whose clock can jump, as it rests. */
export type SkewChoice = { readonly kind: 'skew'; readonly comp: number };

export const skew: WindowKind<SkewFault, SkewChoice> = {
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
  world: {
    rank: 0,
    insideStep: false,
    offer: (view, out) => {
      for (let i = 0; i < view.components; i++) if (view.skewable(i) && view.liveProcess(i)) out.push({ kind: 'skew', comp: i });
    },
    take: (ops, view, c) => {
      ops.chosen({ kind: 'skew', window: view.windowOf(c.comp) });
      ops.skew(c.comp);
    },
    strike: (ops, i) => {
      ops.struck();
      ops.skew(i);
    },
    entry: (view, c, entered) => {
      const window = view.windowOf(c.comp);
      return { kind: 'skew', window, occurrence: entered.get(window) ?? 1 };
    },
  },
};

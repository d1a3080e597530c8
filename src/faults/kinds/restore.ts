// A restore: when a process enters a window, a component that declares a snapshot (a database's
// last backup, a broker's group offsets as they stood, a stream processor's older checkpoint) is
// set back to it and restarts from it, replaying whatever its input still holds from there.
import fc from 'fast-check';
import { didYouMean } from '../../base/nearest.ts';
import { textField, type WindowFaultOf, type WindowKind } from '../faultKind.ts';

export type RestoreFault = WindowFaultOf<'restore'> & {
  /** The component restored: one that declares a snapshot (DesignComponent.restore). */
  readonly component: string;
};

/** A restore a search may choose: of component `comp`, at the moment process `at` rests in its window. */
export type RestoreChoice = { readonly kind: 'restore'; readonly comp: number; readonly at: number };

export const restore: WindowKind<RestoreFault, RestoreChoice> = {
  kind: 'restore',
  strikes: 'window',
  declared: true,
  fields: ['component', 'window'],
  read: (entry, fail) => {
    const window = textField(entry, 'window', 'a restore needs a window', fail);
    const component = textField(entry, 'component', 'a restore needs the component it restores', fail);
    return { kind: 'restore', component, window, occurrence: entry.occurrence };
  },
  describe: (f, nth) => `restore ${f.component} from its snapshot at ${f.window}${nth}`,
  label: (f) => `restore ${f.component}`,
  nowhere: 'no component that can be restored (none declares a snapshot)',
  places: (space) => space.restorable.flatMap((component) => space.moments.map((window) => ({ window, fault: (occurrence: number): RestoreFault => ({ kind: 'restore', component, window, occurrence }) }))),
  arbitrary: (space, occurrence) =>
    space.restorable.length === 0 || space.moments.length === 0
      ? undefined
      : fc.record({ kind: fc.constant('restore' as const), component: fc.constantFrom(...space.restorable), window: fc.constantFrom(...space.moments), occurrence }),
  refuse: (f, components, owner) => {
    const restorable = components.filter((c) => c.restore !== undefined).map((c) => c.name);
    if (!restorable.includes(f.component)) {
      return `${JSON.stringify(f.component)} cannot be restored (${restorable.length === 0 ? 'no component of this design declares a snapshot' : `components with a snapshot: ${restorable.join(', ')}`})${didYouMean(String(f.component), restorable)}`;
    }
    if (!components.find((c) => c.name === owner)?.process) return `a restore strikes at a process's window, and ${f.window} is a server's`;
    return undefined;
  },
  // A restore is drawn as its note, naming the window whose entry struck it (another
  // component's, usually); the crash it brings is part of it and is not drawn again, and the
  // restart after it comes back from the snapshot (src/report/sequenceSteps.ts).
  note: (data) => {
    const window = (data as { window?: unknown } | undefined)?.window;
    return `taken down and restored from its snapshot${typeof window === 'string' ? ` (as ${window} was entered)` : ''}`;
  },
  world: {
    rank: 1,
    insideStep: false,
    // A restore strikes a component with a snapshot at the moment any live process rests in its
    // window (a plan strikes it as a process enters one), whether the component is up or already
    // down (then it restarts from the snapshot).
    offer: (view, out) => {
      for (let i = 0; i < view.components; i++) {
        if (!view.restorable(i)) continue;
        for (let p = 0; p < view.components; p++) if (view.liveProcess(p)) out.push({ kind: 'restore', comp: i, at: p });
      }
    },
    take: (ops, view, c) => {
      const window = view.windowOf(c.at);
      ops.chosen({ kind: 'restore', component: view.name(c.comp), window });
      ops.restore(c.comp, window);
    },
    // A component not yet booted (components boot in design order) has nothing to set back.
    strike: (ops, _i, window, f) => {
      const target = ops.indexOf(f.component);
      if (!ops.booted(target)) return;
      ops.struck();
      ops.restore(target, window);
    },
    entry: (view, c, entered) => {
      const window = view.windowOf(c.at);
      return { kind: 'restore', component: view.name(c.comp), window, occurrence: entered.get(window) ?? 1 };
    },
  },
};

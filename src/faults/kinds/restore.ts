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

export const restore: WindowKind<RestoreFault> = {
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
  // A restore is drawn as its note, then the crash it brings: the component goes down and comes
  // back from its snapshot.
  note: () => 'restored from its snapshot',
};

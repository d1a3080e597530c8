// What every component factory shares: the fields each takes besides its own options (a name, a
// restart delay, window notes), how it fills them, and how it leaves a machine its own defaults.
// Drawing a design from the factories' parts is compose() (src/scenario/compose.ts); `design` is its older
// name, kept for the presets and scenarios that use it.
import type { Duration, TimeScale } from '../base/duration.ts';
import { compose, ticksOf } from './compose.ts';
import { duration, z } from './options.ts';
import type { WindowNote } from './scenario.ts';

export { compose, ticksOf, type BuildContext, type ComponentBuilder, type DesignBuild, type Part } from './compose.ts';

/** The name presets have always drawn with: compose(). */
export const design = compose;

/** The fields every component factory takes besides its own options. */
export const componentFields = {
  /** The component's name in the design; windows and message points are named after it. */
  name: z.string().regex(/^[A-Za-z][A-Za-z0-9_]*$/, 'a name of letters, digits and _ starting with a letter').optional(),
  /** How long this component stays down after a crash (the world's restart delay otherwise). */
  restartAfter: duration.optional(),
  /** Declared notes for its failure windows, by state name. */
  notes: z.custom<Readonly<Record<string, WindowNote>>>((v) => typeof v === 'object' && v !== null).optional(),
};

/** The part of a component every factory fills the same way: its restart delay and declared notes. */
export function common(time: TimeScale, where: string, o: { readonly restartAfter?: Duration | undefined; readonly notes?: Readonly<Record<string, WindowNote>> | undefined }) {
  const restart = ticksOf(time, `${where} option restartAfter`, o.restartAfter);
  return { ...(restart === undefined ? {} : { restartDelayTicks: restart }), ...(o.notes === undefined ? {} : { notes: o.notes }) };
}

/** Drops the options that were not given, so a machine's own defaults apply. */
export function given<T extends Record<string, unknown>>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

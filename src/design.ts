// A design as a user draws it: a list of components, each made by its machine's factory
// (`relay({ workers… })`, `broker({ partitions: 2 })`, `database({ name: 'ordersDb', tables })`)
// from the workload and the scenario's time scale. `design(...)` checks the drawing before any
// run: every component named once, every peer a component talks to present in the design, so a
// misspelt name is bad input naming the nearest one rather than a failure in the middle of a run.
import type { Duration, TimeScale } from './duration.ts';
import { InputError } from './inputError.ts';
import { didYouMean } from './nearest.ts';
import { duration, z } from './options.ts';
import type { DesignComponent, WindowNote, Workload } from './scenario.ts';

/** What a component is built from: the workload's size and the scenario's time scale. */
export interface BuildContext {
  readonly size: number;
  readonly time: TimeScale;
}

/** Makes one component (or a few, such as a group of consumers) for a workload. */
export type ComponentBuilder = (ctx: BuildContext) => DesignComponent | readonly DesignComponent[];

/** A scenario's `build`: the components of the design for a workload, at the scenario's time scale. */
export type DesignBuild = (workload: Workload, time: TimeScale) => readonly DesignComponent[];

export function design(...parts: readonly (ComponentBuilder | readonly ComponentBuilder[])[]): DesignBuild {
  const builders = parts.flat() as ComponentBuilder[];
  return (workload, time) => {
    const components = builders.flatMap((b) => b({ size: workload.size, time }));
    checkDrawing(components);
    return components;
  };
}

/** The fields every component factory takes besides its own options. */
export const componentFields = {
  /** The component's name in the design; windows and message points are named after it. */
  name: z.string().regex(/^[A-Za-z][A-Za-z0-9_]*$/, 'a name of letters, digits and _ starting with a letter').optional(),
  /** How long this component stays down after a crash (the world's restart delay otherwise). */
  restartAfter: duration.optional(),
  /** Declared notes for its failure windows, by state name. */
  notes: z.custom<Readonly<Record<string, WindowNote>>>((v) => typeof v === 'object' && v !== null).optional(),
};

/** A duration option in ticks, or undefined when it was not given. */
export function ticksOf(time: TimeScale, where: string, d: Duration | undefined, min = 1): number | undefined {
  return d === undefined ? undefined : time.ticks(where, d, min);
}

/** The part of a component every factory fills the same way: its restart delay and declared notes. */
export function common(time: TimeScale, where: string, o: { readonly restartAfter?: Duration | undefined; readonly notes?: Readonly<Record<string, WindowNote>> | undefined }) {
  const restart = ticksOf(time, `${where} option restartAfter`, o.restartAfter);
  return { ...(restart === undefined ? {} : { restartDelayTicks: restart }), ...(o.notes === undefined ? {} : { notes: o.notes }) };
}

/** Drops the options that were not given, so a machine's own defaults apply. */
export function given<T extends Record<string, unknown>>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** Every name once, every peer present, every component restored with another present and restorable. */
export function checkDrawing(components: readonly DesignComponent[]): void {
  const names = components.map((c) => c.name);
  const seen = new Set<string>();
  for (const n of names) {
    if (seen.has(n)) throw new InputError(`the design has two components named ${n}`);
    seen.add(n);
  }
  for (const c of components) {
    for (const peer of c.peers ?? []) {
      if (!seen.has(peer)) throw new InputError(`${c.name} talks to ${peer}, which the design does not have${didYouMean(peer, names)}; components: ${names.join(', ')}`);
    }
    // Components restored with another are set back to their own snapshots, so each must have one.
    for (const other of c.restoresWith ?? []) {
      const found = components.find((x) => x.name === other);
      if (found === undefined) throw new InputError(`${c.name} is restored with ${other}, which the design does not have${didYouMean(other, names)}; components: ${names.join(', ')}`);
      if (found.restore === undefined) throw new InputError(`${c.name} is restored with ${other}, which has no snapshot to restore (make it restorable)`);
    }
  }
}

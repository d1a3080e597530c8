// A design as a user draws it: `compose(...)` takes its parts, each a component factory's result
// (`relay({ workers: 2 })`, `broker({ partitions: 2 })`, `database({ name: 'ordersDb', tables })`),
// a component drawn by hand, or a list of either (a consumer group's members, a part left out with
// `false`), and gives the scenario's `build`: the flat list of components for a workload, at the
// scenario's time scale. The drawing is checked when it is built, before any run (src/scenario/wiring.ts):
// every component named once, every peer a component sends to present, every table it writes held
// by its database, so a misspelt name is one line of bad input naming the nearest one.
import type { Duration, TimeScale } from '../base/duration.ts';
import type { DesignComponent, Workload } from './scenario.ts';
import { checkWiring } from './wiring.ts';

/** What a component is built from: the workload's size and the scenario's time scale. */
export interface BuildContext {
  readonly size: number;
  readonly time: TimeScale;
}

/** Makes one component (or a few, such as a group of consumers) for a workload. */
export type ComponentBuilder = (ctx: BuildContext) => DesignComponent | readonly DesignComponent[];

/** A scenario's `build`: the components of the design for a workload, at the scenario's time scale. */
export type DesignBuild = (workload: Workload, time: TimeScale) => readonly DesignComponent[];

/**
 * One part of a design: a factory's result, a component drawn by hand, a list of parts, or
 * nothing (`false`, `null`, `undefined`), so an optional part reads `o.reconciler && reconciler()`.
 */
export type Part = ComponentBuilder | DesignComponent | readonly Part[] | false | null | undefined;

/** The design the parts draw, checked when it is built. */
export function compose(...parts: readonly Part[]): DesignBuild {
  return (workload, time) => {
    const components = parts.flatMap((p) => built(p, { size: workload.size, time }));
    checkWiring(components);
    return components;
  };
}

function built(part: Part, ctx: BuildContext): readonly DesignComponent[] {
  if (part === false || part === null || part === undefined) return [];
  if (typeof part === 'function') return ([] as readonly DesignComponent[]).concat(part(ctx));
  if (isList(part)) return part.flatMap((p) => built(p, ctx));
  return [part];
}

function isList(part: ComponentBuilder | DesignComponent | readonly Part[]): part is readonly Part[] {
  return Array.isArray(part);
}

/** A duration option in ticks, or undefined when it was not given. */
export function ticksOf(time: TimeScale, where: string, d: Duration | undefined, min = 1): number | undefined {
  return d === undefined ? undefined : time.ticks(where, d, min);
}

// A design as its load-time checks see it: its components by name and the tables each holds. A
// component's or a claim's own check (`wiring`) is given this, so a model can say what it needs
// of the rest of the design (its database holds the tables it writes, its producer publishes the
// fields it keys on) without the engine knowing what a table or a field is.
import { didYouMean } from '../base/nearest.ts';
import type { DesignComponent } from './scenario.ts';

export interface DesignIndex {
  readonly components: readonly DesignComponent[];
  /** Every component's name, in the design's order. */
  readonly names: readonly string[];
  component(name: string): DesignComponent | undefined;
  /** Every table some component holds, in the design's order. */
  readonly tables: readonly string[];
  /**
   * What is wrong with `table` as a table of `holder`: undefined when `holder` holds it, or
   * declares no tables (nothing can be said), else a phrase naming the nearest table it holds.
   */
  missingTable(holder: string, table: string): string | undefined;
}

/** A check run when a design is loaded: each problem one phrase, none when all is well. */
export type WiringCheck = (design: DesignIndex) => readonly string[];

export function designIndex(components: readonly DesignComponent[]): DesignIndex {
  const byName = new Map(components.map((c) => [c.name, c]));
  return {
    components,
    names: components.map((c) => c.name),
    component: (name) => byName.get(name),
    tables: [...new Set(components.flatMap((c) => c.tables ?? []))],
    missingTable(holder, table) {
      const held = byName.get(holder)?.tables;
      if (held === undefined || held.includes(table)) return undefined;
      return `${holder} has no table ${table}${didYouMean(table, held)}; its tables: ${held.join(', ') || 'none'}`;
    },
  };
}

// A design as its load-time checks see it: its components by name and the tables each holds. A
// component's or a claim's own check (`wiring`) is given this, so a model can say what it needs
// of the rest of the design (its database holds the tables it writes, its producer publishes the
// fields it keys on) without the engine knowing what a table or a field is. It sits with the
// checkers because a claim's check reads it, and the scenario, which composes the design, is above them.
import { didYouMean } from '../base/nearest.ts';
import type { ComponentSpec } from '../kernel/componentSpec.ts';

/** What the load-time checks read of a component: the kernel's spec, what it talks to and holds, and its own check. */
export interface DesignPart extends ComponentSpec {
  /**
   * A store that only answers requests (a database): what it sends is a reply, never a retry of
   * anyone's work, so the retry owner a report observes is never it.
   */
  readonly answersOnly?: boolean;
  /** The components it sends to, checked against the design when it is built. */
  readonly peers?: readonly string[];
  /** The tables it holds (a database's): what a claim and a component's statements may name. */
  readonly tables?: readonly string[];
  /**
   * Checks of its own options against the rest of the design, run when the design is loaded:
   * the tables it writes are its database's, the payload fields it keys on are published to it.
   * Each problem is one phrase naming what is wrong and, where one is close, what was meant.
   */
  readonly wiring?: WiringCheck;
}

export interface DesignIndex {
  readonly components: readonly DesignPart[];
  /** Every component's name, in the design's order. */
  readonly names: readonly string[];
  component(name: string): DesignPart | undefined;
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

export function designIndex(components: readonly DesignPart[]): DesignIndex {
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

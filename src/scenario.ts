// A scenario: a design (components and their options), a workload, the claims it makes and the
// verdict the seeds predict. Scenario files are TypeScript, so a design is type-checked before
// it runs; `defineScenario` is the one place their shape is validated at run time too (a user's
// own file may come from anywhere).
import type { AnyStateMachine } from 'xstate';
import type { Claim } from './claims.ts';
import type { Violation } from './checkers/finding.ts';
import type { FaultKind } from './faults.ts';
import { InputError } from './inputError.ts';
import type { ComponentSpec, WorldOptions } from './world.ts';

export interface Workload {
  /** How many units of work (orders, events): explore shrinks this towards 1. */
  readonly size: number;
}

export type Expectation =
  | { readonly verdict: 'holds' }
  | { readonly verdict: 'violated'; readonly violations: readonly Violation[] };

export interface Scenario {
  readonly name: string;
  readonly title: string;
  /** The seed passage it models, e.g. `000 · Put source state and publication intent in one transaction`. */
  readonly source: string;
  /** What the verdict teaches, in one or two sentences. */
  readonly lesson: string;
  readonly build: (workload: Workload) => readonly ComponentSpec[];
  readonly workload: Workload;
  readonly claims: readonly Claim[];
  readonly expect: Expectation;
  readonly world?: Partial<Omit<WorldOptions, 'seed' | 'plan'>>;
  /** Windows mode: how many occurrences of each window to strike, and which fault kinds. */
  readonly windows?: { readonly maxOccurrence?: number; readonly kinds?: readonly FaultKind[] };
  /** Renders the durable state at a fault as a line of evidence for the report. */
  readonly evidence?: (durable: Readonly<Record<string, unknown>>) => string;
}

const NAME = /^[a-z0-9][a-z0-9-]*$/;

/** Validates a scenario's shape; every problem is an InputError naming the file and the field. */
export function defineScenario(s: Scenario, origin = s?.name ?? 'scenario'): Scenario {
  const fail = (what: string): never => {
    throw new InputError(`malformed scenario ${origin}: ${what}`);
  };
  if (typeof s !== 'object' || s === null) fail('it does not export a scenario object');
  if (typeof s.name !== 'string' || !NAME.test(s.name)) fail(`name must be lower-case words joined by '-', got ${JSON.stringify(s.name)}`);
  if (['index', 'report', 'junit'].includes(s.name)) fail(`the name ${s.name} is taken by a report file; choose another`);
  if (typeof s.title !== 'string' || s.title.length === 0) fail('title is missing');
  if (typeof s.build !== 'function') fail('build(workload) is missing');
  if (!s.workload || !Number.isInteger(s.workload.size) || s.workload.size < 1) fail('workload.size must be a positive integer');
  if (!Array.isArray(s.claims) || s.claims.length === 0) fail('it declares no claims');
  for (const c of s.claims) {
    if (typeof c.effect !== 'string' || !Array.isArray(c.key) || typeof c.outcomes !== 'function') fail(`claim ${JSON.stringify(c?.effect)} needs effect, key and outcomes()`);
  }
  const e = s.expect;
  if (!e || (e.verdict !== 'holds' && e.verdict !== 'violated')) fail("expect.verdict must be 'holds' or 'violated'");
  if (e.verdict === 'violated' && (!Array.isArray(e.violations) || e.violations.length === 0)) fail('expect.violations must name the violations expected');
  let components: readonly ComponentSpec[] = [];
  try {
    components = s.build(s.workload);
  } catch (error) {
    fail(`build() threw: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (!Array.isArray(components) || components.length === 0) fail('build() returned no components');
  for (const c of components) {
    if (typeof c.name !== 'string' || !(c.machine as AnyStateMachine | undefined)?.transition) fail(`component ${JSON.stringify(c?.name)} has no machine`);
  }
  return s;
}

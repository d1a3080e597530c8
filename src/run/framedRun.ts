// One run performed from its start with the World noted down before every step: each
// component's state, whether it is down, its durable context and the messages in flight. A
// counterexample is run this way once, so its report can show the world at any step of its
// trace (the step-through viewer) and find the step at which a finding's key went wrong (the
// second committed outcome, the fact whose effect never came). Every other run leaves the
// trace's `beforeAdd` unset and records nothing of this. The run is the one `runScenario` makes
// for the same seed and plan, performed whole rather than resumed from a reference run, so its
// trace and hash are the counterexample's own.
import { refuseUnhandled } from './unhandledMessages.ts';
import type { DesignComponent, Scenario } from '../scenario/scenario.ts';
import { timeScaleOf, worldOptionsOf } from '../scenario/scenario.ts';
import { builtOnce, judgeClaims, viewOf, type RunRecord } from './runScenario.ts';
import type { FaultPlan } from '../faults/faults.ts';
import type { TraceKind } from '../kernel/trace.ts';
import { World } from './world.ts';
import { type InFlight } from '../kernel/runEvents.ts';

/** The World as one event of the trace found it. */
export interface WorldFrame {
  /** The index in the trace of the event this frame comes just before (the trace's length for the end). */
  readonly at: number;
  /**
   * The index of the event that starts the step this frame falls in. A step records more than
   * the event that starts it (the messages its component sent, a fault that struck one of them,
   * a crash), and the World reads as the step found it until the step ends: what a step changed
   * shows in the first frame after it, and was done by the event at `step` of the frame before.
   * -1 for an event of the boot (a crash striking a component as it first starts), which no step
   * made and whose frame shows nothing booted yet.
   */
  readonly step: number;
  /** Each component's state, in the design's order (see `FramedRun.components`). */
  readonly states: readonly string[];
  readonly down: readonly boolean[];
  /** Each component's durable context, by reference: a model never changes one in place. */
  readonly durable: readonly unknown[];
  /** Messages sent and not yet delivered, the one this event delivers first. */
  readonly inFlight: readonly InFlight[];
}

export interface FramedRun {
  readonly record: RunRecord;
  readonly components: readonly DesignComponent[];
  /** A frame before every event that starts a step of the World, and one after the last event. */
  readonly frames: readonly WorldFrame[];
}

/** Events a step of the World records after the one that starts it: never the start of a step. */
const WITHIN_STEP: ReadonlySet<TraceKind> = new Set<TraceKind>(['state', 'note']);

/**
 * Whether an event starts a step of the World (src/run/world.ts takes a step for a delivery, a
 * timer, a restart, and once for the heal): a delivery (or its drop at a receiver that is down),
 * a timer, a restart that is a step of its own, or the heal. Everything else a step records
 * after its first event: the sends of the component that stepped, a fault striking one of them
 * or the component itself, the crash and the drops it causes, and the restarts of the heal.
 */
export function startsWorldStep(kind: TraceKind, data: unknown, healing: boolean): boolean {
  switch (kind) {
    case 'deliver':
    case 'timer':
    case 'phase':
      return true;
    case 'restart':
      return !healing;
    case 'drop':
      // A drop a crash causes says why; a delivery to a component that is down does not.
      return (data as { reason?: unknown } | undefined)?.reason === undefined;
    default:
      return false;
  }
}

/** Runs `plan` under `seed` from the start, noting the World before every step. */
export function framedRun(scenario: Scenario, spec: { readonly seed: number; readonly plan: FaultPlan; readonly size?: number; readonly latencies?: readonly number[] }): FramedRun {
  const size = spec.size ?? scenario.workload.size;
  const time = timeScaleOf(scenario);
  const components = builtOnce(scenario, size);
  const world = new World(components, { ...worldOptionsOf(scenario, time), seed: spec.seed, plan: spec.plan, ...(spec.latencies === undefined ? {} : { latencies: spec.latencies }), keepTrace: true, hashTrace: true });
  const names = world.componentNames;
  const frames: WorldFrame[] = [];
  const note = (at: number, step: number) => {
    const durable = world.durableState();
    frames.push({
      at,
      step,
      states: names.map((n) => world.stateOf(n)),
      down: names.map((n) => world.isDown(n)),
      durable: names.map((n) => durable[n]),
      // While a step is taken the World still reads as the step found it: the message it
      // delivers is still in flight.
      inFlight: world.inFlightNow(),
    });
  };
  let step = -1;
  let healing = false;
  world.trace.beforeAdd = (seq, _component, kind, data) => {
    if (WITHIN_STEP.has(kind) || kind === 'start') return;
    if (startsWorldStep(kind, data, healing)) {
      step = seq;
      healing = kind === 'phase';
    }
    note(seq, step);
  };
  const report = world.run();
  world.trace.beforeAdd = undefined;
  const end = report.trace?.length ?? 0;
  note(end, end);
  refuseUnhandled(report.census, components);
  const { outcome, findings, claims } = judgeClaims(scenario, viewOf(report));
  const record: RunRecord = { scenario, driver: undefined, seed: spec.seed, plan: spec.plan, size, report, outcome, findings, claims, components };
  return { record, components, frames };
}

// How the World steps one component: the one interface every driver implements. A stepper is
// pure in the sense of XState's `transition`: it takes a snapshot and an event and returns the
// next snapshot, appending to `actions` what the step asked the World to do (`xstate.emit` of a
// send or a note, a delayed `xstate.raise`, an `xstate.cancel`); the World performs them.
//
// Three drivers implement it:
// - the XState driver below: XState's own `machine.transition(snapshot, event, scope)` with one
//   reused actor scope per component;
// - the compiled driver (src/kernel/compiledMachine.ts): the same definition precompiled into per-state
//   tables, proven trace-identical to XState's;
// - any stepper a component brings itself (`ComponentSpec.stepper`), such as the benchmark's
//   plain hand-written reducers, which then run inside the same World loop as the machines.
import type { AnyActorRef, AnyActorScope, AnyStateMachine, AnyStateNode, EventObject, StateValue } from 'xstate';
import { createActor } from 'xstate';
import { compileMachine, type ExecutedAction } from './compiledMachine.ts';

/** What the World reads of a snapshot: XState's snapshots and the compiled ones both have it. */
export interface MachineSnapshot {
  readonly value: StateValue;
  readonly context: any;
  readonly status: string;
  readonly error?: unknown;
  hasTag(tag: string): boolean;
}

export interface Stepper {
  /** The snapshot a component starts (or restarts) in, with the actions its entry asks for. */
  initial(input: Record<string, unknown> | undefined, actions: ExecutedAction[]): MachineSnapshot;
  /** One macrostep: the event's transition and any eventless ones after it. */
  transition(snapshot: MachineSnapshot, event: EventObject, actions: ExecutedAction[]): MachineSnapshot;
  /**
   * Whether the last `transition` entered the state it ended in (its entry ran): a transition
   * with a target left a state and entered one. A step that ends in the state it began in has
   * then entered it again (`reenter: true`, or out through other states and back), and the World
   * counts that as one more entry of its failure window.
   */
  readonly lastReentered: boolean;
}

/** How machines are stepped: XState's own algorithm, or the precompiled tables. */
export type Driver = 'xstate' | 'compiled';

/** The stepper for a machine under a driver, and why the compiled driver refused it, if it did. */
export function stepperFor(machine: AnyStateMachine, name: string, input: Record<string, unknown> | undefined, driver: Driver): { stepper: Stepper; refused?: string } {
  if (driver === 'compiled') {
    const c = compileMachine(machine);
    if (typeof c === 'object') {
      const stepper: Stepper = c;
      return { stepper };
    }
    return { stepper: new XStateStepper(machine, name, input), refused: c };
  }
  return { stepper: new XStateStepper(machine, name, input) };
}

/**
 * The actor a scope names as `self`. A pure step never reads it (the World executes every
 * action itself and no model spawns), but XState wants one; creating it computes a whole initial
 * snapshot, so one actor per machine serves every World in the process.
 */
const selves = new WeakMap<AnyStateMachine, AnyActorRef>();

function actorFor(machine: AnyStateMachine, input: Record<string, unknown> | undefined): AnyActorRef {
  let self = selves.get(machine);
  if (self === undefined) {
    self = createActor(machine, { input });
    selves.set(machine, self);
  }
  return self;
}

/**
 * The event types for which some transition of a machine re-enters its target, read once from
 * the definition: most events have none, and can skip asking XState which transition it took.
 */
const reentering = new WeakMap<AnyStateMachine, ReadonlySet<string>>();

function reenteringEvents(machine: AnyStateMachine): ReadonlySet<string> {
  let set = reentering.get(machine);
  if (set === undefined) {
    const types = new Set<string>();
    // `node.transitions` holds the delayed (`after`) transitions too, keyed by their event type.
    const walk = (node: AnyStateNode) => {
      for (const [type, list] of node.transitions) if (list.some((t: { reenter?: boolean }) => t.reenter)) types.add(type);
      for (const child of Object.values(node.states) as AnyStateNode[]) walk(child);
    };
    walk(machine.root);
    set = types;
    reentering.set(machine, set);
  }
  return set;
}

/** XState's own step, through a reusable scope whose action executor collects what a step asks for. */
export class XStateStepper implements Stepper {
  lastReentered = false;
  private readonly scope: AnyActorScope;
  private sink: ExecutedAction[] = [];

  constructor(
    private readonly machine: AnyStateMachine,
    name: string,
    input: Record<string, unknown> | undefined,
  ) {
    const self = actorFor(machine, input);
    this.scope = {
      self,
      defer: () => {},
      id: name,
      logger: () => {},
      sessionId: name,
      stopChild: () => {},
      system: (self as any).system,
      emit: () => {},
      actionExecutor: (a: ExecutedAction) => {
        this.sink.push(a);
      },
    } as unknown as AnyActorScope;
  }

  initial(input: Record<string, unknown> | undefined, actions: ExecutedAction[]): MachineSnapshot {
    this.sink = actions;
    return this.machine.getInitialSnapshot(this.scope, input) as MachineSnapshot;
  }

  transition(snapshot: MachineSnapshot, event: EventObject, actions: ExecutedAction[]): MachineSnapshot {
    this.lastReentered = this.reenters(snapshot, event) || this.leavesAndReturns(snapshot, event);
    this.sink = actions;
    return this.machine.transition(snapshot as any, event, this.scope) as MachineSnapshot;
  }

  private reenters(prev: MachineSnapshot, event: EventObject): boolean {
    if (!reenteringEvents(this.machine).has(event.type)) return false;
    const taken = this.machine.getTransitionData(prev as any, event) as { reenter?: boolean; target?: readonly unknown[] }[] | undefined;
    return taken?.some((t) => t.reenter === true && (t.target?.length ?? 0) > 0) ?? false;
  }

  /**
   * Whether some microstep of the step rests in another state than the step began in: then the
   * state it ends in was entered in this step. XState's microsteps are worked out a second time,
   * their actions thrown away; only this driver pays for it, the compiled one knows as it steps.
   */
  private leavesAndReturns(prev: MachineSnapshot, event: EventObject): boolean {
    this.sink = [];
    const start = JSON.stringify(prev.value);
    return (this.machine.microstep(prev as any, event, this.scope) as MachineSnapshot[]).some((s) => JSON.stringify(s.value) !== start);
  }
}

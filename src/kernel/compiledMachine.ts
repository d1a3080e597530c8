// A precompiled driver for the flat XState machines the models are: the same definition, read
// once, and stepped without XState's general statechart algorithm.
//
// XState's `machine.transition(snapshot, event, scope)` runs the SCXML macrostep for any
// statechart: it recomputes transition domains, exit and entry sets, the state value and the tag
// set on every step, and clones a snapshot per `assign`. The models are all one level deep (a
// root whose children are atomic states, with root-level `on` handlers as a fallback), so each
// of those computations has one fixed answer per (state, event type). This module walks
// `machine.root` once, resolves every guard, action and delay reference through
// `machine.implementations`, and precomputes, per state and event type, the candidate
// transitions in XState's order (the state's own, then the root's) with their exit, transition
// and entry actions already concatenated.
//
// A step then does what XState's macrostep does for such a machine, in the same order:
// - select the first candidate whose guard passes (guards called as XState calls them:
//   `({ context, event }, params)`), evaluated against the context before the step;
// - exit the state (its exit actions, then the cancels of its `after` timers), run the
//   transition's actions, enter the target (its entry actions, then the raises of its `after`
//   timers), unless the transition is targetless or targets its own source without `reenter`;
// - then take eventless `always` transitions (the state's, then the root's) for as long as the
//   previous microstep changed the snapshot, exactly as XState loops;
// - `assign` (function or property-object form) makes a new context object with
//   `Object.assign({}, context, partial)`; `emit`, delayed `raise` and `cancel` are handed to the
//   World as the same `{ type, params }` actions XState's action executor receives
//   (`xstate.emit` {event}, `xstate.raise` {event, id, delay}, `xstate.cancel` {sendId}), with
//   the same `xstate.after.<delay>.<state id>` event types and timer ids;
// - `enqueueActions` collects its actions and runs them in order, each seeing the context the
//   previous one left.
//
// Anything else (nested or parallel states, history, final states, invoke, wildcard event
// descriptors, custom function actions, builtin guards such as `and`/`not`, a raise without a
// numeric delay) is refused at compile time, and the World drives that machine through
// `machine.transition` as before. An unsupported action that only shows up inside
// `enqueueActions` at run time throws.
import type { AnyStateMachine, AnyStateNode, EventObject } from 'xstate';

/** What the World performs: the same shape XState passes to a scope's action executor. */
export interface ExecutedAction {
  type: string;
  params?: unknown;
}

type Ctx = Record<string, unknown>;
type Params = unknown;
type ParamsSpec = { readonly fn?: (args: { context: Ctx; event: EventObject }) => Params; readonly value?: Params };

type Guard = (context: Ctx, event: EventObject) => boolean;

type Op =
  | { readonly kind: 'assign'; readonly assignment: unknown; readonly params: ParamsSpec | undefined }
  | { readonly kind: 'enqueue'; readonly collect: (args: any, params: Params) => void; readonly params: ParamsSpec | undefined }
  | { readonly kind: 'emit'; readonly event: unknown; readonly params: ParamsSpec | undefined }
  | { readonly kind: 'raise'; readonly event: unknown; readonly id: unknown; readonly delay: unknown; readonly params: ParamsSpec | undefined }
  | { readonly kind: 'cancel'; readonly sendId: unknown; readonly params: ParamsSpec | undefined };

interface CompiledTransition {
  readonly guard: Guard | undefined;
  /** The actions XState runs for it: exit of the source state, its own, entry of the target. */
  readonly ops: readonly Op[];
  /** The state after it; the current one for a targetless transition. */
  readonly target: CompiledState | undefined;
  /** The transition's `reenter` flag: a self-target with it exits and enters its state again. */
  readonly reenter: boolean;
}

interface CompiledState {
  readonly key: string;
  readonly tags: ReadonlySet<string>;
  readonly entry: readonly Op[];
  readonly exit: readonly Op[];
  /** Candidates per event type: the state's own transitions, then the root's. */
  readonly on: Map<string, readonly CompiledTransition[]>;
  /** Eventless candidates: the state's own, then the root's. */
  always: readonly CompiledTransition[];
}

/** The snapshot the World reads: `value`, `context`, `status`, `hasTag`. */
export class CompiledSnapshot {
  readonly status = 'active' as const;
  readonly value: string;
  constructor(
    readonly state: CompiledState,
    readonly context: Ctx,
  ) {
    this.value = state.key;
  }
  hasTag(tag: string): boolean {
    return this.state.tags.has(tag);
  }
}

export class Unsupported extends Error {}

const SUPPORTED_BUILTINS = new Set(['xstate.assign', 'xstate.enqueueActions', 'xstate.emit', 'xstate.raise', 'xstate.cancel']);

function paramsSpecOf(ref: unknown): ParamsSpec | undefined {
  if (typeof ref !== 'object' || ref === null || !('params' in ref)) return undefined;
  const p = (ref as { params: unknown }).params;
  return typeof p === 'function' ? { fn: p as NonNullable<ParamsSpec['fn']> } : { value: p };
}

function resolveParams(spec: ParamsSpec | undefined, context: Ctx, event: EventObject): Params {
  if (spec === undefined) return undefined;
  return spec.fn ? spec.fn({ context, event }) : spec.value;
}

/** An action reference (name, `{ type, params }`, or a builtin action object) as an Op. */
function opOf(machine: AnyStateMachine, ref: unknown): Op {
  const isInline = typeof ref === 'function';
  const name = typeof ref === 'string' ? ref : typeof ref === 'object' && ref !== null ? (ref as { type: string }).type : undefined;
  const resolved: any = isInline ? ref : name === undefined ? undefined : machine.implementations.actions[name];
  if (!resolved || !('resolve' in resolved)) throw new Unsupported(`action ${name ?? (ref as { name?: string })?.name ?? '(anonymous)'} is not a builtin action`);
  const type = resolved.type as string;
  if (!SUPPORTED_BUILTINS.has(type)) throw new Unsupported(`action type ${type}`);
  // A builtin placed inline gets no params; a named one gets the reference's params.
  const params = isInline || typeof ref === 'string' ? undefined : paramsSpecOf(ref);
  switch (type) {
    case 'xstate.assign':
      return { kind: 'assign', assignment: resolved.assignment, params };
    case 'xstate.enqueueActions':
      return { kind: 'enqueue', collect: resolved.collect, params };
    case 'xstate.emit':
      return { kind: 'emit', event: resolved.event, params };
    case 'xstate.raise': {
      // An immediate raise is processed inside XState's macrostep, and a delay name with no
      // implementation is XState's own error: neither is reproduced here, so both are refused.
      const delay = resolved.delay;
      if (delay === undefined) throw new Unsupported('raise without a delay');
      if (typeof delay === 'string' && !(delay in (machine.implementations.delays ?? {}))) throw new Unsupported(`delay ${delay} has no implementation`);
      return { kind: 'raise', event: resolved.event, id: resolved.id, delay, params };
    }
    default:
      return { kind: 'cancel', sendId: resolved.sendId, params };
  }
}

function guardOf(machine: AnyStateMachine, ref: unknown): Guard | undefined {
  if (ref === undefined) return undefined;
  if (typeof ref === 'function') {
    if ('check' in ref) throw new Unsupported('builtin guard');
    const g = ref as (args: { context: Ctx; event: EventObject }, params: unknown) => boolean;
    return (context, event) => g({ context, event }, undefined);
  }
  const name = typeof ref === 'string' ? ref : (ref as { type: string }).type;
  const impl = machine.implementations.guards[name] as unknown;
  if (typeof impl !== 'function' || 'check' in impl) throw new Unsupported(`guard ${name} is not a plain function`);
  const g = impl as (args: { context: Ctx; event: EventObject }, params: unknown) => boolean;
  const params = typeof ref === 'string' ? undefined : paramsSpecOf(ref);
  if (params === undefined) return (context, event) => g({ context, event }, undefined);
  return (context, event) => g({ context, event }, resolveParams(params, context, event));
}

/**
 * A guard's value for every run, when it (and any params it is given) reads nothing but the
 * machine's options, the context's `input`, which by the World's conventions no step changes:
 * true or false. Undefined when it reads the event, any other part of the context, the durable
 * state or broken sessions a restart passes in `input`, or fails on the initial context.
 */
function staticGuard(guard: Guard, context: Ctx): boolean | undefined {
  const input = context['input'];
  if (input === null || typeof input !== 'object') return undefined;
  let dynamic = false;
  const read = () => {
    dynamic = true;
  };
  // What a restart gives the machine besides its options (its durable state, the sessions its
  // crash broke) differs from boot to boot: a guard that reads it is no test of the options.
  const fromRestart = (key: string | symbol) => {
    if (key === 'durable' || key === 'broken') read();
  };
  const options = new Proxy(input, {
    get: (target, key) => (fromRestart(key), Reflect.get(target, key) as unknown),
    has: (target, key) => (fromRestart(key), Reflect.has(target, key)),
    getOwnPropertyDescriptor: (target, key) => (fromRestart(key), Reflect.getOwnPropertyDescriptor(target, key)),
    ownKeys: (target) => (read(), Reflect.ownKeys(target)),
  });
  const ctx = new Proxy(context, {
    get: (target, key) => {
      if (key === 'input') return options;
      read();
      return Reflect.get(target, key) as unknown;
    },
    has: (target, key) => (read(), Reflect.has(target, key)),
    getOwnPropertyDescriptor: (target, key) => (key !== 'input' && read(), Reflect.getOwnPropertyDescriptor(target, key)),
    ownKeys: (target) => (read(), Reflect.ownKeys(target)),
  });
  const event = new Proxy({ type: '' }, { get: () => read(), has: () => (read(), false), getOwnPropertyDescriptor: () => (read(), undefined), ownKeys: () => (read(), []) });
  try {
    const value = guard(ctx, event);
    return dynamic ? undefined : Boolean(value);
  } catch {
    return undefined;
  }
}

/** The key `reachable` files a machine given no input under. */
const NO_INPUT = {};

/** A machine whose steps are precomputed; `undefined` from `compileMachine` means refused. */
// It is a Stepper (src/kernel/stepper.ts) by shape; stepperFor holds it to that interface, so this
// file need not import the one that imports it.
export class CompiledMachine {
  /**
   * Whether the last `transition` entered the state it ended in: some microstep of it (the
   * event's, or an eventless one after it) left a state and entered one, so the final state's
   * entry ran, even when it is the state the step began in (`reenter: true`, or out and back).
   */
  lastReentered = false;
  private readonly states = new Map<string, CompiledState>();
  /** `reachable`'s answers, by the input they were given. */
  private readonly reached = new WeakMap<object, ReadonlySet<string>>();
  private readonly initialState: CompiledState;
  private readonly rootEntry: readonly Op[];
  private readonly delays: Record<string, unknown>;

  constructor(readonly machine: AnyStateMachine) {
    const root = machine.root as AnyStateNode;
    this.delays = (machine.implementations.delays ?? {}) as Record<string, unknown>;
    if (root.type !== 'compound') throw new Unsupported(`root is ${root.type}`);
    if (typeof machine.config.initial !== 'string') throw new Unsupported('initial is not a state name');
    if (root.invoke.length > 0) throw new Unsupported('invoke');
    const children = Object.values(root.states) as AnyStateNode[];
    for (const node of children) {
      if (node.type !== 'atomic') throw new Unsupported(`state ${node.key} is ${node.type}`);
      if (node.invoke.length > 0) throw new Unsupported(`invoke in ${node.key}`);
      const rootTags = root.tags as string[];
      this.states.set(node.key, {
        key: node.key,
        tags: new Set([...rootTags, ...(node.tags as string[])]),
        entry: (node.entry as unknown[]).map((a) => opOf(machine, a)),
        exit: (node.exit as unknown[]).map((a) => opOf(machine, a)),
        on: new Map(),
        always: [],
      });
    }
    if ((root.exit as unknown[]).length > 0) throw new Unsupported('root exit actions');
    this.rootEntry = [...(root.entry as unknown[]), ...((root.initial?.actions ?? []) as unknown[])].map((a) => opOf(machine, a));
    const initial = this.states.get(machine.config.initial);
    if (!initial) throw new Unsupported('initial state not found');
    this.initialState = initial;

    const compileTransition = (t: any, from: CompiledState): CompiledTransition => {
      const sourceIsRoot = t.source === root;
      const actions = (t.actions as unknown[]).map((a) => opOf(machine, a));
      const guard = guardOf(machine, t.guard);
      const targets = (t.target ?? []) as AnyStateNode[];
      if (targets.length === 0) return { guard, ops: actions, target: undefined, reenter: t.reenter === true };
      if (targets.length > 1) throw new Unsupported('several targets');
      const targetNode = targets[0]!;
      if (targetNode.parent !== root) throw new Unsupported('target outside the root');
      const target = this.states.get(targetNode.key)!;
      if (sourceIsRoot && t.reenter) throw new Unsupported('root transition with reenter');
      // The source's own state without reenter: the domain is the source, nothing exits or enters.
      if (!sourceIsRoot && targetNode === t.source && !t.reenter) return { guard, ops: actions, target: undefined, reenter: false };
      return { guard, ops: [...from.exit, ...actions, ...target.entry], target, reenter: t.reenter === true };
    };
    const rootOn = root.transitions as Map<string, unknown[]>;
    for (const descriptor of rootOn.keys()) if (descriptor.includes('*')) throw new Unsupported('wildcard event descriptor');
    for (const node of children) {
      const state = this.states.get(node.key)!;
      const own = node.transitions as Map<string, unknown[]>;
      for (const descriptor of own.keys()) if (descriptor.includes('*')) throw new Unsupported('wildcard event descriptor');
      for (const type of new Set([...own.keys(), ...rootOn.keys()])) {
        const list = [...(own.get(type) ?? []), ...(rootOn.get(type) ?? [])].map((t) => compileTransition(t, state));
        state.on.set(type, list);
      }
      state.always = [...((node.always ?? []) as unknown[]), ...((root.always ?? []) as unknown[])].map((t) => compileTransition(t, state));
    }
  }

  /**
   * The states a run with this input can ever enter, as far as the definition tells from the
   * input alone: from the initial state along every transition but those a guard rules out for
   * every run (`staticGuard`), and those behind a candidate such a guard makes always chosen.
   */
  reachable(input: Record<string, unknown> | undefined): ReadonlySet<string> {
    // A sweep asks once per run whose faults it pairs; a design's input is one object throughout.
    const key = input ?? NO_INPUT;
    let known = this.reached.get(key);
    if (known === undefined) this.reached.set(key, (known = this.reachableFrom(input)));
    return known;
  }

  private reachableFrom(input: Record<string, unknown> | undefined): ReadonlySet<string> {
    const context = this.initial(input, []).context;
    const seen = new Set<string>([this.initialState.key]);
    const todo: CompiledState[] = [this.initialState];
    const follow = (from: CompiledState, candidates: readonly CompiledTransition[]) => {
      for (const t of candidates) {
        const holds = t.guard === undefined ? true : staticGuard(t.guard, context);
        if (holds === false) continue;
        const to = t.target ?? from;
        if (!seen.has(to.key)) {
          seen.add(to.key);
          todo.push(to);
        }
        // XState takes the first candidate whose guard holds: one that always does hides the rest.
        if (holds === true) return;
      }
    };
    for (let s = todo.pop(); s !== undefined; s = todo.pop()) {
      for (const candidates of s.on.values()) follow(s, candidates);
      follow(s, s.always);
    }
    return seen;
  }

  /** The snapshot XState's `getInitialSnapshot(scope, input)` would give, with the same actions. */
  initial(input: Record<string, unknown> | undefined, sink: ExecutedAction[]): CompiledSnapshot {
    const initEvent = { type: 'xstate.init', input } as EventObject;
    const config = this.machine.config.context as unknown;
    let context: Ctx;
    if (typeof config === 'function') context = Object.assign({}, {}, config({ spawn: undefined, input, self: undefined }));
    else context = (config ?? {}) as Ctx;
    const run = new Run(this.delays, initEvent, context, sink, this.machine);
    run.ops(this.rootEntry);
    run.ops(this.initialState.entry);
    return this.settle(run, this.initialState, undefined);
  }

  /** One macrostep: the event's transition, then eventless transitions until none applies. */
  transition(snapshot: CompiledSnapshot, event: EventObject, sink: ExecutedAction[]): CompiledSnapshot {
    const from = snapshot.state;
    const candidates = from.on.get(event.type);
    let taken: CompiledTransition | undefined;
    if (candidates !== undefined) {
      for (const t of candidates) {
        if (t.guard === undefined || t.guard(snapshot.context, event)) {
          taken = t;
          break;
        }
      }
    }
    const run = new Run(this.delays, event, snapshot.context, sink, this.machine);
    let state = from;
    if (taken !== undefined) {
      run.ops(taken.ops);
      if (taken.target !== undefined) {
        state = taken.target;
        run.entered = true;
      }
    }
    const next = this.settle(run, state, snapshot);
    this.lastReentered = run.entered;
    return next;
  }

  /** XState's eventless loop: select `always` again only while the last microstep changed something. */
  private settle(run: Run, state: CompiledState, previous: CompiledSnapshot | undefined): CompiledSnapshot {
    let changed = true;
    while (changed) {
      let taken: CompiledTransition | undefined;
      for (const t of state.always) {
        if (t.guard === undefined || t.guard(run.context, run.event)) {
          taken = t;
          break;
        }
      }
      if (taken === undefined) break;
      run.assigned = false;
      run.ops(taken.ops);
      if (taken.target !== undefined) run.entered = true;
      const next = taken.target ?? state;
      changed = run.assigned || next !== state;
      state = next;
    }
    if (previous !== undefined && previous.state === state && previous.context === run.context) return previous;
    return new CompiledSnapshot(state, run.context);
  }
}

/** The context and the actions of one macrostep. */
class Run {
  assigned = false;
  /** Some microstep of the step left a state and entered one. */
  entered = false;
  constructor(
    private readonly delays: Record<string, unknown>,
    readonly event: EventObject,
    public context: Ctx,
    private readonly sink: ExecutedAction[],
    private readonly machine: AnyStateMachine,
  ) {}

  ops(ops: readonly Op[]): void {
    for (let i = 0; i < ops.length; i++) this.op(ops[i]!);
  }

  private op(op: Op): void {
    const event = this.event;
    const params = op.params === undefined ? undefined : resolveParams(op.params, this.context, event);
    switch (op.kind) {
      case 'assign': {
        const args = { context: this.context, event };
        const assignment = op.assignment as ((a: unknown, p: Params) => Ctx) | Record<string, unknown>;
        let partial: Ctx;
        if (typeof assignment === 'function') {
          partial = assignment(args, params);
        } else {
          partial = {};
          for (const key of Object.keys(assignment)) {
            const v = assignment[key];
            partial[key] = typeof v === 'function' ? v(args, params) : v;
          }
        }
        this.context = Object.assign({}, this.context, partial);
        this.assigned = true;
        return;
      }
      case 'emit': {
        const e = typeof op.event === 'function' ? op.event({ context: this.context, event }, params) : op.event;
        this.sink.push({ type: 'xstate.emit', params: { event: e } });
        return;
      }
      case 'raise': {
        const args = { context: this.context, event };
        const e = typeof op.event === 'function' ? op.event(args, params) : op.event;
        let delay: unknown;
        if (typeof op.delay === 'string') {
          const configured = this.delays[op.delay];
          delay = typeof configured === 'function' ? configured(args, params) : configured;
        } else {
          delay = typeof op.delay === 'function' ? op.delay(args, params) : op.delay;
        }
        if (typeof delay !== 'number') throw new Error(`compiled machine ${this.machine.id}: a raise without a numeric delay is not supported`);
        this.sink.push({ type: 'xstate.raise', params: { event: e, id: op.id, delay } });
        return;
      }
      case 'cancel': {
        const sendId = typeof op.sendId === 'function' ? op.sendId({ context: this.context, event }, params) : op.sendId;
        this.sink.push({ type: 'xstate.cancel', params: { sendId } });
        return;
      }
      case 'enqueue': {
        // As XState's enqueueActions: collect first, then run each in order on the context the
        // previous one left; an inline builtin gets no params. The enqueue functions are made
        // once per machine and fill whichever list is being collected.
        const collector = collectorOf(this.machine);
        const saved = collector.list;
        const list: Op[] = [];
        collector.list = list;
        collector.context = this.context;
        collector.event = event;
        try {
          op.collect({ context: this.context, event, enqueue: collector.enqueue, check: collector.check }, params);
        } finally {
          collector.list = saved;
        }
        for (let i = 0; i < list.length; i++) this.op(list[i]!);
        return;
      }
    }
  }
}

/** The `enqueue` and `check` an enqueueActions collector receives, one set per machine. */
interface Collector {
  list: Op[];
  context: Ctx;
  event: EventObject;
  readonly enqueue: unknown;
  readonly check: (guard: unknown) => boolean;
}

const collectors = new WeakMap<AnyStateMachine, Collector>();

function collectorOf(machine: AnyStateMachine): Collector {
  let c = collectors.get(machine);
  if (c !== undefined) return c;
  const enqueue = (a: unknown) => {
    c!.list.push(opOf(machine, a));
  };
  enqueue.assign = (assignment: unknown) => {
    c!.list.push({ kind: 'assign', assignment, params: undefined });
  };
  enqueue.emit = (e: unknown) => {
    c!.list.push({ kind: 'emit', event: e, params: undefined });
  };
  enqueue.raise = (e: unknown, options?: { id?: unknown; delay?: unknown }) => {
    c!.list.push({ kind: 'raise', event: e, id: options?.id, delay: options?.delay, params: undefined });
  };
  enqueue.cancel = (sendId: unknown) => {
    c!.list.push({ kind: 'cancel', sendId, params: undefined });
  };
  const unsupported = (what: string) => () => {
    throw new Error(`compiled machine ${machine.id}: enqueue.${what} is not supported`);
  };
  Object.assign(enqueue, { sendTo: unsupported('sendTo'), sendParent: unsupported('sendParent'), spawnChild: unsupported('spawnChild'), stopChild: unsupported('stopChild') });
  // XState's check evaluates against the context at the time the collector runs.
  const check = (guard: unknown) => guardOf(machine, guard)!(c!.context, c!.event);
  c = { list: [], context: {}, event: { type: '' }, enqueue, check };
  collectors.set(machine, c);
  return c;
}

const compiled = new WeakMap<AnyStateMachine, CompiledMachine | string>();

/** The compiled form of a machine, or the reason it cannot be compiled (the World then uses XState). */
export function compileMachine(machine: AnyStateMachine): CompiledMachine | string {
  let c = compiled.get(machine);
  if (c === undefined) {
    try {
      c = new CompiledMachine(machine);
    } catch (e) {
      if (!(e instanceof Unsupported)) throw e;
      c = e.message;
    }
    compiled.set(machine, c);
  }
  return c;
}

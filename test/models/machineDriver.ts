// Steps one model machine by hand, the way the World steps it: an event arrives stamped with its
// sender and tick, a delayed event fires when the clock passes it, and what the machine asks for
// (messages, notes) is collected instead of performed. A test can then hand a model exactly the
// stale or foreign reply that a fault would bring only now and then, and see it ignored.
import type { AnyStateMachine, EventObject } from 'xstate';
import type { ExecutedAction } from '../../src/kernel/compiledMachine.ts';
import { stepperFor, type MachineSnapshot, type Stepper } from '../../src/kernel/stepper.ts';
import { stateKey } from '../../src/run/world.ts';

interface Timer {
  readonly id: string;
  readonly due: number;
  readonly seq: number;
  readonly event: EventObject;
}

type Emitted = { type: string; to?: string; event?: EventObject & Record<string, unknown>; kind?: string; data?: Record<string, unknown> };

export class MachineDriver {
  now = 0;
  snapshot: MachineSnapshot;
  /** Every message the machine sent, in order. */
  readonly sent: { readonly to: string; readonly event: EventObject & Record<string, unknown> }[] = [];
  /** The state after every step, in order: a resting state passed through shows here. */
  readonly states: string[] = [];
  /** Every note the machine wrote, in order. */
  readonly notes: { readonly kind: string; readonly data?: Record<string, unknown> }[] = [];
  private timers: Timer[] = [];
  private seq = 0;
  private readonly stepper: Stepper;

  constructor(machine: AnyStateMachine, input: Record<string, unknown>) {
    this.stepper = stepperFor(machine, machine.id, input, 'compiled').stepper;
    const actions: ExecutedAction[] = [];
    this.snapshot = this.stepper.initial(input, actions);
    this.perform(actions);
  }

  get state(): string {
    return stateKey(this.snapshot.value);
  }

  get context(): Record<string, any> {
    return this.snapshot.context;
  }

  /** Delivers a message from a peer now. */
  receive(event: EventObject & Record<string, unknown>, from = 'peer'): this {
    this.step({ ...event, from, at: this.now } as EventObject);
    return this;
  }

  /** Moves the clock on, firing every timer that falls due on the way, earliest first. */
  advance(ticks: number): this {
    const until = this.now + ticks;
    for (;;) {
      const next = [...this.timers].sort((a, b) => a.due - b.due || a.seq - b.seq)[0];
      if (next === undefined || next.due > until) break;
      this.timers = this.timers.filter((t) => t !== next);
      this.now = next.due;
      this.step({ ...next.event, at: this.now } as EventObject);
    }
    this.now = until;
    return this;
  }

  /** Messages sent since the given count, e.g. `sentSince(before)` after an action. */
  sentSince(count: number): { readonly to: string; readonly event: EventObject & Record<string, unknown> }[] {
    return this.sent.slice(count);
  }

  private step(event: EventObject): void {
    const actions: ExecutedAction[] = [];
    this.snapshot = this.stepper.transition(this.snapshot, event, actions);
    if (this.snapshot.status === 'error') throw new Error(`failed on ${event.type}: ${String(this.snapshot.error)}`);
    this.states.push(this.state);
    this.perform(actions);
  }

  private perform(actions: readonly ExecutedAction[]): void {
    for (const action of actions) {
      if (action.type === 'xstate.emit') {
        const e = (action.params as { event: Emitted }).event;
        if (e.type === 'send') this.sent.push({ to: e.to!, event: e.event! });
        else if (e.type === 'note') this.notes.push({ kind: e.kind!, ...(e.data === undefined ? {} : { data: e.data }) });
      } else if (action.type === 'xstate.raise') {
        const { event, id, delay } = action.params as { event: EventObject; id?: string; delay?: number };
        if (delay === undefined) continue;
        const seq = this.seq++;
        this.timers.push({ id: id ?? `#${seq}`, due: this.now + delay, seq, event });
      } else if (action.type === 'xstate.cancel') {
        const { sendId } = action.params as { sendId: string };
        this.timers = this.timers.filter((t) => t.id !== sendId);
      }
    }
  }
}

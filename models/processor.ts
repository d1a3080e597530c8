// A checkpointed stream operator: it consumes a source log tick by tick, keeps an operator state
// (a running count and sum of the records it has processed) and every `checkpointEveryTicks`
// takes a checkpoint, the source position and the operator state at one consistent cut. It is
// the model behind `faultline calc checkpoint`: a crash makes it replay everything since the last
// completed checkpoint.
//
// The source is a log that grows with time: by tick t it holds min(t, totalTicks) ×
// eventsPerTick records, record p (1-based) carrying the value p. Reading a record never
// consumes it, so after a restore the processor reads the same records again. Without faults the
// processor keeps up: each tick it processes the records that arrived in that tick. After a
// restore it processes up to `recoveryEventsPerTick` a tick until it is back at the live edge.
//
// Fault model: a crash in any of its states (its failure windows) loses the volatile context,
// the position and operator state reached since the last completed checkpoint and a checkpoint
// that was taken but not yet completed. The durable context survives: the last completed
// checkpoint, and the counters of what has left the processor (results emitted downstream cannot
// be taken back, which is what makes a replay visible as duplicate output). On restart the
// processor restores the checkpoint and reads the source again from its position, so the
// operator state reflects each source record exactly once while the output does not.
//
// The processor has no clock of its own: it reads the tick from `at`, which the World puts on
// every timer event it delivers, so it must run inside a World.
import { assign, emit, setup, type EventObject } from 'xstate';
import { note, type Emitted, type PeerCrashed } from '../src/kernel/emitted.ts';
import type { ComponentSpec } from '../src/kernel/componentSpec.ts';
import { InputError } from '../src/base/inputError.ts';

export interface OperatorState {
  /** Records processed into the state. */
  readonly count: number;
  /** The sum of their values; counting a record twice or skipping one changes it. */
  readonly sum: number;
}

export interface Checkpoint {
  /** The tick at whose end the cut was taken (0: the empty state the processor starts from). */
  readonly tick: number;
  /** Source records 1..position are reflected in `state`, and no others. */
  readonly position: number;
  readonly state: OperatorState;
}

export interface ProcessorDurable {
  /** The last completed checkpoint: what a restart restores. */
  readonly checkpoint: Checkpoint;
  /** The highest source position whose result has been emitted downstream. */
  readonly emittedThrough: number;
  /** Every record processed, a replayed one each time it is processed again. */
  readonly processedTotal: number;
  /** Records processed again after a restore (positions at or below `emittedThrough`). */
  readonly replayedTotal: number;
  /** One entry per restart, the records replayed after that restore. */
  readonly replays: readonly number[];
}

export interface ProcessorInput {
  /** Source records arriving per tick while the source is live. */
  readonly eventsPerTick: number;
  /** Records the processor can process in one tick; it must keep up with live input. Default 2 × eventsPerTick. */
  readonly recoveryEventsPerTick?: number;
  /** A checkpoint is taken at the end of every tick that is a multiple of this. */
  readonly checkpointEveryTicks: number;
  /** The source stops growing after this tick, so the run ends. */
  readonly totalTicks: number;
  /** Passed back by the World on a restart. */
  readonly durable?: ProcessorDurable;
}

interface ProcessorContext {
  readonly durable: ProcessorDurable;
  readonly eventsPerTick: number;
  readonly recoveryEventsPerTick: number;
  readonly checkpointEveryTicks: number;
  readonly totalTicks: number;
  /** True when the machine was booted from durable state after a crash. */
  readonly restarted: boolean;
  // Volatile: lost in a crash.
  readonly position: number;
  readonly state: OperatorState;
  /** The tick of the last processing step. */
  readonly now: number;
  /** A checkpoint taken but not yet completed. */
  readonly pending: Checkpoint | null;
}

/** The value source record `position` carries. */
export function recordValue(position: number): number {
  return position;
}

/**
 * The values of records `first`..`last` added up, without visiting each: a step takes a tick's
 * records at once, however many a tick brings. Record p carries p (`recordValue`), so this is an
 * arithmetic series. Each product is at most the sum itself, so it is
 * exact while the sum is (MAX_RECORDS keeps it so).
 */
function valuesBetween(first: number, last: number): number {
  const n = last - first + 1;
  return n % 2 === 0 ? (n / 2) * (first + last) : n * ((first + last) / 2);
}

/** The most records a source may hold: the sum of their values stays an exact number. */
const MAX_RECORDS = 100_000_000;

/** The operator state after processing records 1..n once each: what every run must end with. */
export function expectedState(n: number): OperatorState {
  return { count: n, sum: (n * (n + 1)) / 2 };
}

// Shared by every fresh processor in the process, so frozen: a model that changed it in place
// would leak state from one run into the next.
const EMPTY_DURABLE: ProcessorDurable = Object.freeze({
  checkpoint: Object.freeze({ tick: 0, position: 0, state: Object.freeze({ count: 0, sum: 0 }) }),
  emittedThrough: 0,
  processedTotal: 0,
  replayedTotal: 0,
  replays: Object.freeze([]) as readonly number[],
});

// The World adds `at` to every timer event; without it the processor cannot tell how far the
// source has grown, so running it elsewhere is an error rather than a silent wrong answer.
function tickOf(event: EventObject): number {
  const at = (event as { at?: unknown }).at;
  if (typeof at !== 'number') throw new Error('the processor reads the tick from `at`; run it inside a World');
  return at;
}

function sourceEnd(context: ProcessorContext): number {
  return context.totalTicks * context.eventsPerTick;
}

export const processorMachine = setup({
  types: {
    context: {} as ProcessorContext,
    input: {} as ProcessorInput,
    events: {} as PeerCrashed,
    emitted: {} as Emitted,
  },
  actions: {
    // A restart opens a new entry in `replays`, which processing fills as it reads records that
    // were already emitted; the first boot has nothing to replay and opens none.
    recordRestore: assign(({ context }) =>
      context.restarted ? { durable: { ...context.durable, replays: [...context.durable.replays, 0] } } : {},
    ),
    noteRestore: emit(({ context }) =>
      note('restore', {
        checkpointTick: context.durable.checkpoint.tick,
        resumeFrom: context.durable.checkpoint.position,
        emittedThrough: context.durable.emittedThrough,
      }),
    ),
    // Processes, in order, the records that have arrived and not yet been processed, up to the
    // per-tick capacity; records at or below `emittedThrough` are replays of earlier output.
    ingest: assign(({ context, event }) => {
      const now = tickOf(event);
      const arrived = Math.min(now, context.totalTicks) * context.eventsPerTick;
      const take = Math.max(0, Math.min(arrived - context.position, context.recoveryEventsPerTick));
      if (take === 0) return { now };
      const d = context.durable;
      const first = context.position + 1;
      const position = context.position + take;
      const count = context.state.count + take;
      const sum = context.state.sum + valuesBetween(first, position);
      // Records at or below `emittedThrough` were emitted before: their share of this tick's.
      const replayed = Math.max(0, Math.min(d.emittedThrough, position) - first + 1);
      const replays = replayed === 0 ? d.replays : [...d.replays.slice(0, -1), (d.replays.at(-1) ?? 0) + replayed];
      return {
        now,
        position,
        state: { count, sum },
        durable: {
          ...d,
          emittedThrough: Math.max(d.emittedThrough, position),
          processedTotal: d.processedTotal + take,
          replayedTotal: d.replayedTotal + replayed,
          replays,
        },
      };
    }),
    // The cut is taken between two ticks, after one tick's records and before the next's, so the
    // position and the state describe the same records.
    takeCheckpoint: assign(({ context }) => ({
      pending: { tick: context.now, position: context.position, state: context.state },
    })),
    completeCheckpoint: assign(({ context }) =>
      context.pending === null ? {} : { durable: { ...context.durable, checkpoint: context.pending }, pending: null },
    ),
    noteCheckpoint: emit(({ context }) => note('checkpoint', { tick: context.durable.checkpoint.tick, position: context.durable.checkpoint.position })),
  },
  guards: {
    checkpointDue: ({ context }) => context.now % context.checkpointEveryTicks === 0 || context.position === sourceEnd(context),
    finished: ({ context }) => context.position === sourceEnd(context),
  },
}).createMachine({
  id: 'processor',
  context: ({ input }) => {
    const durable = input.durable ?? EMPTY_DURABLE;
    return {
      durable,
      eventsPerTick: input.eventsPerTick,
      recoveryEventsPerTick: input.recoveryEventsPerTick ?? 2 * input.eventsPerTick,
      checkpointEveryTicks: input.checkpointEveryTicks,
      totalTicks: input.totalTicks,
      restarted: input.durable !== undefined,
      // Restoring is exactly this: the volatile position and state start from the checkpoint.
      position: durable.checkpoint.position,
      state: durable.checkpoint.state,
      now: durable.checkpoint.tick,
      pending: null,
    };
  },
  initial: 'restoring',
  states: {
    // The checkpoint has been loaded; nothing has been read from the source yet.
    restoring: {
      entry: ['recordRestore', 'noteRestore'],
      after: { 0: 'waiting' },
    },
    // Between ticks: the processor is ahead of its checkpoint by the records processed since.
    waiting: {
      after: { 1: { target: 'processing', actions: 'ingest' } },
    },
    // This tick's records are processed and their results emitted; the checkpoint decision for
    // the tick has not been made, so a crash here loses the tick that would have been checkpointed.
    processing: {
      after: { 0: [{ guard: 'checkpointDue', target: 'checkpointing' }, { target: 'waiting' }] },
    },
    // The cut is taken but not completed: a crash here falls back to the previous checkpoint,
    // which is the worst case, a full interval of replay.
    checkpointing: {
      entry: 'takeCheckpoint',
      after: { 0: { target: 'afterCheckpoint', actions: ['completeCheckpoint', 'noteCheckpoint'] } },
    },
    // The checkpoint is durable: a crash here replays nothing.
    afterCheckpoint: {
      after: { 0: [{ guard: 'finished', target: 'done' }, { target: 'waiting' }] },
    },
    // The bounded source is fully processed and checkpointed.
    done: { tags: ['idle'] },
  },
});

/** The processor as a World component, with its input checked so a bad number is refused as bad input before anything runs. */
export function processorComponent(input: Omit<ProcessorInput, 'durable'>, name = 'processor'): ComponentSpec {
  const whole = (label: string, value: number, min: number) => {
    if (!Number.isSafeInteger(value) || value < min) throw new InputError(`${name} ${label} must be a whole number ≥ ${min}, got ${value}`);
  };
  whole('eventsPerTick', input.eventsPerTick, 1);
  whole('checkpointEveryTicks', input.checkpointEveryTicks, 1);
  whole('totalTicks', input.totalTicks, 1);
  if (input.recoveryEventsPerTick !== undefined) whole('recoveryEventsPerTick', input.recoveryEventsPerTick, input.eventsPerTick);
  const records = input.totalTicks * input.eventsPerTick;
  if (records > MAX_RECORDS) throw new InputError(`${name} totalTicks × eventsPerTick is ${records.toLocaleString('en-US')} records, more than the ${MAX_RECORDS.toLocaleString('en-US')} a run can add up exactly`);
  return { name, machine: processorMachine, input: { ...input }, process: true };
}

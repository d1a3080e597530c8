// An operator running a rebuild runbook: after a while (the incident, the fixed code deployed)
// optionally truncate a consumer's read-model tables, then rewind a consumer group's offsets so
// the broker delivers the whole log to that group again. Which group and which database it
// points at is the design decision of seeds 000 ("Reprocessing is a new versioned production
// run") and 003 ("A replay that rebuilds an internal order projection should not resend
// confirmations"): the live identity, or a separate rebuild namespace.
// Its progress through the runbook is durable (a ticked checklist), so a crash resumes the
// runbook where it stopped: the truncation is repeated until confirmed, then the rewind, which the
// broker confirms as a consumer-group tool prints the offsets it set. A rewind whose confirmation
// never comes is sent again, so a lost request does not leave the read model empty for ever; a
// rewind that did land and is sent again rewinds the group once more.
// Failure windows: `operator.waiting`, `operator.truncating`, `operator.beforeReset`,
// `operator.resetting`, `operator.done`.
import { assign, enqueueActions, setup } from 'xstate';
import { note, send, type Emitted, type PeerCrashed } from '../src/kernel/emitted.ts';
import type { EvidencePart } from '../src/scenario/scenario.ts';
import type { DatabaseReply } from './database.ts';
import type { BrokerReply } from './broker.ts';
import { common, componentFields, given, ticksOf, type ComponentBuilder } from '../src/scenario/design.ts';
import { duration, parseOptions, z } from '../src/scenario/options.ts';

export interface OperatorDurable {
  readonly truncated: boolean;
  readonly reset: boolean;
}

export interface OperatorInput {
  readonly broker: string;
  /** The consumer group whose offsets the runbook rewinds. */
  readonly group: string;
  /** The offset every partition of the group is set to. */
  readonly offset?: number;
  /** Ticks after (re)start before the runbook begins. */
  readonly afterTicks: number;
  /** The read-model tables the rebuild empties first, and their database. */
  readonly truncate?: { readonly db: string; readonly tables: readonly string[] };
  readonly timeoutTicks?: number;
  readonly durable?: OperatorDurable;
}

type Ctx = { durable: OperatorDurable; input: OperatorInput };

export const operatorMachine = setup({
  types: { context: {} as Ctx, input: {} as OperatorInput, events: {} as DatabaseReply | BrokerReply | PeerCrashed, emitted: {} as Emitted },
  delays: {
    start: ({ context }) => context.input.afterTicks,
    timeout: ({ context }) => context.input.timeoutTicks ?? 20,
  },
  guards: {
    isReset: ({ context }) => context.durable.reset,
    isTruncated: ({ context }) => context.durable.truncated,
    mustTruncate: ({ context }) => context.input.truncate !== undefined,
    truncateConfirmed: ({ event }) => event.type === 'db.ran' && event.ref === 'rebuild-truncate' && event.ok,
    resetConfirmed: ({ context, event }) => event.type === 'broker.offsetsReset' && event.group === context.input.group,
  },
  actions: {
    truncate: enqueueActions(({ context, enqueue }) => {
      const t = context.input.truncate!;
      enqueue.emit(send(t.db, { type: 'db.run', ref: 'rebuild-truncate', ops: t.tables.map((table) => ({ op: 'delete' as const, table })) }));
    }),
    markTruncated: assign(({ context }) => ({ durable: { ...context.durable, truncated: true } })),
    markReset: assign(({ context }) => ({ durable: { ...context.durable, reset: true } })),
    resetOffsets: enqueueActions(({ context, enqueue }) => {
      const offset = context.input.offset ?? 0;
      enqueue.emit(note('operator.resetOffsets', { group: context.input.group, offset }));
      enqueue.emit(send(context.input.broker, { type: 'broker.resetOffsets', group: context.input.group, offset }));
    }),
  },
}).createMachine({
  id: 'operator',
  context: ({ input }) => ({ durable: input.durable ?? { truncated: false, reset: false }, input }),
  initial: 'resuming',
  states: {
    // Transient: a restart resumes the checklist at its first unticked line.
    resuming: {
      always: [{ guard: 'isReset', target: 'done' }, { guard: 'isTruncated', target: 'beforeReset' }, { target: 'waiting' }],
    },
    waiting: {
      after: {
        start: [
          { guard: 'mustTruncate', target: 'truncating', actions: 'truncate' },
          { target: 'beforeReset' },
        ],
      },
    },
    truncating: {
      on: { 'db.ran': { guard: 'truncateConfirmed', target: 'beforeReset', actions: 'markTruncated' } },
      after: { timeout: { target: 'truncating', reenter: true, actions: 'truncate' } },
    },
    // The read model is empty (or was never touched); the group still points where it was.
    beforeReset: { after: { 1: { target: 'resetting', actions: 'resetOffsets' } } },
    resetting: {
      on: { 'broker.offsetsReset': { guard: 'resetConfirmed', target: 'done', actions: 'markReset' } },
      after: { timeout: { target: 'resetting', reenter: true, actions: 'resetOffsets' } },
    },
    done: { tags: ['idle'] },
  },
});

/** Evidence for the operator: whether it has truncated the read model and reset the offsets yet. */
export function operatorEvidence(durable: unknown): EvidencePart[] {
  const d = durable as OperatorDurable | undefined;
  return [
    { label: 'truncated', items: [String(d?.truncated ?? false)] },
    { label: 'reset', items: [String(d?.reset ?? false)] },
  ];
}

/** The operator's options as a design draws it; durations in their units. */
export const OperatorOptions = z.strictObject({
  ...componentFields,
  broker: z.string().optional(),
  group: z.string(),
  offset: z.number().int().min(0).optional(),
  /** How long after (re)start the runbook begins. */
  after: duration,
  truncate: z.strictObject({ db: z.string(), tables: z.array(z.string()) }).optional(),
  /** How long it waits for a reply (20 ticks). */
  timeout: duration.optional(),
});

/** An operator running a rebuild runbook, named `operator` unless the design names it. */
export function operator(options: z.input<typeof OperatorOptions>): ComponentBuilder {
  const o = parseOptions('operator', OperatorOptions, options);
  const name = o.name ?? 'operator';
  const broker = o.broker ?? 'broker';
  return ({ time }) => ({
    name,
    machine: operatorMachine,
    process: true,
    peers: [broker, ...(o.truncate ? [o.truncate.db] : [])],
    describe: operatorEvidence,
    input: {
      broker,
      group: o.group,
      afterTicks: time.ticks(`${name} option after`, o.after, 0),
      ...given({ offset: o.offset, truncate: o.truncate, timeoutTicks: ticksOf(time, `${name} option timeout`, o.timeout) }),
    },
    ...common(time, name, o),
  });
}

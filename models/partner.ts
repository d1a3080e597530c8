// A partner that feeds us facts through the broker and, like real partners, sends them again
// later: its own retry queue, a dead-letter redrive or a replay on its side, weeks afterwards.
// It publishes each of its facts once (resending until the broker acknowledges, so the log may
// hold a fact twice), waits `redeliverAfterTicks`, and publishes every fact again with the same
// event_id. Its durable state is which facts the broker acknowledged in each round, when the
// redelivery is due and whether it has come, as a partner's retry queue keeps a scheduled time;
// a restart resumes from there and waits only what is left of the wait (it learns the time from
// a one-tick timer, since a machine reads the clock only from the events it receives), so a
// crash delays the redelivery by at most the restart, never by a whole second wait.
// Waiting and publishing states are not tagged `idle`, so the world is not quiet (and the run
// does not end) while a redelivery is still to come.
import { assign, enqueueActions, setup } from 'xstate';
import { send, type Emitted, type PeerCrashed } from '../src/kernel/emitted.ts';
import type { EvidencePart } from '../src/scenario/scenario.ts';
import type { BrokerReply, Payload } from './broker.ts';
import { common, componentFields, given, ticksOf, type ComponentBuilder } from '../src/scenario/design.ts';
import { duration, parseOptions, payloads, sizedValue, z } from '../src/scenario/options.ts';
import { SECONDS, type TimeScale } from '../src/base/duration.ts';

export interface PartnerDurable {
  /** event_ids whose first publication the broker acknowledged, in order. */
  readonly published: readonly string[];
  /** event_ids whose redelivery the broker acknowledged, in order. */
  readonly redelivered: readonly string[];
  /** The wait is over: a restart resumes the redelivery at once instead of waiting again. */
  readonly redeliveryDue: boolean;
  /** The tick the redelivery is scheduled for, once the first round is acknowledged. */
  readonly redeliverAt?: number;
}

export interface PartnerInput {
  readonly broker: string;
  /** The facts, each with a stable `event_id`. */
  readonly facts: readonly Payload[];
  /** How long after the first round the partner publishes every fact again. */
  readonly redeliverAfterTicks: number;
  readonly timeoutTicks?: number;
  readonly durable?: PartnerDurable;
}

type Ctx = { durable: PartnerDurable; input: PartnerInput; /** What is left of the wait, in ticks. */ waitTicks: number };

const idOf = (p: Payload) => String(p['event_id']);

/** The fact in hand: the next one of the first round, else of the redelivery round. */
function current(ctx: Ctx): { fact: Payload; round: 'first' | 'redelivery' } {
  const { published, redelivered } = ctx.durable;
  const facts = ctx.input.facts;
  return published.length < facts.length
    ? { fact: facts[published.length]!, round: 'first' }
    : { fact: facts[redelivered.length]!, round: 'redelivery' };
}

const refOf = (ctx: Ctx) => {
  const c = current(ctx);
  return `${idOf(c.fact)}#${c.round}`;
};

export const partnerMachine = setup({
  types: { context: {} as Ctx, input: {} as PartnerInput, events: {} as BrokerReply | PeerCrashed, emitted: {} as Emitted },
  delays: {
    timeout: ({ context }) => context.input.timeoutTicks ?? 20,
    redeliverAfter: ({ context }) => context.waitTicks,
  },
  guards: {
    firstRoundLeft: ({ context }) => context.durable.published.length < context.input.facts.length,
    redeliveryLeft: ({ context }) => context.durable.redelivered.length < context.input.facts.length,
    redeliveryResumes: ({ context }) => context.durable.redeliveryDue && context.durable.redelivered.length < context.input.facts.length,
    isAck: ({ context, event }) => event.type === 'broker.ack' && event.ref === refOf(context),
    overdue: ({ context, event }) => (event as { at?: number }).at! >= (context.durable.redeliverAt ?? 0),
  },
  actions: {
    publish: enqueueActions(({ context, enqueue }) => {
      const { fact } = current(context);
      enqueue.emit(send(context.input.broker, { type: 'broker.publish', ref: refOf(context), key: String(fact['member_id'] ?? idOf(fact)), payload: fact }));
    }),
    markDue: assign(({ context }) => ({ durable: { ...context.durable, redeliveryDue: true } })),
    recordAck: assign(({ context, event }) => {
      const { fact, round } = current(context);
      const d = context.durable;
      if (round === 'redelivery') return { durable: { ...d, redelivered: [...d.redelivered, idOf(fact)] } };
      const published = [...d.published, idOf(fact)];
      // The last fact of the first round acknowledged: the redelivery is scheduled from now.
      const last = published.length === context.input.facts.length;
      return { durable: last ? { ...d, published, redeliverAt: (event as { at: number }).at + context.input.redeliverAfterTicks } : { ...d, published } };
    }),
    resumeWait: assign(({ context, event }) => ({ waitTicks: (context.durable.redeliverAt ?? 0) - (event as { at: number }).at })),
  },
}).createMachine({
  id: 'partner',
  context: ({ input }) => ({ durable: input.durable ?? { published: [], redelivered: [], redeliveryDue: false }, input, waitTicks: 0 }),
  initial: 'next',
  states: {
    next: {
      always: [
        { guard: 'firstRoundLeft', target: 'publishing' },
        { guard: 'redeliveryResumes', target: 'redelivering' },
        // The redelivery is scheduled: read the clock, then wait what is left of it.
        { guard: 'redeliveryLeft', target: 'scheduling' },
        { target: 'done' },
      ],
    },
    // A fact is on its way to the broker; until the ack comes, the partner does not know.
    publishing: {
      entry: 'publish',
      on: { 'broker.ack': { guard: 'isAck', target: 'next', actions: 'recordAck' } },
      after: { timeout: { target: 'publishing', reenter: true } },
    },
    // Between reading the schedule and waiting on it (after the first round, or after a restart).
    scheduling: {
      after: {
        1: [
          { guard: 'overdue', target: 'redelivering', actions: 'markDue' },
          { target: 'waitingToRedeliver', actions: 'resumeWait' },
        ],
      },
    },
    // Every fact was delivered once; the partner will send them all again.
    waitingToRedeliver: { after: { redeliverAfter: { target: 'redelivering', actions: 'markDue' } } },
    redelivering: {
      entry: 'publish',
      on: { 'broker.ack': { guard: 'isAck', target: 'nextRedelivery', actions: 'recordAck' } },
      after: { timeout: { target: 'redelivering', reenter: true } },
    },
    nextRedelivery: { always: [{ guard: 'redeliveryLeft', target: 'redelivering' }, { target: 'done' }] },
    done: { tags: ['idle'] },
  },
});

/** Evidence: which facts the partner has handed over in each round. */
export function partnerEvidence(durable: unknown, time: TimeScale = SECONDS): EvidencePart[] {
  const p = durable as PartnerDurable | undefined;
  return [
    { label: 'published', items: p && p.published.length > 0 ? [...p.published] : ['none'] },
    { label: 'redelivered', items: p && p.redelivered.length > 0 ? [...p.redelivered] : ['none'] },
    ...(p?.redeliverAt === undefined ? [] : [{ label: 'redelivery due', items: [`at ${time.format(p.redeliverAt)}`] }]),
  ];
}

/** The partner's options as a design draws it; durations in their units. */
export const PartnerOptions = z.strictObject({
  ...componentFields,
  broker: z.string().optional(),
  /** Its facts, given the workload size. */
  facts: z.custom<(size: number) => readonly Payload[]>((v) => typeof v === 'function'),
  /** How long after the first round it sends every fact again. */
  redeliverAfter: duration,
  /** How long it waits for the broker's acknowledgement (20 ticks). */
  timeout: duration.optional(),
});

/** A partner that publishes its facts and sends them again later, named `partner` unless the design names it. */
export function partner(options: z.input<typeof PartnerOptions>): ComponentBuilder {
  const o = parseOptions('partner', PartnerOptions, options);
  const name = o.name ?? 'partner';
  const broker = o.broker ?? 'broker';
  return ({ size, time }) => ({
    name,
    machine: partnerMachine,
    process: true,
    peers: [broker],
    describe: partnerEvidence,
    input: {
      broker,
      facts: sizedValue(`${name} option facts`, payloads, o.facts, size),
      redeliverAfterTicks: time.ticks(`${name} option redeliverAfter`, o.redeliverAfter, 1),
      ...given({ timeoutTicks: ticksOf(time, `${name} option timeout`, o.timeout) }),
    },
    ...common(time, name, o),
  });
}

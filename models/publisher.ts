// A producer whose facts are already committed together with their intent to publish: the
// outbox and its relay folded into one process, for worlds whose subject is downstream of the
// broker (an external call, a replay, a flow of the register). The Mercury scenarios model the
// source transaction itself; here the facts exist from the start and live in the durable state,
// which is also where a checker reads them.
// Design option `delivery`:
// - `atLeastOnce`: publish a record, wait for the broker's ack, then move on; a lost ack or a
//   crash before progress is recorded publishes the same record (same event_id) again.
// - `atMostOnce`: record progress first, then send and never wait (a web beacon, a relay that
//   marks before sending); a crash or a lost publish after progress loses the record.
// Failure windows: `publisher.afterPublishSend` (sent, not acknowledged),
// `publisher.afterBrokerAccept` (acknowledged, progress not recorded) and, at most once,
// `publisher.afterProgress` (progress recorded, not yet sent).
import { assign, enqueueActions, setup } from 'xstate';
import { send, type Emitted, type PeerCrashed } from '../src/kernel/emitted.ts';
import type { EvidencePart } from '../src/scenario/scenario.ts';
import type { BrokerReply, Payload } from './broker.ts';
import { common, componentFields, given, ticksOf, type ComponentBuilder } from '../src/scenario/design.ts';
import { duration, parseOptions, payloads, sizedValue, z } from '../src/scenario/options.ts';
import { didYouMean } from '../src/base/nearest.ts';
import { ofKind } from '../src/base/notOfKind.ts';

export interface PublisherDurable {
  /** The committed facts this producer owns, in publication order. */
  readonly records: readonly Payload[];
  /** How many of them are handed over (acknowledged at least once, or sent at most once). */
  readonly done: number;
}

export interface PublisherInput {
  readonly broker: string;
  readonly records: readonly Payload[];
  /** The payload field used as the broker key (the aggregate id: one partition per aggregate). */
  readonly keyField: string;
  readonly delivery?: 'atLeastOnce' | 'atMostOnce';
  readonly timeoutTicks?: number;
  readonly durable?: PublisherDurable;
}

type Ctx = { durable: PublisherDurable; input: PublisherInput };

const refOf = (i: number) => `rec-${i}`;

function publishEvent(ctx: Ctx, i: number) {
  const payload = ctx.durable.records[i]!;
  return { type: 'broker.publish', ref: refOf(i), key: String(payload[ctx.input.keyField]), payload };
}

/** The committed facts of a publisher, for claims and evidence. */
export function publishedFacts(durable: PublisherDurable | undefined): readonly Payload[] {
  ofKind(durable, 'records', 'publishedFacts', 'a publisher');
  return durable?.records ?? [];
}

export const publisherMachine = setup({
  types: { context: {} as Ctx, input: {} as PublisherInput, events: {} as BrokerReply | PeerCrashed, emitted: {} as Emitted },
  delays: { timeout: ({ context }) => context.input.timeoutTicks ?? 20 },
  guards: {
    allDone: ({ context }) => context.durable.done >= context.durable.records.length,
    atMostOnce: ({ context }) => context.input.delivery === 'atMostOnce',
    isAck: ({ context, event }) => event.type === 'broker.ack' && event.ref === refOf(context.durable.done),
  },
  actions: {
    publish: enqueueActions(({ context, enqueue }) => enqueue.emit(send(context.input.broker, publishEvent(context, context.durable.done)))),
    advance: assign(({ context }) => ({ durable: { ...context.durable, done: context.durable.done + 1 } })),
    // At most once: the record whose progress was just recorded goes out once, unwatched.
    publishPrevious: enqueueActions(({ context, enqueue }) => enqueue.emit(send(context.input.broker, publishEvent(context, context.durable.done - 1)))),
  },
}).createMachine({
  id: 'publisher',
  context: ({ input }) => ({ durable: input.durable ?? { records: input.records, done: 0 }, input }),
  initial: 'pacing',
  states: {
    pacing: {
      always: { guard: 'allDone', target: 'idle' },
      after: {
        1: [
          { guard: 'atMostOnce', target: 'afterProgress', actions: 'advance' },
          { target: 'afterPublishSend', actions: 'publish' },
        ],
      },
    },
    // At most once: progress is durable and the record has not been sent.
    afterProgress: { after: { 1: { target: 'pacing', actions: 'publishPrevious' } } },
    // At least once: sent, not acknowledged; the broker may or may not hold the record.
    afterPublishSend: {
      on: { 'broker.ack': { guard: 'isAck', target: 'afterBrokerAccept' } },
      after: { timeout: { target: 'afterPublishSend', reenter: true, actions: 'publish' } },
    },
    // The broker holds the record; progress is not recorded, so a crash here publishes it again.
    afterBrokerAccept: { after: { 1: { target: 'pacing', actions: 'advance' } } },
    idle: { tags: ['idle'] },
  },
});

/** Evidence for the publisher: how many of its records it has handed to the broker. */
export function publisherEvidence(durable: unknown): EvidencePart[] {
  const d = durable as PublisherDurable | undefined;
  return [{ label: 'handed over', items: [`${d?.done ?? 0}/${d?.records.length ?? 0}`] }];
}

/** The publisher's options as a design draws it; durations in their units. */
export const PublisherOptions = z.strictObject({
  ...componentFields,
  broker: z.string().optional(),
  /** Its committed facts, given the workload size. */
  records: z.custom<(size: number) => readonly Payload[]>((v) => typeof v === 'function'),
  keyField: z.string(),
  delivery: z.enum(['atLeastOnce', 'atMostOnce']).optional(),
  /** How long it waits for the broker's acknowledgement (20 ticks). */
  timeout: duration.optional(),
});

/** A producer handing its committed facts to the broker, named `publisher` unless the design names it. */
export function publisher(options: z.input<typeof PublisherOptions>): ComponentBuilder {
  const o = parseOptions('publisher', PublisherOptions, options);
  const name = o.name ?? 'publisher';
  const broker = o.broker ?? 'broker';
  return ({ size, time }) => {
    const records = sizedValue(`${name} option records`, payloads, o.records, size);
    return {
      name,
      machine: publisherMachine,
      process: true,
      peers: [broker],
      describe: publisherEvidence,
      input: { broker, records, keyField: o.keyField, ...given({ delivery: o.delivery, timeoutTicks: ticksOf(time, `${name} option timeout`, o.timeout) }) },
      // Its records carry the field it keys them by: a misspelt one would give every record the
      // broker key "undefined" and put them all in one partition, silently.
      wiring: () => keyFieldProblems(o.keyField, records),
      ...common(time, name, o),
    };
  };
}

/** What is wrong with `keyField` as the field every record is keyed by, one phrase each. */
function keyFieldProblems(keyField: string, records: readonly Payload[]): string[] {
  const lacking = records.find((r) => r[keyField] === undefined);
  if (lacking === undefined) return [];
  const fields = Object.keys(lacking);
  return [`keyField ${keyField} is a field of no record it publishes${didYouMean(keyField, fields)}; fields: ${fields.join(', ')}`];
}

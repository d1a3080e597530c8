// A partitioned log broker. Records are keyed by aggregate id and land in one partition per
// key, so one aggregate's records keep their log order. A producer gets an ack per record, and
// that ack can be lost like any message, so a retrying producer appends the record again unless
// producer-side dedup is on. Consumer groups commit offsets; the committed offset is durable,
// a consumer session is not: after a consumer restarts it subscribes again and the broker
// redelivers from the committed offset. A delivery that is never committed is redelivered after
// `redeliveryTicks`. Records older than `retentionTicks` are gone.
import { assign, enqueueActions, setup } from 'xstate';
import { note, send, type Emitted, type FromPeer, type PeerCrashed } from '../src/emitted.ts';
import type { EvidencePart } from '../src/scenario.ts';
import { common, componentFields, given, ticksOf, type ComponentBuilder } from '../src/design.ts';
import { duration, parseOptions, z } from '../src/options.ts';

export type Payload = Readonly<Record<string, string | number | boolean | null>>;

export interface LogRecord {
  readonly offset: number;
  readonly key: string;
  readonly payload: Payload;
  readonly at: number;
}

export interface BrokerDurable {
  readonly partitions: readonly (readonly LogRecord[])[];
  /** group → partition → the next offset the group will read. */
  readonly offsets: Readonly<Record<string, readonly number[]>>;
}

export interface BrokerInput {
  readonly partitions?: number;
  readonly redeliveryTicks?: number;
  readonly retentionTicks?: number;
  /** Idempotent producer: a record whose `event_id` is already in its partition is not appended again. */
  readonly producerDedup?: boolean;
  readonly durable?: BrokerDurable;
}

export type BrokerEvent =
  | ({ type: 'broker.publish'; ref: string; key: string; payload: Payload } & FromPeer)
  | ({ type: 'broker.subscribe'; group: string } & FromPeer)
  | ({ type: 'broker.commit'; partition: number; offset: number } & FromPeer)
  | ({ type: 'broker.resetOffsets'; group: string; offset: number } & FromPeer)
  | PeerCrashed;

export type BrokerReply =
  | ({ type: 'broker.ack'; ref: string; partition: number; offset: number } & FromPeer)
  | ({ type: 'broker.subscribed'; group: string } & FromPeer)
  | ({ type: 'broker.deliver'; partition: number; offset: number; key: string; payload: Payload } & FromPeer);

interface Session {
  readonly group: string;
  /** partition → next offset to deliver. */
  readonly position: readonly number[];
  /** partition → the delivery awaiting commit, and when it went out. */
  readonly inflight: readonly ({ offset: number; at: number } | null)[];
}

type Ctx = {
  durable: BrokerDurable;
  partitions: number;
  redeliveryTicks: number;
  retentionTicks: number;
  producerDedup: boolean;
  sessions: Readonly<Record<string, Session>>;
};

/** FNV-1a: a stable partitioner, the same in every process. */
export function partitionOf(key: string, partitions: number): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h % partitions;
}

/** Every record of the log, partition by partition; for checkers and evidence. */
export function recordsOf(durable: BrokerDurable | undefined): LogRecord[] {
  return durable ? durable.partitions.flat() : [];
}

type Delivery = { to: string; event: { type: 'broker.deliver'; partition: number; offset: number; key: string; payload: Payload } };

/** Sends the next record of every idle partition of every session; redelivers stale ones. */
function pump(ctx: Ctx, now: number, redeliverStale: boolean): { sessions: Record<string, Session>; deliveries: Delivery[]; skipped: number } {
  const sessions: Record<string, Session> = {};
  const deliveries: Delivery[] = [];
  let skipped = 0;
  for (const name of Object.keys(ctx.sessions).sort()) {
    const s = ctx.sessions[name]!;
    const position = [...s.position];
    const inflight = [...s.inflight];
    for (let p = 0; p < ctx.partitions; p++) {
      const log = ctx.durable.partitions[p]!;
      const current = inflight[p];
      if (current && !(redeliverStale && now - current.at >= ctx.redeliveryTicks)) continue;
      let offset = current ? current.offset : position[p]!;
      // Records past retention are gone: the reader's position jumps over them.
      while (offset < log.length && now - log[offset]!.at >= ctx.retentionTicks) {
        offset++;
        skipped++;
      }
      if (offset >= log.length) {
        inflight[p] = null;
        position[p] = offset;
        continue;
      }
      const r = log[offset]!;
      inflight[p] = { offset, at: now };
      position[p] = offset;
      deliveries.push({ to: name, event: { type: 'broker.deliver', partition: p, offset, key: r.key, payload: r.payload } });
    }
    sessions[name] = { group: s.group, position, inflight };
  }
  return { sessions, deliveries, skipped };
}

export const brokerMachine = setup({
  types: {
    context: {} as Ctx,
    input: {} as BrokerInput,
    events: {} as BrokerEvent,
    emitted: {} as Emitted,
  },
  delays: {
    redelivery: ({ context }) => context.redeliveryTicks,
  },
  actions: {
    deliver: enqueueActions(({ context, event, enqueue }, params: { stale: boolean }) => {
      const { sessions, deliveries, skipped } = pump(context, (event as unknown as { at: number }).at, params.stale);
      enqueue.assign({ sessions });
      if (skipped > 0) enqueue.emit(note('broker.retentionSkip', { records: skipped }));
      for (const d of deliveries) enqueue.emit(send(d.to, d.event));
    }),
  },
}).createMachine({
  id: 'broker',
  context: ({ input }) => {
    const partitions = input.partitions ?? 1;
    return {
      durable: input.durable ?? { partitions: Array.from({ length: partitions }, () => []), offsets: {} },
      partitions,
      redeliveryTicks: input.redeliveryTicks ?? 30,
      retentionTicks: input.retentionTicks ?? Number.MAX_SAFE_INTEGER,
      producerDedup: input.producerDedup ?? false,
      sessions: {},
    };
  },
  initial: 'serving',
  states: {
    serving: {
      tags: ['idle'],
      after: { redelivery: { target: 'serving', reenter: true, actions: { type: 'deliver', params: { stale: true } } } },
      on: {
        'broker.publish': {
          actions: [
            enqueueActions(({ context, event, enqueue }) => {
              const p = partitionOf(event.key, context.partitions);
              const log = context.durable.partitions[p]!;
              const eventId = event.payload['event_id'];
              const existing = context.producerDedup && eventId !== undefined ? log.find((r) => r.payload['event_id'] === eventId) : undefined;
              if (existing) {
                enqueue.emit(note('guard', { guard: 'producerDedup', event_id: eventId }));
                enqueue.emit(send(event.from, { type: 'broker.ack', ref: event.ref, partition: p, offset: existing.offset }));
                return;
              }
              const record: LogRecord = { offset: log.length, key: event.key, payload: event.payload, at: event.at };
              const partitions = context.durable.partitions.map((l, i) => (i === p ? [...l, record] : l));
              enqueue.assign({ durable: { ...context.durable, partitions } });
              enqueue.emit(send(event.from, { type: 'broker.ack', ref: event.ref, partition: p, offset: record.offset }));
            }),
            { type: 'deliver', params: { stale: false } },
          ],
        },
        'broker.subscribe': {
          actions: [
            assign(({ context, event }) => {
              const committed = context.durable.offsets[event.group] ?? Array.from({ length: context.partitions }, () => 0);
              const session: Session = { group: event.group, position: [...committed], inflight: committed.map(() => null) };
              return { sessions: { ...context.sessions, [event.from]: session } };
            }),
            enqueueActions(({ event, enqueue }) => enqueue.emit(send(event.from, { type: 'broker.subscribed', group: event.group }))),
            { type: 'deliver', params: { stale: false } },
          ],
        },
        'broker.commit': {
          actions: [
            assign(({ context, event }) => {
              const s = context.sessions[event.from];
              const group = s?.group;
              if (!s || group === undefined) return {};
              const current = context.durable.offsets[group] ?? Array.from({ length: context.partitions }, () => 0);
              const offsets = { ...context.durable.offsets, [group]: current.map((o, i) => (i === event.partition ? event.offset : o)) };
              const inflight = s.inflight.map((f, i) => (i === event.partition && f && f.offset < event.offset ? null : f));
              const position = s.position.map((o, i) => (i === event.partition ? Math.max(o, event.offset) : o));
              return { durable: { ...context.durable, offsets }, sessions: { ...context.sessions, [event.from]: { group, inflight, position } } };
            }),
            { type: 'deliver', params: { stale: false } },
          ],
        },
        'broker.resetOffsets': {
          actions: [
            assign(({ context, event }) => {
              const offsets = { ...context.durable.offsets, [event.group]: Array.from({ length: context.partitions }, () => event.offset) };
              const sessions: Record<string, Session> = {};
              for (const [name, s] of Object.entries(context.sessions)) {
                sessions[name] = s.group === event.group ? { group: s.group, position: offsets[event.group]!, inflight: s.inflight.map(() => null) } : s;
              }
              return { durable: { ...context.durable, offsets }, sessions };
            }),
            { type: 'deliver', params: { stale: false } },
          ],
        },
        'sys.peerCrashed': {
          actions: assign(({ context, event }) => {
            const { [event.peer]: _gone, ...rest } = context.sessions;
            return { sessions: rest };
          }),
        },
      },
    },
  },
});

/** Evidence for the broker: the log's records by event_id, and each group's committed offsets. */
export function brokerEvidence(durable: unknown): EvidencePart[] {
  const d = durable as BrokerDurable | undefined;
  const log = recordsOf(d).map((r) => String(r.payload['event_id']));
  const offsets = Object.entries(d?.offsets ?? {}).map(([g, o]) => `${g}@${o.join('/')}`);
  return [
    { label: 'log', items: log.length > 0 ? log : ['empty'] },
    { label: 'offsets', items: offsets.length > 0 ? offsets : ['none'] },
  ];
}

/** The broker's options as a design draws it; durations in their units. */
export const BrokerOptions = z.strictObject({
  ...componentFields,
  partitions: z.number().int().min(1).max(64).optional(),
  /** How long a delivery may go unacknowledged before it is sent again (30 ticks). */
  redelivery: duration.optional(),
  /** How long records are kept (for ever). */
  retention: duration.optional(),
  /** An idempotent producer: a record whose event_id the partition already holds is not appended again. */
  producerDedup: z.boolean().optional(),
});

/** A partitioned log broker, named `broker` unless the design names it. */
export function broker(options: z.input<typeof BrokerOptions> = {}): ComponentBuilder {
  const o = parseOptions('broker', BrokerOptions, options);
  const name = o.name ?? 'broker';
  return ({ time }) => ({
    name,
    machine: brokerMachine,
    process: false,
    describe: brokerEvidence,
    input: given({
      partitions: o.partitions,
      redeliveryTicks: ticksOf(time, `${name} option redelivery`, o.redelivery),
      retentionTicks: ticksOf(time, `${name} option retention`, o.retention),
      producerDedup: o.producerDedup,
    }),
    ...common(time, name, o),
  });
}

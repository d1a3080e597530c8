// A partitioned event log a stream processor reads by position, as a Kafka topic is read by a
// processor that keeps its own offsets in its checkpoints (seed 000: "A useful checkpoint binds
// source positions included in the computation"). Devices append to their own partition and are
// acknowledged; the log stamps each record with the tick it was appended, its ingestion time,
// beside the event time the device stamped. A reader asks for a partition from an offset and gets
// every record from there, so after a restore it reads the same records again: reading never
// consumes them. The log keeps what it appended (its records are durable and it does not crash
// here); an append it never acknowledged because the acknowledgement was lost is appended again
// when the device resends it, so the log can hold one fact twice.
import { enqueueActions, setup } from 'xstate';
import { send, type Emitted, type FromPeer, type PeerCrashed } from '../src/kernel/emitted.ts';
import type { EvidencePart } from '../src/scenario/scenario.ts';
import { ofKind } from '../src/base/notOfKind.ts';

/**
 * One record of the log, as a device sent it plus where and when the log put it. It carries the
 * two times known when it is appended, event and ingestion; the operator adds the processing
 * time when it counts the record and the sink the commit time when its result becomes visible,
 * each in a fact's own record of times (factTimes.ts), since a replay processes it again.
 */
export interface StreamRecord {
  readonly fact_id: string;
  /** The event time the device stamped: its clock at the fact, in ticks. */
  readonly eventTime: number;
  /** The tick the log appended it: its ingestion time. */
  readonly ingestedAt: number;
  readonly value: number;
  /** The event schema version the device wrote it in (reprocessing adapts older ones). */
  readonly schema: number;
  /** The field a schema version names its amount by, when it is not `value`. */
  readonly fields?: Readonly<Record<string, number>>;
  /** A partition's end marker: the device has nothing more to send (its event time is the end of time). */
  readonly end?: true;
  readonly partition: number;
  readonly offset: number;
}

/** What a device appends: a record without the log's own stamps. */
export type Appended = Omit<StreamRecord, 'ingestedAt' | 'offset' | 'partition'>;

export interface EventLogDurable {
  readonly partitions: readonly (readonly StreamRecord[])[];
}

export type EventLogRequest =
  | ({ type: 'log.append'; partition: number; ref: string; record: Appended } & FromPeer)
  | ({ type: 'log.fetch'; partition: number; offset: number } & FromPeer);

export type EventLogReply =
  | ({ type: 'log.appended'; ref: string } & FromPeer)
  | ({ type: 'log.records'; partition: number; offset: number; records: readonly StreamRecord[] } & FromPeer);

/** The event time of a partition's end marker: later than any fact. */
export const END_OF_TIME = 1_000_000_000;

export const eventLogMachine = setup({
  types: { context: {} as { durable: EventLogDurable }, input: {} as { partitions: number; durable?: EventLogDurable }, events: {} as EventLogRequest | PeerCrashed, emitted: {} as Emitted },
}).createMachine({
  id: 'eventLog',
  context: ({ input }) => ({ durable: input.durable ?? { partitions: Array.from({ length: input.partitions }, () => []) } }),
  initial: 'serving',
  states: {
    serving: {
      tags: ['idle'],
      on: {
        'log.append': {
          actions: enqueueActions(({ context, event, enqueue }) => {
            const parts = context.durable.partitions;
            const log = parts[event.partition]!;
            const record: StreamRecord = { ...event.record, partition: event.partition, offset: log.length, ingestedAt: event.at };
            enqueue.assign({ durable: { partitions: parts.map((l, i) => (i === event.partition ? [...l, record] : l)) } });
            enqueue.emit(send(event.from, { type: 'log.appended', ref: event.ref }));
          }),
        },
        'log.fetch': {
          actions: enqueueActions(({ context, event, enqueue }) => {
            const log = context.durable.partitions[event.partition] ?? [];
            enqueue.emit(send(event.from, { type: 'log.records', partition: event.partition, offset: event.offset, records: log.slice(event.offset) }));
          }),
        },
      },
    },
  },
});

/** Every fact record of the log (end markers left out), partition by partition. */
export function factRecords(durable: EventLogDurable | undefined): StreamRecord[] {
  ofKind(durable, 'partitions', 'factRecords', 'an event log', 'offsets');
  return (durable?.partitions ?? []).flat().filter((r) => r.end !== true);
}

/** Evidence for the log: each partition's facts by id. */
export function eventLogEvidence(durable: unknown): EvidencePart[] {
  const d = durable as EventLogDurable | undefined;
  return (d?.partitions ?? []).map((l, i) => ({ label: `partition ${i}`, items: l.length === 0 ? ['empty'] : l.map((r) => (r.end ? 'end' : r.fact_id)) }));
}

// The several times of one fact (seed 003, "One order has several times": "Event time says when
// the business fact occurred … Ingestion time says when this system first received the fact.
// Processing time says when an attempt ran. Commit time says when durable state changed"), kept
// apart so that a report or a claim can ask which one it means. Each is set by its own clock:
// the event time by the device that recorded the fact (a skewed device stamps it wrong), the
// ingestion time by the log that appended it, the processing time by the operator that counted
// it, and the commit time by the sink when the result counting it became visible to readers.
// A replay processes a fact again at a later processing time; its event and ingestion times stay.
import type { StreamRecord } from './eventLog.ts';

/** When one fact occurred, arrived and was counted: what the operator emits with each result that counts it. */
export interface FactTimes {
  readonly fact_id: string;
  /** The device's clock at the fact. */
  readonly eventTime: number;
  /** The log's tick when it appended the record. */
  readonly ingestedAt: number;
  /** The operator's tick when it counted the record. */
  readonly processedAt: number;
}

/** A fact's times once its result is visible: the sink's tick when that happened. */
export interface CommittedFactTimes extends FactTimes {
  readonly committedAt: number;
}

/** The times of a record the operator counts at tick `now`. */
export function factTimes(record: StreamRecord, now: number): FactTimes {
  return { fact_id: record.fact_id, eventTime: record.eventTime, ingestedAt: record.ingestedAt, processedAt: now };
}

// An outbox row as a relay reads it: its event id, which names its publish and the broker's ack,
// and the broker publish it becomes. Every relay, plain or claiming, and the change-data-capture
// connector publish a row the same way: named by its `event_id`, keyed by its `aggregate_id`.
import type { Payload } from './broker.ts';
import type { Row } from './database.ts';

/** The table a reader of outbox rows reads where its design names none. */
export const OUTBOX_TABLE = 'outbox';

/**
 * The machines that publish outbox rows, by machine id, and whether each finds its rows by their
 * `published` flag (a polling relay) rather than by their place in the table's log (a change-data
 * capture connector). A load check (src/run/referenceProbe.ts) holds the rows each one reads to
 * the columns it needs.
 */
export const OUTBOX_READERS: Readonly<Record<string, { readonly polled: boolean }>> = {
  relay: { polled: true },
  claimingRelay: { polled: true },
  cdcConnector: { polled: false },
};

/** The columns every outbox row must carry: what names its publish, and what keys it at the broker. */
export const OUTBOX_ROW_COLUMNS = ['event_id', 'aggregate_id'] as const;

/** An outbox row's event id, as the text that names its publish and the broker's ack. */
export const idOf = (row: Row) => String(row['event_id']);

/**
 * The statement that marks outbox rows published: each found by its `event_id` as the row holds
 * it, not as text, since a table compares values as they are (a numeric id 10 is not the text
 * '10', and a mark by the text would find no row, so the relay would publish it for ever).
 */
export function markPublished(table: string, rows: readonly Row[]): { op: 'update'; table: string; where: Row; set: Row }[] {
  return rows.map((r) => ({ op: 'update' as const, table, where: { event_id: r['event_id'] ?? null }, set: { published: true } }));
}

/** The broker publish of an outbox row: keyed by its aggregate, without the outbox's own flag. */
export function publishOf(row: Row, ref: string) {
  const { published: _p, ...payload } = row;
  return { type: 'broker.publish', ref, key: String(row['aggregate_id']), payload: payload as Payload };
}

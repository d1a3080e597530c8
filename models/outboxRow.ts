// An outbox row as a relay reads it: its event id, which names its publish and the broker's ack,
// and the broker publish it becomes. Every relay, plain or claiming, publishes a row the same way.
import type { Payload } from './broker.ts';
import type { Row } from './database.ts';

/** An outbox row's event id. */
export const idOf = (row: Row) => String(row['event_id']);

/** The broker publish of an outbox row: keyed by its aggregate, without the outbox's own flag. */
export function publishOf(row: Row, ref: string) {
  const { published: _p, ...payload } = row;
  return { type: 'broker.publish', ref, key: String(row['aggregate_id']), payload: payload as Payload };
}

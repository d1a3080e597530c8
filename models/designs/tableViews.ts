// The records a claim's authority keeps outside any database, read as the table a production team
// would query them in, so a repair query can name them and be run on a run's end state: a
// producer's committed facts as its outbox, a broker topic as the table its sink connector fills,
// an external provider's operations as the export of its ledger, a table's committed versions as
// the audit table a team must keep to see a version go backwards after the fact. Each view
// declares its columns and their types, and reads its rows off the component that holds them.
import type { SqlType, TableView } from '../../src/checkers/claims.ts';
import type { WorldView } from '../../src/kernel/worldView.ts';
import type { BrokerDurable } from '../broker.ts';
import { historyOf, type DatabaseDurable } from '../database.ts';
import { intentValues } from '../caller.ts';
import { operationsOf, type ProviderDurable } from '../provider.ts';
import { publishedFacts, type PublisherDurable } from '../publisher.ts';

type Columns = Readonly<Record<string, SqlType>>;

/** A row with exactly the declared columns, an absent value as NULL. */
export function pick(row: Readonly<Record<string, unknown>>, columns: Columns): Record<string, unknown> {
  return Object.fromEntries(Object.keys(columns).map((c) => [c, row[c] ?? null]));
}

/** A producer's committed facts (a publisher's records), as its outbox table of events: one row per fact, its payload's fields as columns. */
export function publishedView(table: string, columns: Columns, publisher = 'publisher'): TableView {
  return { table, columns, rows: (v) => publishedFacts(v.durable<PublisherDurable>(publisher)).map((p) => pick(p, columns)) };
}

/**
 * A broker's log as the table a sink connector fills: one row per record, with its partition,
 * offset, append time and payload fields. An `optional` broker (a dead-letter topic some variants
 * of a design do not declare) is an empty table where the design has none; any other must exist.
 */
export function topicView(table: string, payload: Columns, broker = 'broker', optional = false): TableView {
  const columns: Columns = { partition: 'bigint', offset: 'bigint', appended_at: 'bigint', ...payload };
  return {
    table,
    columns,
    rows: (v) => (brokerOf(v, broker, optional)?.partitions ?? []).flatMap((log, partition) => log.map((r) => pick({ ...r.payload, partition, offset: r.offset, appended_at: r.at }, columns))),
  };
}

/** A broker's durable state; none for an optional broker the design does not declare. */
function brokerOf(v: WorldView, broker: string, optional: boolean): BrokerDurable | undefined {
  if (!optional) return v.durable<BrokerDurable>(broker);
  try {
    return v.durable<BrokerDurable>(broker);
  } catch {
    return undefined;
  }
}

/**
 * A database table's committed versions in commit order, as the audit table (a trigger's, or a
 * change stream's) a team keeps to see a row's past: `seq` orders it. The model keeps the history
 * for tables declared with `history`.
 */
export function historyView(table: string, db: string, of: string, columns: Columns): TableView {
  const all: Columns = { seq: 'bigint', ...columns };
  return { table, columns: all, rows: (v) => historyOf(v.durable<DatabaseDurable>(db), of).map((r, i) => pick({ ...r, seq: i + 1 }, all)) };
}

/**
 * An external provider's operations as the export of its ledger (a payment provider's captures,
 * a carrier's bookings): one row per operation, in the order it was performed (`seq`), with the
 * idempotency key the call carried (NULL without one), the canonical intent, when it was created,
 * and the request's fields the effect key is made of, typed as declared (text unless given).
 */
export function ledgerView(table: string, fields: readonly string[], fieldTypes: Columns = {}): TableView {
  const columns: Columns = { seq: 'bigint', op_id: 'text', idempotency_key: 'text', intent: 'text', created_at: 'bigint', ...Object.fromEntries(fields.map((f) => [f, fieldTypes[f] ?? 'text'])) };
  return {
    table,
    columns,
    rows: (v) =>
      operationsOf(v.durable<ProviderDurable>('provider')).map((op, i) => {
        const request = Object.fromEntries(intentValues(op.intent));
        return pick({ ...request, seq: i + 1, op_id: op.op_id, idempotency_key: op.key, intent: op.intent, created_at: op.at }, columns);
      }),
  };
}

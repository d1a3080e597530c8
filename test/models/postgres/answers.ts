// One vocabulary for what a statement answered, so the model's OpResult and PostgreSQL's reply
// (a row count, rows, or an error) can be compared line for line:
//   inserted | not inserted | unique (k1, k2) | written | not written | updated N | deleted N
//   rows [..] (a sorted list, so selected rows compare as sets) | deadlock | aborted
// `unique (cols)` is which key conflicted, as far as PostgreSQL lets it be seen: a plain INSERT,
// an upsert or an update fails naming the constraint; ON CONFLICT DO NOTHING names none, so an
// insert that does nothing is just `not inserted` on both sides.
import type { DbOp, OpResult, Row } from '../../../models/database.ts';
import { keyOfConstraint, type Schema } from './schema.ts';
import type { SqlError, SqlResult } from './sqlBackend.ts';

/**
 * A row as compared: every column of its table in name order, one the row does not name read as
 * NULL (as PostgreSQL stores it), the surrogate id left out (see EXCLUDED).
 */
export function rowText(schema: Schema, table: string, row: Readonly<Record<string, unknown>>): string {
  const columns = (schema.tables.find((t) => t.name === table)?.columns ?? []).map((c) => c.name).sort();
  return `{${columns.map((k) => `${k}:${JSON.stringify(row[k] ?? null)}`).join(',')}}`;
}

export function rowsText(schema: Schema, table: string, rows: readonly Readonly<Record<string, unknown>>[]): string {
  return `rows [${rows
    .map((r) => rowText(schema, table, r))
    .sort()
    .join(' ')}]`;
}

export function modelAnswer(schema: Schema, op: DbOp, r: OpResult | undefined): string {
  if (r === undefined) return 'no result';
  if (r.error !== undefined) return r.error;
  if (r.conflict !== undefined && !(op.op === 'insert' && op.onConflict !== 'error')) return `unique ${r.conflict}`;
  switch (op.op) {
    case 'insert':
      return r.inserted ? 'inserted' : 'not inserted';
    case 'upsert':
      return r.written ? 'written' : 'not written';
    case 'update':
      return `updated ${r.updated ?? '?'}`;
    case 'delete':
      return `deleted ${r.deleted ?? '?'}`;
    case 'select':
    case 'tail':
      return rowsText(schema, op.table, (r.rows ?? []) as readonly Row[]);
  }
}

export function postgresAnswer(schema: Schema, op: DbOp, r: SqlResult): string {
  const n = r.rowCount ?? 0;
  switch (op.op) {
    case 'insert':
      return n === 1 ? 'inserted' : 'not inserted';
    case 'upsert':
      return n === 1 ? 'written' : 'not written';
    case 'update':
      return `updated ${n}`;
    case 'delete':
      return `deleted ${n}`;
    case 'select':
    case 'tail':
      return rowsText(schema, op.table, r.rows);
  }
}

export function postgresError(schema: Schema, e: SqlError): string {
  if (e.code === '23505') return `unique ${keyOfConstraint(schema, e.constraint ?? '') ?? e.constraint}`;
  if (e.code === '40P01') return 'deadlock';
  if (e.code === '25P02') return 'aborted';
  return `error ${e.code} ${e.message}`;
}

// Each DbOp as the SQL statement the model claims to implement, with its parameters:
// - insert, onConflict 'nothing' (or unset):  INSERT INTO t (...) VALUES (...) ON CONFLICT DO NOTHING
// - insert, onConflict 'error':               INSERT INTO t (...) VALUES (...)
// - upsert:                                   INSERT INTO t AS s (...) VALUES (...)
//                                              ON CONFLICT (pk) DO UPDATE SET c = EXCLUDED.c, ...
//                                              [WHERE s.version < EXCLUDED.version]  (onlyNewerVersion)
// - update:                                   UPDATE t SET c = $1, ... WHERE k = $2 ... [AND version = $n]  (ifVersion)
// - select:                                   SELECT * FROM t [WHERE ...]
// - delete:                                   DELETE FROM t [WHERE ...]
// A `where` value of null reads `c IS NULL`, which is what the model's equality means for a
// stored null. A surrogate id is never sent: PostgreSQL assigns its own.
import type { DbOp, Row, Value } from '../../../models/database.ts';
import type { Schema, Table } from './schema.ts';

export interface Statement {
  readonly text: string;
  readonly values: readonly Value[];
}

function tableOf(schema: Schema, name: string): Table {
  const t = schema.tables.find((x) => x.name === name);
  if (!t) throw new Error(`no table ${name} in the schema`);
  return t;
}

function whereClause(where: Row | undefined, values: Value[]): string {
  const terms: string[] = [];
  for (const [col, value] of Object.entries(where ?? {})) {
    if (value === null) terms.push(`${col} is null`);
    else {
      values.push(value);
      terms.push(`${col} = $${values.length}`);
    }
  }
  return terms.length === 0 ? '' : ` where ${terms.join(' and ')}`;
}

/** The columns a statement selects: every column but a surrogate id, which the comparison ignores. */
export function selectList(table: Table): string {
  return table.columns.map((c) => c.name).join(', ');
}

export function toSql(schema: Schema, op: DbOp): Statement {
  const table = tableOf(schema, op.table);
  const values: Value[] = [];
  switch (op.op) {
    case 'insert':
    case 'upsert': {
      const cols = Object.keys(op.row).filter((c) => !(table.autoId && c === 'id'));
      for (const c of cols) values.push(op.row[c] ?? null);
      const head = `insert into ${op.table}${op.op === 'upsert' ? ' as s' : ''} (${cols.join(', ')}) values (${cols.map((_, i) => `$${i + 1}`).join(', ')})`;
      if (op.op === 'insert') return { text: op.onConflict === 'error' ? head : `${head} on conflict do nothing`, values };
      const set = cols.filter((c) => !table.key.includes(c)).map((c) => `${c} = excluded.${c}`);
      const guard = op.onlyNewerVersion ? ' where s.version < excluded.version' : '';
      return { text: `${head} on conflict (${table.key.join(', ')}) do update set ${set.join(', ')}${guard}`, values };
    }
    case 'update': {
      const set = Object.entries(op.set).map(([c, v]) => {
        values.push(v);
        return `${c} = $${values.length}`;
      });
      const where = whereClause(op.where, values);
      let text = `update ${op.table} set ${set.join(', ')}${where}`;
      if (op.ifVersion !== undefined) {
        values.push(op.ifVersion);
        text += `${where === '' ? ' where' : ' and'} version = $${values.length}`;
      }
      return { text, values };
    }
    case 'select':
      if (op.lock !== undefined || op.limit !== undefined || op.headsOf !== undefined) throw new Error('an ordered claim reads rows in commit order, which no PostgreSQL column records: not compared');
      return { text: `select ${selectList(table)} from ${op.table}${whereClause(op.where, values)}`, values };
    case 'delete':
      if (op.olderThan !== undefined) throw new Error('a delete by age counts ticks: not compared');
      return { text: `delete from ${op.table}${whereClause(op.where, values)}`, values };
    case 'tail':
      throw new Error('tail reads the model’s commit log, which stands for logical decoding: not compared');
  }
}

/** A statement with its parameters written in, for a counterexample a person can paste into psql. */
export function inline(s: Statement): string {
  return s.text.replace(/\$(\d+)/g, (_, n: string) => {
    const v = s.values[Number(n) - 1];
    return typeof v === 'string' ? `'${v.replace(/'/g, "''")}'` : String(v);
  });
}

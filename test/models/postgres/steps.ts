// What the sessions of a differential sequence do, and the fast-check generators for it.
//
// A session is one database connection, named after its peer and a number (`a1`, `a2`, `b1`):
// the model keys an open transaction by peer and transaction name, and a peer may hold several
// at once, one per connection. A peer's crash (`sys.peerCrashed` in the model) drops all of its
// connections. Two generators:
// - serial: each transaction's statements are contiguous and sessions take turns only at
//   transaction boundaries (a session may still die between its statements). No statement can
//   wait for a lock, so these run on single-session PGlite in every normal run.
// - interleaved: any session may act at any step, so one transaction's statements fall between
//   another's and PostgreSQL's row locks make statements wait, deadlock, or see a row another
//   transaction changed meanwhile. These need a real multi-session server.
//
// What both leave out on purpose is listed, each with its reason, in EXCLUDED.
import fc from 'fast-check';
import type { DbOp, Row } from '../../../models/database.ts';
import type { Schema, Table } from './schema.ts';

export type Step =
  | { readonly kind: 'exec'; readonly session: string; readonly ops: readonly DbOp[] }
  | { readonly kind: 'commit'; readonly session: string }
  | { readonly kind: 'abort'; readonly session: string }
  | { readonly kind: 'run'; readonly session: string; readonly ops: readonly DbOp[] }
  | { readonly kind: 'crash'; readonly peer: string };

export const SESSIONS = ['a1', 'a2', 'b1', 'c1'] as const;

export const peerOf = (session: string): string => session.slice(0, 1);

/**
 * Generator branches the differential test leaves out, and why. Each shows up as a skipped test,
 * so the list is visible in every run rather than buried in a generator.
 */
export const EXCLUDED: readonly { readonly branch: string; readonly reason: string }[] = [
  {
    branch: 'isolation levels other than READ COMMITTED',
    reason:
      "the model implements READ COMMITTED, PostgreSQL's default, which is what the seeds' statements assume; under REPEATABLE READ or SERIALIZABLE the same sequences fail with serialization errors instead of re-reading a row, and the model has no such error",
  },
  {
    branch: 'the idle-in-transaction timeout',
    reason: "the model rolls back a transaction idle for idleTxTicks ticks; ticks are simulated time, so test/models/database.test.ts holds it instead",
  },
  {
    branch: 'ttlTicks (rows that expire)',
    reason:
      'the model drops a row past its horizon by itself, at the tick it is read; PostgreSQL keeps it until a cleanup job deletes it, and when that job runs is an operations choice, not SQL',
  },
  {
    branch: 'capacity (a table of bounded size evicts its oldest rows)',
    reason:
      'the model evicts at commit, oldest first, as a size-capped dedup store or cache does; PostgreSQL bounds no table, and a job that trims one runs when operations choose, which is not SQL',
  },
  {
    branch: 'history (every committed version kept)',
    reason: "the model's evidence log for checkers, not a SQL feature; PostgreSQL would need an audit trigger, which is not what callers rely on",
  },
  {
    branch: 'surrogate id values',
    reason:
      'the model names an autoId row after its transaction, PostgreSQL draws from a sequence; rows are compared without the id, and no statement names one (the serial generator does insert into autoId tables, whose unique key still conflicts)',
  },
  {
    branch: 'surrogate-id tables in interleaved sequences',
    reason: 'with no id to name, no update or delete can target one row of them; their unique key is exercised in serial sequences',
  },
  {
    branch: 'a duplicated statement (the same `stmt` twice)',
    reason: 'a network fault the model answers with the first result again; a real connection never delivers a statement twice',
  },
  {
    branch: 'an update that changes a primary-key column',
    reason: 'the model keys a stored row by its primary key and refuses such an update; no caller makes one',
  },
  {
    branch: 'multi-row update or delete in interleaved sequences',
    reason:
      'PostgreSQL locks the rows of such a statement in heap order, which it does not define; the model locks them in commit order. Serial sequences cover these statements',
  },
  {
    branch: 'two statements woken at once (interleaved)',
    reason:
      'when the transaction both wait for ends (or one crash ends the two they wait for) PostgreSQL wakes both and which runs first is up to the operating system; the model wakes them in arrival order. A step that would make a second waiter on one transaction, or such a crash, is skipped',
  },
  {
    branch: 'a statement sent while the same session waits for a lock',
    reason: 'a client blocked on one statement sends nothing else on that connection; only its abort (a cancel, then ROLLBACK) or its crash is generated',
  },
  {
    branch: 'SELECT ... FOR UPDATE SKIP LOCKED',
    reason: 'the model has no locking read; its relay is a single instance that reads committed rows with a plain SELECT',
  },
];

const pick = <T>(xs: readonly T[]): fc.Arbitrary<T> => fc.constantFrom(...xs);

/**
 * A row to insert or upsert. A nullable column may be left out: PostgreSQL stores NULL for it on
 * insert and keeps its value on an upsert's update, which only sets the columns it names.
 */
function rowArbitrary(table: Table): fc.Arbitrary<Row> {
  const fields: Record<string, fc.Arbitrary<Row[string]>> = {};
  for (const c of table.columns) fields[c.name] = pick(c.domain);
  const optional = table.columns.filter((c) => c.nullable && !table.key.includes(c.name)).map((c) => c.name);
  return fc.record(fields, { requiredKeys: table.columns.map((c) => c.name).filter((n) => !optional.includes(n)) }) as fc.Arbitrary<Row>;
}

function keyArbitrary(table: Table): fc.Arbitrary<Row> {
  const fields: Record<string, fc.Arbitrary<Row[string]>> = {};
  for (const c of table.columns) if (table.key.includes(c.name)) fields[c.name] = pick(c.domain);
  return fc.record(fields) as fc.Arbitrary<Row>;
}

/** A where clause on one non-key column: it may match several rows. */
function columnWhereArbitrary(table: Table): fc.Arbitrary<Row> {
  const cols = table.columns.filter((c) => !table.key.includes(c.name));
  return pick(cols).chain((c) => pick(c.domain).map((v) => ({ [c.name]: v })));
}

function setArbitrary(table: Table): fc.Arbitrary<Row> {
  const cols = table.columns.filter((c) => !table.key.includes(c.name));
  return fc.subarray(cols, { minLength: 1 }).chain((chosen) => {
    const fields: Record<string, fc.Arbitrary<Row[string]>> = {};
    for (const c of chosen) fields[c.name] = pick(c.domain);
    return fc.record(fields) as fc.Arbitrary<Row>;
  });
}

export interface OpOptions {
  /** Updates and deletes may name a non-key column or nothing at all (several rows). */
  readonly multiRow: boolean;
}

export function opArbitrary(table: Table, options: OpOptions): fc.Arbitrary<DbOp> {
  const name = table.name;
  const versions = table.columns.find((c) => c.name === 'version')?.domain as readonly number[] | undefined;
  const ops: fc.Arbitrary<DbOp>[] = [
    fc.record({ row: rowArbitrary(table), onConflict: pick(['nothing', 'error', undefined] as const) }).map(({ row, onConflict }) => ({
      op: 'insert' as const,
      table: name,
      row,
      ...(onConflict === undefined ? {} : { onConflict }),
    })),
    fc.oneof(fc.constant(undefined), keyArbitrary(table), columnWhereArbitrary(table)).map((where) => ({ op: 'select' as const, table: name, ...(where ? { where } : {}) })),
  ];
  if (!table.autoId) {
    ops.push(
      fc.record({ row: rowArbitrary(table), onlyNewerVersion: table.versioned ? fc.boolean() : fc.constant(false) }).map(({ row, onlyNewerVersion }) => ({
        op: 'upsert' as const,
        table: name,
        row,
        ...(onlyNewerVersion ? { onlyNewerVersion } : {}),
      })),
      fc
        .record({
          where: options.multiRow ? fc.oneof({ weight: 3, arbitrary: keyArbitrary(table) }, { weight: 1, arbitrary: columnWhereArbitrary(table) }) : keyArbitrary(table),
          set: setArbitrary(table),
          ifVersion: versions ? fc.option(pick(versions), { nil: undefined }) : fc.constant(undefined),
        })
        .map(({ where, set, ifVersion }) => ({ op: 'update' as const, table: name, where, set, ...(ifVersion === undefined ? {} : { ifVersion }) })),
    );
  }
  const deleteWhere: fc.Arbitrary<Row | undefined> = table.autoId
    ? fc.oneof(fc.constant(undefined), columnWhereArbitrary(table))
    : options.multiRow
      ? fc.oneof({ weight: 3, arbitrary: keyArbitrary(table) }, { weight: 1, arbitrary: columnWhereArbitrary(table) }, { weight: 1, arbitrary: fc.constant(undefined) })
      : keyArbitrary(table);
  ops.push(deleteWhere.map((where) => ({ op: 'delete' as const, table: name, ...(where ? { where } : {}) })));
  return fc.oneof(...ops);
}

function opsArbitrary(schema: Schema, options: OpOptions, maxLength: number): fc.Arbitrary<DbOp[]> {
  const one = fc.oneof(...schema.tables.map((t) => opArbitrary(t, options)));
  return fc.array(one, { minLength: 1, maxLength });
}

/** Serial sequences: whole transactions, autocommitted batches and crashes, one after another. */
export function serialSteps(schema: Schema): fc.Arbitrary<Step[]> {
  const options = { multiRow: true };
  const session = pick(SESSIONS);
  const tx = fc
    .record({ session, execs: fc.array(opsArbitrary(schema, options, 2), { minLength: 1, maxLength: 4 }), end: pick(['commit', 'commit', 'abort', 'crash'] as const) })
    .map(({ session, execs, end }): Step[] => [
      ...execs.map((ops) => ({ kind: 'exec' as const, session, ops })),
      end === 'crash' ? { kind: 'crash' as const, peer: peerOf(session) } : { kind: end, session },
    ]);
  const run = fc.record({ session, ops: opsArbitrary(schema, options, 3) }).map(({ session, ops }): Step[] => [{ kind: 'run', session, ops }]);
  return fc.array(fc.oneof({ weight: 3, arbitrary: tx }, { weight: 2, arbitrary: run }), { minLength: 1, maxLength: 8 }).map((blocks) => blocks.flat());
}

/** Interleaved sequences: any session at any step; the runner skips steps that do not apply. */
export function interleavedSteps(schema: Schema): fc.Arbitrary<Step[]> {
  const options = { multiRow: false };
  const session = pick(SESSIONS);
  const step: fc.Arbitrary<Step> = fc.oneof(
    { weight: 6, arbitrary: fc.record({ session, ops: opsArbitrary(schema, options, 2) }).map(({ session, ops }) => ({ kind: 'exec' as const, session, ops })) },
    { weight: 2, arbitrary: session.map((s) => ({ kind: 'commit' as const, session: s })) },
    { weight: 1, arbitrary: session.map((s) => ({ kind: 'abort' as const, session: s })) },
    { weight: 1, arbitrary: fc.record({ session, ops: opsArbitrary(schema, options, 2) }).map(({ session, ops }) => ({ kind: 'run' as const, session, ops })) },
    { weight: 1, arbitrary: pick(['a', 'b', 'c']).map((peer) => ({ kind: 'crash' as const, peer })) },
  );
  return fc.array(step, { minLength: 2, maxLength: 24 });
}

// The minimal sequences of the mismatches the differential test found between the database model
// and PostgreSQL, each named after what the model did wrong, with the answers PostgreSQL gives
// (which the model now gives too). Serial cases run on PGlite, interleaved ones on a server. The
// first thirteen are mismatches of the model as it was before it had row locks; the next two, of
// its first version with them; the last two pin down PostgreSQL behaviour its locking relies on.
import type { DbOp, Row } from '../../../models/database.ts';
import { makeTable, type Schema } from './schema.ts';
import type { Mode } from './conformance.ts';
import type { Step } from './steps.ts';

export interface Regression {
  readonly name: string;
  readonly mode: Mode;
  readonly schema: Schema;
  readonly steps: readonly Step[];
  /**
   * The answers, step by step: each reply, and every session still waiting after the step (`b1
   * waits for a1`, repeated while it waits); then each table's final rows.
   */
  readonly answers: readonly string[];
}

const plain = { tables: [makeTable(0, 'one', 'none', false)] };
const unique = { tables: [makeTable(0, 'one', 'one', false)] };
const versioned = { tables: [makeTable(0, 'one', 'none', true)] };
const T = (s: Schema) => s.tables[0]!.name;

const row = (k1: number, rest: Row = {}): Row => ({ k1, v: 'x', b: false, ...rest });
const insert = (s: Schema, r: Row, onConflict?: 'nothing' | 'error'): DbOp => ({ op: 'insert', table: T(s), row: r, ...(onConflict ? { onConflict } : {}) });
const exec = (session: string, ...ops: DbOp[]): Step => ({ kind: 'exec', session, ops });
const run = (session: string, ...ops: DbOp[]): Step => ({ kind: 'run', session, ops });
const commit = (session: string): Step => ({ kind: 'commit', session });

export const REGRESSIONS: readonly Regression[] = [
  {
    name: 'a statement after a failed one in its transaction still ran (PostgreSQL answers that the transaction is aborted)',
    mode: 'serial',
    schema: plain,
    steps: [run('a1', insert(plain, row(0))), exec('a1', insert(plain, row(0), 'error'), insert(plain, row(1))), commit('a1')],
    answers: ['a1 ran ok: inserted', 'a1 result: unique (k1); aborted', 'a1 commit: failed', 'final t0_k: rows [{b:false,k1:0,v:"x"}]'],
  },
  {
    name: 'NULLs in a unique key conflicted (in SQL they are distinct)',
    mode: 'serial',
    schema: unique,
    steps: [run('a1', insert(unique, row(0, { u: null })), insert(unique, row(1, { u: null })))],
    answers: ['a1 ran ok: inserted; inserted', 'final t0_ku: rows [{b:false,k1:0,u:null,v:"x"} {b:false,k1:1,u:null,v:"x"}]'],
  },
  {
    name: 'an upsert ignored a further unique key and stored a duplicate',
    mode: 'serial',
    schema: unique,
    steps: [run('a1', insert(unique, row(0, { u: 0 }))), run('a1', { op: 'upsert', table: T(unique), row: row(1, { u: 0 }) })],
    answers: ['a1 ran ok: inserted', 'a1 ran failed: unique (u)', 'final t0_ku: rows [{b:false,k1:0,u:0,v:"x"}]'],
  },
  {
    name: 'an update ignored a further unique key and stored a duplicate',
    mode: 'serial',
    schema: unique,
    steps: [run('a1', insert(unique, row(0, { u: 0 })), insert(unique, row(1, { u: 1 }))), run('a1', { op: 'update', table: T(unique), where: { k1: 1 }, set: { u: 0 } })],
    answers: ['a1 ran ok: inserted; inserted', 'a1 ran failed: unique (u)', 'final t0_ku: rows [{b:false,k1:0,u:0,v:"x"} {b:false,k1:1,u:1,v:"x"}]'],
  },
  {
    name: 'a transaction that deleted a key and inserted it again could not commit',
    mode: 'serial',
    schema: plain,
    steps: [run('a1', insert(plain, row(0))), exec('a1', { op: 'delete', table: T(plain), where: { k1: 0 } }, insert(plain, row(0, { v: 'y' }))), commit('a1')],
    answers: ['a1 ran ok: inserted', 'a1 result: deleted 1; inserted', 'a1 commit: ok', 'final t0_k: rows [{b:false,k1:0,v:"y"}]'],
  },
  {
    name: "an upsert's update dropped the columns it did not name (SQL keeps them)",
    mode: 'serial',
    schema: plain,
    steps: [run('a1', insert(plain, row(0))), run('a1', { op: 'upsert', table: T(plain), row: { k1: 0, b: true } })],
    answers: ['a1 ran ok: inserted', 'a1 ran ok: written', 'final t0_k: rows [{b:true,k1:0,v:"x"}]'],
  },
  {
    name: 'a where on NULL missed a column the insert left out (PostgreSQL stored NULL there)',
    mode: 'serial',
    schema: plain,
    steps: [run('a1', insert(plain, { k1: 0, b: false }), { op: 'select', table: T(plain), where: { v: null } })],
    answers: ['a1 ran ok: inserted; rows [{b:false,k1:0,v:null}]', 'final t0_k: rows [{b:false,k1:0,v:null}]'],
  },
  {
    name: 'a second insert of a key another open transaction inserted answered at once and failed at commit (PostgreSQL makes it wait)',
    mode: 'interleaved',
    schema: plain,
    steps: [exec('a1', insert(plain, row(0))), exec('b1', insert(plain, row(0, { v: 'y' }), 'nothing')), commit('a1'), commit('b1')],
    answers: ['a1 result: inserted', 'b1 waits for a1', 'a1 commit: ok', 'b1 result: not inserted', 'b1 commit: ok', 'final t0_k: rows [{b:false,k1:0,v:"x"}]'],
  },
  {
    name: 'a conditional update of a row another open transaction had updated overwrote it (a lost update)',
    mode: 'interleaved',
    schema: versioned,
    steps: [
      run('a1', insert(versioned, row(0, { version: 1 }))),
      exec('a1', { op: 'update', table: T(versioned), where: { k1: 0 }, set: { version: 2, v: 'a' }, ifVersion: 1 }),
      exec('b1', { op: 'update', table: T(versioned), where: { k1: 0 }, set: { version: 2, v: 'b' }, ifVersion: 1 }),
      commit('a1'),
      commit('b1'),
    ],
    answers: ['a1 ran ok: inserted', 'a1 result: updated 1', 'b1 waits for a1', 'a1 commit: ok', 'b1 result: updated 0', 'b1 commit: ok', 'final t0_kv: rows [{b:false,k1:0,v:"a",version:2}]'],
  },
  {
    name: 'an upsert of newer versions only let an older version overwrite a newer one committed meanwhile',
    mode: 'interleaved',
    schema: versioned,
    steps: [
      exec('a1', { op: 'upsert', table: T(versioned), row: row(0, { version: 3 }) }),
      exec('b1', { op: 'upsert', table: T(versioned), row: row(0, { version: 2 }), onlyNewerVersion: true }),
      commit('a1'),
      commit('b1'),
    ],
    answers: ['a1 result: written', 'b1 waits for a1', 'a1 commit: ok', 'b1 result: not written', 'b1 commit: ok', 'final t0_kv: rows [{b:false,k1:0,v:"x",version:3}]'],
  },
  {
    name: 'an insert of a key another open transaction had deleted conflicted at once (PostgreSQL waits, then inserts)',
    mode: 'interleaved',
    schema: plain,
    steps: [run('a1', insert(plain, row(0))), exec('a1', { op: 'delete', table: T(plain), where: { k1: 0 } }), exec('b1', insert(plain, row(0, { v: 'y' }), 'error')), commit('a1'), commit('b1')],
    answers: ['a1 ran ok: inserted', 'a1 result: deleted 1', 'b1 waits for a1', 'a1 commit: ok', 'b1 result: inserted', 'b1 commit: ok', 'final t0_k: rows [{b:false,k1:0,v:"y"}]'],
  },
  {
    name: 'two transactions writing two rows in opposite orders both went on (PostgreSQL fails one as a deadlock)',
    mode: 'interleaved',
    schema: plain,
    steps: [
      exec('a1', insert(plain, row(0))),
      exec('b1', insert(plain, row(1))),
      exec('a1', { op: 'upsert', table: T(plain), row: row(1, { v: 'a' }) }),
      exec('b1', { op: 'upsert', table: T(plain), row: row(0, { v: 'b' }) }),
      commit('a1'),
      commit('b1'),
    ],
    answers: [
      'a1 result: inserted',
      'b1 result: inserted',
      'a1 waits for b1',
      'a1 result: written',
      'b1 result: deadlock',
      'a1 commit: ok',
      'b1 commit: failed',
      'final t0_k: rows [{b:false,k1:0,v:"x"} {b:false,k1:1,v:"a"}]',
    ],
  },
  {
    name: 'an upsert that kept the stored row did not lock it',
    mode: 'interleaved',
    schema: versioned,
    steps: [
      run('a1', insert(versioned, row(0, { version: 3 }))),
      exec('a1', { op: 'upsert', table: T(versioned), row: row(0, { version: 2 }), onlyNewerVersion: true }),
      exec('b1', { op: 'delete', table: T(versioned), where: { k1: 0 } }),
      commit('a1'),
      commit('b1'),
    ],
    answers: ['a1 ran ok: inserted', 'a1 result: not written', 'b1 waits for a1', 'a1 commit: ok', 'b1 result: deleted 1', 'b1 commit: ok', 'final t0_kv: rows []'],
  },
  {
    name: 'an insert … on conflict do nothing that had waited on a unique key checked every key again (PostgreSQL re-checks only the one it waited on)',
    mode: 'interleaved',
    schema: unique,
    steps: [
      exec('c1', insert(unique, row(0, { u: 0 }), 'nothing')),
      exec('a1', insert(unique, row(2, { u: 0 }), 'nothing')),
      exec('b1', insert(unique, row(2, { u: null }), 'nothing')),
      commit('c1'),
      commit('a1'),
      commit('b1'),
    ],
    answers: [
      'c1 result: inserted',
      'a1 waits for c1',
      'a1 waits for c1',
      'b1 result: inserted',
      'a1 result: not inserted',
      'c1 commit: ok',
      'a1 commit: ok',
      'b1 commit: ok',
      'final t0_ku: rows [{b:false,k1:0,u:0,v:"x"} {b:false,k1:2,u:null,v:"x"}]',
    ],
  },
  {
    name: "a plain insert waiting for its primary key was taken for the holder of the committed row with that key (a false deadlock)",
    mode: 'interleaved',
    schema: versioned,
    steps: [
      run('a1', insert(versioned, row(0, { version: 1 }), 'nothing')),
      exec('a1', { op: 'upsert', table: T(versioned), row: row(0, { version: 1 }) }),
      exec('a2', insert(versioned, row(0, { version: 1 }), 'error')),
      exec('a1', insert(versioned, row(0, { version: 1 }), 'nothing')),
      commit('a1'),
    ],
    answers: [
      'a1 ran ok: inserted',
      'a1 result: written',
      'a2 waits for a1',
      'a1 result: not inserted',
      'a2 waits for a1',
      'a1 commit: ok',
      'a2 result: unique (k1)',
      'final t0_kv: rows [{b:false,k1:0,v:"x",version:1}]',
    ],
  },
  {
    name: 'a failed statement releases its transaction’s locks at once, before the rollback',
    mode: 'interleaved',
    schema: plain,
    steps: [run('a1', insert(plain, row(2))), exec('a1', insert(plain, row(0))), exec('b1', insert(plain, row(0, { v: 'y' }), 'nothing')), exec('a1', insert(plain, row(2), 'error')), commit('b1'), commit('a1')],
    answers: ['a1 ran ok: inserted', 'a1 result: inserted', 'b1 waits for a1', 'a1 result: unique (k1)', 'b1 result: inserted', 'b1 commit: ok', 'a1 commit: failed', 'final t0_k: rows [{b:false,k1:0,v:"y"} {b:false,k1:2,v:"x"}]'],
  },
  {
    name: 'a plain insert waiting on its unique key already holds its primary key',
    mode: 'interleaved',
    schema: unique,
    steps: [
      exec('a1', insert(unique, row(0, { u: 0 }))),
      exec('b1', insert(unique, row(1, { u: 0 }), 'error')),
      exec('c1', insert(unique, row(1, { u: 1 }), 'nothing')),
      commit('a1'),
      commit('c1'),
    ],
    answers: [
      'a1 result: inserted',
      'b1 waits for a1',
      'b1 waits for a1',
      'c1 waits for b1',
      'a1 commit: ok',
      'b1 result: unique (u)',
      'c1 result: inserted',
      'c1 commit: ok',
      'final t0_ku: rows [{b:false,k1:0,u:0,v:"x"} {b:false,k1:1,u:1,v:"x"}]',
    ],
  },
];

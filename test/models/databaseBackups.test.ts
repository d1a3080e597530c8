// A database's periodic backups, kept in its durable state, and the restore to the newest one at
// least an age old: the state the restore gives must be the committed state at that scheduled
// backup, whichever commits came before and after it, and a second restore must still find the
// state the first one replaced.
import { describe, expect, it } from 'vitest';
import { databaseMachine, rowsOf, type DatabaseDurable, type DatabaseInput } from '../../models/database.ts';
import { backedUp, restoredFromBackup, type BackupSchedule, type WithBackups } from '../../models/databaseBackups.ts';
import { broker } from '../../models/broker.ts';
import { database, restoreAgedBackup } from '../../models/designs/databaseComponent.ts';
import { design } from '../../src/scenario/design.ts';
import { TimeScale } from '../../src/base/duration.ts';
import type { DesignComponent } from '../../src/scenario/scenario.ts';
import { MachineDriver } from './machineDriver.ts';

type State = WithBackups<string, string>;
const EMPTY = { tables: '', nextSeq: 1, history: '' };

/** Commits at each tick, each adding its letter to the state (`tables` is the letters so far). */
function committed(schedule: BackupSchedule, commits: readonly (readonly [number, string])[]): State {
  let d: State = EMPTY;
  for (const [at, letter] of commits) {
    const base = backedUp(d, schedule, at);
    d = { ...base, tables: base.tables + letter, nextSeq: base.nextSeq + 1 };
  }
  return d;
}

const restored = (d: State, schedule: BackupSchedule, now: number) => restoredFromBackup(d, schedule, now, EMPTY).tables;

describe('a restore to an aged backup', () => {
  // Backups every 10 ticks; commits at 3 (a), 12 (b), 14 (c) and 31 (d).
  const commits = [[3, 'a'], [12, 'b'], [14, 'c'], [31, 'd']] as const;

  it('gives the committed state at the newest scheduled backup at least the age old', () => {
    const at = (now: number, age: number) => restored(committed({ everyTicks: 10, ageTicks: age }, commits), { everyTicks: 10, ageTicks: age }, now);
    expect(at(35, 10)).toBe('abc'); // the backup at 20
    expect(at(35, 22)).toBe('a'); // the backup at 10
    expect(at(35, 30)).toBe(''); // the backup at 0, before the workload
    expect(at(35, 40)).toBe(''); // none that old: the one before the workload
    expect(at(60, 10)).toBe('abcd'); // the backup at 50: nothing committed since 31
    expect(at(31, 0)).toBe('abc'); // the backup at 30, taken before the commit at 31
  });

  it('keeps only the backups a restore can still reach', () => {
    const d = committed({ everyTicks: 10, ageTicks: 10 }, commits);
    // At the last commit (31) the newest backup at least 10 ticks old is the one at 20; those before it are gone.
    expect(d.backups?.map((b) => b.at)).toEqual([20]);
    expect(committed({ everyTicks: 10, ageTicks: 40 }, commits).backups?.map((b) => b.at)).toEqual([0, 10, 20]);
  });

  it('keeps the backups through a restore, the state it replaced among them, for a second restore to find', () => {
    const s: BackupSchedule = { everyTicks: 10, ageTicks: 30 };
    const first = restoredFromBackup(committed(s, commits), s, 45, EMPTY);
    expect(first.tables).toBe('a');
    // At 40 the database still held a, b, c and d: the restore at 45 recorded that before replacing it.
    expect(restored(first, { everyTicks: 10, ageTicks: 10 }, 50)).toBe('abcd');
    expect(restored(first, { everyTicks: 10, ageTicks: 0 }, 50)).toBe('a');
  });
});

describe('the database machine with a backup schedule', () => {
  const tables = { rows: { key: ['id'] } };
  const insert = (id: string) => ({ type: 'db.run', ref: id, ops: [{ op: 'insert', table: 'rows', row: { id } }] });

  it('records its backups as it commits, and is restored through its design to the one the age picks', () => {
    const d = new MachineDriver(databaseMachine, { tables, backups: { everyTicks: 10, ageTicks: 10 } } satisfies DatabaseInput);
    for (const [at, id] of [[3, 'a'], [12, 'b'], [31, 'c']] as const) {
      d.advance(at - d.now);
      d.receive(insert(id), 'client');
    }
    const durable = d.context['durable'] as DatabaseDurable;
    expect(rowsOf(durable, 'rows').map((r) => r['id'])).toEqual(['a', 'b', 'c']);
    expect(durable.lastCommitAt).toBe(31);
    const restore = restoreAgedBackup(tables, { everyTicks: 10, ageTicks: 10 });
    const ids = (now: number) => rowsOf(restore(durable, now), 'rows').map((r) => r['id']);
    // The backups at 20 and 30 (c came at 31), and at 40, after the last commit.
    expect([ids(35), ids(45), ids(50)]).toEqual([['a', 'b'], ['a', 'b'], ['a', 'b', 'c']]);
  });

  it('keeps no backups without a schedule', () => {
    const d = new MachineDriver(databaseMachine, { tables } satisfies DatabaseInput);
    d.advance(12);
    d.receive(insert('a'), 'client');
    expect(Object.keys(d.context['durable'] as object).sort()).toEqual(['history', 'nextSeq', 'tables']);
  });
});

describe('database options: backups and restoreWith', () => {
  const time = new TimeScale('1s');
  const tables = { rows: { key: ['id'] } };

  it('a database with backups is restorable to the aged one, and names the components restored with it', () => {
    const db = database({ name: 'db', tables, backups: { every: '10s', restoreAge: '20s' }, restoreWith: ['broker'] })({ size: 1, time }) as DesignComponent;
    expect(db.input).toMatchObject({ backups: { everyTicks: 10, ageTicks: 20 } });
    expect(db.restore).toBeTypeOf('function');
    expect(db.restoresWith).toEqual(['broker']);
    expect(() => database({ name: 'db', tables, restoreWith: ['broker'] })({ size: 1, time })).toThrow('db option restoreWith needs the database restorable (restorable: true, or backups)');
  });

  it('the drawing refuses a component restored with one the design lacks, or one with no snapshot', () => {
    const db = database({ name: 'db', tables, restorable: true, restoreWith: ['brokr'] });
    expect(() => design(db, broker({ restorable: true }))({ size: 1 }, time)).toThrow(/db is restored with brokr, which the design does not have \(did you mean broker\?\)/);
    const fixed = database({ name: 'db', tables, restorable: true, restoreWith: ['broker'] });
    expect(() => design(fixed, broker({}))({ size: 1 }, time)).toThrow('db is restored with broker, which has no snapshot to restore (make it restorable)');
    expect(design(fixed, broker({ restorable: true }))({ size: 1 }, time).map((c) => c.name)).toEqual(['db', 'broker']);
  });
});

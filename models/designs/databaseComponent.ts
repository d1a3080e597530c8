// A database as a design composes it: the database machine with its tables, its evidence
// describer, and the faults its links can suffer. A database link is a client connection: it can
// drop (a statement or a reply is lost, and the caller cannot tell what happened) or be slow,
// but it never delivers a statement twice or out of order, so `duplicate` and `reorder` never
// strike it. A driver that retries a statement does so in the caller's own model, where it shows.
// Where the design makes it restorable, a `restore` fault sets it back to the backup taken before
// the workload, or, with periodic `backups`, to the newest one at least an age old
// (models/databaseBackups.ts); `restoreWith` names the components the same fault sets back with
// it (the broker holding its consumer's offsets), so the data and its input position go together.
import { common, componentFields, ticksOf, type ComponentBuilder } from '../../src/scenario/design.ts';
import type { MessageFaultKind } from '../../src/faults/faults.ts';
import type { TimeScale } from '../../src/base/duration.ts';
import { InputError } from '../../src/base/inputError.ts';
import { duration, parseOptions, z } from '../../src/scenario/options.ts';
import type { DesignComponent } from '../../src/scenario/scenario.ts';
import { databaseEvidence, databaseMachine, databaseReleases, databaseSessions, emptyDatabase, type DatabaseDurable, type RowFormats, type TableSpec } from '../database.ts';
import { restoredFromBackup, type BackupSchedule } from '../databaseBackups.ts';

/** The message faults a database connection can suffer. */
export const DATABASE_LINK_FAULTS: readonly MessageFaultKind[] = ['lose', 'delay'];

const TableOptions = z.strictObject({
  /** Primary-key columns. */
  key: z.array(z.string()).min(1),
  /** Further unique keys. */
  unique: z.array(z.array(z.string()).min(1)).optional(),
  /**
   * Rows older than this are gone (a dedup record past its horizon). A statement that takes the
   * key of a row past it (an inbox insert of a redelivered event) says so in its result
   * (`lapsed`), and the trace and the counterexample diagrams show it as a note on the database.
   */
  ttl: duration.optional(),
  /**
   * At most this many rows: a commit that would leave more evicts the oldest (by first commit)
   * until the table holds this many, as a dedup store of bounded size or a cache that drops its
   * oldest key does. The trace and the counterexample diagrams note each evicted row on the
   * database, since a store says nothing of a key it dropped. Rows past their ttl take no room.
   */
  capacity: z.number().int().min(1).optional(),
  /** The database assigns the single key column, so nothing stops a repeat. */
  autoId: z.boolean().optional(),
  /** Keep every committed version of every row. */
  history: z.boolean().optional(),
});

/**
 * A database's periodic backups and the one a restore picks: a backup every `every`, the first
 * before the workload, and a `restore` fault sets the database back to the newest one at least
 * `restoreAge` old (the one before the workload when none is that old).
 */
export const BackupOptions = z.strictObject({ every: duration, restoreAge: duration });

/** A database's options as a design draws it. */
export const DatabaseOptions = z.strictObject({
  ...componentFields,
  name: z.string().regex(/^[A-Za-z][A-Za-z0-9_]*$/),
  tables: z.record(z.string(), TableOptions),
  /** How each table's rows read in evidence. */
  rows: z.custom<RowFormats>((v) => typeof v === 'object' && v !== null).optional(),
  /** Whether the server itself crashes and restarts, at afterStatement and afterCommit (no). */
  crashes: z.boolean().optional(),
  /**
   * Whether a `restore` fault can set it back to its backup (no): the backup is the one taken
   * before the workload began, so a restore empties every table and restarts the server from it.
   */
  restorable: z.boolean().optional(),
  /** Periodic backups, and a restore to the newest at least an age old instead of the one before the workload (none); makes it restorable. */
  backups: BackupOptions.optional(),
  /**
   * Components restored with it by the same `restore` fault, each to its own snapshot (none): the
   * broker holding its consumer's committed offsets, so the data and the input position it
   * matches go back together. Each must be restorable itself.
   */
  restoreWith: z.array(z.string()).min(1).optional(),
});

/** A database server with the given tables. */
export function database(options: z.input<typeof DatabaseOptions>): ComponentBuilder {
  const o = parseOptions('database', DatabaseOptions, options);
  return ({ time }) => {
    const tables: Record<string, TableSpec> = {};
    for (const [table, t] of Object.entries(o.tables)) {
      const ttlTicks = ticksOf(time, `${o.name} table ${table} option ttl`, t.ttl);
      tables[table] = {
        key: t.key,
        ...(t.unique ? { unique: t.unique } : {}),
        ...(ttlTicks === undefined ? {} : { ttlTicks }),
        ...(t.capacity === undefined ? {} : { capacity: t.capacity }),
        ...(t.autoId ? { autoId: true } : {}),
        ...(t.history ? { history: true } : {}),
      };
    }
    if (o.restorable === false && (o.backups !== undefined || o.restoreWith !== undefined)) throw new InputError(`${o.name} is not restorable, so it takes neither backups nor restoreWith`);
    if (o.restoreWith !== undefined && o.restorable === undefined && o.backups === undefined) throw new InputError(`${o.name} option restoreWith needs the database restorable (restorable: true, or backups)`);
    const backups = o.backups === undefined ? undefined : backupScheduleOf(time, o.name, o.backups);
    const restore = backups !== undefined ? { restore: restoreAgedBackup(tables, backups) } : o.restorable ? { restore: restoreBackup(tables) } : {};
    const extra = { ...common(time, o.name, o), ...(o.crashes ? { crashes: true } : {}), ...restore, ...(o.restoreWith === undefined ? {} : { restoresWith: o.restoreWith }) };
    return databaseComponent(o.name, tables, o.rows ?? {}, extra, backups);
  };
}

/** A backup schedule in ticks. */
export function backupScheduleOf(time: TimeScale, name: string, o: z.output<typeof BackupOptions>): BackupSchedule {
  return { everyTicks: time.ticks(`${name} option backups.every`, o.every, 1), ageTicks: time.ticks(`${name} option backups.restoreAge`, o.restoreAge, 0) };
}

/** A database's restore to the newest of its periodic backups at least the schedule's age old at the moment of the restore. */
export function restoreAgedBackup(tables: Readonly<Record<string, TableSpec>>, schedule: BackupSchedule): (durable: unknown, now: number) => DatabaseDurable {
  const empty = emptyDatabase(tables);
  return (durable, now) => restoredFromBackup(durable as DatabaseDurable, schedule, now, empty);
}

/**
 * A database's restore from the backup taken before the workload: every table as it was then
 * (empty), and its sequence back where it started, as a restored server's sequence is.
 */
export function restoreBackup(tables: Readonly<Record<string, TableSpec>>): (durable: unknown) => DatabaseDurable {
  const backup = emptyDatabase(tables);
  return () => backup;
}

/** A database component from tables already in ticks; with a backup schedule, it keeps its backups. */
export function databaseComponent(name: string, tables: Readonly<Record<string, TableSpec>>, rows: RowFormats = {}, extra: Partial<DesignComponent> = {}, backups?: BackupSchedule): DesignComponent {
  return { name, machine: databaseMachine, input: backups === undefined ? { tables } : { tables, backups }, process: false, answersOnly: true, tables: Object.keys(tables), describe: databaseEvidence(tables, rows), messageFaults: DATABASE_LINK_FAULTS, sessionsOf: databaseSessions, progressOf: databaseReleases, ...extra };
}

// A database as a design composes it: the database machine with its tables, its evidence
// describer, and the faults its links can suffer. A database link is a client connection: it can
// drop (a statement or a reply is lost, and the caller cannot tell what happened) or be slow,
// but it never delivers a statement twice or out of order, so `duplicate` and `reorder` never
// strike it. A driver that retries a statement does so in the caller's own model, where it shows.
import { common, componentFields, ticksOf, type ComponentBuilder } from '../../src/design.ts';
import type { MessageFaultKind } from '../../src/faults.ts';
import { duration, parseOptions, z } from '../../src/options.ts';
import type { DesignComponent } from '../../src/scenario.ts';
import { databaseEvidence, databaseMachine, databaseSessions, emptyDatabase, type DatabaseDurable, type RowFormats, type TableSpec } from '../database.ts';

/** The message faults a database connection can suffer. */
export const DATABASE_LINK_FAULTS: readonly MessageFaultKind[] = ['lose', 'delay'];

const TableOptions = z.strictObject({
  /** Primary-key columns. */
  key: z.array(z.string()).min(1),
  /** Further unique keys. */
  unique: z.array(z.array(z.string()).min(1)).optional(),
  /** Rows older than this are gone (a dedup record past its horizon). */
  ttl: duration.optional(),
  /** The database assigns the single key column, so nothing stops a repeat. */
  autoId: z.boolean().optional(),
  /** Keep every committed version of every row. */
  history: z.boolean().optional(),
});

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
        ...(t.autoId ? { autoId: true } : {}),
        ...(t.history ? { history: true } : {}),
      };
    }
    return databaseComponent(o.name, tables, o.rows ?? {}, { ...common(time, o.name, o), ...(o.crashes ? { crashes: true } : {}), ...(o.restorable ? { restore: restoreBackup(tables) } : {}) });
  };
}

/**
 * A database's restore from the backup taken before the workload: every table as it was then
 * (empty), and its sequence back where it started, as a restored server's sequence is.
 */
export function restoreBackup(tables: Readonly<Record<string, TableSpec>>): (durable: unknown) => DatabaseDurable {
  const backup = emptyDatabase(tables);
  return () => backup;
}

/** A database component from tables already in ticks. */
export function databaseComponent(name: string, tables: Readonly<Record<string, TableSpec>>, rows: RowFormats = {}, extra: Partial<DesignComponent> = {}): DesignComponent {
  return { name, machine: databaseMachine, input: { tables }, process: false, answersOnly: true, tables: Object.keys(tables), describe: databaseEvidence(tables, rows), messageFaults: DATABASE_LINK_FAULTS, sessionsOf: databaseSessions, ...extra };
}

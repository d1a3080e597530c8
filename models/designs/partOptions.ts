// A preset's option for one of its parts: the part's own options, every one optional, less those
// the preset wires itself (which database, which broker, which effect, the names its claims
// read). A preset made of parts thereby takes every option of each, and an option a part gains
// reaches every preset made of it. The option is documented by reference to the part.
import { InputError } from '../../src/base/inputError.ts';
import { didYouMean } from '../../src/base/nearest.ts';
import { given } from '../../src/scenario/design.ts';
import { z } from '../../src/scenario/options.ts';
import { DatabaseOptions } from './databaseComponent.ts';

type Shape = Readonly<Record<string, z.Schema<unknown, unknown>>>;

/** A part's options as a preset takes them: optional, all optional, without the `wired` ones. */
export function partOptions<S extends Shape, M extends { readonly [K in keyof S]?: true }>(part: string, schema: z.ObjectSchema<S>, wired: M) {
  const set = Object.keys(wired);
  return schema
    .omit(wired)
    .partial()
    .meta({ partOf: part, description: `Any option of ${part}${set.length > 0 ? ` but ${set.join(', ')}, which the preset sets` : ''}.` })
    .optional();
}

/** A table's options, every one optional: what a preset lets a user change of a table it declares. */
const TableChange = DatabaseOptions.shape.tables.valueType.partial();

/** A preset database's options: a database's own (whether it crashes or restores, its backups, its restart delay), and changes to the tables the preset declares. */
export const presetDatabase = (name: string) =>
  DatabaseOptions.omit({ name: true, tables: true, rows: true, notes: true })
    .partial()
    .extend({ tables: z.record(z.string(), TableChange).optional() })
    .meta({ partOf: 'database', description: `Any option of database for ${name} (crashes, restorable, backups, restoreWith, restartAfter), and per table it declares any table option (an inbox's ttl, a key's unique columns).` })
    .optional();

export type PresetDatabase = NonNullable<z.output<ReturnType<typeof presetDatabase>>>;

/** A preset database's own options as `database` takes them: all but the table changes, those given. */
export function databaseOwn(d: PresetDatabase | undefined): Partial<Omit<PresetDatabase, 'tables'>> {
  if (d === undefined) return {};
  const { tables: _changes, ...own } = d;
  return given(own);
}

/**
 * The preset's tables with the user's changes, in ticks of their time scale as `database` takes
 * them; a change to a table the preset does not declare is bad input naming the nearest one.
 */
export function changedTables<T extends Readonly<Record<string, z.input<typeof DatabaseOptions>['tables'][string]>>>(where: string, tables: T, changes: PresetDatabase['tables'] | undefined): T {
  const out: Record<string, unknown> = { ...tables };
  for (const [table, change] of Object.entries(changes ?? {})) {
    if (!Object.hasOwn(tables, table)) throw new InputError(`${where}: the preset declares no table ${table}${didYouMean(table, Object.keys(tables))}; its tables: ${Object.keys(tables).join(', ')}`);
    out[table] = { ...tables[table], ...Object.fromEntries(Object.entries(change as Record<string, unknown>).filter(([, v]) => v !== undefined)) };
  }
  return out as T;
}


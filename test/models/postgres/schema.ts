// The tables a differential sequence runs against: one to three of them, each with a primary key
// of one or two columns (or a surrogate id the database assigns), optionally one further unique
// key of one or two nullable columns, optionally a `version` integer, and two plain columns. The
// same definition gives the model's TableSpec and PostgreSQL's CREATE TABLE, so both databases
// start from the same schema. Column domains are tiny on purpose: keys collide often.
import fc from 'fast-check';
import type { TableSpec, Value } from '../../../models/database.ts';

export interface Column {
  readonly name: string;
  readonly type: 'integer' | 'text' | 'boolean';
  readonly nullable: boolean;
  /** The values a generated row draws from. */
  readonly domain: readonly Value[];
}

export interface Table {
  readonly name: string;
  /** Primary-key columns; ['id'] for a table whose id the database assigns. */
  readonly key: readonly string[];
  /** The further unique key, if any. */
  readonly unique?: readonly string[];
  /** The database assigns the single key column (the model's `autoId`). */
  readonly autoId: boolean;
  /** Every column a statement may write, in order; the surrogate id is not among them. */
  readonly columns: readonly Column[];
  /** Whether the table has the `version` column that upserts and conditional updates need. */
  readonly versioned: boolean;
}

export interface Schema {
  readonly tables: readonly Table[];
}

const K1: Column = { name: 'k1', type: 'integer', nullable: false, domain: [0, 1, 2] };
const K2: Column = { name: 'k2', type: 'text', nullable: false, domain: ['a', 'b'] };
const U: Column = { name: 'u', type: 'integer', nullable: true, domain: [0, 1, null] };
const W: Column = { name: 'w', type: 'text', nullable: true, domain: ['p', 'q', null] };
const VERSION: Column = { name: 'version', type: 'integer', nullable: false, domain: [1, 2, 3] };
const V: Column = { name: 'v', type: 'text', nullable: true, domain: ['x', 'y', null] };
const B: Column = { name: 'b', type: 'boolean', nullable: false, domain: [false, true] };

export interface TableOptions {
  /** Allow tables whose id the database assigns (the serial generator does; see the test). */
  readonly autoId: boolean;
}

export type KeyShape = 'one' | 'two' | 'auto';
export type UniqueShape = 'none' | 'one' | 'two';

/** The table of a given shape; its name tells the shape, so a runner can keep it between sequences and only empty it. */
export function makeTable(index: number, keyShape: KeyShape, unique: UniqueShape, versioned: boolean): Table {
  const keyColumns = keyShape === 'two' ? [K1, K2] : keyShape === 'one' ? [K1] : [];
  // A surrogate-id table always has a unique key: without one nothing in it can conflict.
  const uniqueColumns = unique === 'two' ? [U, W] : unique === 'one' || keyShape === 'auto' ? [U] : [];
  const plain = keyShape === 'auto' && uniqueColumns.length === 1 ? [K1] : [];
  const shape = `${keyShape === 'auto' ? 'a' : keyShape === 'two' ? 'kk' : 'k'}${uniqueColumns.length === 2 ? 'uw' : uniqueColumns.length === 1 ? 'u' : ''}${versioned ? 'v' : ''}`;
  return {
    name: `t${index}_${shape}`,
    key: keyShape === 'auto' ? ['id'] : keyColumns.map((c) => c.name),
    ...(uniqueColumns.length > 0 ? { unique: uniqueColumns.map((c) => c.name) } : {}),
    autoId: keyShape === 'auto',
    columns: [...keyColumns, ...plain, ...uniqueColumns, ...(versioned ? [VERSION] : []), V, B],
    versioned,
  };
}

export function tableArbitrary(index: number, options: TableOptions): fc.Arbitrary<Table> {
  const keys: readonly KeyShape[] = options.autoId ? ['one', 'two', 'auto'] : ['one', 'two'];
  return fc
    .record({ keyShape: fc.constantFrom(...keys), unique: fc.constantFrom<UniqueShape>('none', 'one', 'two'), versioned: fc.boolean() })
    .map(({ keyShape, unique, versioned }) => makeTable(index, keyShape, unique, versioned));
}

export function schemaArbitrary(options: TableOptions & { readonly maxTables: number }): fc.Arbitrary<Schema> {
  return fc.integer({ min: 1, max: options.maxTables }).chain((n) =>
    fc.tuple(...Array.from({ length: n }, (_, i) => tableArbitrary(i, options))).map((tables) => ({ tables })),
  );
}

/** The model's table specs for a schema. */
export function tableSpecs(schema: Schema): Record<string, TableSpec> {
  const out: Record<string, TableSpec> = {};
  for (const t of schema.tables) out[t.name] = { key: t.key, ...(t.unique ? { unique: [t.unique] } : {}), ...(t.autoId ? { autoId: true } : {}) };
  return out;
}

/** The constraint a PostgreSQL unique violation names, as the model names its key: `(k1, k2)`. */
export function keyOfConstraint(schema: Schema, constraint: string): string | undefined {
  for (const t of schema.tables) {
    if (constraint === `${t.name}_key`) return `(${t.key.join(', ')})`;
    if (constraint === `${t.name}_unique` && t.unique) return `(${t.unique.join(', ')})`;
  }
  return undefined;
}

/** CREATE TABLE statements, constraints named so a violation can be mapped back to its key. */
export function createTables(schema: Schema): string[] {
  return schema.tables.map((t) => {
    const cols = [
      ...(t.autoId ? ['id bigint generated by default as identity'] : []),
      ...t.columns.map((c) => `${c.name} ${c.type}${c.nullable ? '' : ' not null'}`),
      `constraint ${t.name}_key primary key (${t.key.join(', ')})`,
      ...(t.unique ? [`constraint ${t.name}_unique unique (${t.unique.join(', ')})`] : []),
    ];
    return `create table ${t.name} (${cols.join(', ')})`;
  });
}

export function describeSchema(schema: Schema): string {
  return createTables(schema).join(';\n') + ';';
}

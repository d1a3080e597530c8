// A database as a design composes it: the database machine with its tables, its evidence
// describer, and the faults its links can suffer. A database link is a client connection: it can
// drop (a statement or a reply is lost, and the caller cannot tell what happened) or be slow,
// but it never delivers a statement twice or out of order, so `duplicate` and `reorder` never
// strike it. A driver that retries a statement does so in the caller's own model, where it shows.
import type { MessageFaultKind } from '../../src/faults.ts';
import type { DesignComponent } from '../../src/scenario.ts';
import { databaseEvidence, databaseMachine, type RowFormats, type TableSpec } from '../database.ts';

/** The message faults a database connection can suffer. */
export const DATABASE_LINK_FAULTS: readonly MessageFaultKind[] = ['lose', 'delay'];

export function databaseComponent(name: string, tables: Readonly<Record<string, TableSpec>>, rows: RowFormats = {}): DesignComponent {
  return { name, machine: databaseMachine, input: { tables }, process: false, describe: databaseEvidence(tables, rows), messageFaults: DATABASE_LINK_FAULTS };
}

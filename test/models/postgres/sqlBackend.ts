// What the differential runner needs from a PostgreSQL: one connection per session, the ability
// to drop a session's connection as a crash would, to cancel a statement that waits for a lock,
// and to ask which sessions a waiting one waits for. Two implementations: PGlite in-process (one
// session only, so serial sequences) and a server reached through the `pg` package.

export interface SqlResult {
  readonly rows: readonly Record<string, unknown>[];
  /** Rows the statement inserted, updated or deleted; null for a statement that counts none. */
  readonly rowCount: number | null;
  /** The command tag: 'COMMIT' or 'ROLLBACK' for a COMMIT, which is how a failed commit shows. */
  readonly command: string;
}

/** A PostgreSQL error as the runner reads it. */
export interface SqlError {
  readonly code: string;
  readonly message: string;
  readonly constraint?: string;
}

export function asSqlError(e: unknown): SqlError {
  const x = e as { code?: unknown; message?: unknown; constraint?: unknown };
  if (typeof x?.code === 'string') return { code: x.code, message: String(x.message), ...(typeof x.constraint === 'string' ? { constraint: x.constraint } : {}) };
  throw e;
}

export interface SqlBackend {
  readonly name: string;
  /** Whether several sessions can hold open transactions at once. */
  readonly concurrent: boolean;
  /** The server's deadlock_timeout in milliseconds: how long a waiter sleeps before it looks for a cycle. */
  readonly deadlockTimeoutMs: number;
  /** Drops the previous sequence's tables and connections' state, then creates these tables. */
  reset(createTables: readonly string[]): Promise<void>;
  query(session: string, text: string, values?: readonly unknown[]): Promise<SqlResult>;
  /**
   * The sessions' connections drop, all at once (a peer's crash drops every connection it had):
   * the server rolls back what they had open. Resolves once they are gone.
   */
  terminate(sessions: readonly string[]): Promise<void>;
  /** Cancels the statement the session is running (it fails with query_canceled). */
  cancel(session: string): Promise<void>;
  /** The sessions the given one waits for, if it waits for a lock. */
  blockers(session: string): Promise<string[]>;
  /** Committed rows of a table, read outside every session's transaction. */
  committedRows(text: string): Promise<readonly Record<string, unknown>[]>;
  close(): Promise<void>;
}

/**
 * The SQL that readies a sequence's tables: a table made before with the same definition is only
 * emptied (creating tables is most of a short sequence's cost), any other is (re)created. Table
 * names carry their shape (see schema.ts), so most sequences find theirs already made.
 */
export function createOrEmpty(made: Map<string, string>, createTables: readonly string[]): string {
  const sql: string[] = [];
  for (const create of createTables) {
    const name = create.split(' ')[2]!;
    if (made.get(name) === create) sql.push(`delete from ${name}`);
    else {
      if (made.has(name)) sql.push(`drop table ${name}`);
      sql.push(create);
      made.set(name, create);
    }
  }
  return sql.join(';\n');
}

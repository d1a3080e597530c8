// PGlite, PostgreSQL compiled to WebAssembly and started in-process: no server, no setup, so it
// runs in every normal test run. It is a single session, so it holds at most one transaction at
// a time: the serial sequences (transactions that take turns) are exactly what it can check. A
// session's dropped connection is its open transaction rolled back, which is what the server
// does when a connection drops.
import { PGlite } from '@electric-sql/pglite';
import { createOrEmpty, type SqlBackend, type SqlResult } from './sqlBackend.ts';

export class PgliteBackend implements SqlBackend {
  readonly name = 'PGlite';
  readonly concurrent = false;
  readonly deadlockTimeoutMs = 0;
  /** The session whose transaction is open, if any. */
  private owner: string | undefined;
  /** The tables created so far, by name, with the statement that created them. */
  private readonly tables = new Map<string, string>();

  private constructor(private readonly db: PGlite) {}

  static async start(): Promise<PgliteBackend> {
    return new PgliteBackend(await PGlite.create());
  }

  async reset(createTables: readonly string[]): Promise<void> {
    if (this.owner !== undefined) await this.db.query('rollback');
    this.owner = undefined;
    await this.db.exec(createOrEmpty(this.tables, createTables));
  }

  async query(session: string, text: string, values: readonly unknown[] = []): Promise<SqlResult> {
    if (this.owner !== undefined && this.owner !== session) throw new Error(`PGlite holds one transaction at a time: ${session} spoke while ${this.owner}'s was open`);
    const word = text.trim().split(/\s+/)[0]!.toLowerCase();
    const r = await this.db.query(text, values as unknown[]);
    if (word === 'begin') this.owner = session;
    if (word === 'commit' || word === 'rollback') this.owner = undefined;
    const command = (r as { command?: string }).command ?? word.toUpperCase();
    const counts = word === 'insert' || word === 'update' || word === 'delete';
    return { rows: r.rows as Record<string, unknown>[], rowCount: counts ? (r.affectedRows ?? 0) : null, command };
  }

  async terminate(sessions: readonly string[]): Promise<void> {
    if (this.owner !== undefined && sessions.includes(this.owner)) await this.query(this.owner, 'rollback');
  }

  async cancel(): Promise<void> {
    throw new Error('PGlite runs one statement at a time: there is nothing to cancel');
  }

  async blockers(): Promise<string[]> {
    return [];
  }

  async committedRows(text: string): Promise<readonly Record<string, unknown>[]> {
    if (this.owner !== undefined) throw new Error(`PGlite cannot read committed rows while ${this.owner}'s transaction is open`);
    return (await this.db.query(text)).rows as Record<string, unknown>[];
  }

  async close(): Promise<void> {
    await this.db.close();
  }
}

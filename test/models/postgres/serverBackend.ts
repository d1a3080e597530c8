// A PostgreSQL server reached through the `pg` package: one connection per session, plus one
// that watches (it creates the tables, reads the lock table, cancels and terminates). Everything
// the runner creates lives in a schema of its own, dropped on close, so it can run against a
// database a team already uses.
import pg from 'pg';
import { createOrEmpty, type SqlBackend, type SqlResult } from './sqlBackend.ts';

/** A server's deadlock_timeout setting ('1s', '50ms', '200') in milliseconds. */
export function parseDuration(setting: string): number {
  const m = /^(\d+)\s*(us|ms|s|min|h|d)?$/.exec(setting.trim());
  if (!m) throw new Error(`cannot read duration ${setting}`);
  const unit = { us: 0.001, ms: 1, s: 1000, min: 60_000, h: 3_600_000, d: 86_400_000 }[m[2] ?? 'ms']!;
  return Number(m[1]) * unit;
}

export class ServerBackend implements SqlBackend {
  readonly name: string;
  readonly concurrent = true;
  private readonly sessions = new Map<string, { client: pg.Client; pid: number }>();
  /** The tables created so far, by name, with the statement that created them. */
  private readonly tables = new Map<string, string>();

  private constructor(
    private readonly config: pg.ClientConfig,
    private readonly admin: pg.Client,
    private readonly schema: string,
    readonly deadlockTimeoutMs: number,
    version: string,
  ) {
    this.name = `PostgreSQL ${version}`;
  }

  /** Connects and creates the runner's schema; a connection failure rejects with the driver's error. */
  static async connect(config: pg.ClientConfig): Promise<ServerBackend> {
    const admin = new pg.Client({ ...config, connectionTimeoutMillis: 10_000 });
    admin.on('error', () => undefined);
    await admin.connect();
    try {
      const schema = `faultline_conformance_${process.pid}_${Math.floor(Math.random() * 1e9)}`;
      await admin.query(`create schema ${schema}`);
      await admin.query(`set search_path = ${schema}`);
      const timeout = parseDuration(String((await admin.query('show deadlock_timeout')).rows[0]?.deadlock_timeout));
      const version = String((await admin.query('show server_version')).rows[0]?.server_version).split(' ')[0]!;
      return new ServerBackend(config, admin, schema, timeout, version);
    } catch (e) {
      await admin.end().catch(() => undefined);
      throw e;
    }
  }

  private async session(name: string): Promise<{ client: pg.Client; pid: number }> {
    const known = this.sessions.get(name);
    if (known) return known;
    const client = new pg.Client({
      ...this.config,
      // No timeout may end a wait the runner is watching.
      options: `-c search_path=${this.schema} -c statement_timeout=0 -c lock_timeout=0 -c idle_in_transaction_session_timeout=0`,
    });
    // A terminated connection reports its end here as well as to the statement it was running.
    client.on('error', () => undefined);
    await client.connect();
    const pid = Number((await client.query('select pg_backend_pid() as pid')).rows[0]?.pid);
    const s = { client, pid };
    this.sessions.set(name, s);
    return s;
  }

  async reset(createTables: readonly string[]): Promise<void> {
    await this.admin.query(createOrEmpty(this.tables, createTables));
  }

  async query(session: string, text: string, values: readonly unknown[] = []): Promise<SqlResult> {
    const { client } = await this.session(session);
    const r = await client.query({ text, values: values as unknown[] });
    return { rows: r.rows, rowCount: r.command === 'SELECT' ? null : r.rowCount, command: r.command };
  }

  async terminate(sessions: readonly string[]): Promise<void> {
    const gone = sessions.flatMap((name) => {
      const s = this.sessions.get(name);
      this.sessions.delete(name);
      return s ? [s] : [];
    });
    if (gone.length === 0) return;
    const pids = gone.map((s) => s.pid);
    // One statement signals them all, so none outlives another long enough to act on a released lock.
    await this.admin.query('select pg_terminate_backend(pid) from unnest($1::int[]) as pid', [pids]);
    while ((await this.admin.query('select 1 from pg_stat_activity where pid = any($1::int[])', [pids])).rowCount) await new Promise((r) => setTimeout(r, 1));
    for (const s of gone) await s.client.end().catch(() => undefined);
  }

  async cancel(session: string): Promise<void> {
    const s = this.sessions.get(session);
    if (s) await this.admin.query('select pg_cancel_backend($1)', [s.pid]);
  }

  async blockers(session: string): Promise<string[]> {
    const s = this.sessions.get(session);
    if (!s) return [];
    const pids = ((await this.admin.query('select pg_blocking_pids($1) as pids', [s.pid])).rows[0]?.pids ?? []) as number[];
    const names: string[] = [];
    for (const [name, other] of this.sessions) if (pids.includes(other.pid)) names.push(name);
    // A blocker that is none of the runner's sessions is named by its pid.
    for (const pid of pids) if (![...this.sessions.values()].some((o) => o.pid === pid)) names.push(`pid ${pid}`);
    return names;
  }

  async committedRows(text: string): Promise<readonly Record<string, unknown>[]> {
    return (await this.admin.query(text)).rows;
  }

  async close(): Promise<void> {
    await this.terminate([...this.sessions.keys()]);
    await this.admin.query(`drop schema if exists ${this.schema} cascade`).catch(() => undefined);
    await this.admin.end().catch(() => undefined);
  }
}

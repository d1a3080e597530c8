// A throwaway PostgreSQL cluster from the machine's own server binaries: initdb into a temporary
// directory, a server listening only on a Unix socket there, stopped and deleted afterwards. The
// server refuses to run as root, so under root it runs as an unprivileged system user. Its
// deadlock_timeout is short, so the runner's wait before a deadlock (see runSequence) is short.
import { spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import type pg from 'pg';

export interface LocalCluster {
  readonly config: pg.ClientConfig;
  readonly version: string;
  stop(): void;
}

/** The directory holding initdb and pg_ctl: on PATH, else the newest /usr/lib/postgresql/N/bin. */
export function serverBinaries(): string | undefined {
  const has = (dir: string) => existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_ctl'));
  for (const dir of (process.env['PATH'] ?? '').split(delimiter)) if (dir && has(dir)) return dir;
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => /^\d+$/.test(v))
    .sort((a, b) => Number(b) - Number(a));
  for (const v of versions) if (has(join(root, v, 'bin'))) return join(root, v, 'bin');
  return undefined;
}

/** The unprivileged account a root process runs the server as. */
function serverAccount(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  for (const name of ['postgres', 'nobody']) {
    const uid = spawnSync('id', ['-u', name], { encoding: 'utf8' });
    const gid = spawnSync('id', ['-g', name], { encoding: 'utf8' });
    if (uid.status === 0 && gid.status === 0) return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
  }
  return undefined;
}

/** Starts a cluster, or says in one sentence why it cannot. */
export function startLocalCluster(): LocalCluster | string {
  const bin = serverBinaries();
  if (bin === undefined) return 'no PostgreSQL server binaries (initdb, pg_ctl) on PATH or under /usr/lib/postgresql';
  const account = serverAccount();
  if (process.getuid?.() === 0 && account === undefined) return 'running as root and no unprivileged account (postgres, nobody) to run the server as';
  const dir = mkdtempSync(join(tmpdir(), 'faultline-pg-'));
  const data = join(dir, 'data');
  if (account) chownSync(dir, account.uid, account.gid);
  const run = (tool: string, args: string[]) =>
    spawnSync(join(bin, tool), args, { encoding: 'utf8', ...(account ? { uid: account.uid, gid: account.gid } : {}), env: { ...process.env, LC_ALL: 'C' } });
  const init = run('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--no-sync']);
  if (init.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    return `initdb failed: ${(init.stderr || init.stdout).trim().split('\n').pop()}`;
  }
  const options = `-k ${dir} -c listen_addresses='' -c deadlock_timeout=100ms -c fsync=off -c max_connections=40`;
  const start = run('pg_ctl', ['-D', data, '-o', options, '-l', join(dir, 'server.log'), '-w', '-t', '30', 'start']);
  if (start.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    return `the server did not start: ${(start.stderr || start.stdout).trim().split('\n').pop()}`;
  }
  const version = run('pg_ctl', ['--version']).stdout.trim().split(' ').pop() ?? '?';
  return {
    config: { host: dir, user: 'postgres', database: 'postgres' },
    version,
    stop: () => {
      run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

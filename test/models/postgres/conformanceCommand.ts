// `npm run conformance -- --postgres postgres://user:pass@host:5432/db [--runs N] [--seed S]`:
// the database model's differential test against a PostgreSQL server a team already runs. It
// checks the regression cases, then N generated serial and N interleaved sequences (1000 each by
// default), and prints the figures, or the minimal sequence on which the model and the server
// diverge. Everything it creates lives in a schema of its own, dropped at the end. The server's
// deadlock_timeout (1 s by default) is waited out before each deadlock the model predicts, so a
// run with deadlocks takes that long per deadlock.
// Exit codes: 0 the model agrees, 1 a divergence, 2 bad arguments or an unreachable server (one
// line on stderr).
import { conformance, describeReport } from './conformance.ts';
import { REGRESSIONS } from './regressions.ts';
import { runSequence } from './runSequence.ts';
import { ServerBackend } from './serverBackend.ts';

class UsageError extends Error {}

const USAGE = 'usage: npm run conformance -- --postgres postgres://user:pass@host:5432/db [--runs N] [--seed S]';

function parse(args: readonly string[]): { url: string; runs: number; seed: number } {
  const flags = new Map<string, string>();
  for (let i = 0; i < args.length; i++) {
    const flag = args[i]!;
    if (!['--postgres', '--runs', '--seed'].includes(flag)) throw new UsageError(`unknown argument ${flag}; ${USAGE}`);
    const value = args[++i];
    if (value === undefined) throw new UsageError(`${flag} needs a value; ${USAGE}`);
    flags.set(flag, value);
  }
  const url = flags.get('--postgres');
  if (url === undefined) throw new UsageError(`--postgres is required; ${USAGE}`);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new UsageError(`--postgres ${redact(url)} is not a URL; ${USAGE}`);
  }
  if (parsed.protocol !== 'postgres:' && parsed.protocol !== 'postgresql:') throw new UsageError(`--postgres must be a postgres:// URL, not ${parsed.protocol}//`);
  const whole = (flag: string, fallback: number, min: number) => {
    const raw = flags.get(flag);
    if (raw === undefined) return fallback;
    if (!/^\d+$/.test(raw) || Number(raw) < min) throw new UsageError(`${flag} must be a whole number of at least ${min}, not ${raw}`);
    return Number(raw);
  };
  // Without --seed each run draws a new one, and prints it so a divergence can be replayed.
  return { url, runs: whole('--runs', 1000, 1), seed: whole('--seed', Math.floor(Math.random() * 2 ** 31), 0) };
}

/** The URL without its password, for messages. */
function redact(url: string): string {
  return url.replace(/\/\/([^:/@]*):[^@/]*@/, '//$1:***@');
}

async function main(args: readonly string[]): Promise<number> {
  let options: ReturnType<typeof parse>;
  try {
    options = parse(args);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    process.stderr.write(`conformance: ${e.message}\n`);
    return 2;
  }
  let backend: ServerBackend;
  try {
    backend = await ServerBackend.connect({ connectionString: options.url });
  } catch (e) {
    process.stderr.write(`conformance: cannot use PostgreSQL at ${redact(options.url)}: ${e instanceof Error ? e.message : String(e)}\n`);
    return 2;
  }
  let agreed = true;
  try {
    agreed = await check(backend, options);
  } catch (e) {
    // The server went away, or refused a statement the run needs: one line, as for a bad URL.
    process.stderr.write(`conformance: PostgreSQL at ${redact(options.url)} failed during the run: ${e instanceof Error ? e.message : String(e)}\n`);
    return 2;
  } finally {
    await backend.close().catch(() => undefined);
  }
  return agreed ? 0 : 1;
}

/** The regression cases, then the generated sequences of both kinds; whether all agree. */
async function check(backend: ServerBackend, options: { runs: number; seed: number }): Promise<boolean> {
  let agreed = true;
  console.log(`conformance: the database model against ${backend.name} (deadlock_timeout ${backend.deadlockTimeoutMs} ms), seed ${options.seed}`);
  for (const r of REGRESSIONS) {
    const result = await runSequence(r.schema, r.steps, backend);
    if (result.divergence) {
      agreed = false;
      console.log(`regression case diverges: ${r.name}\n${result.divergence.summary}\n\n${result.divergence.transcript}\n`);
    }
  }
  console.log(`regression cases: ${REGRESSIONS.length} run${agreed ? ', all agree' : ''}`);
  for (const mode of ['serial', 'interleaved'] as const) {
    const report = await conformance(backend, { mode, runs: options.runs, seed: options.seed });
    console.log(describeReport(report));
    if (report.failure) agreed = false;
  }
  return agreed;
}

process.exitCode = await main(process.argv.slice(2));

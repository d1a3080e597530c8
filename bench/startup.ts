// Start-up of the installed command: `faultline --version` against `node -e 0`, each the median
// of several spawned runs, and their ratio (the target is at most 1.5). It measures the compiled
// command, dist/src/cli/bin.js, which is what the package's bin runs: no TypeScript loader, and
// only the command table and its few imports before the version is printed. A benchmark, not a
// test: it reads the real clock and always exits 0.
//
//   npx tsx bench/startup.ts [--repeats N]     (builds dist/ first when it is missing)
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const bin = join(root, 'dist', 'src', 'cli', 'bin.js');

export interface StartupFigures {
  readonly repeats: number;
  /** Median wall time of `node -e 0`, in milliseconds. */
  readonly nodeMs: number;
  /** Median wall time of `node dist/src/cli/bin.js --version`, in milliseconds. */
  readonly versionMs: number;
  /** versionMs ÷ nodeMs. */
  readonly ratio: number;
}

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

function timeRun(args: readonly string[]): number {
  const start = process.hrtime.bigint();
  const r = spawnSync(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (r.status !== 0) throw new Error(`node ${args.join(' ')} exited ${r.status}: ${String(r.stderr)}`);
  return ms;
}

/** Measures both commands `repeats` times, interleaved so a slow moment of the machine hits both alike. */
export function measureStartup(repeats = 15): StartupFigures {
  if (!existsSync(bin)) {
    const build = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
    if (build.status !== 0) throw new Error('npm run build failed');
  }
  // One warm-up each: the first run pays for the file cache.
  timeRun(['-e', '0']);
  timeRun([bin, '--version']);
  const node: number[] = [];
  const version: number[] = [];
  for (let i = 0; i < repeats; i++) {
    node.push(timeRun(['-e', '0']));
    version.push(timeRun([bin, '--version']));
  }
  const nodeMs = median(node);
  const versionMs = median(version);
  return { repeats, nodeMs, versionMs, ratio: versionMs / nodeMs };
}

export function printStartup(f: StartupFigures): void {
  console.log(`start-up, median of ${f.repeats}: node -e 0 ${f.nodeMs.toFixed(1)} ms; faultline --version ${f.versionMs.toFixed(1)} ms; ratio ${f.ratio.toFixed(2)} (target at most 1.5: ${f.ratio <= 1.5 ? 'PASS' : 'MISS'})`);
}

if (process.argv[1] && import.meta.filename === process.argv[1]) {
  const i = process.argv.indexOf('--repeats');
  const repeats = i >= 0 ? Number(process.argv[i + 1]) : 15;
  printStartup(measureStartup(Number.isInteger(repeats) && repeats > 0 ? repeats : 15));
}

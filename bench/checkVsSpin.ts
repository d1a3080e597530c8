// The exhaustive search set against SPIN on the same five Mercury designs (two orders, at most
// one crash, every interleaving), measured in the same run: verdicts, states, transitions,
// states per second and end-to-end seconds, and the memory a long search takes. Bench code: it
// reads the real clock and starts processes.
//
// The faultline side runs `check` with --faults 1 --kinds crash --fail-fast: SPIN's fault model
// in bench/spin/mercury.pml, and like pan it stops at the first violation. Both count distinct
// states. faultline's states are larger (every
// machine's whole context, the network with delivery windows, timers and the clock), so the
// counts differ by the model's detail, not by what is explored: both search every order.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadScenario } from '../src/scenario/catalogue.ts';
import { check, type CheckResult } from '../src/modes/check/check.ts';
import { SPIN_DESIGN_NAMES } from './spin/runSpin.ts';
import { COMPILED_BIN, ensureBuilt } from './compiledCommand.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

export interface CheckRow {
  readonly name: string;
  readonly verdict: string;
  readonly states: number;
  readonly transitions: number;
  /** Transitions sleep sets skipped as commuting with one taken. */
  readonly slept: number;
  readonly depth: number;
  readonly seconds: number;
}

export interface CheckVsSpin {
  readonly rows: readonly CheckRow[];
  /** Loading the five scenarios and searching them, in this process. */
  readonly seconds: number;
  /** The same five as five cold commands (`faultline check … --kinds crash`), node start included. */
  readonly coldSeconds: number;
  /** The five in one command of the compiled package (dist/), when it could be built. */
  readonly compiledSeconds?: number;
  /** Whether that command gave every verdict as expected (exit 0). */
  readonly compiledOk?: boolean;
}

/** Five searches warm in this process, then the same as five cold commands. */
export async function checkVsSpin(): Promise<CheckVsSpin> {
  const start = performance.now();
  const rows: CheckRow[] = [];
  for (const name of SPIN_DESIGN_NAMES) {
    const { scenario } = await loadScenario(name);
    const t = performance.now();
    const r: CheckResult = check(scenario, { faults: 1, kinds: ['crash'], failFast: true });
    const slept = r.coverage.interleavings.kind === 'all' ? (r.coverage.interleavings.slept ?? 0) : 0;
    rows.push({ name, verdict: r.judgement.verdict, states: r.check.states, transitions: r.check.transitions, slept, depth: r.check.depth, seconds: (performance.now() - t) / 1000 });
  }
  const seconds = (performance.now() - start) / 1000;
  const coldStart = performance.now();
  for (const name of SPIN_DESIGN_NAMES) {
    spawnSync(process.execPath, ['bin/faultline.js', 'check', name, '--kinds', 'crash', '--fail-fast', '--json'], { cwd: ROOT, encoding: 'utf8', maxBuffer: 256 * 2 ** 20 });
  }
  const coldSeconds = (performance.now() - coldStart) / 1000;
  if (!ensureBuilt().ok) return { rows, seconds, coldSeconds };
  const compiledStart = performance.now();
  const compiled = spawnSync(process.execPath, [COMPILED_BIN, 'check', ...SPIN_DESIGN_NAMES, '--kinds', 'crash', '--fail-fast', '--json'], { cwd: ROOT, encoding: 'utf8', maxBuffer: 256 * 2 ** 20 });
  return { rows, seconds, coldSeconds, compiledSeconds: (performance.now() - compiledStart) / 1000, compiledOk: compiled.status === 0 };
}

/**
 * States per second of one design's search repeated in this process after its first: the
 * search's throughput once its code is compiled, as SPIN's states/second is its search's alone.
 * The first search of a process also pays for V8 compiling the search code (about half of a
 * 57,600-state search's time), which the rows above include.
 */
export async function warmRates(name: string, repeats: number): Promise<number[]> {
  const { scenario } = await loadScenario(name);
  const rates: number[] = [];
  for (let r = 0; r < repeats; r++) {
    const t = performance.now();
    const result = check(scenario, { faults: 1, kinds: ['crash'], failFast: true });
    rates.push(result.check.states / ((performance.now() - t) / 1000));
  }
  return rates;
}

export interface CheckMemory {
  readonly states?: number;
  readonly peakMB?: number;
  readonly seconds?: number;
  readonly reason?: string;
}

/**
 * Peak resident memory of one long search in a child process: mercury-outbox at three orders
 * with up to two faults of every kind (at two orders its whole space is 8,409,408 states, short
 * of the ten million the target names), stopped at `maxStates`, breadth-first (which keeps two
 * levels of states) or depth-first (which keeps one path). The child's figure includes node
 * itself and the loaded catalogue (about 100 MB).
 */
/** The search `checkMemory` runs, as its command line gives it. */
export const CHECK_MEMORY_SEARCH = ['mercury-outbox', '--size', '3', '--faults', '2'] as const;

export function checkMemory(maxStates: number, dfs = false): CheckMemory {
  if (!existsSync('/usr/bin/time')) return { reason: 'no /usr/bin/time to read the peak from' };
  const started = performance.now();
  const child = spawnSync('/usr/bin/time', ['-v', process.execPath, 'bin/faultline.js', 'check', ...CHECK_MEMORY_SEARCH, '--max-states', String(maxStates), ...(dfs ? ['--dfs'] : []), '--json', '--out', '/tmp/faultline-bench-check'], {
    cwd: ROOT,
    encoding: 'utf8',
    maxBuffer: 512 * 2 ** 20,
  });
  const seconds = (performance.now() - started) / 1000;
  const kb = /Maximum resident set size \(kbytes\): (\d+)/.exec(child.stderr ?? '')?.[1];
  let states: number | undefined;
  try {
    const doc = JSON.parse(child.stdout) as { scenarios: { check?: { states: number } }[] };
    states = doc.scenarios[0]?.check?.states;
  } catch {
    return { reason: `the search gave no JSON (exit ${child.status}): ${(child.stderr ?? '').split('\n')[0]}` };
  }
  return { ...(states === undefined ? {} : { states }), ...(kb ? { peakMB: Number(kb) / 1024 } : {}), seconds };
}

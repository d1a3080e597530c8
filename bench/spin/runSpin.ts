// Runs the SPIN model checker on bench/spin/mercury.pml for one Mercury design and reads the
// verdict and the search's figures from SPIN's own output, so the benchmark can set faultline's
// times against a model checker measured on the same machine in the same run. Bench code: it
// reads the real clock and starts processes.
//
// The three stages are timed apart, because they cost very differently: `spin -a` writes the
// verifier's C source (pan.c), gcc compiles it, and ./pan searches the state space. Everything
// happens in a fresh temporary directory that is removed afterwards, trail file included.
//
// The flags, and why:
// - gcc -DSAFETY: the model's properties are assertions and end states only (no never claim, no
//   cycles), so pan is built without the nested search for acceptance cycles.
// - gcc -DMEMLIM=n when `memLimitMB` is given: pan stops at that bound instead of the machine's.
// - no -DVECTORSZ: the state vector is under 100 bytes, far below pan's 1,024-byte default.
// - pan -w20: a hash table of 2^20 slots (8 MB). pan's default, -w24, allocates and zeroes
//   128 MB before the search starts, which would be most of the memory figure and of the search
//   time for these models (10^3 to 10^5 states); 2^20 slots hold them with few collisions. Pass
//   `hashBits` for larger models.
// - pan -n: no listing of unreached states (not needed for a verdict).
// - pan's default depth bound (-m10000) is far above the model's depth (under 200 steps); a
//   search that reaches it is reported as incomplete, never as a verdict.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The model file, next to this one. */
export const MERCURY_MODEL = fileURLToPath(new URL('./mercury.pml', import.meta.url));

/** The Mercury designs, by the name of the faultline scenario each mirrors, with the model's macro. */
export const SPIN_DESIGNS = {
  'mercury-outbox': 'DESIGN_OUTBOX',
  'mercury-dual-write-commit-first': 'DESIGN_COMMIT_FIRST',
  'mercury-dual-write-publish-first': 'DESIGN_PUBLISH_FIRST',
  'inventory-ack-before-commit': 'DESIGN_ACK_BEFORE_COMMIT',
  'inventory-inbox-separate-tx': 'DESIGN_INBOX_SEPARATE_TX',
} as const;

export type SpinDesign = keyof typeof SPIN_DESIGNS;

export const SPIN_DESIGN_NAMES = Object.keys(SPIN_DESIGNS) as SpinDesign[];

export interface SpinOptions {
  readonly design: SpinDesign;
  /** Orders the client accepts (the model's ORDERS, 1 to 8). */
  readonly orders: number;
  /** Crashes allowed in one run (the model's CRASHES, 0 to 20). */
  readonly crashes: number;
  /** gcc's optimisation level for pan.c: -O2 searches faster, -O0 compiles faster. */
  readonly opt: 'O2' | 'O0';
  /** Memory bound for pan, in MB (-DMEMLIM). */
  readonly memLimitMB?: number;
  /** pan's hash table has 2^hashBits slots (-w); 20 unless given. */
  readonly hashBits?: number;
}

export interface SpinResult {
  readonly design: SpinDesign;
  readonly orders: number;
  readonly crashes: number;
  readonly opt: 'O2' | 'O0';
  readonly verdict: 'holds' | 'violated';
  /** The first violation pan found: `lost effect`, `phantom effect`, `duplicate effect`, `stuck (invalid end state)`, or pan's own words. */
  readonly violation?: string;
  /** States stored, transitions taken and depth reached, as pan counts them (up to the violation, when one is found). */
  readonly states: number;
  readonly transitions: number;
  readonly depth: number;
  /** pan's "total actual memory usage", in MB (hash table, states and DFS stack). */
  readonly memoryMB: number;
  /** Wall-clock seconds: spin -a, gcc, ./pan, and all three with the temporary directory's upkeep. */
  readonly seconds: { readonly generate: number; readonly compile: number; readonly search: number; readonly total: number };
  /** The command lines used, for the record. */
  readonly commands: { readonly generate: string; readonly compile: string; readonly search: string };
}

/** A SPIN run that gave no verdict: a tool failed, or the search was cut short by a bound. */
export class SpinError extends Error {
  override readonly name = 'SpinError';
}

function onPath(cmd: string, args: readonly string[]): boolean {
  const r = spawnSync(cmd, args, { encoding: 'utf8' });
  return r.error === undefined && r.status === 0;
}

/** Whether `spin` and `gcc` are on PATH (spin also calls gcc to preprocess the model). */
export function spinAvailable(): boolean {
  return onPath('spin', ['-V']) && onPath('gcc', ['--version']);
}

/** SPIN's version line, e.g. `Spin Version 6.5.2 -- 6 December 2019`, or undefined without spin. */
export function spinVersion(): string | undefined {
  const r = spawnSync('spin', ['-V'], { encoding: 'utf8' });
  return r.error === undefined && r.status === 0 ? r.stdout.trim() : undefined;
}

interface Ran {
  readonly seconds: number;
  readonly stdout: string;
}

function run(cwd: string, cmd: string, args: readonly string[]): Ran {
  const start = performance.now();
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', maxBuffer: 64 * 2 ** 20 });
  const seconds = (performance.now() - start) / 1000;
  if (r.error) throw new SpinError(`${cmd} could not be started: ${r.error.message}`);
  if (r.status !== 0) {
    const said = `${r.stderr}\n${r.stdout}`.split('\n').find((l) => l.trim() !== '') ?? `exit code ${r.status}`;
    throw new SpinError(`${cmd} failed: ${said.trim()}`);
  }
  return { seconds, stdout: r.stdout };
}

const PROPERTIES: Readonly<Record<string, string>> = {
  duplicate_effect: 'duplicate effect',
  lost_effect: 'lost effect',
  phantom_effect: 'phantom effect',
};

/** The first error pan reported, in the claim's words where it is one of the model's properties. */
export function violationOf(panOutput: string): string | undefined {
  const m = /^pan:\d+: (.+?)(?: \(at depth \d+\))?$/m.exec(panOutput);
  if (!m) return undefined;
  const what = m[1]!.trim();
  const assertion = /^assertion violated\s+!\((\w+)\)$/.exec(what);
  if (assertion && PROPERTIES[assertion[1]!]) return PROPERTIES[assertion[1]!];
  if (/^invalid end state/.test(what)) return 'stuck (invalid end state)';
  return what;
}

/** The figures of pan's report; throws when the search was cut short or the report is not pan's. */
export function parsePan(panOutput: string): Pick<SpinResult, 'verdict' | 'violation' | 'states' | 'transitions' | 'depth' | 'memoryMB'> {
  const num = (re: RegExp, what: string) => {
    const m = re.exec(panOutput);
    if (!m) throw new SpinError(`pan's report has no ${what}`);
    return Number(m[1]);
  };
  const errors = num(/errors: (\d+)/, 'error count');
  if (/error: max search depth too small/.test(panOutput)) throw new SpinError('pan reached its depth bound (-m): the search is incomplete');
  if (/reached -DMEMLIM bound|out of memory/.test(panOutput)) throw new SpinError('pan ran out of memory (-DMEMLIM): the search is incomplete');
  const violation = errors > 0 ? (violationOf(panOutput) ?? 'an error pan did not name') : undefined;
  return {
    verdict: errors > 0 ? 'violated' : 'holds',
    ...(violation === undefined ? {} : { violation }),
    states: num(/(\d+) states, stored/, 'states stored'),
    transitions: num(/(\d+) transitions/, 'transitions'),
    depth: num(/depth reached (\d+)/, 'depth'),
    memoryMB: num(/([\d.]+)\s+total actual memory usage/, 'memory usage'),
  };
}

function check(options: SpinOptions): void {
  const { design, orders, crashes, memLimitMB, hashBits } = options;
  if (!(design in SPIN_DESIGNS)) throw new RangeError(`unknown design ${String(design)}; one of ${SPIN_DESIGN_NAMES.join(', ')}`);
  if (!Number.isInteger(orders) || orders < 1 || orders > 8) throw new RangeError(`orders must be a whole number from 1 to 8, got ${orders}`);
  if (!Number.isInteger(crashes) || crashes < 0 || crashes > 20) throw new RangeError(`crashes must be a whole number from 0 to 20, got ${crashes}`);
  if (options.opt !== 'O2' && options.opt !== 'O0') throw new RangeError(`opt must be O2 or O0, got ${String(options.opt)}`);
  if (memLimitMB !== undefined && (!Number.isInteger(memLimitMB) || memLimitMB < 1)) throw new RangeError(`memLimitMB must be a positive whole number, got ${memLimitMB}`);
  if (hashBits !== undefined && (!Number.isInteger(hashBits) || hashBits < 10 || hashBits > 32)) throw new RangeError(`hashBits must be a whole number from 10 to 32, got ${hashBits}`);
}

/** Generates, compiles and runs the verifier for one design; needs spin and gcc on PATH. */
export function runSpin(options: SpinOptions): SpinResult {
  check(options);
  const { design, orders, crashes, opt } = options;
  const spinArgs = [`-D${SPIN_DESIGNS[design]}`, `-DORDERS=${orders}`, `-DCRASHES=${crashes}`, '-a', MERCURY_MODEL];
  const gccArgs = [`-${opt}`, '-DSAFETY', ...(options.memLimitMB === undefined ? [] : [`-DMEMLIM=${options.memLimitMB}`]), '-o', 'pan', 'pan.c'];
  const panArgs = ['-n', `-w${options.hashBits ?? 20}`];
  const start = performance.now();
  const dir = mkdtempSync(join(tmpdir(), 'faultline-spin-'));
  let generate: Ran, compile: Ran, search: Ran;
  try {
    generate = run(dir, 'spin', spinArgs);
    compile = run(dir, 'gcc', gccArgs);
    search = run(dir, './pan', panArgs);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const total = (performance.now() - start) / 1000;
  return {
    design,
    orders,
    crashes,
    opt,
    ...parsePan(search.stdout),
    seconds: { generate: generate.seconds, compile: compile.seconds, search: search.seconds, total },
    commands: { generate: `spin ${spinArgs.join(' ')}`, compile: `gcc ${gccArgs.join(' ')}`, search: `./pan ${panArgs.join(' ')}` },
  };
}

/** The five Mercury designs, one after another, with the same orders, crashes and flags. */
export function runSpinDesigns(options: Omit<SpinOptions, 'design'>): SpinResult[] {
  return SPIN_DESIGN_NAMES.map((design) => runSpin({ ...options, design }));
}

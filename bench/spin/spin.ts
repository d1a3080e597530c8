// SPIN on the five Mercury designs: for each, the verdict of an exhaustive search of
// bench/spin/mercury.pml, pan's states, transitions, depth and memory, and the wall time of
// generating, compiling and searching; then the totals. Each verdict is set against the
// faultline scenario the design mirrors, and the exit code is 1 if one differs.
//
//   npx tsx bench/spin/spin.ts [--orders N] [--crashes K] [--opt O2|O0] [--hash-bits B]
//
// Without spin or gcc on PATH it prints one line saying so and exits 0, so the benchmark can
// call it on any machine.
import { expectedAt } from '../../src/scenario/scenario.ts';
import { loadScenario } from '../../src/scenario/catalogue.ts';
import { runSpinDesigns, spinAvailable, spinVersion, SpinError, type SpinOptions, type SpinResult } from './runSpin.ts';

const USAGE = 'usage: npx tsx bench/spin/spin.ts [--orders 1..8] [--crashes 0..20] [--opt O2|O0] [--hash-bits 10..32]';

/** Bad input: one line on stderr, exit code 2. */
function fail(message: string): never {
  process.stderr.write(`spin.ts: ${message} (${USAGE})\n`);
  process.exit(2);
}

function parseArgs(argv: readonly string[]): Omit<SpinOptions, 'design'> {
  const out: { orders: number; crashes: number; opt: 'O2' | 'O0'; hashBits?: number } = { orders: 2, crashes: 1, opt: 'O2' };
  for (let i = 0; i < argv.length; i += 2) {
    const flag = argv[i]!;
    const value = argv[i + 1];
    if (value === undefined) fail(`${flag} needs a value`);
    const whole = (lo: number, hi: number) => {
      const n = Number(value);
      if (!/^\d+$/.test(value) || n < lo || n > hi) fail(`${flag} must be a whole number from ${lo} to ${hi}, got ${value}`);
      return n;
    };
    switch (flag) {
      case '--orders':
        out.orders = whole(1, 8);
        break;
      case '--crashes':
        out.crashes = whole(0, 20);
        break;
      case '--hash-bits':
        out.hashBits = whole(10, 32);
        break;
      case '--opt':
        if (value !== 'O2' && value !== 'O0') fail(`--opt must be O2 or O0, got ${value}`);
        out.opt = value;
        break;
      default:
        fail(`unknown option ${flag}`);
    }
  }
  return out;
}

const options = parseArgs(process.argv.slice(2));
if (!spinAvailable()) {
  console.log('spin: skipped, spin or gcc is not on PATH (install them with `apt-get install -y spin gcc`)');
  process.exit(0);
}

const int = (n: number) => n.toLocaleString('en-US');
const s = (x: number) => `${x.toFixed(3)} s`;

let results: SpinResult[];
try {
  results = runSpinDesigns(options);
} catch (error) {
  if (error instanceof SpinError) {
    process.stderr.write(`spin.ts: ${error.message}\n`);
    process.exit(1);
  }
  throw error;
}

/** Whether SPIN's verdict is the one the faultline scenario expects. */
async function asExpected(r: SpinResult): Promise<boolean> {
  const { scenario } = await loadScenario(r.design);
  const e = expectedAt(scenario.expect, 1);
  return e.verdict === r.verdict && (e.verdict === 'holds' || (e.violations as readonly string[]).includes(r.violation ?? ''));
}

console.log(`SPIN on the Mercury pipeline: ${options.orders} orders, at most ${options.crashes} crash${options.crashes === 1 ? '' : 'es'} per run, gcc -${options.opt}`);
console.log(`${spinVersion()}; ${results[0]!.commands.compile}; ${results[0]!.commands.search}`);
const header = ['design', 'verdict', 'expected', 'states', 'transitions', 'depth', 'memory', 'spin -a', 'gcc', 'pan', 'total'];
const rows: string[][] = [];
let ok = true;
for (const r of results) {
  const expected = await asExpected(r);
  ok &&= expected;
  rows.push([
    r.design,
    r.verdict === 'holds' ? 'holds' : `violated (${r.violation})`,
    expected ? 'yes' : 'NO',
    int(r.states),
    int(r.transitions),
    int(r.depth),
    `${r.memoryMB.toFixed(1)} MB`,
    s(r.seconds.generate),
    s(r.seconds.compile),
    s(r.seconds.search),
    s(r.seconds.total),
  ]);
}
const sum = (f: (r: SpinResult) => number) => results.reduce((a, r) => a + f(r), 0);
rows.push([
  'total',
  '',
  ok ? 'all' : 'NOT ALL',
  int(sum((r) => r.states)),
  int(sum((r) => r.transitions)),
  '',
  `${Math.max(...results.map((r) => r.memoryMB)).toFixed(1)} MB max`,
  s(sum((r) => r.seconds.generate)),
  s(sum((r) => r.seconds.compile)),
  s(sum((r) => r.seconds.search)),
  s(sum((r) => r.seconds.total)),
]);
const widths = header.map((h, c) => Math.max(h.length, ...rows.map((r) => r[c]!.length)));
const fmt = (r: readonly string[]) => r.map((cell, c) => (c <= 2 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join('  ');
console.log(fmt(header));
console.log(widths.map((w) => '-'.repeat(w)).join('  '));
for (const r of rows) console.log(fmt(r));
process.exitCode = ok ? 0 : 1;

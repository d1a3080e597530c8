// The benchmark (`npm run bench`): speed and memory of exploration, against a plain baseline and
// a model checker's figure. It is a benchmark, not a test: it reads the real clock, prints its
// figures and a PASS/MISS line per target, and always exits 0.
//
//   npm run bench                      every figure, median of 5 repeats (the long parts: the
//                                      catalogue's pairs on two threads, two 10 M-state searches)
//   npm run bench -- --quick           3 repeats, a 20,000-run memory check, 1 M-state searches
//   npm run bench -- --repeats 7 --memory-runs 100000 --no-memory
//   npm run bench -- --no-check --check-memory-states 1000000
//
// Figures (each the median of the repeats unless marked "one run"):
// - the five Mercury verdicts: wall time of runWindows over the five designs, after a warm-up;
// - windows all: wall time of loadCatalogue + runWindows over every catalogue scenario;
// - steps/s and runs/s in windows and explore mode, for the outbox pipeline and the catalogue
//   (a run is one World.run, counted by wrapping it: reference runs, counterexample re-runs and
//   shrinking runs included);
// - the machine layer against bench/plainOutbox.ts (the same protocol as plain hand-written
//   steppers) in the same World loop: the runs compared hash for hash, then steps/s of the
//   compiled models, XState's own driver and the plain steppers, and where a compiled step's time
//   goes;
// - peak memory of `faultline explore mercury-outbox --runs 100000 --json` (one run, in a child
//   under /usr/bin/time -v), and the RSS curve of a sampled exploration (one run);
// - check mode against SPIN (bench/checkVsSpin.ts): the five Mercury verdicts exhaustively, with
//   states, transitions and states/s beside SPIN's own figures and times, and the peak memory of
//   a search of ten million states, breadth-first and depth-first.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { PerformanceObserver } from 'node:perf_hooks';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AnyStateMachine } from 'xstate';
import { loadCatalogue } from '../src/scenario/catalogue.ts';
import { explore } from '../src/modes/explore.ts';
import { runScenario } from '../src/run/runScenario.ts';
import { timeScaleOf } from '../src/scenario/scenario.ts';
import { Trace } from '../src/kernel/trace.ts';
import { runWindows, type WindowsResult } from '../src/modes/windows.ts';
import { sweepPlan, sweepWindows, type SweepSettings } from '../src/modes/windowsPart.ts';
import { CompiledMachine } from '../src/kernel/compiledMachine.ts';
import { World } from '../src/run/world.ts';
import { comparePlainOutbox, plainComparisonCases, runSpecOf, type ComparisonCase } from './plainComparison.ts';
import { runPlainOutbox } from './plainOutbox.ts';
import { CHECK_MEMORY_SEARCH, checkMemory, checkVsSpin, warmRates } from './checkVsSpin.ts';
import { COMPILED_BIN, ensureBuilt } from './compiledCommand.ts';
import { spinReference } from './spinReference.ts';

// The options, parsed from the command line.

const argv = process.argv.slice(2);
const flag = (name: string) => argv.includes(name);
const value = (name: string, fallback: number) => {
  const i = argv.indexOf(name);
  return i >= 0 && argv[i + 1] !== undefined ? Number(argv[i + 1]) : fallback;
};
const quick = flag('--quick');
const REPEATS = value('--repeats', quick ? 3 : 5);
const MEMORY_RUNS = value('--memory-runs', quick ? 20_000 : 100_000);
const SAMPLED_RUNS = value('--sampled-runs', quick ? 5_000 : 20_000);
const EXPLORE_RUNS = value('--explore-runs', 2_000);
const CATALOGUE_EXPLORE_RUNS = value('--catalogue-explore-runs', 100);
const PLAIN_SEEDS = value('--plain-seeds', 10);
const PLAIN_EXPLORE = value('--plain-explore', 300);
const TIMED_SEEDS = value('--timed-seeds', 3);
const MEMORY = !flag('--no-memory');
const CHECK = !flag('--no-check');
// The memory target is stated at ten million states, so a whole bench searches that far, in
// both orders, and reads the peak; --quick stops at a million and extrapolates.
const CHECK_MEMORY_STATES = value('--check-memory-states', quick ? 1_000_000 : 10_000_000);
const TARGET_STATES = 10_000_000;
/**
 * The whole catalogue with every pair on two threads, not in --quick. With every occurrence of
 * every place it is millions of runs (the stream designs reach hundreds of places each), so it is
 * stopped after --all-pairs-limit seconds and reported as not finished; CI's gate, the same sweep
 * at each place's first occurrence, is timed beside it.
 */
const ALL_PAIRS = !quick && !flag('--no-all-pairs');
const ALL_PAIRS_LIMIT_S = value('--all-pairs-limit', 600);

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const MERCURY = ['mercury-outbox', 'mercury-dual-write-commit-first', 'mercury-dual-write-publish-first', 'inventory-ack-before-commit', 'inventory-inbox-separate-tx'];
/**
 * SPIN on the same five designs (bench/spin/mercury.pml, 2 orders, one crash), measured in this
 * run with gcc -O2 and -O0; without spin or gcc the ratios are skipped and the reason printed.
 */
const spinO2 = spinReference({ opt: 'O2' });
const spinO0 = spinReference({ opt: 'O0' });

// Small helpers for timing, medians and printing.

const now = () => performance.now();
const median = (xs: readonly number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

/** A command from a cold start, up to three times: each wall time, and what the first run that did not exit 0 printed. */
function coldRuns(args: readonly string[], env?: NodeJS.ProcessEnv): { readonly times: number[]; readonly failure?: string } {
  const times: number[] = [];
  let failure: string | undefined;
  for (let r = 0; r < Math.min(REPEATS, 3); r++) {
    const start = now();
    const child = spawnSync(process.execPath, args, { cwd: ROOT, encoding: 'utf8', maxBuffer: 256 * 2 ** 20, ...(env ? { env } : {}) });
    times.push(now() - start);
    if (child.status !== 0) failure ??= `${child.stdout.slice(0, 400)}${child.stderr.slice(0, 400)}`;
  }
  return failure === undefined ? { times } : { times, failure };
}
const int = (n: number) => Math.round(n).toLocaleString('en-US');
const sec = (ms: number) => `${(ms / 1000).toFixed(ms < 10_000 ? 3 : 1)} s`;
const spread = (xs: readonly number[], f: (n: number) => string) => `median ${f(median(xs))} (min ${f(Math.min(...xs))}, max ${f(Math.max(...xs))}, n=${xs.length})`;
const line = (s = '') => console.log(s);
const heading = (s: string) => line(`\n== ${s} ${'='.repeat(Math.max(0, 88 - s.length))}`);

/**
 * Every World.run is counted, so runs and simulated steps can be read around any block. A run
 * that resumed from its reference run counts only the steps it performed.
 */
const counter = { runs: 0, steps: 0 };
const worldRun = World.prototype.run;
World.prototype.run = function (this: World) {
  const result = worldRun.call(this);
  counter.runs++;
  counter.steps += result.steps - (result.sharedSteps ?? 0);
  return result;
};

/** RSS of this process, sampled at every measurement and every 200 runs. */
let peakRss = process.memoryUsage().rss;
const sampleRss = () => {
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
};
const sampledRun = World.prototype.run;
World.prototype.run = function (this: World) {
  const result = sampledRun.call(this);
  if (counter.runs % 200 === 0) sampleRss();
  return result;
};

interface Measure {
  ms: number;
  runs: number;
  steps: number;
}
function measure(f: () => void): Measure {
  const runs = counter.runs;
  const steps = counter.steps;
  const start = now();
  f();
  const ms = now() - start;
  sampleRss();
  return { ms, runs: counter.runs - runs, steps: counter.steps - steps };
}

interface Target {
  readonly name: string;
  readonly figure: string;
  readonly goal: string;
  readonly pass: boolean;
  readonly miss: string;
}
const targets: Target[] = [];
function target(name: string, figure: string, goal: string, pass: boolean, miss: string): void {
  targets.push({ name, figure, goal, pass, miss: pass ? '' : miss });
  line(`  ${pass ? 'PASS' : 'MISS'}  ${name}: ${figure} (target ${goal})${pass ? '' : ` — missed by ${miss}`}`);
}

// Setup: the catalogue and the scenarios each section measures.

heading('faultline benchmark');
const cpu = cpus();
line(`node ${process.version}, ${cpu.length} × ${cpu[0]?.model ?? 'cpu'}, load average at start ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
line(`${REPEATS} repeats per figure (median shown); ${quick ? 'quick mode' : 'full mode'}`);

const loadStart = now();
const catalogue = await loadCatalogue();
const loadMs = now() - loadStart;
const byName = new Map(catalogue.map((e) => [e.scenario.name, e.scenario]));
const five = MERCURY.map((n) => {
  const s = byName.get(n);
  if (!s) throw new Error(`the catalogue has no ${n}`);
  return s;
});
const outbox = five[0]!;
line(`catalogue: ${catalogue.length} scenarios, loaded in ${sec(loadMs)}`);

// GC time, read from the runtime's own gc performance entries.
let gcMs = 0;
const gcObserver = new PerformanceObserver((list) => {
  for (const e of list.getEntries()) gcMs += e.duration;
});
gcObserver.observe({ entryTypes: ['gc'] });
/** GC entries reach the observer on a later turn of the event loop; this waits for them. */
const flushGc = async () => {
  await new Promise((r) => setTimeout(r, 20));
  return gcMs;
};

// Section 1: the five Mercury verdicts against the model checker's time.

heading('1. the five Mercury verdicts (2 orders, one fault per run, every window)');
for (const s of five) runWindows(s); // warm-up
const fiveTimes: number[] = [];
const perScenario = new Map<string, Measure[]>();
let fiveResults: WindowsResult[] = [];
const fiveMeasures: Measure[] = [];
for (let r = 0; r < REPEATS; r++) {
  const results: WindowsResult[] = [];
  const m = measure(() => {
    for (const s of five) {
      const one = measure(() => results.push(runWindows(s)));
      perScenario.set(s.name, [...(perScenario.get(s.name) ?? []), one]);
    }
  });
  fiveTimes.push(m.ms);
  fiveMeasures.push(m);
  fiveResults = results;
}
const fiveMeasure = fiveMeasures[0];
for (const r of fiveResults) {
  line(`  ${r.name.padEnd(34)} ${String(r.coverage.runs).padStart(4)} runs  ${r.judgement.verdict.padEnd(8)} ${r.judgement.asExpected ? 'as expected' : 'NOT AS EXPECTED'}  ${sec(median(perScenario.get(r.name)!.map((m) => m.ms)))}`);
}
const fiveMs = median(fiveTimes);
line(`  sum of runWindows over the five: ${spread(fiveTimes, sec)}; ${int(fiveMeasure!.runs)} World runs, ${int(fiveMeasure!.steps)} steps per pass`);
line(`  the figure above is warm and in one process; the same five from a cold start, as one command:`);
const cold = coldRuns(['--import', 'tsx', 'bench/fiveVerdicts.ts']);
if (cold.failure !== undefined) line(`  cold run failed: ${cold.failure}`);
const coldMs = median(cold.times);
line(`  cold, one process from start (node, tsx, models, every run): ${spread(cold.times, sec)}`);
// The verdicts as the installed command gives them: compiled JavaScript, and each scenario stopped
// at its first violation (--fail-fast), as pan stops at its first error. This is the figure the
// targets are judged on; the full sweep above writes every row of the report as well.
const built = ensureBuilt();
let verdictMs: number | undefined;
let verdictsOk = false;
if (built.ok) {
  const verdicts = coldRuns([COMPILED_BIN, 'windows', ...MERCURY, '--fail-fast', '--json']);
  verdictMs = median(verdicts.times);
  verdictsOk = verdicts.failure === undefined;
  line(`  cold, the compiled command (${built.note}), verdicts only: \`faultline windows <the five> --fail-fast --json\`: ${spread(verdicts.times, sec)}${verdictsOk ? '' : ', a verdict NOT as expected'}`);
} else line(`  the compiled command not timed: ${built.note}`);
// Every verdict as expected, warm in this process and from the compiled command alike.
const fiveOk = fiveResults.every((r) => r.judgement.asExpected) && (verdictMs === undefined || verdictsOk);
if (spinO2.measured && spinO0.measured) {
  line(`  SPIN on the same five (spin -a, gcc, ./pan, measured now): ${spinO2.seconds.toFixed(2)} s with gcc -O2, ${spinO0.seconds.toFixed(2)} s with -O0 (searches alone ${spinO2.searchSeconds.toFixed(3)} s)`);
  line(`  the full sweep through tsx is ${(spinO2.seconds / (coldMs / 1000)).toFixed(1)}x faster than SPIN -O2 and ${(spinO0.seconds / (coldMs / 1000)).toFixed(1)}x faster than SPIN -O0 end to end`);
  if (verdictMs !== undefined) {
    const vsO2 = spinO2.seconds / (verdictMs / 1000);
    const vsO0 = spinO0.seconds / (verdictMs / 1000);
    // Two decimals: these ratios sit near their targets, where one decimal rounds a miss up to the goal.
    line(`  the compiled verdicts are ${vsO2.toFixed(2)}x faster than SPIN -O2 and ${vsO0.toFixed(2)}x faster than SPIN -O0 end to end`);
    const shortOf = (ratio: number, goal: number) => `${(((goal - ratio) / goal) * 100).toFixed(1)}% short`;
    target('five Mercury verdicts (windows), 10x faster than SPIN -O2', `${vsO2.toFixed(2)}x (compiled, --fail-fast ${sec(verdictMs)} vs ${spinO2.seconds.toFixed(2)} s)${fiveOk ? '' : ', a verdict NOT as expected'}`, '>= 10x', vsO2 >= 10 && fiveOk, shortOf(vsO2, 10));
    target('five Mercury verdicts (windows), 3x faster than SPIN -O0', `${vsO0.toFixed(2)}x (compiled, --fail-fast ${sec(verdictMs)} vs ${spinO0.seconds.toFixed(2)} s)`, '>= 3x', vsO0 >= 3 && fiveOk, shortOf(vsO0, 3));
  }
} else {
  line(`  SPIN not measured: ${spinO2.measured ? '' : spinO2.reason}`);
}
target(
  'five Mercury verdicts, warm in one process',
  `${sec(fiveMs)}${fiveOk ? '' : ', a verdict NOT as expected'}`,
  '< 0.5 s',
  fiveMs < 500 && fiveOk,
  `${sec(fiveMs - 500)} (${(fiveMs / 500).toFixed(1)}x the budget)`,
);

// Section 2: windows mode over the whole catalogue.

heading('2. windows all (loadCatalogue + runWindows over every catalogue scenario, modules cached after the first pass)');
const allTimes: number[] = [];
const allMeasures: Measure[] = [];
let allResults: WindowsResult[] = [];
for (let r = 0; r < REPEATS; r++) {
  const results: WindowsResult[] = [];
  const runs = counter.runs;
  const steps = counter.steps;
  const start = now();
  const entries = await loadCatalogue(); // its modules are cached after the first load
  for (const { scenario } of entries) results.push(runWindows(scenario));
  const ms = now() - start;
  sampleRss();
  allTimes.push(ms);
  allMeasures.push({ ms, runs: counter.runs - runs, steps: counter.steps - steps });
  allResults = results;
}
const allMeasure = allMeasures[0];
const unexpected = allResults.filter((r) => !r.judgement.asExpected).map((r) => r.name);
line(`  ${allResults.length} scenarios, ${int(allMeasure!.runs)} World runs, ${int(allMeasure!.steps)} steps per pass; ${unexpected.length === 0 ? 'every verdict as expected' : `NOT as expected: ${unexpected.join(', ')}`}`);
line(`  wall time: ${spread(allTimes, sec)}`);
const allMs = median(allTimes);
{
  // What `npm start` costs from a cold start, reports written (to a scratch folder) included.
  const coldAll = coldRuns(['bin/faultline.js', 'windows', 'all', '--out', `${tmpdir()}/faultline-bench-reports`], { ...process.env, NO_COLOR: '1' }).times;
  line(`  cold, \`faultline windows all\` as a command, reports written: ${spread(coldAll, sec)}`);
}
target('windows all over the catalogue', sec(allMs), '< 10 s', allMs < 10_000, `${sec(allMs - 10_000)}`);
{
  // Prefix sharing: every single-fault sweep of the catalogue, each faulted run started where its
  // first fault strikes in the captured reference run, against the same sweeps run from the start.
  const settings: SweepSettings = { seed: 1, pairs: false, maxOccurrence: 2, failFast: false };
  const shared: number[] = [];
  const whole: number[] = [];
  let performed = { shared: 0, whole: 0 };
  for (let r = 0; r < REPEATS; r++) {
    for (const capture of [true, false]) {
      const m = measure(() => {
        for (const { scenario } of catalogue) {
          const reference = runScenario(scenario, { seed: settings.seed, plan: [], keepTrace: true, capture });
          const plan = sweepPlan(scenario, settings, reference);
          sweepWindows(scenario, plan, 0, plan.total);
        }
      });
      (capture ? shared : whole).push(m.ms);
      performed = capture ? { ...performed, shared: m.steps } : { ...performed, whole: m.steps };
    }
  }
  line(`  prefix sharing, every single-fault sweep: runs from the start ${spread(whole, sec)}; started where their first fault strikes ${spread(shared, sec)}`);
  line(`    steps performed: ${int(performed.whole)} from the start, ${int(performed.shared)} started where the first fault strikes (${((1 - performed.shared / performed.whole) * 100).toFixed(1)}% taken over from the reference runs); ${(median(whole) / median(shared)).toFixed(2)}x faster`);
}

// Section 3: simulated steps and runs per second.

heading('3. simulated steps/s and runs/s');
const rates: { what: string; stepsPerS: number[]; runsPerS: number[] }[] = [];
const report = (what: string, ms: readonly Measure[]) => {
  const stepsPerS = ms.map((m) => (m.steps / m.ms) * 1000);
  const runsPerS = ms.map((m) => (m.runs / m.ms) * 1000);
  rates.push({ what, stepsPerS, runsPerS });
  line(`  ${what.padEnd(52)} ${int(median(stepsPerS)).padStart(9)} steps/s ${int(median(runsPerS)).padStart(7)} runs/s  (runs/s min ${int(Math.min(...runsPerS))}, max ${int(Math.max(...runsPerS))})`);
  return median(runsPerS);
};
const rate = (what: string, f: () => void) => {
  f(); // warm-up
  const ms: Measure[] = [];
  for (let r = 0; r < REPEATS; r++) ms.push(measure(f));
  return report(what, ms);
};
report('windows, mercury-outbox (from 1.)', perScenario.get(outbox.name)!);
report('windows, the five Mercury designs (from 1.)', fiveMeasures);
report(`windows, whole catalogue, ${catalogue.length} scenarios (from 2.)`, allMeasures);
let exploreSeed = 1;
const exploreOutbox = rate(`explore, mercury-outbox (${int(EXPLORE_RUNS)} runs)`, () => {
  const r = explore(outbox, { runs: EXPLORE_RUNS, seed: exploreSeed++ });
  if (r.search.status !== 'passed') throw new Error(`explore found ${r.judgement.verdict} in mercury-outbox`);
});
rate(`explore, whole catalogue (${CATALOGUE_EXPLORE_RUNS} runs each)`, () => {
  for (const { scenario } of catalogue) explore(scenario, { runs: CATALOGUE_EXPLORE_RUNS, seed: 1 });
});
line('  (a run is one World.run; explore stops a violated scenario at its first counterexample and shrinks it)');
target('explore on mercury-outbox, 2 orders, one core', `${int(exploreOutbox)} runs/s`, '>= 10,000 runs/s', exploreOutbox >= 10_000, `${int(10_000 - exploreOutbox)} runs/s (${(10_000 / exploreOutbox).toFixed(1)}x short)`);

// Section 4: the machine layer against plain reducers, in the same World loop.
//
// This is like for like: the plain steppers of bench/plainOutbox.ts and the models run in the
// same World (schedule, network draws and faults, quiet rule, crashes and restarts, Trace), on
// the same design and the same cases, judged by the same claim; and since each plain reducer
// asks for exactly the actions its model asks for, the World does the same kernel work for both
// (the identical trace hashes printed first show it). Only the stepping differs: the compiled
// tables, XState's own `transition`, or a hand-written switch.

heading('4. the machine layer against plain reducers (bench/plainOutbox.ts), in the same World loop');
const cases = plainComparisonCases({ seeds: PLAIN_SEEDS, exploreCases: PLAIN_EXPLORE });
const windowsCases = cases.filter((c) => c.mode === 'windows').length;
const comparison = comparePlainOutbox(cases);
const fmtOutcomes = (o: Readonly<Record<string, number>>) => Object.entries(o).map(([k, v]) => `${k} ${v}`).join(', ');
line(`  cases: every windows-mode plan of mercury-outbox at seeds 1..${PLAIN_SEEDS} (${int(windowsCases)} runs) and ${int(cases.length - windowsCases)} explore cases (fast-check seed 42); a fault struck in ${int(comparison.struck)} of ${int(comparison.runs)}`);
line(`  plain steppers against compiled models: same trace hash, outcome, steps, ticks and durable end state on ${int(comparison.identical)}/${int(comparison.runs)} runs; outcomes ${fmtOutcomes(comparison.outcomes)}`);
for (const d of comparison.divergences.slice(0, 5)) line(`    DIVERGES: seed ${d.case.seed}, size ${d.case.size}, plan ${JSON.stringify(d.case.plan)}: ${d.differs.join('; ')}`);
const sameRuns = comparison.identical === comparison.runs && Object.keys(comparison.outcomes).join() === 'holds';

// The timed passes: the windows plans of the first seeds and the explore cases, each stepped by
// the three drivers, with the trace hashed (as reports and replays run) and not hashed (as explore
// and windows mode run). Repeats interleave the six passes, so load on the machine falls on all.
const timed = cases.filter((c) => c.mode === 'explore' || c.seed <= TIMED_SEEDS);
const drivers = [
  { name: 'compiled models', run: (c: ComparisonCase, hashTrace: boolean) => runScenario(outbox, { ...runSpecOf(c), hashTrace, driver: 'compiled' }) },
  { name: "XState's own driver", run: (c: ComparisonCase, hashTrace: boolean) => runScenario(outbox, { ...runSpecOf(c), hashTrace, driver: 'xstate' }) },
  { name: 'plain steppers', run: (c: ComparisonCase, hashTrace: boolean) => runPlainOutbox({ ...runSpecOf(c), hashTrace }) },
] as const;
const stepPass = (d: (typeof drivers)[number], hashTrace: boolean, list: readonly ComparisonCase[] = timed) => {
  let steps = 0;
  const start = now();
  for (const c of list) steps += d.run(c, hashTrace).report.steps;
  return { steps, ms: now() - start };
};
const stepRates = new Map<string, number[]>();
for (let r = -1; r < REPEATS; r++) {
  for (const hashTrace of [true, false]) {
    for (const d of drivers) {
      const p = stepPass(d, hashTrace);
      if (r < 0) continue; // the first round warms up
      const key = `${d.name}/${hashTrace}`;
      stepRates.set(key, [...(stepRates.get(key) ?? []), (p.steps / p.ms) * 1000]);
    }
  }
}
const stepRateOf = (name: string, hashTrace: boolean) => median(stepRates.get(`${name}/${hashTrace}`)!);
line(`  steps/s over ${int(timed.length)} runs per pass (windows plans at seeds 1..${TIMED_SEEDS} and the explore cases), median of ${REPEATS}:`);
line(`    ${''.padEnd(22)} ${'trace hashed'.padStart(26)}   ${'trace not hashed'.padStart(26)}`);
for (const d of drivers) {
  const cell = (hashTrace: boolean) => {
    const rate = stepRateOf(d.name, hashTrace);
    return `${int(rate).padStart(9)} steps/s ${(1e6 / rate).toFixed(2).padStart(6)} µs/step`;
  };
  line(`    ${d.name.padEnd(22)} ${cell(true)}   ${cell(false)}`);
}
const ratioOf = (name: string, hashTrace: boolean) => stepRateOf('plain steppers', hashTrace) / stepRateOf(name, hashTrace);
const compiledRatio = { hashed: ratioOf('compiled models', true), unhashed: ratioOf('compiled models', false) };
const xstateRatio = { hashed: ratioOf("XState's own driver", true), unhashed: ratioOf("XState's own driver", false) };
line(`    ${'compiled / plain'.padEnd(22)} ${`${compiledRatio.hashed.toFixed(2)}x`.padStart(26)}   ${`${compiledRatio.unhashed.toFixed(2)}x`.padStart(26)}`);
line(`    ${'xstate / plain'.padEnd(22)} ${`${xstateRatio.hashed.toFixed(2)}x`.padStart(26)}   ${`${xstateRatio.unhashed.toFixed(2)}x`.padStart(26)}`);
// What section 3's explore target asks of the World loop: the explore cases alone, not hashed,
// as explore runs them. The plain steppers are the most a faster machine layer could give.
const exploreCases = cases.filter((c) => c.mode === 'explore');
const exploreRates = { compiled: [] as number[], plain: [] as number[] };
for (let r = -1; r < REPEATS; r++) {
  for (const [key, d] of [['compiled', drivers[0]], ['plain', drivers[2]]] as const) {
    const p = stepPass(d, false, exploreCases);
    if (r >= 0) exploreRates[key].push((exploreCases.length / p.ms) * 1000);
  }
}
line(`  the ${int(exploreCases.length)} explore cases alone, trace not hashed (as explore runs them), median of ${REPEATS}: compiled models ${int(median(exploreRates.compiled))} runs/s, plain steppers ${int(median(exploreRates.plain))} runs/s (the most a faster machine layer could give this World loop, against section 3's target of 10,000)`);
const machineRate = stepRateOf('compiled models', true);
const xstateRate = stepRateOf("XState's own driver", true);
const plainRate = stepRateOf('plain steppers', true);
const versusPlain = (rate: number) => {
  const d = 1e6 / rate - 1e6 / plainRate;
  return `${Math.abs(d).toFixed(2)} µs ${d >= 0 ? 'more' : 'less'}`;
};
line(`  per step, with the trace hashed, the compiled models take ${versusPlain(machineRate)} than the plain steppers, XState's driver ${versusPlain(xstateRate)}`);

// Where a compiled step's time goes: time the pieces of one hashed pass (the timers add a little).
const machinePass = () => stepPass(drivers[0], true).steps;
const machines = new Set<AnyStateMachine>(outbox.build(outbox.workload, timeScaleOf(outbox)).map((c) => c.machine));
const spent = new Map<string, number>();
const restore: (() => void)[] = [];
let inside = 0;
const time = (obj: any, key: string, label: string) => {
  const f = obj[key];
  obj[key] = function (this: unknown, ...args: unknown[]) {
    if (inside > 0) return f.apply(this, args);
    inside++;
    const start = now();
    try {
      return f.apply(this, args);
    } finally {
      spent.set(label, (spent.get(label) ?? 0) + now() - start);
      inside--;
    }
  };
  restore.push(() => {
    obj[key] = f;
  });
};
// The pass runs the compiled driver; a machine it refused would go through XState's transition.
const TRANSITION = 'compiled transition (with the models\' actions)';
const INITIAL = 'compiled initial snapshot (boot, restart)';
for (const m of machines) {
  time(m, 'transition', TRANSITION);
  time(m, 'getInitialSnapshot', INITIAL);
}
time(CompiledMachine.prototype, 'transition', TRANSITION);
time(CompiledMachine.prototype, 'initial', INITIAL);
time(Trace.prototype, 'add', 'Trace.add (stableJson, line)');
time(Trace.prototype, 'hash', 'Trace.hash (sha-256)');
machinePass();
spent.clear();
const gcBefore = await flushGc();
const start = now();
const steps = machinePass();
const passMs = now() - start;
const gcPass = (await flushGc()) - gcBefore;
for (const r of restore) r();
const perStep = (ms: number) => `${((ms * 1000) / steps).toFixed(2).padStart(6)} µs/step ${((ms / passMs) * 100).toFixed(0).padStart(3)}%`;
line(`  where a compiled step's time goes (one hashed pass, ${int(steps)} steps, ${((passMs * 1000) / steps).toFixed(2)} µs/step with the timers on):`);
let accounted = 0;
for (const [label, ms] of spent) {
  accounted += ms;
  line(`    ${label.padEnd(46)} ${perStep(ms)}`);
}
line(`    ${'World loop, Network, Schedule, claims, build'.padEnd(46)} ${perStep(passMs - accounted)}`);
line(`    ${'(garbage collection, spread over all of these)'.padEnd(46)} ${perStep(gcPass)}`);
// The target: the worse of the two like-for-like ratios, hashed and not hashed.
const ratio = Math.max(compiledRatio.hashed, compiledRatio.unhashed);
target(
  'machine layer within 1.3x of plain reducers',
  `${ratio.toFixed(2)}x like for like, same World loop (${compiledRatio.hashed.toFixed(2)}x hashed, ${compiledRatio.unhashed.toFixed(2)}x not)${sameRuns ? '' : ', RUNS DIFFER'}`,
  '<= 1.3x',
  ratio <= 1.3 && sameRuns,
  `${(ratio - 1.3).toFixed(2)}x over (${(ratio / 1.3).toFixed(2)}x the allowance)`,
);

// Section 5: peak memory of a long exploration.

heading('5. memory');
sampleRss();
line(`  this process: peak RSS sampled so far ${(peakRss / 2 ** 20).toFixed(0)} MB (catalogue, every pass above)`);
let memoryMB: number | undefined;
if (MEMORY) {
  const sampled = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', 'bench/exploreMemory.ts', 'mercury-outbox', String(SAMPLED_RUNS)], {
    cwd: ROOT,
    encoding: 'utf8',
    maxBuffer: 64 * 2 ** 20,
  });
  if (sampled.status === 0) {
    const s = JSON.parse(sampled.stdout.trim().split('\n').pop()!) as {
      runs: number;
      seconds: number;
      collected: boolean;
      samples: { run: number; rssMB: number; heapMB: number }[];
    };
    const tenth = Math.max(1, Math.floor(s.samples.length / 10));
    const avg = (xs: { heapMB: number }[]) => xs.reduce((a, x) => a + x.heapMB, 0) / xs.length;
    const early = avg(s.samples.slice(1, 1 + tenth));
    const late = avg(s.samples.slice(-tenth));
    const picks = [0, Math.floor(s.samples.length / 4), Math.floor(s.samples.length / 2), s.samples.length - 1].map((i) => s.samples[i]!);
    line(`  explore mercury-outbox, ${int(s.runs)} runs in one process (one run), sampled every ${int(s.samples[0]?.run ?? 0)} runs${s.collected ? ' after a full GC' : ''}:`);
    line(`    ${picks.map((p) => `run ${int(p.run)}: heap ${p.heapMB.toFixed(1)} MB, rss ${p.rssMB.toFixed(0)} MB`).join('; ')}`);
    line(`    retained heap, early samples ${early.toFixed(1)} MB, last tenth ${late.toFixed(1)} MB: ${late - early < 5 ? 'flat' : `GROWING by ${(late - early).toFixed(1)} MB`}`);
  } else {
    line(`  sampled exploration failed: ${sampled.stderr.slice(0, 400)}`);
  }
  // The target is judged on the installed command (compiled JavaScript, as section 1's verdicts
  // are): the source checkout's bin/faultline.js also runs tsx's loader, whose thread and
  // transpiled sources hold about 50 MB of their own, which no user of the package pays. Both
  // are measured, so the loader's share shows.
  const exploreArgs = ['explore', 'mercury-outbox', '--runs', String(MEMORY_RUNS), '--json'];
  const peakOf = (cmd: readonly string[]) => {
    const hasTime = existsSync('/usr/bin/time');
    const child = hasTime
      ? spawnSync('/usr/bin/time', ['-v', process.execPath, ...cmd], { cwd: ROOT, encoding: 'utf8', maxBuffer: 256 * 2 ** 20 })
      : spawnSync(process.execPath, cmd, { cwd: ROOT, encoding: 'utf8', maxBuffer: 256 * 2 ** 20 });
    const maxKb = /Maximum resident set size \(kbytes\): (\d+)/.exec(child.stderr ?? '')?.[1];
    const elapsed = /Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): ([\d:.]+)/.exec(child.stderr ?? '')?.[1];
    let summary = '';
    try {
      const r = JSON.parse(child.stdout) as { runs: number; verdict: string; asExpected: boolean };
      summary = `${int(r.runs)} runs, verdict ${r.verdict}${r.asExpected ? ', as expected' : ', NOT as expected'}`;
    } catch {
      summary = `exit ${child.status}, no JSON result`;
    }
    line(`  node ${cmd.map((a) => a.replace(`${ROOT}/`, '')).join(' ')} (one run): ${summary}; wall ${elapsed ?? '?'}; peak RSS ${maxKb ? `${(Number(maxKb) / 1024).toFixed(0)} MB` : 'unknown (no /usr/bin/time)'}`);
    return maxKb === undefined ? undefined : Number(maxKb) / 1024;
  };
  const installed = ensureBuilt();
  if (installed.ok) memoryMB = peakOf([COMPILED_BIN, ...exploreArgs]);
  else line(`  the compiled command not measured: ${installed.note}`);
  const sourceMB = peakOf(['bin/faultline.js', ...exploreArgs]);
  if (memoryMB !== undefined && sourceMB !== undefined) line(`  the source checkout's command (tsx's loader besides) peaks ${(sourceMB - memoryMB).toFixed(0)} MB higher`);
}
line('  explore keeps counts, not traces: runScenario hashes the trace without keeping its events (keepTrace false),');
line('  each run\'s World is dropped after its outcome is counted, and only a counterexample is re-run with its trace.');
if (memoryMB !== undefined) {
  target(`peak memory, explore mercury-outbox --runs ${int(MEMORY_RUNS)}, the installed command`, `${memoryMB.toFixed(0)} MB`, '< 200 MB', memoryMB < 200, `${(memoryMB - 200).toFixed(0)} MB`);
} else {
  line('  (peak memory target not measured: --no-memory or no /usr/bin/time)');
}

// Section 6: the exhaustive search against SPIN on the same five designs.

heading('6. check against SPIN (five Mercury designs, 2 orders, at most one crash, every interleaving)');
if (!CHECK) line('  (skipped: --no-check)');
else {
  const cv = await checkVsSpin();
  for (const r of cv.rows) {
    line(`  ${r.name.padEnd(34)} ${r.verdict.padEnd(9)} ${int(r.states).padStart(9)} states ${int(r.transitions).padStart(10)} transitions  depth ${String(r.depth).padStart(4)}  ${sec(r.seconds * 1000)}  ${int(r.states / r.seconds)} states/s`);
  }
  // Sleep sets skip commuting transitions, never states: the state counts stand beside SPIN's as before.
  line(`  transitions skipped by sleep sets: ${cv.rows.map((r) => `${r.name} ${int(r.slept)}`).join(', ')}`);
  line(`  faultline check, five designs: ${sec(cv.seconds * 1000)} warm in this process, ${sec(cv.coldSeconds * 1000)} as five cold commands, ${cv.compiledSeconds === undefined ? 'the compiled command not timed' : `${sec(cv.compiledSeconds * 1000)} as one compiled command`}`);
  // One command checks the five, as a user runs it; SPIN compiles a verifier per design.
  const checkCold = cv.compiledSeconds ?? cv.coldSeconds;
  const coldHow = cv.compiledSeconds === undefined ? 'five cold commands' : 'one compiled command';
  const spin = spinO2;
  if (spin.measured) {
    for (const r of spin.results) {
      line(`  SPIN ${r.design.padEnd(29)} ${r.verdict.padEnd(9)} ${int(r.states).padStart(9)} states ${int(r.transitions).padStart(10)} transitions  depth ${String(r.depth).padStart(4)}  search ${r.seconds.search.toFixed(3)} s, end to end ${r.seconds.total.toFixed(2)} s`);
    }
    line(`  SPIN (spin -a, gcc -O2, ./pan) five designs end to end: ${spin.seconds.toFixed(2)} s, searches alone ${spin.searchSeconds.toFixed(3)} s`);
    const agree = cv.rows.every((r, i) => r.verdict === spin.results[i]?.verdict);
    line(`  verdicts ${agree ? 'agree' : 'DISAGREE'} with SPIN's; faultline/SPIN end to end (${coldHow}): ${(checkCold / spin.seconds).toFixed(2)}x`);
    target('five Mercury verdicts by check, faster than SPIN -O2 end to end', `${sec(checkCold * 1000)} (${coldHow}) vs SPIN ${spin.seconds.toFixed(2)} s${agree ? '' : ', verdicts disagree'}${cv.compiledOk === false ? ', the compiled command NOT as expected' : ''}`, '< SPIN', agree && cv.compiledOk !== false && checkCold < spin.seconds, `${(checkCold / spin.seconds).toFixed(1)}x SPIN's time`);
  } else line(`  SPIN skipped: ${spin.reason}`);
  const outbox = cv.rows.find((r) => r.name === 'mercury-outbox')!;
  const firstRate = outbox.states / outbox.seconds;
  // The rows above are each design's first search in this process, V8's compiling included; the
  // target is the search's throughput, so the same search is repeated and the median taken.
  const rates = await warmRates('mercury-outbox', REPEATS);
  const rate = median(rates);
  line(`  check mercury-outbox searched again, ${REPEATS} times: ${spread(rates, (n) => `${int(n)} states/s`)}; its first search above, compiling included: ${int(firstRate)} states/s`);
  target('check states/s on mercury-outbox (search repeated, median)', `${int(rate)} states/s`, '>= 500,000', rate >= 500_000, `${(500_000 / rate).toFixed(1)}x short`);
  // Each order searched to ten million states, where the target is stated, and its peak read. A
  // breadth-first search that ends at its bound undecided is followed, as `check` always does, by
  // a depth-first one within the same bound, so its figure is the peak of the two.
  // A shorter search (--quick, --check-memory-states) is run twice, at a fifth of its states and
  // at all of them, and the slope between them, what a state costs free of node's and the
  // catalogue's fixed share, carries it to ten million: an estimate, and printed as one.
  for (const dfs of [false, true]) {
    const how = dfs ? 'depth-first' : 'breadth-first';
    const search = `${CHECK_MEMORY_SEARCH.join(' ')}${dfs ? ' --dfs' : ''}`;
    const big = checkMemory(CHECK_MEMORY_STATES, dfs);
    if (big.peakMB === undefined || big.states === undefined) {
      line(`  check memory (${how}) not measured: ${big.reason ?? 'no figure'}`);
      continue;
    }
    const measured = `${int(big.states)} states peak RSS ${big.peakMB.toFixed(0)} MB in ${big.seconds!.toFixed(1)} s (${int(big.states / big.seconds!)} states/s)`;
    if (big.states >= TARGET_STATES) {
      line(`  check ${search}: ${measured}`);
      target(`check memory at ${int(big.states)} states, ${how} (measured)`, `${int(big.peakMB)} MB`, '<= 1,024 MB', big.peakMB <= 1024, `${int(big.peakMB - 1024)} MB`);
      continue;
    }
    const small = checkMemory(Math.round(CHECK_MEMORY_STATES / 5), dfs);
    if (small.peakMB === undefined || small.states === undefined || small.states >= big.states) {
      line(`  check ${search}: ${measured}; no smaller search to extrapolate from: ${small.reason ?? 'the search ended before its bound'}`);
      continue;
    }
    const perState = (big.peakMB - small.peakMB) / (big.states - small.states);
    const at10M = big.peakMB + perState * (TARGET_STATES - big.states);
    line(`  check ${search}: ${int(small.states)} states peak RSS ${small.peakMB.toFixed(0)} MB, ${measured}: about ${int(perState * 2 ** 20)} bytes a state`);
    target(`check memory at 10 M states, ${how} (extrapolated)`, `~${int(at10M)} MB`, '<= 1,024 MB', at10M <= 1024, `${int(at10M - 1024)} MB`);
  }
}

// Section 7: a sweep spread over threads, as the command runs it.

heading('7. windows --pairs on threads (the command, from a cold start)');
/** Runs `faultline windows … --out <tmp>` as a child and reads its closing line. */
function sweepCommand(args: readonly string[], limitMs?: number): { ms: number; runs: number | undefined; ok: boolean; finished: boolean; out: string } {
  const dir = mkdtempSync(join(tmpdir(), 'faultline-bench-'));
  const start = now();
  const child = spawnSync(process.execPath, ['bin/faultline.js', 'windows', ...args, '--out', join(dir, 'reports')], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 2 ** 20, ...(limitMs === undefined ? {} : { timeout: limitMs, killSignal: 'SIGKILL' as const }) });
  const ms = now() - start;
  rmSync(dir, { recursive: true, force: true });
  const finished = child.signal === null;
  const m = /(\d+) scenarios?, (\d+) runs, (every verdict as expected|\d+ not as expected)/.exec(child.stdout);
  return { ms, runs: m ? Number(m[2]) : undefined, ok: child.status === 0 && m?.[3] === 'every verdict as expected', finished, out: child.stdout.slice(-300) + child.stderr.slice(0, 300) };
}
const mercuryPairs = [...MERCURY, '--pairs'];
const oneThread = sweepCommand(mercuryPairs);
const twoThreads = sweepCommand([...mercuryPairs, '--workers', '2']);
line(`  the five Mercury designs, every pair: ${int(oneThread.runs ?? 0)} runs; one thread ${sec(oneThread.ms)}, --workers 2 ${sec(twoThreads.ms)} (${(oneThread.ms / twoThreads.ms).toFixed(2)}x)${oneThread.ok && twoThreads.ok ? '' : ' — NOT as expected: ' + oneThread.out + twoThreads.out}`);
if (ALL_PAIRS) {
  const gate = sweepCommand(['all', '--pairs', '--max-occurrence', '1', '--workers', '2']);
  line(`  CI's gate, windows all --pairs --max-occurrence 1 --workers 2: ${int(gate.runs ?? 0)} runs in ${sec(gate.ms)} (${int((gate.runs ?? 0) / (gate.ms / 1000))} runs/s)${gate.ok ? ', every verdict as expected' : ' — NOT as expected: ' + gate.out}`);
  const all = sweepCommand(['all', '--pairs', '--workers', '2'], ALL_PAIRS_LIMIT_S * 1000);
  if (all.finished) {
    line(`  windows all --pairs --workers 2: ${int(all.runs ?? 0)} runs in ${sec(all.ms)} (${int((all.runs ?? 0) / (all.ms / 1000))} runs/s)${all.ok ? ', every verdict as expected' : ' — NOT as expected: ' + all.out}`);
    target('windows all --pairs with two workers', sec(all.ms), '< 60 s', all.ok && all.ms < 60_000, `${(all.ms / 60_000).toFixed(1)}x the time`);
  } else {
    line(`  windows all --pairs --workers 2: not finished, stopped after ${sec(all.ms)} (--all-pairs-limit)`);
    target('windows all --pairs with two workers', `not finished in ${sec(all.ms)}`, '< 60 s', false, `more than ${(all.ms / 60_000).toFixed(0)}x the time`);
  }
} else line('  (windows all --pairs not timed: --quick or --no-all-pairs)');

// The summary: every target with its figure and verdict.

heading('summary');
const rows = [['target', 'figure', 'goal', 'result'], ...targets.map((t) => [t.name, t.figure, t.goal, t.pass ? 'PASS' : `MISS by ${t.miss}`])];
const widths = rows[0]!.map((_, c) => Math.min(64, Math.max(...rows.map((r) => r[c]!.length))));
for (const [i, r] of rows.entries()) {
  line(`  ${r.map((cell, c) => (c === r.length - 1 ? cell : cell.padEnd(widths[c]!))).join('  ')}`);
  if (i === 0) line(`  ${widths.map((w) => '-'.repeat(w)).join('  ')}`);
}
line('');
line(`  steps/s in one World loop, trace hashed: compiled ${int(machineRate)}, xstate ${int(xstateRate)}, plain ${int(plainRate)}; windows-mode runs/s: ${rates.slice(0, 3).map((r) => `${r.what.replace('windows, ', '')} ${int(median(r.runsPerS))}`).join(', ')}`);
line(`  explore runs/s: ${rates.slice(3).map((r) => `${r.what.replace('explore, ', '')} ${int(median(r.runsPerS))}`).join(', ')}`);
line(`  peak RSS of this process ${(peakRss / 2 ** 20).toFixed(0)} MB; load average at end ${loadavg().map((l) => l.toFixed(2)).join(' ')}; ${REPEATS} repeats per median`);
gcObserver.disconnect();

// `faultline check <scenario|file|folder|pattern|all>…`: every interleaving and every
// combination of up to K faults, by explicit-state search, for every scenario named (each search
// stops at its first violation unless --full asks for the whole bounded space); a summary
// table with each search's size and speed, one report set for all of them in the same forms as
// windows mode, and the exit code CI gates on (0 every verdict as expected, 1 otherwise). The
// report folder is checked before the searches and written only once they have all finished, as
// one set swapped into place. The speed is measured here, at the command line, and printed only:
// reports carry nothing that differs between two runs of the same search. On a terminal a
// progress line (states, their rate, the time at most left to the state bound) is drawn on
// stderr; `--reporter` chooses the report forms, `--watch` searches again whenever a scenario
// file changes, and in GitHub Actions the verdicts go to the job summary and each one not as
// expected is annotated on its scenario's file.
import { OPTION_RANGES } from '../base/optionRanges.ts';
import { performance } from 'node:perf_hooks';
import { entryPath, loadScenarios } from '../scenario/catalogue.ts';
import { check, DEFAULT_MAX_STATES, type CheckResult } from '../modes/check/check.ts';
import { parseShard, shardTakes } from '../sweep/shard.ts';
import { InputError } from '../base/inputError.ts';
import { checkOnWorkers } from '../sweep/sweepOnWorkers.ts';
import type { CheckPartFile } from '../sweep/sweepParts.ts';
import type { CheckTaskOptions } from '../sweep/sweepTask.ts';
import { parseArgv } from '../base/parseArgv.ts';
import { replayLine } from '../modes/replayLine.ts';
import { describeClause } from '../report/describeCoverage.ts';
import { thousands } from '../report/thousands.ts';
import { describePlan } from '../report/describePlan.ts';
import { windowReach } from '../report/describeSweep.ts';
import { renderJson } from '../report/json.ts';
import { expectationTally, verdictSummary } from '../report/verdictSummary.ts';
import { checkReportDir, writeReports } from '../report/writeReports.ts';
import type { Command } from './command.ts';
import { deferSignals } from './deferSignals.ts';
import { kindsFlag, text, wholeNumber } from './flagValues.ts';
import type { CliIo } from './io.ts';
import { loadOptions } from './loadOptions.ts';
import { partHead, refuseWithShard, shardOut, withPool, workersFlag, writePart } from './sweepFlags.ts';
import { styleFor, table } from './style.ts';
import { exitCodeOf } from '../checkers/verdict.ts';
import { reportToCi } from './ciReport.ts';
import { Progress } from './progress.ts';
import { ciRows, filesOf, formsFlag, REPORT_FLAGS, type PresentFlags } from './reportFlags.ts';
import { watchAndRun } from './watch.ts';

/** The whole folder is replaced by each run, so the default is a name no project uses for anything else, and not windows mode's. */
export const DEFAULT_OUT = 'faultline-check';

export const command: Command = {
  usage: 'check <scenario|file|folder|pattern|all>… [--faults K] [--kinds LIST] [--size N] [--max-states N] [--max-depth N] [--dfs] [--no-reduction] [--full | --fail-fast] [--world-latency] [--json] [--out DIR] [--reporter|--format LIST] [--watch] [--workers N] [--shard i/n]',
  spec: {
    command: 'check',
    flags: {
      faults: { type: 'string', value: 'K', help: 'at most K faults in one path (default 1)' },
      kinds: { type: 'string', value: 'LIST', help: "the fault kinds that may strike, joined by commas (default the scenario's own: crash,lose,duplicate,delay,reorder, and rebalance, restore and skew where its design declares them, unless it says)" },
      size: { type: 'string', value: 'N', help: "the workload size (default the scenario's own)" },
      'max-states': { type: 'string', value: 'N', help: `stop after N distinct states (default ${thousands(DEFAULT_MAX_STATES)}); a search this bound stops has decided nothing: unless it found a violation, its verdict is "inconclusive" (exit code 3)` },
      'max-depth': { type: 'string', value: 'N', help: 'extend no path past N steps; a verdict that would have been "holds" is then "holds within bound" (every path to that depth), or "inconclusive" (exit code 3) when no path reached its end' },
      dfs: { type: 'boolean', help: 'search depth-first (default breadth-first, whose counterexamples are shortest)' },
      'no-reduction': { type: 'boolean', help: 'take every transition, also those sleep sets skip as commuting with one already taken (same states and verdicts, more transitions)' },
      full: { type: 'boolean', help: "search on after the first violation, to the bound: every expected violation found and every window's reach known (default: stop at the first violation)" },
      'fail-fast': { type: 'boolean', help: 'stop at the first violation (the default; kept so that scripts which name it still run)' },
      'world-latency': { type: 'boolean', help: "give each message the World's latency window instead of landing before the clock moves (far more states)" },
      out: { type: 'string', value: 'DIR', help: `the folder the report set replaces (default ${DEFAULT_OUT}/): new, empty, or one faultline wrote` },
      ...REPORT_FLAGS,
      watch: { type: 'boolean', help: 'search again whenever a scenario file changes, until interrupted' },
      workers: { type: 'string', value: 'N', help: 'search N scenarios at once, each on a thread of its own (default 1); the result is the same as on one' },
      shard: { type: 'string', value: 'i/n', help: 'search every n-th scenario from the i-th and write the results as a part; faultline merge joins the n parts' },
      json: { type: 'boolean', help: 'print one JSON document, as windows --json does (schema faultline/check@1), with each search under "check"' },
    },
    positionals: { min: 1, max: Infinity, name: 'scenario names, files, folders, patterns or "all"' },
  },
  async run(args, io) {
    const { values, positionals } = parseArgv(args, this.spec);
    const faults = wholeNumber('--faults', values['faults'], ...OPTION_RANGES.faults) ?? 1;
    const kinds = kindsFlag(values['kinds']);
    const size = wholeNumber('--size', values['size'], ...OPTION_RANGES.size);
    const maxStates = wholeNumber('--max-states', values['max-states'], ...OPTION_RANGES.maxStates);
    const maxDepth = wholeNumber('--max-depth', values['max-depth'], ...OPTION_RANGES.maxDepth);
    const workers = workersFlag(values['workers']);
    const shard = parseShard('--shard', values['shard']);
    refuseWithShard(shard, values, ['json', 'watch', 'reporter', 'format']);
    const forms = formsFlag(values);
    if (values['full'] && values['fail-fast']) throw new InputError('--full and --fail-fast contradict each other: --full searches on after the first violation, --fail-fast stops there');
    const outDir = text(values['out']) ?? (shard ? shardOut(shard) : DEFAULT_OUT);
    // Find out before the searches, not after them, that the reports cannot be written; create nothing yet.
    const entries = await loadScenarios(positionals, { ...loadOptions(io), beforeLoad: () => checkReportDir(outDir) });
    if (values['watch']) return watchAndRun([this.spec.command, ...args], entries.map(entryPath), io);
    const options: CheckTaskOptions = {
      faults,
      ...(kinds === undefined ? {} : { kinds }),
      ...(size === undefined ? {} : { size }),
      ...(maxStates === undefined ? {} : { maxStates }),
      ...(maxDepth === undefined ? {} : { maxDepth }),
      ...(values['dfs'] ? { dfs: true } : {}),
      ...(values['no-reduction'] ? { reduction: false } : {}),
      // A gate wants a yes or no and the first counterexample; the whole bounded space is asked for.
      ...(values['full'] ? {} : { failFast: true }),
      ...(values['world-latency'] ? { worldLatency: true } : {}),
    };
    const progress = new Progress(io, 'state', io.errIsTTY && !values['json']);
    // A shard searches every n-th scenario; the rest are other shards' work.
    const mine = entries.map((e, index) => ({ ...e, index })).filter(({ index }) => !shard || shardTakes(index, shard));
    const results: TimedCheck[] = [];
    if (workers > 1) {
      // Each search is timed on its own thread, from the moment a thread takes it to its answer.
      const seconds = new Map<string, number>();
      const hooks = (ref: string) => {
        let started = 0;
        return { onStart: () => (started = performance.now()), onEnd: () => seconds.set(ref, (performance.now() - started) / 1000) };
      };
      const done = await withPool(workers, (pool) => checkOnWorkers(mine, options, pool, hooks));
      done.forEach((result, k) => results.push({ result, seconds: seconds.get(mine[k]!.ref)! }));
    } else {
      for (const [i, { scenario, ref }] of mine.entries()) {
        const started = performance.now();
        // The search may stop well before its bound (at its first violation, or when the space is done): the bound is what it cannot pass.
        progress.begin(`[${i + 1}/${mine.length}] ${scenario.name}`, maxStates ?? DEFAULT_MAX_STATES, true);
        const result = check(scenario, { ...options, ref, ...(progress.enabled ? { onProgress: (states: number) => progress.update(states) } : {}) });
        results.push({ result, seconds: (performance.now() - started) / 1000 });
      }
    }
    progress.clear();
    if (shard) {
      const part: CheckPartFile = {
        ...partHead('check', shard, entries, { maxStates: options.maxStates ?? DEFAULT_MAX_STATES, ...options }),
        scenarios: results.map(({ result: { claims: _claims, ...result }, seconds }, k) => ({ ref: mine[k]!.ref, index: mine[k]!.index, result, seconds })),
      };
      await writePart(part, outDir);
      io.out(`shard ${shard.index}/${shard.count}: ${mine.length} of ${entries.length} scenarios searched; its part is in ${outDir}/ (faultline merge joins the ${shard.count} parts)`);
      return 0;
    }
    return presentCheck(results, { json: values['json'] === true, outDir, forms, files: filesOf(entries) }, io);
  },
};

/** A check's result and the seconds its search took here. */
export interface TimedCheck {
  readonly result: CheckResult;
  readonly seconds: number;
}

/**
 * The states the searches visited, as the summary line counts them: the table's figures, and
 * apart from them those of the depth-first searches that followed an inconclusive breadth-first
 * one (the table leaves those out, so the two totals are told apart rather than summed unsaid).
 */
function statesSearched(results: readonly TimedCheck[]): string {
  const table = results.reduce((x, r) => x + r.result.check.states, 0);
  const retries = results.filter((r) => r.result.coverage.otherSearch !== undefined);
  const retried = retries.reduce((x, r) => x + r.result.coverage.otherSearch!.states, 0);
  if (retries.length === 0) return `${thousands(table)} states`;
  return `${thousands(table)} states (and ${thousands(retried)} more in ${retries.length === 1 ? 'a depth-first search' : `${retries.length} depth-first searches`} after the breadth-first one${retries.length === 1 ? '' : 's'} stopped)`;
}

/** Prints the searches' summary (or their JSON), writes their report set, tells CI, and returns the exit code. */
export async function presentCheck(results: readonly TimedCheck[], flags: PresentFlags, io: CliIo): Promise<number> {
  const { outDir } = flags;
  const checked = results.map((r) => r.result);
  await deferSignals(() => writeReports(checked, outDir, {}, flags.forms));
  reportToCi('check', ciRows(checked, flags.files ?? new Map()), flags.json ? io.err : io.out);
  if (flags.json) {
    io.out(renderJson(results.map((r) => r.result)));
    return exitCodeOf(results.map((r) => r.result.judgement));
  }
  const c = styleFor(io.colorLevel);
  const rows = results.map(({ result: r, seconds }) => {
    const v = verdictSummary(r);
    // The time covers both searches where a depth-first one followed a breadth-first one, so the rate counts both searches' states.
    const rate = (r.check.states + (r.coverage.otherSearch?.states ?? 0)) / Math.max(seconds, 1e-3);
    return [r.name, thousands(r.check.states), thousands(r.check.transitions), String(r.check.depth), `${seconds.toFixed(1)} s`, thousands(Math.round(rate)), v.verdict, v.expected, v.asExpected ? 'ok' : 'UNEXPECTED'];
  });
  io.out(
    table([['scenario', 'states', 'transitions', 'depth', 'time', 'states/s', 'verdict', 'expected', ''], ...rows], (ri, ci, t) => {
      if (ri === 0) return c.bold(t);
      if (ci === 6) return t.startsWith('holds') ? c.green(t) : t.startsWith('violated') ? c.yellow(t) : c.red(t);
      if (ci === 8) return t.startsWith('ok') ? c.green(t) : c.red.bold(t);
      return t;
    }),
  );
  if (results.length === 1) {
    const r = results[0]!.result;
    io.out(`\ncovers: ${verdictSummary(r).covers}`);
    for (const k of r.coverage.clauses) io.out(`  ${r.claims.length > 1 ? `${k.effect}: ` : ''}${describeClause(k, 'end state')}`);
    for (const w of windowReach(r)) io.out(`${w.text}: ${w.windows.join(', ')}`);
    for (const ce of r.counterexamples) io.out(`${ce.violation}: ${describePlan(ce.plan)}\n  replay: ${replayLine(ce.replay)}`);
  }
  for (const { result: r } of results.filter((x) => !x.result.judgement.asExpected)) {
    const v = verdictSummary(r);
    io.out(c.red(`\n${r.name}: expected ${v.expected}, got ${v.verdict}`));
    for (const p of v.problems) io.out(`  ${p}`);
    if (results.length > 1) for (const ce of r.counterexamples.filter((x) => r.judgement.unexpected.includes(x.violation))) io.out(`  ${ce.violation}: ${describePlan(ce.plan)}\n  replay: ${replayLine(ce.replay)}`);
  }
  const seconds = results.reduce((x, r) => x + r.seconds, 0);
  io.out(`\n${results.length} scenario${results.length === 1 ? '' : 's'}, ${statesSearched(results)} in ${seconds.toFixed(1)} s, ${expectationTally(results.map((r) => r.result.judgement), c.green, c.red)}; reports in ${outDir}/`);
  return exitCodeOf(results.map((r) => r.result.judgement));
}

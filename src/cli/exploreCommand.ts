// `faultline explore <scenario|file|folder|pattern|all>…`: fast-check searches plans and
// interleavings of each scenario named; a violation is shrunk and printed with the steps about
// its key and the line that replays it. On a terminal a progress line with its rate and an
// estimate is drawn on stderr; in GitHub Actions the verdicts go to the job summary and each one
// not as expected is annotated on its scenario's file.
import { OPTION_RANGES } from '../base/optionRanges.ts';
import { loadScenarios } from '../scenario/catalogue.ts';
import { DEFAULT_RUNS, explore, exploreRange, type ExploreOptions, type ExploreResult } from '../modes/explore.ts';
import { DEFAULT_SEED } from '../modes/windows.ts';
import { InputError } from '../base/inputError.ts';
import { checkReportDir } from '../report/writeReports.ts';
import { parseShard, shardRange } from '../sweep/shard.ts';
import { exploreOnWorkers, explorePartsOnWorkers } from '../sweep/sweepOnWorkers.ts';
import type { ExplorePartFile } from '../sweep/sweepParts.ts';
import { parseArgv } from '../base/parseArgv.ts';
import { describeCoverage } from '../report/describeCoverage.ts';
import { exploreJson } from '../report/runJson.ts';
import { expectedText, verdictSummary } from '../report/verdictSummary.ts';
import { schemaOf } from '../report/json.ts';
import { replayLine } from '../modes/replayLine.ts';
import { reportToCi, type CiRow } from './ciReport.ts';
import { Progress } from './progress.ts';
import { filesOf } from './reportFlags.ts';
import type { Command } from './command.ts';
import { text, wholeNumber } from './flagValues.ts';
import type { CliIo } from './io.ts';
import { partHead, refuseWithShard, shardOut, withPool, workersFlag, writePart } from './sweepFlags.ts';
import { loadOptions } from './loadOptions.ts';
import { printRun } from './printRun.ts';
import { styleFor } from './style.ts';
import { exitCodeOf } from '../checkers/verdict.ts';

export const command: Command = {
  usage: 'explore <scenario|file|folder|pattern|all>… [--runs N] [--seed S] [--max-faults N] [--max-occurrence N] [--json] [--workers N] [--shard i/n [--out DIR]]',
  spec: {
    command: 'explore',
    flags: {
      runs: { type: 'string', value: 'N', help: 'how many plans to try for each scenario (default 1000)' },
      seed: { type: 'string', value: 'S', help: "fast-check's seed (default 1)" },
      'max-faults': { type: 'string', value: 'N', help: 'at most this many faults in one plan (default 3)' },
      'max-occurrence': { type: 'string', value: 'N', help: 'the highest occurrence a fault may target (default: any the fault-free run reached, one of the first 3 half the time)' },
      workers: { type: 'string', value: 'N', help: 'run on N threads (default 1); the result is the same as on one' },
      shard: { type: 'string', value: 'i/n', help: "run the i-th of n equal stretches of each search's runs and write them as a part; faultline merge joins the n parts" },
      out: { type: 'string', value: 'DIR', help: 'with --shard: the folder its part goes to (default faultline-shard-i-of-n/)' },
      json: { type: 'boolean', help: 'print one JSON document: {schema, name, verdict, seed, path, traceHash, plan, trace, …}; for several scenarios, {schema, scenarios: [those]}' },
    },
    positionals: { min: 1, max: Infinity, name: 'scenario names, files, folders, patterns or "all"' },
  },
  async run(args, io) {
    const { values, positionals } = parseArgv(args, this.spec);
    const runs = wholeNumber('--runs', values['runs'], ...OPTION_RANGES.runs);
    const seed = wholeNumber('--seed', values['seed'], ...OPTION_RANGES.seed);
    const maxFaults = wholeNumber('--max-faults', values['max-faults'], ...OPTION_RANGES.maxFaults);
    const maxOccurrence = wholeNumber('--max-occurrence', values['max-occurrence'], ...OPTION_RANGES.maxOccurrence);
    const workers = workersFlag(values['workers']);
    const shard = parseShard('--shard', values['shard']);
    refuseWithShard(shard, values, ['json']);
    const outDir = text(values['out']);
    if (outDir !== undefined && !shard) throw new InputError('--out is where a shard writes its part; give it with --shard');
    const entries = await loadScenarios(positionals, { ...loadOptions(io), ...(shard ? { beforeLoad: () => checkReportDir(outDir ?? shardOut(shard)) } : {}) });
    const options: ExploreOptions = {
      ...(maxOccurrence === undefined ? {} : { maxOccurrence }),
      ...(runs === undefined ? {} : { runs }),
      ...(seed === undefined ? {} : { seed }),
      ...(maxFaults === undefined ? {} : { maxFaults }),
    };
    if (shard) {
      const [from, to] = shardRange(runs ?? DEFAULT_RUNS, shard);
      const parts = workers > 1 ? await withPool(workers, (pool) => explorePartsOnWorkers(entries, options, pool, from, to)) : entries.map(({ scenario, ref }) => exploreRange(scenario, { ...options, ref }, from, to - from));
      const part: ExplorePartFile = { ...partHead('explore', shard, entries, { seed: options.seed ?? DEFAULT_SEED, runs: options.runs ?? DEFAULT_RUNS, ...options }), scenarios: parts.map((p, k) => ({ ref: entries[k]!.ref, part: p })) };
      const out = outDir ?? shardOut(shard);
      await writePart(part, out);
      io.out(`shard ${shard.index}/${shard.count}: ${entries.length} scenario${entries.length === 1 ? '' : 's'}, runs ${from} to ${to - 1} of each; its part is in ${out}/ (faultline merge joins the ${shard.count} parts)`);
      return 0;
    }
    // The progress line counts runs on this thread; threads report a scenario's search when it ends.
    const progress = new Progress(io, 'run', io.errIsTTY && !values['json']);
    const results: ExploreResult[] =
      workers > 1
        ? await withPool(workers, (pool) => exploreOnWorkers(entries, options, pool))
        : entries.map(({ scenario, ref }, i) => {
            progress.begin(`[${i + 1}/${entries.length}] ${scenario.name}`, runs ?? DEFAULT_RUNS);
            return explore(scenario, { ...options, ref }, progress.enabled ? (done) => progress.update(done) : undefined);
          });
    progress.clear();
    return presentExplore(results, { json: values['json'] === true, files: filesOf(entries) }, io);
  },
};

/** A search as CI shows it. */
function ciRow(r: ExploreResult, files: ReadonlyMap<string, string> | undefined): CiRow {
  const v = verdictSummary(r);
  const replay = r.search.status === 'failed' ? replayLine(r.search.counterexample.replay) : undefined;
  return { name: r.name, file: files?.get(r.name), verdict: v.verdict, expected: v.expected, asExpected: v.asExpected, problems: v.problems, replay };
}

/** Prints each search's summary (or one JSON document) and returns the exit code. */
export function presentExplore(results: readonly ExploreResult[], flags: { readonly json: boolean; readonly files?: ReadonlyMap<string, string> }, io: CliIo): number {
  reportToCi('explore', results.map((r) => ciRow(r, flags.files)), flags.json ? io.err : io.out);
  if (flags.json) {
    io.out(results.length === 1 ? exploreJson(results[0]!) : `{"schema":"${schemaOf('explore')}","scenarios":[${results.map((r) => exploreJson(r)).join(',')}]}`);
    return exitCodeOf(results.map((r) => r.judgement));
  }
  const c = styleFor(io.colorLevel);
  for (const [i, result] of results.entries()) {
    if (i > 0) io.out('');
    io.out(`${c.bold(result.name)}: ${result.runs} runs from seed ${result.seed}; outcomes ${Object.entries(result.outcomes).map(([k, v]) => `${k} ${v}`).join(', ')}`);
    if (result.search.status === 'failed') {
      const ce = result.search.counterexample;
      io.out(c.red(`${ce.outcome} found and shrunk, as far as fast-check shrinks it (windows and check find the fewest faults):`));
      printRun(io.out, c, { ...ce, claims: result.claims, tick: result.tick });
    }
    io.out(`covers: ${describeCoverage(result.judgement.verdict, result.coverage)}`);
    io.out(`verdict ${result.judgement.verdict}, expected ${expectedText(result.judgement.expected)}: ${result.judgement.asExpected ? c.green('as expected') : c.red('NOT as expected')}`);
  }
  return exitCodeOf(results.map((r) => r.judgement));
}

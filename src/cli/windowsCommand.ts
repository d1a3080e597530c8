// `faultline windows <scenario|file|folder|pattern|all>…`: every failure window x every fault
// kind, for every scenario named, a summary table on the terminal, one report set for all of
// them written to --out (faultline-reports/ by default; `--reporter` chooses its forms), and an
// exit code CI can gate on: 0 when every verdict is as expected, 1 otherwise. The report folder
// is checked before the runs and written only once they have all finished, as one set swapped
// into place. `--only PLACE` runs the faults at one window or message point; `--watch` runs
// again whenever a scenario file changes. On a terminal a progress line with its rate and an
// estimate is drawn on stderr; in GitHub Actions the verdicts go to the job summary and each
// one not as expected is annotated on its scenario's file.
//
// `--workers N` spreads the runs over N threads with the same result; `--shard i/n` runs one
// stretch of every scenario's plans and writes its tally as a part for `faultline merge`.
import { OPTION_RANGES } from '../base/optionRanges.ts';
import { entryPath, loadScenarios, type CatalogueEntry } from '../scenario/catalogue.ts';
import { expectedVerdicts, type Scenario } from '../scenario/scenario.ts';
import { windowsOnWorkers, windowsPartsOnWorkers } from '../sweep/sweepOnWorkers.ts';
import { parseArgv } from '../base/parseArgv.ts';
import { replayLine } from '../modes/replayLine.ts';
import { describeClause } from '../report/describeCoverage.ts';
import { describePlan } from '../report/describePlan.ts';
import { describeStuck } from '../report/describeFinding.ts';
import { renderJson } from '../report/json.ts';
import { expectationTally, verdictSummary } from '../report/verdictSummary.ts';
import { checkReportDir, writeReports } from '../report/writeReports.ts';
import { parseShard, shardRange } from '../sweep/shard.ts';
import type { WindowsPartFile } from '../sweep/sweepParts.ts';
import { DEFAULT_SEED, runWindows, sweepSettings, type WindowsOptions, type WindowsResult } from '../modes/windows.ts';
import { sweepPlan, sweepWindows, type SweepPlan } from '../modes/windowsPart.ts';
import { reportToCi } from './ciReport.ts';
import type { Command } from './command.ts';
import { deferSignals } from './deferSignals.ts';
import { text, wholeNumber } from './flagValues.ts';
import type { CliIo } from './io.ts';
import { loadOptions } from './loadOptions.ts';
import { Progress } from './progress.ts';
import { ciRows, filesOf, formsFlag, REPORT_FLAGS, type PresentFlags } from './reportFlags.ts';
import { partHead, refuseWithShard, shardOut, withPool, workersFlag, writePart } from './sweepFlags.ts';
import { styleFor, table } from './style.ts';
import { exitCodeOf } from '../checkers/verdict.ts';
import { watchAndRun } from './watch.ts';

/** The whole folder is replaced by each run, so the default is a name no project uses for anything else. */
export const DEFAULT_OUT = 'faultline-reports';

export const command: Command = {
  usage: 'windows <scenario|file|folder|pattern|all>… [--json] [--out DIR] [--reporter|--format LIST] [--pairs] [--only PLACE] [--seed S] [--max-occurrence N] [--fail-fast] [--watch] [--workers N] [--shard i/n]',
  spec: {
    command: 'windows',
    flags: {
      out: { type: 'string', value: 'DIR', help: 'the folder the report set replaces (default faultline-reports/; with --shard, the folder its part goes to, default faultline-shard-i-of-n/): new, empty, or one faultline wrote' },
      ...REPORT_FLAGS,
      pairs: { type: 'boolean', help: 'every pair of faults as well as every single fault' },
      only: { type: 'string', value: 'PLACE', help: 'run only the faults at this failure window or message point (with --pairs, the pairs with a fault there); judged on unexpected violations alone' },
      seed: { type: 'string', value: 'S', help: 'the simulation seed: which interleaving each plan runs (default 1)' },
      'max-occurrence': { type: 'string', value: 'N', help: 'strike each place at its first N occurrences (default: every occurrence the runs reach); occurrences left unstruck make the verdict "holds within bound"' },
      'fail-fast': { type: 'boolean', help: 'stop each scenario at its first violation, expected or not (a quicker CI gate; rows for the unrun plans are missing)' },
      watch: { type: 'boolean', help: 'run again whenever a scenario file changes, until interrupted' },
      workers: { type: 'string', value: 'N', help: 'run on N threads (default 1); the result is the same as on one' },
      shard: { type: 'string', value: 'i/n', help: "run the i-th of n equal stretches of every scenario's plans and write them as a part; faultline merge joins the n parts" },
      json: { type: 'boolean', help: 'print one JSON document: {schema, scenarios: [{name, expect, verdict, claims, windows, counterexamples, …}]}' },
    },
    positionals: { min: 1, max: Infinity, name: 'scenario names, files, folders, patterns or "all"' },
  },
  async run(args, io) {
    const { values, positionals } = parseArgv(args, this.spec);
    const seed = wholeNumber('--seed', values['seed'], ...OPTION_RANGES.seed);
    const maxOccurrence = wholeNumber('--max-occurrence', values['max-occurrence'], ...OPTION_RANGES.maxOccurrence);
    const workers = workersFlag(values['workers']);
    const shard = parseShard('--shard', values['shard']);
    const forms = formsFlag(values);
    const only = text(values['only']);
    refuseWithShard(shard, values, ['json', 'watch', 'reporter', 'format']);
    const outDir = text(values['out']) ?? (shard ? shardOut(shard) : DEFAULT_OUT);
    const progress = new Progress(io, 'run', io.errIsTTY && !values['json'] && !shard);
    // Find out before the runs, not after them, that the reports cannot be written; create nothing yet.
    const entries = await loadScenarios(positionals, { ...loadOptions(io), beforeLoad: () => checkReportDir(outDir) });
    if (values['watch']) return watchAndRun([this.spec.command, ...args], entries.map(entryPath), io);
    const options: WindowsOptions = {
      ...(seed === undefined ? {} : { seed }),
      ...(maxOccurrence === undefined ? {} : { maxOccurrence }),
      pairs: values['pairs'] === true,
      ...(values['fail-fast'] === true ? { failFast: true } : {}),
      ...(only === undefined ? {} : { only }),
      onPlanned: (plan, ref) => warnRunaway(plan, ref, io, progress),
    };
    if (shard) {
      const stretch = (total: number) => shardRange(total, shard);
      const tallies =
        workers > 1
          ? await withPool(workers, (pool) => windowsPartsOnWorkers(entries, options, pool, stretch))
          : entries.map((entry) => {
              const plan = sweepPlan(entry.scenario, sweepSettings(entry.scenario, options));
              options.onPlanned?.(plan, entry.ref);
              return { entry, plan, part: sweepWindows(entry.scenario, plan, ...stretch(plan.total)) };
            });
      const part: WindowsPartFile = { ...partHead('windows', shard, entries, { seed: options.seed ?? DEFAULT_SEED, ...options }), scenarios: tallies.map(({ entry, plan, part }) => ({ ref: entry.ref, total: plan.total, part })) };
      const runs = tallies.reduce((n, t) => n + t.part.done, 0);
      await writePart(part, outDir);
      io.out(`shard ${shard.index}/${shard.count}: ${entries.length} scenarios, ${runs} runs; its part is in ${outDir}/ (faultline merge joins the ${shard.count} parts)`);
      return 0;
    }
    const results = await sweep(entries, options, workers, progress);
    return presentWindows(results, { json: values['json'] === true, outDir, forms, files: filesOf(entries) }, io);
  },
};

/**
 * Says at once, on stderr, when a scenario's run with no fault never goes quiet (a loop that
 * republishes for ever, a retry with no end): every plan of its sweep then runs to the same bound,
 * and a sweep of thousands of such runs would otherwise print nothing for minutes. The line
 * replays that run, which shows the loop.
 */
function warnRunaway(plan: SweepPlan, ref: string, io: CliIo, progress: Progress): void {
  const ending = plan.reference.report.ending;
  if (ending.kind !== 'stuck' || ending.reason.kind === 'waiting' || expectsStuck(plan.reference.scenario)) return;
  const line = replayLine({ kind: 'plan', scenario: ref, seed: plan.settings.seed, plan: [] });
  // On a terminal the progress line is erased first, so the warning starts a line of its own.
  progress.clear();
  io.err(`faultline: ${plan.reference.scenario.name}: the run with no fault is stuck (${describeStuck(ending.reason)}), so every run of its sweep goes on to that bound; see why: ${line}`);
}

/** Whether a scenario expects to be stuck (a retry with no end is its lesson): then saying so is no news. */
function expectsStuck(scenario: Scenario): boolean {
  return expectedVerdicts(scenario.expect).some((e) => e.verdict === 'violated' && e.violations.includes('stuck'));
}

/** Every scenario's sweep, on this thread or on `workers` threads, drawing its progress. */
async function sweep(entries: readonly CatalogueEntry[], options: WindowsOptions, workers: number, progress: Progress): Promise<WindowsResult[]> {
  if (workers > 1) {
    progress.begin(`${entries.length} scenario${entries.length === 1 ? '' : 's'} on ${workers} threads`);
    let done = 0;
    const results = await withPool(workers, (pool) => windowsOnWorkers(entries, options, pool, progress.enabled ? (runs) => progress.update((done += runs)) : undefined));
    progress.clear();
    return results;
  }
  const results = entries.map(({ scenario, ref }, i) => {
    progress.begin(`[${i + 1}/${entries.length}] ${scenario.name}`);
    return runWindows(scenario, { ...options, ref, ...(progress.enabled ? { onRun: (done: number, total: number) => progress.update(done, total) } : {}) });
  });
  progress.clear();
  return results;
}

/** Prints a sweep's summary (or its JSON), writes its report set, tells CI, and returns the exit code. */
export async function presentWindows(results: readonly WindowsResult[], flags: PresentFlags, io: CliIo): Promise<number> {
  const { outDir } = flags;
  await deferSignals(() => writeReports(results, outDir, {}, flags.forms));
  reportToCi('windows', ciRows(results, flags.files ?? new Map()), flags.json ? io.err : io.out);
  if (flags.json) {
    io.out(renderJson(results));
    return exitCodeOf(results.map((r) => r.judgement));
  }
  const c = styleFor(io.colorLevel);
  const rows = results.map((r) => {
    const v = verdictSummary(r);
    return [r.name, String(r.coverage.windows + r.coverage.points), String(r.coverage.runs), r.distinctOutcomes.join(', '), v.verdict, v.expected, v.asExpected ? 'ok' : 'UNEXPECTED'];
  });
  io.out(
    table([['scenario', 'places', 'runs', 'outcomes', 'verdict', 'expected', ''], ...rows], (ri, ci, t) => {
      if (ri === 0) return c.bold(t);
      if (ci === 4) return t.startsWith('holds') ? c.green(t) : t.startsWith('violated') ? c.yellow(t) : c.red(t);
      if (ci === 6) return t.startsWith('ok') ? c.green(t) : c.red.bold(t);
      return t;
    }),
  );
  if (results.length === 1) {
    const r = results[0]!;
    io.out(`\ncovers: ${verdictSummary(r).covers}`);
    for (const k of r.coverage.clauses) io.out(`  ${r.claims.length > 1 ? `${k.effect}: ` : ''}${describeClause(k)}`);
  }
  for (const r of results) for (const x of r.refusals) io.out(c.yellow(`note: ${r.name}: ${x.component} ran on XState's own step; the compiled driver refused it (${x.reason})`));
  for (const r of results.filter((x) => !x.judgement.asExpected)) {
    const v = verdictSummary(r);
    io.out(c.red(`\n${r.name}: expected ${v.expected}, got ${v.verdict}`));
    for (const p of v.problems) io.out(`  ${p}`);
    for (const ce of r.counterexamples.filter((x) => r.judgement.unexpected.includes(x.violation))) {
      io.out(`  ${ce.violation}: ${describePlan(ce.plan)}\n  replay: ${replayLine(ce.replay)}`);
    }
  }
  const runs = results.reduce((n, r) => n + r.coverage.runs, 0);
  io.out(`\n${results.length} scenarios, ${runs} runs, ${expectationTally(results.map((r) => r.judgement), c.green, c.red)}; reports in ${outDir}/`);
  return exitCodeOf(results.map((r) => r.judgement));
}

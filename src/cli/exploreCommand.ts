// `faultline explore <scenario|file|folder|pattern>…`: fast-check searches plans and
// interleavings of each scenario named; a violation is shrunk and printed with its trace and
// the line that replays it.
import { loadScenarios } from '../catalogue.ts';
import { explore, type ExploreResult } from '../explore.ts';
import { parseArgv } from '../parseArgv.ts';
import { describeCoverage } from '../report/describeCoverage.ts';
import { exploreJson } from '../report/runJson.ts';
import { expectedText } from '../report/verdictSummary.ts';
import type { Command } from './command.ts';
import { wholeNumber } from './flagValues.ts';
import { loadOptions } from './loadOptions.ts';
import { printRun } from './printRun.ts';
import { styleFor } from './style.ts';

export const command: Command = {
  usage: 'explore <scenario|file|folder|pattern>… [--runs N] [--seed S] [--max-faults N] [--max-occurrence N] [--json]',
  spec: {
    command: 'explore',
    flags: {
      runs: { type: 'string', value: 'N', help: 'how many plans to try for each scenario (default 1000)' },
      seed: { type: 'string', value: 'S', help: "fast-check's seed (default 1)" },
      'max-faults': { type: 'string', value: 'N', help: 'at most this many faults in one plan (default 3)' },
      'max-occurrence': { type: 'string', value: 'N', help: 'the highest occurrence a fault may target (default 3)' },
      json: { type: 'boolean', help: 'print one JSON document: {name, verdict, seed, path, traceHash, plan, trace, …}; for several scenarios, {scenarios: [those]}' },
    },
    positionals: { min: 1, max: Infinity, name: 'scenario names, files, folders or patterns' },
  },
  async run(args, io) {
    const { values, positionals } = parseArgv(args, this.spec);
    const runs = wholeNumber('--runs', values['runs'], 1, 100_000_000);
    const seed = wholeNumber('--seed', values['seed'], 0, 0x7fffffff);
    const maxFaults = wholeNumber('--max-faults', values['max-faults'], 1, 64);
    const maxOccurrence = wholeNumber('--max-occurrence', values['max-occurrence'], 1, 1_000);
    const entries = await loadScenarios(positionals, loadOptions());
    const results: ExploreResult[] = entries.map(({ scenario, ref }) =>
      explore(scenario, {
        ref,
        ...(maxOccurrence === undefined ? {} : { maxOccurrence }),
        ...(runs === undefined ? {} : { runs }),
        ...(seed === undefined ? {} : { seed }),
        ...(maxFaults === undefined ? {} : { maxFaults }),
      }),
    );
    const ok = results.every((r) => r.judgement.asExpected);
    if (values['json']) {
      io.out(results.length === 1 ? exploreJson(results[0]!) : `{"scenarios":[${results.map((r) => exploreJson(r)).join(',')}]}`);
      return ok ? 0 : 1;
    }
    const c = styleFor(io.isTTY);
    for (const [i, result] of results.entries()) {
      if (i > 0) io.out('');
      io.out(`${c.bold(result.name)}: ${result.runs} runs from seed ${result.seed}; outcomes ${Object.entries(result.outcomes).map(([k, v]) => `${k} ${v}`).join(', ')}`);
      if (result.search.status === 'failed') {
        const ce = result.search.counterexample;
        io.out(c.red(`${ce.outcome} found and shrunk to a minimal plan and schedule:`));
        printRun(io.out, c, { ...ce, claims: result.claims, tick: result.tick });
      }
      io.out(`covers: ${describeCoverage(result.judgement.verdict, result.coverage)}`);
      io.out(`verdict ${result.judgement.verdict}, expected ${expectedText(result.judgement.expected)}: ${result.judgement.asExpected ? c.green('as expected') : c.red('NOT as expected')}`);
    }
    return ok ? 0 : 1;
  },
};

// The suites a mutation run (`npm run mutants`) uses: every suite that runs the checkers, the
// World or the models in this process and judges what they produced. Left out, because they
// cannot kill a planted bug the suites kept here would not, and cost time on two shared cores:
// - the suites that run the command line or a script in a child process or a worker thread (bad
//   input, the CLI and its contract, the package, the record command, the report set's
//   interrupted writes, sweeps spread over threads and shards, the vitest entry): the child or
//   thread loads the code without Stryker's switch, so the planted bug is never active there, and
//   a test comparing a thread's answer with this process's would count a difference as a kill;
// - the browser suite and the Postgres conformance suites: they judge the HTML page and the
//   database model and repair queries against real engines, none of which is mutated;
// - the SPIN benchmark: it compares an external model with the scenarios' declared expectations;
// - the plain-outbox benchmark: it holds hand-written steppers to the models' trace hashes over
//   thousands of runs; a planted World bug is shared by both sides, and a planted Mercury guard
//   bug changes the verdicts the catalogue suite already checks;
// - the capacity arithmetic: it imports none of the mutated files (its cross-check, which runs
//   the World, stays);
// - the compiled-driver suite: it runs each scenario under both drivers and compares them, and a
//   planted bug in the World or a guard is the same code under both;
// - the report suites that render a sweep's results (two Mercury results in each form, the
//   counterexamples centred on their key, the pairs summary) and compare each with those same
//   results: a bug in the engine changes the results and the rendering alike, every fact they
//   assert outright is in the golden reports, which the golden suite compares byte for byte, and
//   they sweep once in a hook for all their tests, which would make every mutant the sweep
//   reaches static (run against the whole suite);
// - the suites that run one scenario two ways through the same kernel and compare the two (a run
//   resumed part way against the same run from its start, windows runs replayed as check's choice
//   paths, a search with and without sleep sets or the transition cache): a planted bug in the
//   kernel, a checker or a guard is the same code on both sides, so it moves both alike;
// - the suites that render or restate the results of whole sweeps rather than judge them (the
//   decision record over its 39 backing scenarios, the retry observation's cells, the starting
//   files `init` writes, the twelve-component worked example): every verdict they rest on is a
//   catalogue or held-out verdict the suites kept here assert, and together they took 53 of the
//   126 seconds a pass of the kept suites took here on 6 December 2026, time every surviving
//   mutant they cover would pay again;
// - the check of the mutation run's own list (test/mutation): it reads the source text, which in
//   the run's sandbox is Stryker's instrumented copy (a machine's `guards: {…}` becomes a choice
//   between `{}` and the block), so it fails there before any mutant is tested, and it runs none
//   of the mutated code; the same holds for the other checks that read the source or the docs as
//   text (the layout and length ratchet, the ban on real time, the options page).
// A suite kept here runs its scenarios inside the tests that judge them, never in a hook or while
// the file is collected, and never shares one test's run with later tests: Stryker records which
// test ran which code (coverage per test), a run outside a test is recorded against none (so each
// mutant it reaches runs the whole suite), and a run kept for later tests is recorded against the
// first only (so the test whose assertion would kill a mutant is never run for it).
// Files run cheapest first, so a planted bug is usually caught by a unit test before the
// catalogue's whole-scenario runs start (the runner stops at the first failing test).
import type { TestSpecification } from 'vitest/node';
import { BaseSequencer } from 'vitest/node';
import { defineConfig, mergeConfig } from 'vitest/config';
import base from './vitest.config.ts';

const ORDER = [
  'test/checkers/',
  'test/claims/checkers',
  'test/report/claimSentence',
  'test/kernel/verdict',
  'test/kernel/coverage',
  'test/kernel/phases',
  'test/kernel/world',
  'test/run/',
  'test/models/',
  'test/golden/traceHashes',
  'test/kernel/',
  'test/report/',
  'test/check/',
  'test/e2e/api',
  'test/e2e/faultKinds',
  'test/claims/',
  'test/e2e/catalogue',
];

function rank(spec: TestSpecification): number {
  const i = ORDER.findIndex((prefix) => spec.moduleId.includes(`/${prefix}`));
  return i < 0 ? ORDER.length : i;
}

class CheapestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    return [...files].sort((a, b) => rank(a) - rank(b) || (a.moduleId < b.moduleId ? -1 : a.moduleId > b.moduleId ? 1 : 0));
  }
}

export default mergeConfig(
  base,
  defineConfig({
    test: {
      exclude: [
        '**/node_modules/**',
        'test/e2e/{badInput,ciConventions,cli,cliContract,package,recordCli,spread,vitestEntry}.test.ts',
        'test/report/{reportSet,browser}.test.ts',
        'test/models/databasePostgres.test.ts',
        'test/models/postgres/**',
        'test/bench/**',
        'test/capacity/!(crossCheck).test.ts',
        'test/kernel/{compiledMachine,resume}.test.ts',
        'test/check/{sleepSets,transitionCache,worldAsChoices}.test.ts',
        'test/report/{record,observedCells}.test.ts',
        'test/e2e/init.test.ts',
        'test/example/ordersShipping.test.ts',
        'test/report/{forms,html,json,junit,keyFocus,markdown,pairsSummary,writeReports}.test.ts',
        'test/mutation/**',
        'test/tidy/**',
        'test/kernel/noRealTime.test.ts',
        'test/docs/**',
      ],
      coverage: { enabled: false },
      sequence: { sequencer: CheapestFirst },
    },
  }),
);

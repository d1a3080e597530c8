// Mutation testing: Stryker plants small bugs (a flipped comparison, a guard forced true, a
// dropped statement) in the checkers and claims, the verdict and clause tally, the World's phases
// and quiet rule, and the models' guards, and the suite must fail for each. `npm run mutants`
// runs it and prints the score of each group; test/mutation/survivors.md accounts for every
// mutant that survives. The mutated line ranges of the World and the models are computed from
// the source when this file loads (test/mutation/mutateList.mjs), so they follow the code.
import { mutateGroups } from './test/mutation/mutateList.mjs';

const root = import.meta.dirname;

// MUTANTS_GROUPS="checkers and claims,verdict and clause tally" mutates those groups alone: a run
// over all four takes hours on two cores, and the groups held to a bar are the first three.
const groups = mutateGroups(root);
const chosen = (process.env.MUTANTS_GROUPS ?? '').split(',').map((g) => g.trim()).filter((g) => g !== '');
for (const name of chosen) {
  if (!groups.some((g) => g.name === name)) throw new Error(`MUTANTS_GROUPS: no group "${name}"; groups: ${groups.map((g) => g.name).join(', ')}`);
}

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.mutants.config.ts', related: false },
  coverageAnalysis: 'perTest',
  // The machine has two cores and is shared; more workers would only queue.
  concurrency: 2,
  mutate: groups.filter((g) => chosen.length === 0 || chosen.includes(g.name)).flatMap((g) => g.entries),
  checkers: [],
  // No ArrowFunction mutants (a function replaced by \`() => undefined\`). The arrows it would
  // mutate here are the models' guards and the checkers' callbacks, built once when their module
  // loads: such a mutant is static, so it runs against the whole suite, and for a guard it plants
  // the bug the ConditionalExpression mutant \`false\` of the guard's own body already plants, one
  // the tests meet per test. In the run of 6 December 2026 it made 165 of 2,132 mutants and 132 of
  // the 244 static ones; without it 112 of 1,967 are static (5.7%).
  mutator: { excludedMutations: ['ArrowFunction'] },
  // The test of the event's type in a guard its machine consults on that event alone is always
  // true when the guard runs: its \`true\` mutant is equivalent and its other mutants repeat the
  // conjunction's own \`false\`. test/mutation/guardEventIgnorer.mjs reads which guards those are
  // from the source, and its test holds that reading to the built machines; in the run of
  // 6 December 2026 such mutants were 38 of the guards' survivors, each run against every test
  // that reaches its guard.
  plugins: ['@stryker-mutator/*', './test/mutation/guardEventIgnorer.mjs'],
  ignorers: ['guard-event-type'],
  // Type errors a mutant causes are not checked (vitest strips types): such a mutant is run like
  // any other and must be killed by a test.
  disableTypeChecks: false,
  // A re-run re-tests only the mutants whose file or covering tests changed; a survivor's result
  // is reused even when a new test would now kill it, so such a test is proved by a run over its
  // lines with a fresh incremental file.
  incremental: true,
  incrementalFile: 'reports/mutation/stryker-incremental.json',
  // The progress bar draws only on a terminal; a run whose output goes to a log (a long run left
  // in the background) prints a progress line every ten seconds instead. The HTML and JSON reports
  // are written only when the run ends, so the event recorder also writes each mutant's result to
  // reports/mutation/events as it is tested: a run stopped part way still leaves what it measured.
  reporters: ['clear-text', process.stdout.isTTY ? 'progress' : 'progress-append-only', 'html', 'json', 'event-recorder'],
  eventReporter: { baseDir: 'reports/mutation/events' },
  clearTextReporter: { allowColor: false, logTests: false, reportScoreTable: true, reportMutants: false },
  htmlReporter: { fileName: 'reports/mutation/mutation.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
  timeoutMS: 10_000,
  // The first run of the whole suite, with coverage per test, takes four to five minutes here and
  // more while the machine does other work; Stryker's default gives it five.
  dryRunTimeoutMinutes: 30,
  thresholds: { high: 90, low: 80, break: null },
};

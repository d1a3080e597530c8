// faultline/vitest: scenarios as vitest tests, so a team's crash-point suite runs where its other
// tests run, and spreads the way they spread. Each scenario a reference names becomes one test
// that runs its sweep (windows by default, or check or explore) and fails with the reasons and
// the lines that replay each unexpected violation. vitest shards by test file: a suite kept as
// several small files (one per scenario or per folder) spreads over a CI matrix with
// `vitest run --shard=i/n --reporter=blob`, and `vitest --merge-reports` joins the shards' reports.
//
//   import { scenarioTests } from 'faultline/vitest';
//   scenarioTests(['scenarios/checkout.ts'], { pairs: true });
import { describe, test } from 'vitest';
import { loadScenario, scenarioRefs } from './scenario/catalogue.ts';
import { check } from './modes/check/check.ts';
import { explore } from './modes/explore.ts';
import { describePlan } from './report/describePlan.ts';
import { verdictSummary } from './report/verdictSummary.ts';
import { replayLine } from './modes/replayLine.ts';
import { runWindows } from './modes/windows.ts';
import { checkReference } from './run/referenceProbe.ts';

export interface ScenarioTestOptions {
  /** The sweep each test runs: windows (every window, every fault kind; the default), check or explore. */
  readonly mode?: 'windows' | 'check' | 'explore';
  /** windows: every pair of faults as well (the scenario's expectation at two faults applies). */
  readonly pairs?: boolean;
  /** windows: the simulation seed; explore: fast-check's. */
  readonly seed?: number;
  /** windows: strike each place at its first N occurrences. */
  readonly maxOccurrence?: number;
  /**
   * windows and check: stop a scenario at its first violation (the default, since a test only
   * passes or fails); false runs the whole sweep, so every expected violation must turn up and
   * no unexpected one can hide behind an expected one found first.
   */
  readonly failFast?: boolean;
  /** check: at most K faults in one path. */
  readonly faults?: number;
  /** check: stop after this many distinct states (a search the bound stops is "inconclusive" unless it found a violation). */
  readonly maxStates?: number;
  /** explore: how many cases to try. */
  readonly runs?: number;
  /** Each test's time limit, in milliseconds (default 10 minutes: a pairs sweep is long). */
  readonly timeout?: number;
  /** The describe block's title (default "faultline <mode>"). */
  readonly title?: string;
}

/** Why a result is not as expected, with the line that replays each unexpected violation. */
function failure(name: string, result: Parameters<typeof verdictSummary>[0], counterexamples: readonly { readonly violation: string; readonly text: string; readonly replay: string }[]): string {
  const v = verdictSummary(result);
  return [`${name}: expected ${v.expected}, got ${v.verdict}`, ...v.problems.map((p) => `  ${p}`), ...counterexamples.map((c) => `  ${c.violation}: ${c.text}\n  replay: ${c.replay}`), `covers: ${v.covers}`].join('\n');
}

/** One vitest test per scenario that `refs` name (catalogue names, files, folders, patterns or "all"). */
export function scenarioTests(refs: string | readonly string[], options: ScenarioTestOptions = {}): void {
  const mode = options.mode ?? 'windows';
  const list = scenarioRefs(typeof refs === 'string' ? [refs] : refs);
  describe(options.title ?? `faultline ${mode}`, () => {
    for (const ref of list) {
      test(
        ref,
        async () => {
          const { scenario } = await loadScenario(ref, { afterLoad: checkReference });
          if (mode === 'explore') {
            const r = explore(scenario, { ref, ...(options.seed === undefined ? {} : { seed: options.seed }), ...(options.runs === undefined ? {} : { runs: options.runs }) });
            if (r.judgement.asExpected) return;
            const ce = r.search.status === 'failed' ? [{ violation: r.search.counterexample.outcome, text: describePlan(r.search.counterexample.plan), replay: replayLine(r.search.counterexample.replay) }] : [];
            throw new Error(failure(scenario.name, r, ce));
          }
          const failFast = options.failFast ?? true;
          const r =
            mode === 'check'
              ? check(scenario, { ref, ...(options.faults === undefined ? {} : { faults: options.faults }), ...(options.maxStates === undefined ? {} : { maxStates: options.maxStates }), ...(failFast ? { failFast: true } : {}) })
              : runWindows(scenario, { ref, ...(options.pairs ? { pairs: true } : {}), ...(options.seed === undefined ? {} : { seed: options.seed }), ...(options.maxOccurrence === undefined ? {} : { maxOccurrence: options.maxOccurrence }), ...(failFast ? { failFast: true } : {}) });
          if (r.judgement.asExpected) return;
          const unexpected = r.counterexamples.filter((c) => r.judgement.unexpected.includes(c.violation));
          throw new Error(failure(scenario.name, r, unexpected.map((c) => ({ violation: c.violation, text: describePlan(c.plan), replay: replayLine(c.replay) }))));
        },
        options.timeout ?? 600_000,
      );
    }
  });
}

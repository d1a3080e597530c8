// What a verdict covers, in words: every report form prints this sentence next to the verdict,
// so "holds" always says for which faults, how many places and runs, which interleavings and
// which bound. Each part is pinned for each mode, with singular and plural counts.
import { describe, expect, it } from 'vitest';
import { ClauseTally } from '../../src/checkers/coverage.ts';
import type { Coverage } from '../../src/checkers/coverage.ts';
import { claimSentence } from '../../src/report/claimSentence.ts';
import { clauseStatusText, describeClause, describeCoverage } from '../../src/report/describeCoverage.ts';
import { describeFault, describePlan } from '../../src/report/describePlan.ts';
import { describeSchedule } from '../../src/report/describeSchedule.ts';
import { expectedText, runTally, verdictSummary } from '../../src/report/verdictSummary.ts';
import { judge } from '../../src/checkers/verdict.ts';
import outbox from '../../scenarios/mercury-outbox.ts';

const windows: Coverage = {
  mode: 'windows',
  faultDepth: 1,
  kinds: ['crash', 'lose', 'duplicate', 'delay', 'reorder'],
  windows: 26,
  points: 18,
  maxOccurrence: 2,
  runs: 1183,
  unstruckRuns: 0,
  interleavings: { kind: 'seeded', seed: 1 },
  clauses: [],
};

describe('describeCoverage', () => {
  it('words a windows sweep: its depth, places, kinds, occurrences, runs and seed', () => {
    expect(describeCoverage('holds', windows)).toBe(
      'holds for every single fault: 26 windows and 18 message points (crash, lose, duplicate, delay, reorder, first 2 occurrences of each), 1,183 runs, one interleaving per plan (simulation seed 1)',
    );
    expect(describeCoverage('violated', { ...windows, faultDepth: 2, maxOccurrence: 1, unstruckRuns: 3, faults: 142 })).toBe(
      'violated, in runs of every single fault and every pair: 142 faults at 26 windows and 18 message points (crash, lose, duplicate, delay, reorder, first 1 occurrence of each), 1,183 runs, one interleaving per plan (simulation seed 1); in 3 runs a planned fault never struck',
    );
    expect(describeCoverage('holds', { ...windows, faultDepth: 3 })).toMatch(/^holds for every combination of up to 3 faults: /);
  });

  it('counts one of a thing in the singular', () => {
    expect(describeCoverage('holds', { ...windows, windows: 1, points: 0, kinds: ['crash'], runs: 1, unstruckRuns: 1 })).toBe(
      'holds for every single fault: 1 window and 0 message points (crash, first 2 occurrences of each), 1 run, one interleaving per plan (simulation seed 1); in 1 run a planned fault never struck',
    );
  });

  it('words a sampled search and the bound that stopped it', () => {
    const explore: Coverage = { ...windows, mode: 'explore', faultDepth: 3, runs: 300, interleavings: { kind: 'sampled' }, bound: { kind: 'samples', runs: 300 } };
    const { maxOccurrence: _, ...noOccurrence } = explore;
    expect(describeCoverage('holds within bound', noOccurrence)).toBe(
      'holds within bound for sampled plans of up to 3 faults: 26 windows and 18 message points (crash, lose, duplicate, delay, reorder), 300 runs, interleavings sampled with the plans; the search stopped after 300 samples',
    );
    expect(describeCoverage('holds within bound', { ...explore, faultDepth: 1 })).toContain('sampled plans of up to 1 fault:');
  });

  it('words an exhaustive search of interleavings and its state or depth bound', () => {
    const all: Coverage = { ...windows, mode: 'check', interleavings: { kind: 'all', states: 12345, transitions: 1, depth: 40 } };
    const { maxOccurrence: _m, ...space } = all;
    expect(describeCoverage('holds', { ...space, runs: 7 })).toBe(
      'holds for every interleaving with at most 1 fault: 26 windows and 18 message points (crash, lose, duplicate, delay, reorder), 7 end states, 12,345 states, 1 transition, depth 40',
    );
    expect(describeCoverage('holds', { ...all, faultDepth: 0 })).toContain('holds for every fault-free interleaving:');
    // Where every message lands before the clock moves, the head says so: such a search races no message against a timer.
    const zero = describeCoverage('holds', { ...space, runs: 7, latency: { min: 0, max: 0 } });
    expect(zero).toMatch(/^holds for every zero-latency interleaving with at most 1 fault: .*, depth 40, every message landing before the clock moves \(--world-latency: the World’s latencies\)$/);
    expect(describeCoverage('holds', { ...all, faultDepth: 0, latency: { min: 0, max: 0 } })).toContain('holds for every fault-free zero-latency interleaving:');
    expect(describeCoverage('holds', { ...space, runs: 7, latency: { min: 1, max: 3 } })).toMatch(/^holds for every interleaving with at most 1 fault: .*, messages landing 1 to 3 ticks after they are sent$/);
    // Sleep sets: the transitions they skipped are counted beside the ones taken, and only where they ran.
    expect(describeCoverage('holds', { ...all, interleavings: { kind: 'all', states: 9, transitions: 20, depth: 4, slept: 1 } })).toMatch(/, 9 states, 20 transitions \(and 1 commuting transition skipped by sleep sets\), depth 4$/);
    expect(describeCoverage('holds', { ...all, interleavings: { kind: 'all', states: 9, transitions: 20, depth: 4, slept: 0 } })).toContain('(and 0 commuting transitions skipped by sleep sets)');
    expect(describeCoverage('holds within bound', { ...all, bound: { kind: 'states', max: 100000 } })).toMatch(/; the search stopped at its bound of 100,000 states$/);
    expect(describeCoverage('holds within bound', { ...all, bound: { kind: 'depth', max: 60 } })).toMatch(/; the search stopped at its depth bound of 60$/);
  });

  it('words a replay as the fault-free run or this one plan', () => {
    const replay: Coverage = { ...windows, mode: 'replay', faultDepth: 0, runs: 1, interleavings: { kind: 'seeded', seed: 42 } };
    expect(describeCoverage('holds', replay)).toMatch(/^holds for the fault-free run: .*, 1 run, one interleaving per plan \(simulation seed 42\)$/);
    expect(describeCoverage('violated', { ...replay, faultDepth: 1 })).toMatch(/^violated in this plan of 1 fault: /);
    expect(describeCoverage('violated', { ...replay, faultDepth: 2 })).toMatch(/^violated in this plan of 2 faults: /);
    // An explore case replays on its own schedule of latencies, not on a seed's draws.
    expect(describeCoverage('violated', { ...replay, interleavings: { kind: 'scheduled' } })).toMatch(/, 1 run, one interleaving \(the schedule of message latencies the search shrank\)$/);
  });
});

describe('describeClause', () => {
  it('says why a clause judged fewer runs than ran: nothing to judge, or a checker that could not decide', () => {
    expect(describeClause({ effect: 'e', clause: 'liveness', status: 'holds', exercised: 264, idle: 3, undecided: 0 })).toBe('every committed fact yields its effect: holds (judged in 264 of 267 runs; in 3 there was nothing to judge: no source fact was committed)');
    expect(describeClause({ effect: 'e', clause: 'atMostOne', status: 'violated', exercised: 10, idle: 1, undecided: 2 }, 'end state')).toBe('at most one committed outcome per key: violated (judged in 10 of 13 end states; in 1 there was nothing to judge: no outcome was committed; in 2 its checker could not decide)');
    expect(describeClause({ effect: 'e', clause: 'atMostOne', status: 'holds', exercised: 5, idle: 0, undecided: 0 })).toBe('at most one committed outcome per key: holds (judged in 5 runs)');
  });

  it('counts, over a sweep, the runs each clause judged, had nothing to judge, and could not decide', () => {
    const tally = new ClauseTally();
    const verdict = (status: 'holds' | 'not exercised' | 'unknown') => [{ effect: 'e', outcome: 'holds' as const, findings: [], clauses: [{ clause: 'liveness' as const, status, findings: [] }] }];
    for (const s of ['holds', 'holds', 'not exercised', 'unknown'] as const) tally.add(verdict(s) as never);
    expect(tally.result()[0]).toEqual(expect.objectContaining({ status: 'unknown', exercised: 2, idle: 1, undecided: 1 }));
    const merged = new ClauseTally();
    merged.merge(tally.state());
    merged.merge(tally.state());
    expect(merged.result()[0]).toEqual(expect.objectContaining({ exercised: 4, idle: 2, undecided: 2 }));
  });

  it('gives each clause its title, status and the runs that judged it, or why it could not', () => {
    expect(describeClause({ effect: 'e', clause: 'atMostOne', status: 'holds', exercised: 1 })).toBe('at most one committed outcome per key: holds (judged in 1 run)');
    expect(describeClause({ effect: 'e', clause: 'liveness', status: 'violated', exercised: 1500 })).toBe('every committed fact yields its effect: violated (judged in 1,500 runs)');
    expect(describeClause({ effect: 'e', clause: 'versions', status: 'unknown', exercised: 0, reason: 'no table' })).toBe('versions never move backwards: unknown: no table');
    expect(describeClause({ effect: 'e', clause: 'versions', status: 'unknown', exercised: 0 })).toBe('versions never move backwards: unknown');
    expect(describeClause({ effect: 'e', clause: 'sameIntent', status: 'not checked', exercised: 0 })).toBe('the same intent returns the recorded result: not checked (the claim gives no observer for it)');
    expect(describeClause({ effect: 'e', clause: 'differentIntent', status: 'not exercised', exercised: 0 })).toBe('a different intent conflicts: not exercised (no run gave it anything to judge)');
    expect(clauseStatusText('holds')).toBe('holds');
  });
});

describe('describePlan', () => {
  it('words every fault kind, and the occurrence only past the first', () => {
    expect(describePlan([])).toBe('no faults');
    expect(
      describePlan([
        { kind: 'crash', window: 'relay.polling', occurrence: 1 },
        { kind: 'lose', point: 'a->b:x', occurrence: 2 },
        { kind: 'duplicate', point: 'a->b:x', occurrence: 1 },
        { kind: 'delay', point: 'a->b:x', occurrence: 3 },
        { kind: 'reorder', point: 'a->b:x', occurrence: 1 },
      ]),
    ).toBe('crash-and-restart at relay.polling; lose a->b:x (occurrence 2); duplicate a->b:x; delay a->b:x (occurrence 3); reorder a->b:x');
    expect(describeFault({ kind: 'crash', window: 'relay.polling', occurrence: 4 })).toBe('crash-and-restart at relay.polling (occurrence 4)');
  });
});

describe('describeSchedule', () => {
  it('names only the late messages, by their place in the order sent, in the scenario’s time', () => {
    expect(describeSchedule([])).toBe('every message at the least latency, messages counted in the order sent');
    expect(describeSchedule([0, 2, 0, 1], '100ms')).toBe('every message at the least latency but message 2 (200 ms more), message 4 (100 ms more), messages counted in the order sent');
  });
});

describe('verdictSummary and runTally', () => {
  const holds = { verdict: 'holds' } as const;
  const lost = { verdict: 'violated', violations: ['lost effect'] } as const;
  const summary = (j: ReturnType<typeof judge>) => verdictSummary({ judgement: j, coverage: windows });

  it('gives no problems when as expected', () => {
    expect(summary(judge(lost, 'violated', ['lost effect'], 'exhaustive'))).toMatchObject({ verdict: 'violated', expected: 'violated (lost effect)', asExpected: true, status: 'as expected', problems: [] });
    expect(expectedText({ verdict: 'violated', violations: ['lost effect', 'duplicate effect'] })).toBe('violated (lost effect, duplicate effect)');
  });

  it('names every problem of a verdict not as expected', () => {
    expect(summary(judge(holds, 'violated', ['duplicate effect'], 'exhaustive')).problems).toEqual(['the verdict is violated but holds was expected', 'unexpected violations: duplicate effect']);
    expect(summary(judge(lost, 'holds', [], 'exhaustive')).problems).toEqual(['the verdict is holds but violated was expected', 'missing expected violations: lost effect']);
    expect(summary(judge(holds, 'unknown', [], 'exhaustive'))).toMatchObject({ status: 'NOT as expected', problems: ['the verdict is unknown but holds was expected'] });
    // Unknown when a violation was expected: the verdict is not violated, and nothing else is wrong.
    expect(summary(judge(lost, 'unknown', [], 'sampled')).problems).toEqual(['the verdict is unknown but violated was expected']);
  });

  it('tallies a run of scenarios, emphasising those not as expected', () => {
    const ok = { judgement: judge(holds, 'holds', [], 'exhaustive') };
    const bad = { judgement: judge(holds, 'violated', ['lost effect'], 'exhaustive') };
    expect(runTally([ok])).toBe('1 scenario, 1 as expected.');
    expect(runTally([ok, bad, bad], (s) => `**${s}**`)).toBe('3 scenarios, 1 as expected, **2 NOT as expected**.');
  });
});

describe('claimSentence', () => {
  const base = outbox.claims[0]!;

  it('reads the seeds’ sentence back from a claim, leaving out the parts it does not make', () => {
    const plain = { ...base, namespace: undefined, sameIntent: undefined, differentIntent: undefined, unknownCompletion: undefined, key: ['order_id'] };
    expect(claimSentence(plain)).toBe(
      `For inventory reservation, identified by order_id, ${base.authority} enforces at most one committed outcome for ${base.lifetime}. Transport and processing may retry.`,
    );
    expect(claimSentence({ ...plain, namespace: 'inventory', differentIntent: 'conflicts' })).toBe(
      `For inventory reservation, identified by order_id in inventory, ${base.authority} enforces at most one committed outcome for ${base.lifetime}. Transport and processing may retry. On replay, a different intent conflicts.`,
    );
  });

  it('says what an at-most-once or at-least-once claim gives up', () => {
    expect(claimSentence({ ...base, guarantee: 'atMostOnce' })).toContain(`${base.authority} enforces at most one committed outcome, and losing one is accepted, for`);
    expect(claimSentence({ ...base, guarantee: 'atLeastOnce' })).toContain(`${base.authority} ensures at least one attempt, and a unique outcome is not guaranteed, for`);
  });
});

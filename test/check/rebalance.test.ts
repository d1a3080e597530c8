// A rebalance is a fault check can strike like any other: the message is delivered and its
// sender told at once that the receiver's share moved. The naive group commits its offset with
// no inbox, so the moved record is processed twice; the inbox design holds. Both are decided
// over every interleaving with one rebalance, and the counterexample names its fault and
// replays to its trace.
import { describe, expect, it } from 'vitest';
import { check, checkSetup, runChoices } from '../../src/modes/check/check.ts';
import { decodeChoices } from '../../src/modes/check/choicePath.ts';
import { loadScenario } from '../../src/scenario/catalogue.ts';

const load = async (name: string) => (await loadScenario(name)).scenario;

describe('check with rebalance faults', () => {
  it('finds the naive group’s duplicate, names the rebalance in its plan and replays it', async () => {
    const s = await load('group-rebalance-naive-commit-no-inbox');
    const r = check(s, { faults: 1, kinds: ['rebalance'] });
    expect(r.judgement.verdict).toBe('violated');
    expect(r.judgement.found).toEqual(['duplicate effect']);
    const ce = r.counterexamples[0]!;
    expect(ce.plan.map((f) => f.kind)).toEqual(['rebalance']);
    expect(r.rows.every((row) => row.fault === 'rebalance')).toBe(true);
    const path = decodeChoices(ce.replay.kind === 'choices' ? ce.replay.choices : '');
    const again = runChoices(s, checkSetup(s, { faults: 1, kinds: ['rebalance'] }), path);
    expect(again.traceHash).toBe(ce.traceHash);
    expect(again.plan).toEqual(ce.plan);
  }, 60_000);

  it('holds for the inbox design over every interleaving with one rebalance', async () => {
    const r = check(await load('group-rebalance-inbox'), { faults: 1, kinds: ['rebalance'] });
    expect(r.judgement.verdict).toBe('holds');
    expect(r.rows.some((row) => row.fault === 'rebalance' && row.struck > 0)).toBe(true);
  }, 60_000);
});

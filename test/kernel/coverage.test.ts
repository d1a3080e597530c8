// ClauseTally sums each clause's status over the runs of a sweep. The sum is what a report prints
// next to "holds", so a clause that only ever held vacuously must read "not exercised", one with
// no observer "not checked", and one that was undecided in any run "unknown", with its reason.
import { describe, expect, it } from 'vitest';
import type { ClaimVerdict, ClauseResult, ClauseStatus } from '../../src/checkers/compose.ts';
import type { ClauseId } from '../../src/checkers/clause.ts';
import { ClauseTally } from '../../src/checkers/coverage.ts';

const clause = (id: ClauseId, status: ClauseStatus, reason?: string): ClauseResult => ({ clause: id, status, findings: [], ...(reason === undefined ? {} : { reason }) });
const claim = (effect: string, ...clauses: ClauseResult[]): ClaimVerdict => ({ effect, outcome: 'holds', clauses, findings: [] });

describe('ClauseTally', () => {
  it('is empty before any run', () => {
    expect(new ClauseTally().result()).toEqual([]);
  });

  it('takes the worst status over the runs: violated, unknown, holds, not exercised, not checked', () => {
    const order: ClauseStatus[] = ['violated', 'unknown', 'holds', 'not exercised', 'not checked'];
    for (const [i, worst] of order.entries()) {
      const tally = new ClauseTally();
      // Every status no worse than `worst`, in an order that puts the worst in the middle.
      const seen = order.slice(i);
      for (const s of [...seen.slice(1), seen[0]!, ...seen.slice(1).reverse()]) tally.add([claim('e', clause('liveness', s))]);
      expect(tally.result()[0]!.status, `worst of ${seen.join(', ')}`).toBe(worst);
    }
  });

  it('counts as exercised only the runs in which the clause judged something, and apart those with nothing to judge and those undecided', () => {
    const tally = new ClauseTally();
    for (const s of ['holds', 'not exercised', 'violated', 'holds', 'unknown', 'not checked'] as const) tally.add([claim('e', clause('atMostOne', s))]);
    expect(tally.result()).toEqual([{ effect: 'e', clause: 'atMostOne', status: 'violated', exercised: 3, idle: 1, undecided: 1 }]);
  });

  it('keeps the first reason a clause could not be decided', () => {
    const tally = new ClauseTally();
    tally.add([claim('e', clause('versions', 'holds'))]);
    tally.add([claim('e', clause('versions', 'unknown'))]);
    tally.add([claim('e', clause('versions', 'unknown', 'observer threw: no table'))]);
    tally.add([claim('e', clause('versions', 'unknown', 'a later reason'))]);
    expect(tally.result()).toEqual([{ effect: 'e', clause: 'versions', status: 'unknown', exercised: 1, idle: 0, undecided: 3, reason: 'observer threw: no table' }]);
  });

  it('keeps an undecided run\'s reason as the reason and a cut run\'s as the cut, each the first of its kind, never one for the other', () => {
    const tally = new ClauseTally();
    tally.add([claim('e', clause('liveness', 'inconclusive', 'cut by the step bound'))]);
    tally.add([claim('e', clause('liveness', 'unknown', 'observer threw: no table'))]);
    tally.add([claim('e', clause('liveness', 'inconclusive', 'a later cut'))]);
    tally.add([claim('e', clause('liveness', 'unknown', 'a later reason'))]);
    expect(tally.state()).toEqual([
      { key: '0\u0000liveness', effect: 'e', clause: 'liveness', seen: ['inconclusive', 'unknown'], exercised: 0, idle: 0, undecided: 2, reason: 'observer threw: no table', cut: 'cut by the step bound' },
    ]);
    expect(tally.undecided()).toEqual([{ effect: 'e', clause: 'liveness', reason: 'observer threw: no table' }]);
    // An undecided run's reason is no cut, and a cut run's none of the reasons it was undecided.
    const undecidedOnly = new ClauseTally();
    undecidedOnly.add([claim('e', clause('versions', 'unknown', 'observer threw: no table'))]);
    expect(undecidedOnly.state()[0]).not.toHaveProperty('cut');
    const cutOnly = new ClauseTally();
    cutOnly.add([claim('e', clause('versions', 'inconclusive', 'cut by the step bound'))]);
    expect(cutOnly.state()[0]).not.toHaveProperty('reason');
  });

  it('lists the clauses some run could not decide, with the reason given or, with none, says so', () => {
    const tally = new ClauseTally();
    tally.add([claim('e', clause('versions', 'unknown'), clause('liveness', 'unknown', 'observer threw: no table'), clause('atMostOne', 'holds'))]);
    expect(tally.undecided()).toEqual([
      { effect: 'e', clause: 'versions', reason: 'no reason given' },
      { effect: 'e', clause: 'liveness', reason: 'observer threw: no table' },
    ]);
  });

  it('gives a reason only to a clause that was undecided in some run', () => {
    const tally = new ClauseTally();
    tally.add([claim('e', clause('atMostOne', 'holds'), clause('liveness', 'violated'))]);
    for (const c of tally.result()) expect(c).not.toHaveProperty('reason');
    // The tally as data (what a shard's part carries) has no reason field for them either.
    for (const c of tally.state()) expect(c).not.toHaveProperty('reason');
  });

  it('merged from parts, is the tally of all their runs: the first reason and the first cut each kept, and a field only where some part had one', () => {
    const part = (...runs: ClaimVerdict[][]) => {
      const t = new ClauseTally();
      for (const r of runs) t.add(r);
      return t.state();
    };
    const a = part([claim('e', clause('versions', 'unknown', 'observer threw: no table'), clause('liveness', 'holds'))]);
    const b = part([claim('e', clause('versions', 'unknown', 'a later reason'), clause('liveness', 'inconclusive', 'cut by the step bound'))]);
    const c = part([claim('e', clause('liveness', 'inconclusive', 'a later cut'))]);
    const merged = new ClauseTally();
    for (const p of [part(), a, b, c]) merged.merge(p);
    const whole = part(
      [claim('e', clause('versions', 'unknown', 'observer threw: no table'), clause('liveness', 'holds'))],
      [claim('e', clause('versions', 'unknown', 'a later reason'), clause('liveness', 'inconclusive', 'cut by the step bound'))],
      [claim('e', clause('liveness', 'inconclusive', 'a later cut'))],
    );
    expect(merged.state()).toEqual(whole);
    expect(merged.state().find((e) => e.clause === 'versions')).toMatchObject({ reason: 'observer threw: no table' });
    expect(merged.state().find((e) => e.clause === 'liveness')).toMatchObject({ cut: 'cut by the step bound' });
    expect(merged.state().find((e) => e.clause === 'versions')).not.toHaveProperty('cut');
    expect(merged.state().find((e) => e.clause === 'liveness')).not.toHaveProperty('reason');
    const wholeTally = new ClauseTally();
    wholeTally.merge(whole);
    expect(merged.result()).toEqual(wholeTally.result());
  });

  it('keeps the clauses of each claim apart, even two claims about the same effect, in first-seen order', () => {
    const tally = new ClauseTally();
    tally.add([claim('email', clause('atMostOne', 'holds'), clause('quiescence', 'holds')), claim('email', clause('atMostOne', 'violated'))]);
    tally.add([claim('email', clause('atMostOne', 'holds'), clause('quiescence', 'holds')), claim('email', clause('atMostOne', 'holds'))]);
    expect(tally.result()).toEqual([
      { effect: 'email', clause: 'atMostOne', status: 'holds', exercised: 2, idle: 0, undecided: 0 },
      { effect: 'email', clause: 'quiescence', status: 'holds', exercised: 2, idle: 0, undecided: 0 },
      { effect: 'email', clause: 'atMostOne', status: 'violated', exercised: 2, idle: 0, undecided: 0 },
    ]);
  });
});

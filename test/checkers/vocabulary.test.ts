// The words a check's answer is given in: the violation each clause stands for, the message that
// leaves a clause undecided when a key names no value, and what the design index says of a table
// a component does not hold. Each reaches a reader (a decision record, an undecided reason, a
// load-time refusal), so each is held to what it must say.
import { describe, expect, it } from 'vitest';
import { setup } from 'xstate';
import { CLAUSE_IDS, factsOf, outcomesOf } from '../../src/checkers/clause.ts';
import { checkClaim } from '../../src/checkers/compose.ts';
import type { Claim } from '../../src/checkers/claims.ts';
import { designIndex } from '../../src/checkers/designIndex.ts';
import { VIOLATIONS } from '../../src/checkers/finding.ts';
import type { WorldView } from '../../src/kernel/worldView.ts';
import { claimJudgement } from '../../src/report/decisionRecord.ts';
import type { WindowsResult } from '../../src/modes/windows.ts';

const view: WorldView = { durable: () => ({}) as never, result: { ending: { kind: 'quiescent' } }, notes: [] };
const claim = (keys: readonly string[]): Claim & { facts: NonNullable<Claim['facts']> } => ({
  effect: 'shipment',
  key: ['order_id'],
  authority: 'pk',
  lifetime: 'ever',
  outcomes: () => keys.map((key) => ({ key })),
  facts: () => [...keys],
});

describe('the words of a check', () => {
  it('reads every clause violated as the violation that clause finds, each once', () => {
    const result = { claims: [claim([])], coverage: { clauses: CLAUSE_IDS.map((clause) => ({ effect: 'shipment', clause, status: 'violated' })) } } as unknown as WindowsResult;
    expect(claimJudgement(result, 'shipment').found).toEqual(VIOLATIONS);
  });

  it('says which key names no value, with its article: an outcome key, a fact key', () => {
    expect(() => outcomesOf(claim(['undefined']), view)).toThrow(/^an outcome key "undefined" names no value: does the claim read a field or column its rows lack\?$/);
    expect(() => factsOf(claim(['o-1|null']), view)).toThrow(/^a fact key "o-1\|null" names no value: does the claim read a field or column its rows lack\?$/);
  });

  it('takes an empty key, or one with a part that reads undefined, null or NaN, for a key that names no value, and no other', () => {
    for (const key of ['', 'undefined', 'o-1|undefined', 'null', 'NaN', '1|NaN']) expect(() => outcomesOf(claim([key]), view), key).toThrow(/names no value/);
    for (const key of ['o-1', 'o-1|1', 'Stryker was here!', 'nan', 'undefined-1', '0']) expect(outcomesOf(claim([key]), view), key).toEqual([{ key }]);
  });

  it('names the tables a component holds, or none, when a table it lacks is asked for', () => {
    const machine = setup({}).createMachine({ id: 'db', initial: 'serving', states: { serving: {} } });
    const design = designIndex([
      { name: 'ordersDb', machine, process: false, tables: ['orders', 'outbox'] },
      { name: 'emptyDb', machine, process: false, tables: [] },
    ]);
    expect(design.missingTable('ordersDb', 'order')).toBe('ordersDb has no table order (did you mean orders?); its tables: orders, outbox');
    expect(design.missingTable('emptyDb', 'orders')).toBe('emptyDb has no table orders; its tables: none');
    expect(design.missingTable('ordersDb', 'outbox')).toBeUndefined();
  });
});

describe('a run the step bound cut', () => {
  it('leaves the clauses that need the end (liveness, an unknown outcome resolved, quiescence) inconclusive, and judges the rest', () => {
    const cut: WorldView = { ...view, result: { ending: { kind: 'stuck', reason: { kind: 'steps', bound: 500, phase: 'liveness' } } } };
    const verdict = checkClaim(claim(['o-1']), cut);
    const status = Object.fromEntries(verdict.clauses.map((c) => [c.clause, c.status]));
    expect(status).toMatchObject({ liveness: 'inconclusive', quiescence: 'inconclusive', atMostOne: 'holds' });
    expect(verdict.clauses.find((c) => c.clause === 'quiescence')!.reason).toBe('the run was cut by its bound of 500 steps in its liveness phase, before it could end');
  });
});

describe('a key that is no string', () => {
  it('names no value, whatever it is', () => {
    expect(() => outcomesOf({ ...claim([]), outcomes: () => [{ key: 42 as unknown as string }] }, view)).toThrow(/^an outcome key 42 names no value/);
  });
});

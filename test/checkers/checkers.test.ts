// Every checker against end states known to be bad, and the clause statuses that keep a claim
// honest: a checker that finds the damage, names its keys as data, and stays silent on a good
// state; a clause with no observer is "not checked", one with nothing to judge "not exercised",
// one whose observer throws "unknown" with the reason.
import { describe, expect, it } from 'vitest';
import { checkAtMostOne } from '../../src/checkers/atMostOne.ts';
import { CLAUSE_IDS } from '../../src/checkers/clause.ts';
import { checkClaim, clausesOf } from '../../src/checkers/compose.ts';
import { keysByViolation, type Finding } from '../../src/checkers/finding.ts';
import { checkLiveness } from '../../src/checkers/liveness.ts';
import { checkPhantom } from '../../src/checkers/phantom.ts';
import { checkDifferentIntent, checkSameIntent, checkUnknownResolved } from '../../src/checkers/replay.ts';
import { checkVersions } from '../../src/checkers/versions.ts';
import { checkFinality } from '../../src/checkers/finality.ts';
import { closedPeriodClaim } from '../../models/designs/streamPipeline.ts';
import type { SinkDurable, StoredPost } from '../../models/resultSink.ts';
import type { Claim } from '../../src/checkers/claims.ts';
import type { WorldView } from '../../src/kernel/worldView.ts';

const quiet: WorldView = { durable: () => undefined as never, result: { ending: { kind: 'quiescent' } }, notes: [] };

function claim(over: Partial<Claim> = {}): Claim {
  return { effect: 'reservation', key: ['order_id'], authority: 'the unique key', lifetime: 'ever', outcomes: () => [], ...over };
}

const keys = (o: ReturnType<typeof checkAtMostOne>) => (o.observed ? o.findings : []);

describe('at most one outcome per key', () => {
  it('finds every duplicated key with its count, and nothing on distinct keys', () => {
    const c = claim({ outcomes: () => [{ key: 'o-1' }, { key: 'o-2' }, { key: 'o-1' }, { key: 'o-1' }, { key: 'o-3' }, { key: 'o-3' }] });
    expect(keys(checkAtMostOne(c, quiet))).toEqual([
      { violation: 'duplicate effect', effect: 'reservation', key: 'o-1', count: 3 },
      { violation: 'duplicate effect', effect: 'reservation', key: 'o-3', count: 2 },
    ]);
    expect(checkAtMostOne(claim({ outcomes: () => [{ key: 'o-1' }, { key: 'o-2' }] }), quiet)).toEqual({ observed: true, judged: 2, findings: [] });
  });
});

describe('liveness', () => {
  it('finds each committed fact without its effect', () => {
    const c = claim({ outcomes: () => [{ key: 'o-2' }], facts: () => ['o-1', 'o-2', 'o-3'] });
    expect(keys(checkLiveness(c, quiet)).map((f) => f.violation === 'lost effect' && f.key)).toEqual(['o-1', 'o-3']);
  });

  it('is not checked without facts', () => {
    expect(checkLiveness(claim(), quiet)).toEqual({ observed: false });
  });

  it('is not checked when the claim turns it off, facts or not', () => {
    const c = claim({ outcomes: () => [], facts: () => ['o-1'], unchecked: ['lost effect'] });
    expect(checkLiveness(c, quiet)).toEqual({ observed: false });
    expect(checkClaim(c, quiet).clauses.find((r) => r.clause === 'liveness')?.status).toBe('not checked');
  });
});

describe('phantom', () => {
  it('finds an effect without a committed fact, even when no fact committed at all', () => {
    const none = claim({ outcomes: () => [{ key: 'o-9' }], facts: () => [] });
    expect(keys(checkPhantom(none, quiet))).toEqual([{ violation: 'phantom effect', effect: 'reservation', key: 'o-9' }]);
  });

  it('reports a phantom key once however many times it repeats', () => {
    const c = claim({ outcomes: () => [{ key: 'o-9' }, { key: 'o-9' }, { key: 'o-1' }], facts: () => ['o-1'] });
    expect(keys(checkPhantom(c, quiet))).toHaveLength(1);
  });

  it('is not checked when the claim turns it off: no outcome is then a phantom for want of facts', () => {
    expect(checkPhantom(claim({ outcomes: () => [{ key: 'o-9' }], facts: () => [], unchecked: ['phantom effect'] }), quiet)).toEqual({ observed: false });
  });

  it('is not checked when the claim names neither facts nor sources', () => {
    expect(checkPhantom(claim({ outcomes: () => [{ key: 'o-1' }] }), quiet)).toEqual({ observed: false });
  });

  it('judges every outcome, phantom or not', () => {
    const c = claim({ outcomes: () => [{ key: 'o-1' }, { key: 'o-9' }, { key: 'o-1' }], facts: () => ['o-1'] });
    expect(checkPhantom(c, quiet)).toMatchObject({ observed: true, judged: 3 });
  });

  it('judges against the sources when the claim gives them: an effect may answer to a source nobody is owed', () => {
    const c = claim({ outcomes: () => [{ key: 'attempt-1' }], facts: () => [], sources: () => ['attempt-1'] });
    expect(keys(checkPhantom(c, quiet))).toEqual([]);
    // …and still refuses an effect no source explains.
    expect(keys(checkPhantom(claim({ outcomes: () => [{ key: 'attempt-2' }], facts: () => [], sources: () => ['attempt-1'] }), quiet))).toHaveLength(1);
  });
});

describe('versions', () => {
  it('compares each version with the one before it, not with the first', () => {
    // 1, 3, 2: every later version is above the first, and still 2 came after 3.
    const c = claim({ versions: () => ({ 'o-1': [1, 3, 2], 'o-2': [1, 2, 2, 3] }) });
    expect(keys(checkVersions(c, quiet))).toEqual([{ violation: 'order regression', effect: 'reservation', key: 'o-1', from: 3, to: 2 }]);
  });

  it('reports one regression per aggregate, in aggregate order', () => {
    const c = claim({ versions: () => ({ b: [3, 1, 0], a: [2, 1] }) });
    expect(keys(checkVersions(c, quiet)).map((f) => f.violation === 'order regression' && f.key)).toEqual(['a', 'b']);
    // However the observer happens to list them.
    const many = claim({ versions: () => Object.fromEntries(['o-4', 'o-2', 'o-5', 'o-1', 'o-3', 'o-7', 'o-6'].map((k) => [k, [2, 1]])) });
    expect(keys(checkVersions(many, quiet)).map((f) => f.violation === 'order regression' && f.key)).toEqual(['o-1', 'o-2', 'o-3', 'o-4', 'o-5', 'o-6', 'o-7']);
  });

  it('is not checked for a claim that speaks of no versions, and judges each aggregate once', () => {
    expect(checkVersions(claim(), quiet)).toEqual({ observed: false });
    expect(checkVersions(claim({ versions: () => ({ a: [1, 2], b: [] }) }), quiet)).toEqual({ observed: true, judged: 2, findings: [] });
  });
});

describe('replay clauses', () => {
  it('same intent: a second successful reply naming another outcome is a mismatch; failed replies do not count', () => {
    const c = claim({
      replies: () => [
        { intent: 'i-1', outcome: 'order-1', ok: true },
        { intent: 'i-1', outcome: 'failed', ok: false },
        { intent: 'i-1', outcome: 'order-2', ok: true },
        { intent: 'i-2', outcome: 'order-3', ok: true },
      ],
    });
    const o = checkSameIntent(c, quiet);
    expect(o).toMatchObject({ observed: true, judged: 1 });
    expect(keys(o)).toEqual([{ violation: 'replay mismatch', effect: 'reservation', key: 'i-1', first: 'order-1', then: 'order-2' }]);
  });

  it('same intent: replies that agree are no mismatch, and each intent answered more than once is judged', () => {
    const c = claim({
      replies: () => [
        { intent: 'i-1', outcome: 'order-1', ok: true },
        { intent: 'i-2', outcome: 'order-2', ok: true },
        { intent: 'i-1', outcome: 'order-1', ok: true },
        { intent: 'i-2', outcome: 'order-2', ok: true },
        { intent: 'i-2', outcome: 'order-2', ok: true },
        { intent: 'i-3', outcome: 'order-3', ok: true },
      ],
    });
    expect(checkSameIntent(c, quiet)).toEqual({ observed: true, judged: 2, findings: [] });
    expect(checkSameIntent(claim(), quiet)).toEqual({ observed: false });
  });

  it('different intent: an attempt that was not refused is mishandled', () => {
    const c = claim({ conflicts: () => [{ key: 'k-1', refused: true }, { key: 'k-2', refused: false }] });
    expect(keys(checkDifferentIntent(c, quiet))).toEqual([{ violation: 'conflict mishandled', effect: 'reservation', key: 'k-2' }]);
  });

  it('unknown completion: every outcome left unresolved is a finding', () => {
    const c = claim({ outcomes: () => [{ key: 'pi-1' }], unresolved: () => ['pi-2 (intent PENDING)'] });
    expect(keys(checkUnknownResolved(c, quiet))).toEqual([{ violation: 'unresolved unknown outcome', effect: 'reservation', key: 'pi-2 (intent PENDING)' }]);
  });

  it('unknown completion: judges every resolved outcome and every unresolved one', () => {
    const c = claim({ outcomes: () => [{ key: 'pi-1' }, { key: 'pi-3' }], unresolved: () => ['pi-2'] });
    expect(checkUnknownResolved(c, quiet)).toMatchObject({ observed: true, judged: 3 });
    expect(checkUnknownResolved(claim({ unresolved: () => [] }), quiet)).toEqual({ observed: true, judged: 0, findings: [] });
    expect(checkUnknownResolved(claim(), quiet)).toEqual({ observed: false });
  });

  it('different intent: judges every attempt, and is not checked without an observer', () => {
    expect(checkDifferentIntent(claim({ conflicts: () => [{ key: 'k-1', refused: true }, { key: 'k-2', refused: true }] }), quiet)).toEqual({ observed: true, judged: 2, findings: [] });
    expect(checkDifferentIntent(claim(), quiet)).toEqual({ observed: false });
  });
});

describe('finality', () => {
  it('finds each silently revised period once, and is not checked without an observer', () => {
    const c = claim({
      finality: 'never revised in place',
      revisions: () => [
        { key: 'w0', silent: true, how: 'revised in place' },
        { key: 'w0', silent: true, how: 'revised again' },
        { key: 'w1', silent: false, how: 'a linked correction' },
        { key: 'w2', silent: true, how: 'overwritten' },
      ],
    });
    expect(checkFinality(c, quiet)).toEqual({
      observed: true,
      judged: 4,
      findings: [
        { violation: 'silent revision', effect: 'reservation', key: 'w0', how: 'revised in place' },
        { violation: 'silent revision', effect: 'reservation', key: 'w2', how: 'overwritten' },
      ],
    });
    expect(checkFinality(claim(), quiet)).toEqual({ observed: false });
  });

  // The stream claims read the sink's posts; each end state here is one a faulty design leaves.
  const sinkView = (posts: readonly StoredPost[]): WorldView => ({ ...quiet, durable: <T>() => ({ posts, staged: {}, committed: [] }) as SinkDurable as T });
  const at = (p: object) => ({ ...p, at: 0 }) as StoredPost;
  const result = (version: number, facts: string[]) => at({ kind: 'result', window: 0, version, facts, value: facts.length });
  const close = (version: number) => at({ kind: 'close', window: 0, version });
  const findings = (kind: 'ledger' | 'dashboard', posts: StoredPost[]) => {
    const o = checkFinality(closedPeriodClaim(kind), sinkView(posts));
    return o.observed ? o.findings.map((f) => (f.violation === 'silent revision' ? f.how : f.violation)) : ['not observed'];
  };

  it('holds a ledger to corrections linked to the version that closed', () => {
    expect(findings('ledger', [result(1, ['a']), close(1), at({ kind: 'correction', window: 0, corrects: '0@v1', facts: ['b'], value: 1 })])).toEqual([]);
    expect(findings('ledger', [result(1, ['a']), close(1), result(2, ['a', 'b'])])).toEqual(['revised after it closed (version 2)']);
    expect(findings('ledger', [result(1, ['a']), result(2, ['a', 'c']), close(2), at({ kind: 'correction', window: 0, corrects: '0@v1', facts: ['b'], value: 1 })])).toEqual([
      'corrected by a correction linked to 0@v1, not to the closed version 2',
    ]);
  });

  it('lets a dashboard revise a closed bucket only under a higher version', () => {
    expect(findings('dashboard', [result(1, ['a']), close(1), result(2, ['a', 'b'])])).toEqual([]);
    expect(findings('dashboard', [result(1, ['a']), close(1), result(1, ['a', 'b'])])).toEqual(['overwritten under version 1 after it closed']);
    // Revisions before the close are the provisional period's business, not finality's.
    expect(findings('dashboard', [result(1, ['a']), result(1, ['a', 'b']), close(1)])).toEqual([]);
  });
});

describe('a claim compiled to its clauses', () => {
  it('makes only the clauses its guarantee and sentence speak of', () => {
    expect(clausesOf(claim()).map(([id]) => id)).toEqual(['atMostOne', 'liveness', 'phantom', 'quiescence']);
    expect(clausesOf(claim({ guarantee: 'atLeastOnce', sameIntent: 'x', versions: () => ({}) })).map(([id]) => id)).toEqual(['liveness', 'phantom', 'versions', 'sameIntent', 'quiescence']);
    expect(clausesOf(claim({ guarantee: 'atMostOnce', differentIntent: 'x', unknownCompletion: 'y' })).map(([id]) => id)).toEqual(['atMostOne', 'phantom', 'differentIntent', 'unknownResolved', 'quiescence']);
  });

  it('lists a claim\'s clauses in the order every report uses', () => {
    const full = claim({ facts: () => [], versions: () => ({}), sameIntent: 'x', differentIntent: 'y', unknownCompletion: 'z', finality: 'f' });
    expect(clausesOf(full).map(([id]) => id)).toEqual([...CLAUSE_IDS]);
  });

  it('says "not checked" for a clause of the sentence without an observer, never holds', () => {
    const v = checkClaim(claim({ outcomes: () => [{ key: 'o-1' }], facts: () => ['o-1'], differentIntent: 'conflicts' }), quiet);
    expect(v.outcome).toBe('holds');
    expect(v.clauses.find((c) => c.clause === 'differentIntent')?.status).toBe('not checked');
  });

  it('says "not exercised" for a clause whose observer had nothing to judge', () => {
    const v = checkClaim(claim({ differentIntent: 'conflicts', conflicts: () => [] }), quiet);
    expect(v.clauses.find((c) => c.clause === 'differentIntent')?.status).toBe('not exercised');
  });

  it('turns a throwing observer into unknown with its reason, for that clause only', () => {
    const v = checkClaim(claim({ outcomes: () => [{ key: 'o-1' }], facts: () => { throw new Error('no orders table'); } }), quiet);
    expect(v.outcome).toBe('unknown');
    expect(v.clauses.filter((c) => c.status === 'unknown').map((c) => [c.clause, c.reason])).toEqual([
      ['liveness', 'no orders table'],
      ['phantom', 'no orders table'],
    ]);
    expect(v.clauses.find((c) => c.clause === 'atMostOne')?.status).toBe('holds');
  });

  it('refuses keys that name no value, as a claim reading a missing column makes them, rather than judging them', () => {
    // Two credits keyed on a column the rows lack would otherwise be one key twice: a duplicate.
    const v = checkClaim(claim({ outcomes: () => [{ key: 'undefined' }, { key: 'undefined' }] }), quiet);
    expect(v.outcome).toBe('unknown');
    expect(v.clauses.find((c) => c.clause === 'atMostOne')).toMatchObject({ status: 'unknown', reason: expect.stringMatching(/outcome key "undefined" names no value/) });
    const partly = checkClaim(claim({ outcomes: () => [{ key: 'o-1|1' }], facts: () => ['o-1|null'] }), quiet);
    expect(partly.clauses.find((c) => c.clause === 'liveness')).toMatchObject({ status: 'unknown', reason: expect.stringMatching(/fact key "o-1\|null"/) });
    expect(partly.clauses.find((c) => c.clause === 'atMostOne')?.status).toBe('holds');
    // A key that merely contains the word is a key.
    expect(checkClaim(claim({ outcomes: () => [{ key: 'undefined-order' }] }), quiet).outcome).toBe('holds');
  });

  it('lets a violation outrank an unknown clause', () => {
    const v = checkClaim(claim({ outcomes: () => [{ key: 'o-1' }, { key: 'o-1' }], facts: () => { throw new Error('x'); } }), quiet);
    expect(v.outcome).toBe('duplicate effect');
  });

  it('finds a stuck run in the quiescence clause, with its reason as data', () => {
    const stuck: WorldView = { ...quiet, result: { ending: { kind: 'stuck', reason: { kind: 'waiting', components: ['relay.polling'] } } } };
    const v = checkClaim(claim(), stuck);
    expect(v.findings).toEqual([{ violation: 'stuck', effect: 'reservation', reason: { kind: 'waiting', components: ['relay.polling'] } }]);
    expect(v.outcome).toBe('stuck');
  });
});

describe('findings as keys', () => {
  it('groups the keys of each violation, once each and sorted, and leaves out a stuck run', () => {
    const findings: Finding[] = [
      { violation: 'lost effect', effect: 'e', key: 'o-2' },
      { violation: 'duplicate effect', effect: 'e', key: 'o-3', count: 2 },
      { violation: 'lost effect', effect: 'e', key: 'o-1' },
      { violation: 'stuck', effect: 'e', reason: { kind: 'no quiescence', ticks: 9 } },
      { violation: 'lost effect', effect: 'other', key: 'o-2' },
    ];
    expect(keysByViolation(findings)).toEqual({ 'lost effect': ['o-1', 'o-2'], 'duplicate effect': ['o-3'] });
    expect(keysByViolation([])).toEqual({});
  });
});

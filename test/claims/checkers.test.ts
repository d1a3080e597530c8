// Each clause of a claim compiles to one checker over the durable end state. Here every checker
// is fed a small end state written by hand, so each finding, each count of judged items and each
// status ("not checked", "not exercised", "unknown" with its reason) is pinned down exactly.
import { describe, expect, it } from 'vitest';
import { checkAtMostOne } from '../../src/checkers/atMostOne.ts';
import { checkClaim, checkClause, clausesOf } from '../../src/checkers/compose.ts';
import { findingKey, keysByViolation, type Finding } from '../../src/checkers/finding.ts';
import { checkLiveness } from '../../src/checkers/liveness.ts';
import { checkPhantom } from '../../src/checkers/phantom.ts';
import { checkDifferentIntent, checkSameIntent, checkUnknownResolved } from '../../src/checkers/replay.ts';
import { checkVersions } from '../../src/checkers/versions.ts';
import type { Claim } from '../../src/checkers/claims.ts';
import type { WorldView } from '../../src/kernel/worldView.ts';

const quiet: WorldView = { durable: () => undefined as never, result: { ending: { kind: 'quiescent' } }, notes: [] };
const stuck: WorldView = { ...quiet, result: { ending: { kind: 'stuck', reason: { kind: 'waiting', components: ['relay.polling'] } } } };

/** A claim about `effect` whose observers return the given end state. */
function claim(parts: Partial<Omit<Claim, 'outcomes'>> & { outcomes?: Claim['outcomes'] } = {}): Claim {
  return { effect: 'charge', key: ['order_id'], authority: 'the provider', lifetime: 'a year', outcomes: () => [], ...parts };
}

describe('findings as data', () => {
  it('have a key, except a stuck run', () => {
    expect(findingKey({ violation: 'lost effect', effect: 'e', key: 'o-1' })).toBe('o-1');
    expect(findingKey({ violation: 'stuck', effect: 'e', reason: { kind: 'no quiescence', ticks: 4000 } })).toBeUndefined();
  });

  it('group into sorted, distinct keys per violation', () => {
    const findings: Finding[] = [
      { violation: 'lost effect', effect: 'e', key: 'o-2' },
      { violation: 'duplicate effect', effect: 'e', key: 'o-1', count: 2 },
      { violation: 'lost effect', effect: 'e', key: 'o-1' },
      { violation: 'lost effect', effect: 'f', key: 'o-2' },
      { violation: 'stuck', effect: 'e', reason: { kind: 'steps', bound: 10, phase: 'safety' } },
    ];
    expect(keysByViolation(findings)).toEqual({ 'lost effect': ['o-1', 'o-2'], 'duplicate effect': ['o-1'] });
    expect(keysByViolation([])).toEqual({});
  });
});

describe('the effect checkers', () => {
  it('at most one: counts every outcome, and reports each key held more than once with its count', () => {
    const c = claim({ outcomes: () => [{ key: 'a' }, { key: 'b' }, { key: 'a' }, { key: 'a' }, { key: 'c' }, { key: 'c' }] });
    expect(checkAtMostOne(c, quiet)).toEqual({
      observed: true,
      judged: 6,
      findings: [
        { violation: 'duplicate effect', effect: 'charge', key: 'a', count: 3 },
        { violation: 'duplicate effect', effect: 'charge', key: 'c', count: 2 },
      ],
    });
  });

  it('liveness: every committed fact must have an outcome; without facts it is not checked', () => {
    expect(checkLiveness(claim(), quiet)).toEqual({ observed: false });
    const c = claim({ facts: () => ['a', 'b', 'c'], outcomes: () => [{ key: 'b' }, { key: 'z' }] });
    expect(checkLiveness(c, quiet)).toEqual({
      observed: true,
      judged: 3,
      findings: [
        { violation: 'lost effect', effect: 'charge', key: 'a' },
        { violation: 'lost effect', effect: 'charge', key: 'c' },
      ],
    });
  });

  it('phantom: an outcome with no committed fact, reported once per key', () => {
    expect(checkPhantom(claim(), quiet)).toEqual({ observed: false });
    const c = claim({ facts: () => ['a'], outcomes: () => [{ key: 'a' }, { key: 'z' }, { key: 'z' }, { key: 'y' }] });
    expect(checkPhantom(c, quiet)).toEqual({
      observed: true,
      judged: 4,
      findings: [
        { violation: 'phantom effect', effect: 'charge', key: 'z' },
        { violation: 'phantom effect', effect: 'charge', key: 'y' },
      ],
    });
  });

  it('versions: any step backwards, not only below the first, once per aggregate, aggregates in name order', () => {
    expect(checkVersions(claim(), quiet)).toEqual({ observed: false });
    const c = claim({ versions: () => ({ 'o-2': [1, 3, 2, 1], 'o-1': [1, 2, 2, 3], 'o-0': [5, 4] }) });
    expect(checkVersions(c, quiet)).toEqual({
      observed: true,
      judged: 3,
      findings: [
        { violation: 'order regression', effect: 'charge', key: 'o-0', from: 5, to: 4 },
        { violation: 'order regression', effect: 'charge', key: 'o-2', from: 3, to: 2 },
      ],
    });
  });
});

describe('the replay checkers', () => {
  it('same intent: judges only intents answered more than once, ignoring failed replies', () => {
    expect(checkSameIntent(claim(), quiet)).toEqual({ observed: false });
    const c = claim({
      replies: () => [
        { intent: 'pay o-1', outcome: 'ch_1', ok: true },
        { intent: 'pay o-2', outcome: 'ch_2', ok: true },
        { intent: 'pay o-1', outcome: 'error', ok: false },
        { intent: 'pay o-1', outcome: 'ch_9', ok: true },
        { intent: 'pay o-3', outcome: 'ch_3', ok: true },
        { intent: 'pay o-3', outcome: 'ch_3', ok: true },
      ],
    });
    expect(checkSameIntent(c, quiet)).toEqual({ observed: true, judged: 2, findings: [{ violation: 'replay mismatch', effect: 'charge', key: 'pay o-1', first: 'ch_1', then: 'ch_9' }] });
  });

  it('different intent: every attempt under an existing key must be refused', () => {
    expect(checkDifferentIntent(claim(), quiet)).toEqual({ observed: false });
    const c = claim({ conflicts: () => [{ key: 'o-1', refused: true }, { key: 'o-2', refused: false }] });
    expect(checkDifferentIntent(c, quiet)).toEqual({ observed: true, judged: 2, findings: [{ violation: 'conflict mishandled', effect: 'charge', key: 'o-2' }] });
  });

  it('unknown resolved: judges every outcome and every unresolved one', () => {
    expect(checkUnknownResolved(claim(), quiet)).toEqual({ observed: false });
    const c = claim({ outcomes: () => [{ key: 'a' }, { key: 'b' }], unresolved: () => ['c'] });
    expect(checkUnknownResolved(c, quiet)).toEqual({ observed: true, judged: 3, findings: [{ violation: 'unresolved unknown outcome', effect: 'charge', key: 'c' }] });
  });
});

describe('composing a claim', () => {
  it('compiles the clauses its guarantee and its observers make, in report order', () => {
    const ids = (c: Claim) => clausesOf(c).map(([id]) => id);
    expect(ids(claim())).toEqual(['atMostOne', 'liveness', 'phantom', 'quiescence']);
    expect(ids(claim({ guarantee: 'atMostOnce' }))).toEqual(['atMostOne', 'phantom', 'quiescence']);
    expect(ids(claim({ guarantee: 'atLeastOnce' }))).toEqual(['liveness', 'phantom', 'quiescence']);
    expect(ids(claim({ versions: () => ({}), sameIntent: 'the charge', differentIntent: 'conflicts', unknownCompletion: 'a status lookup' }))).toEqual([
      'atMostOne', 'liveness', 'phantom', 'versions', 'sameIntent', 'differentIntent', 'unknownResolved', 'quiescence',
    ]);
  });

  it('makes a clause whose checker throws unknown, with the reason, never a pass', () => {
    const throws = () => {
      throw new Error('no table payments');
    };
    expect(checkClause('atMostOne', checkAtMostOne, claim({ outcomes: throws }), quiet)).toEqual({ clause: 'atMostOne', status: 'unknown', findings: [], reason: 'no table payments' });
    expect(
      checkClause(
        'liveness',
        () => {
          throw 'not an Error';
        },
        claim(),
        quiet,
      ),
    ).toMatchObject({ status: 'unknown', reason: 'not an Error' });
  });

  it('tells a clause not checked (no observer) from one not exercised (nothing to judge) from one that holds', () => {
    expect(checkClause('liveness', checkLiveness, claim(), quiet).status).toBe('not checked');
    expect(checkClause('liveness', checkLiveness, claim({ facts: () => [] }), quiet).status).toBe('not exercised');
    expect(checkClause('liveness', checkLiveness, claim({ facts: () => ['a'], outcomes: () => [{ key: 'a' }] }), quiet).status).toBe('holds');
  });

  it('judges the run: its worst finding, else unknown when a clause was undecided, and stuck when it never quiesced', () => {
    const fine = claim({ facts: () => ['a'], outcomes: () => [{ key: 'a' }] });
    expect(checkClaim(fine, quiet)).toMatchObject({ effect: 'charge', outcome: 'holds', findings: [] });
    const stuckRun = checkClaim(fine, stuck);
    expect(stuckRun.outcome).toBe('stuck');
    expect(stuckRun.findings).toEqual([{ violation: 'stuck', effect: 'charge', reason: { kind: 'waiting', components: ['relay.polling'] } }]);
    const broken = claim({
      facts: () => ['a'],
      outcomes: () => [{ key: 'a' }],
      versions: () => {
        throw new Error('no versions');
      },
    });
    expect(checkClaim(broken, quiet)).toMatchObject({ outcome: 'unknown', findings: [] });
    const lostAndDuplicated = claim({ facts: () => ['a', 'b'], outcomes: () => [{ key: 'a' }, { key: 'a' }] });
    expect(checkClaim(lostAndDuplicated, quiet).outcome).toBe('lost effect');
    expect(checkClaim(lostAndDuplicated, quiet).clauses.map((k) => [k.clause, k.status])).toEqual([
      ['atMostOne', 'violated'],
      ['liveness', 'violated'],
      ['phantom', 'holds'],
      ['quiescence', 'holds'],
    ]);
  });
});

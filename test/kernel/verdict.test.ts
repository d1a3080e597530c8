// The one verdict every mode computes: outcomes ranked by severity, verdicts merged worst first,
// and a result judged against its scenario's expectation by one rule. An exit code, a report's
// "as expected" and a CI gate all rest on these few functions.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { VIOLATIONS, type Finding, type RunOutcome } from '../../src/checkers/finding.ts';
import { OUTCOME_ORDER, exitCodeOf, isExpectedViolation, isUnexpectedOutcome, judge, mergeVerdicts, outcomeRank, runOutcome, verdictOf, worseOutcome, type Verdict } from '../../src/checkers/verdict.ts';

const lost: Finding = { violation: 'lost effect', effect: 'reservation', key: 'o-1|1' };
const duplicate: Finding = { violation: 'duplicate effect', effect: 'reservation', key: 'o-1|1', count: 2 };
const phantom: Finding = { violation: 'phantom effect', effect: 'reservation', key: 'o-9|1' };

describe('outcomes', () => {
  it('rank every violation worse than unknown, unknown worse than inconclusive, and inconclusive worse than holds', () => {
    expect(OUTCOME_ORDER).toEqual([...VIOLATIONS, 'unknown', 'inconclusive', 'holds']);
    expect(outcomeRank('inconclusive')).toBeLessThan(outcomeRank('holds'));
    expect(outcomeRank('phantom effect')).toBeLessThan(outcomeRank('lost effect'));
    expect(outcomeRank('stuck')).toBeLessThan(outcomeRank('unknown'));
    expect(outcomeRank('unknown')).toBeLessThan(outcomeRank('holds'));
  });

  it('rank the violations in the severity order reports show them: a phantom first, a stuck run last', () => {
    const severity: RunOutcome[] = ['phantom effect', 'lost effect', 'duplicate effect', 'order regression', 'conflict mishandled', 'replay mismatch', 'unresolved unknown outcome', 'silent revision', 'stuck', 'unknown', 'holds'];
    for (let i = 1; i < severity.length; i++) {
      expect(worseOutcome(severity[i - 1]!, severity[i]!), `${severity[i - 1]} against ${severity[i]}`).toBe(severity[i - 1]);
      expect(worseOutcome(severity[i]!, severity[i - 1]!), `${severity[i]} against ${severity[i - 1]}`).toBe(severity[i - 1]);
    }
  });

  it('merge to the worse of two, whichever comes first', () => {
    fc.assert(
      fc.property(fc.constantFrom(...OUTCOME_ORDER), fc.constantFrom(...OUTCOME_ORDER), (a, b) => {
        const w = worseOutcome(a, b);
        expect(w).toBe(worseOutcome(b, a));
        expect(outcomeRank(w)).toBe(Math.min(outcomeRank(a), outcomeRank(b)));
      }),
      { seed: 11, numRuns: 200 },
    );
  });

  it('make a run’s outcome its worst finding, else unknown when a clause was undecided, else holds', () => {
    expect(runOutcome([], false)).toBe('holds');
    expect(runOutcome([], true)).toBe('unknown');
    expect(runOutcome([duplicate, lost], false)).toBe('lost effect');
    expect(runOutcome([duplicate, phantom, lost], true)).toBe('phantom effect');
    // A finding always outranks an undecided clause.
    expect(runOutcome([duplicate], true)).toBe('duplicate effect');
  });
});

describe('verdicts', () => {
  it('merge worst first: violated, unknown, holds within bound, holds', () => {
    expect(mergeVerdicts([])).toBe('holds');
    expect(mergeVerdicts(['holds', 'holds within bound'])).toBe('holds within bound');
    expect(mergeVerdicts(['holds within bound', 'unknown', 'holds'])).toBe('unknown');
    expect(mergeVerdicts(['unknown', 'violated', 'holds'])).toBe('violated');
  });

  it('come from a set of run outcomes, bounded or not', () => {
    expect(verdictOf([])).toBe('holds');
    expect(verdictOf([], true)).toBe('holds within bound');
    expect(verdictOf(['holds', 'holds'])).toBe('holds');
    expect(verdictOf(['holds', 'unknown'])).toBe('unknown');
    expect(verdictOf(['unknown'], true)).toBe('unknown');
    expect(verdictOf(['holds', 'unknown', 'stuck'])).toBe('violated');
    expect(verdictOf(['lost effect'], true)).toBe('violated');
  });

  it('are the merge of the runs’ own verdicts, whatever the order of the runs', () => {
    const asVerdict = (o: RunOutcome): Verdict => (o === 'holds' || o === 'unknown' || o === 'inconclusive' ? o : 'violated');
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...OUTCOME_ORDER)), fc.boolean(), (outcomes, bounded) => {
        const merged = mergeVerdicts([bounded ? 'holds within bound' : 'holds', ...outcomes.map(asVerdict)]);
        expect(verdictOf(outcomes, bounded)).toBe(merged);
        expect(verdictOf([...outcomes].reverse(), bounded)).toBe(merged);
      }),
      { seed: 12, numRuns: 300 },
    );
  });
});

describe('judge', () => {
  const holds = { verdict: 'holds' } as const;
  const violatedLost = { verdict: 'violated', violations: ['lost effect'] } as const;

  it('accepts holds, and holds within bound, for a scenario that expects to hold', () => {
    expect(judge(holds, 'holds', [], 'exhaustive')).toEqual({ verdict: 'holds', expected: holds, asExpected: true, found: [], missing: [], unexpected: [], unexpectedClaims: [], undecided: [] });
    expect(judge(holds, 'holds within bound', [], 'sampled').asExpected).toBe(true);
  });

  it('holds a violation to the claims the expectation names: another claim violated is not as expected', () => {
    const ofCapture = { verdict: 'violated' as const, violations: ['lost effect' as const], claims: ['capture'] };
    expect(judge(ofCapture, 'violated', ['lost effect'], 'exhaustive', ['capture']).asExpected).toBe(true);
    const other = judge(ofCapture, 'violated', ['lost effect'], 'exhaustive', ['capture', 'alert']);
    expect(other.asExpected).toBe(false);
    expect(other.unexpectedClaims).toEqual(['alert']);
    // A caller that names no violated claims (the argument is optional) has none held against it.
    expect(judge(ofCapture, 'violated', ['lost effect'], 'exhaustive')).toMatchObject({ asExpected: true, unexpectedClaims: [] });
    // Without named claims, any claim may carry the expected violation.
    expect(judge(violatedLost, 'violated', ['lost effect'], 'exhaustive', ['capture', 'alert']).asExpected).toBe(true);
  });

  it('never accepts a clause some run could not decide, even beside the violation it expects; each clause named once', () => {
    const liveness = { effect: 'shipment', clause: 'liveness', reason: 'no component named shipmentDb' } as const;
    const j = judge(violatedLost, 'violated', ['lost effect'], 'exhaustive', [], [liveness, { ...liveness, reason: 'a later reason' }]);
    expect(j.asExpected).toBe(false);
    expect(j.undecided).toEqual([liveness]);
    expect(judge(holds, 'holds', [], 'exhaustive', [], [liveness]).asExpected).toBe(false);
    // Another clause of the claim, or the same clause of another claim, is named on its own.
    const versions = { effect: 'shipment', clause: 'versions', reason: 'no table named shipments' } as const;
    const other = { effect: 'invoice', clause: 'liveness', reason: 'no component named invoiceDb' } as const;
    expect(judge(holds, 'holds', [], 'exhaustive', [], [liveness, versions, other, liveness]).undecided).toEqual([liveness, versions, other]);
  });

  it('never accepts unknown, whatever was expected', () => {
    expect(judge(holds, 'unknown', [], 'exhaustive').asExpected).toBe(false);
    expect(judge(violatedLost, 'unknown', [], 'sampled').asExpected).toBe(false);
  });

  it('lists the violations found in severity order, and those not expected', () => {
    const j = judge(violatedLost, 'violated', ['duplicate effect', 'lost effect', 'phantom effect', 'lost effect'], 'exhaustive');
    expect(j.found).toEqual(['phantom effect', 'lost effect', 'duplicate effect']);
    expect(j.unexpected).toEqual(['phantom effect', 'duplicate effect']);
    expect(j.asExpected).toBe(false);
  });

  it('asks an exhaustive search to find every expected violation, and a sampled one only some', () => {
    const both = { verdict: 'violated', violations: ['lost effect', 'duplicate effect'] } as const;
    const exhaustive = judge(both, 'violated', ['lost effect'], 'exhaustive');
    expect(exhaustive.missing).toEqual(['duplicate effect']);
    expect(exhaustive.asExpected).toBe(false);
    const sampled = judge(both, 'violated', ['lost effect'], 'sampled');
    expect(sampled.missing).toEqual([]);
    expect(sampled.asExpected).toBe(true);
  });

  it('does not accept a hold when a violation was expected, nor a violation when a hold was', () => {
    expect(judge(violatedLost, 'holds', [], 'sampled')).toMatchObject({ asExpected: false, missing: [] });
    expect(judge(violatedLost, 'holds within bound', [], 'exhaustive')).toMatchObject({ asExpected: false, missing: ['lost effect'] });
    expect(judge(holds, 'violated', ['lost effect'], 'exhaustive')).toMatchObject({ asExpected: false, unexpected: ['lost effect'] });
  });
});

describe('expected and unexpected outcomes', () => {
  const violatedLost = { verdict: 'violated', violations: ['lost effect'] } as const;

  it('calls any violation unexpected for a design expected to hold, and neither holds nor unknown ever', () => {
    for (const v of VIOLATIONS) expect(isUnexpectedOutcome({ verdict: 'holds' }, v)).toBe(true);
    expect(isUnexpectedOutcome({ verdict: 'holds' }, 'holds')).toBe(false);
    expect(isUnexpectedOutcome(violatedLost, 'unknown')).toBe(false);
    expect(isUnexpectedOutcome({ verdict: 'holds' }, 'inconclusive')).toBe(false);
    expect(isUnexpectedOutcome(violatedLost, 'inconclusive')).toBe(false);
  });

  it('tells a declared violation (the scenario proving its point) from an undeclared one', () => {
    expect(isExpectedViolation(violatedLost, 'lost effect')).toBe(true);
    expect(isUnexpectedOutcome(violatedLost, 'lost effect')).toBe(false);
    expect(isExpectedViolation(violatedLost, 'duplicate effect')).toBe(false);
    expect(isUnexpectedOutcome(violatedLost, 'duplicate effect')).toBe(true);
    expect(isExpectedViolation({ verdict: 'holds' }, 'lost effect')).toBe(false);
    expect(isExpectedViolation(violatedLost, 'holds')).toBe(false);
    expect(isExpectedViolation(violatedLost, 'unknown')).toBe(false);
  });
});

describe('the exit code of a command over its judgements', () => {
  const holds = { verdict: 'holds' } as const;
  const asExpected = judge(holds, 'holds', [], 'exhaustive');
  const differs = judge(holds, 'violated', ['lost effect'], 'exhaustive');
  const inconclusive = judge(holds, 'inconclusive', [], 'exhaustive');

  it('is 0 when every verdict is as expected, 1 when one differs, 3 when none differs but one search decided nothing', () => {
    expect(exitCodeOf([])).toBe(0);
    expect(exitCodeOf([asExpected, asExpected])).toBe(0);
    expect(exitCodeOf([asExpected, differs])).toBe(1);
    expect(exitCodeOf([asExpected, inconclusive])).toBe(3);
    // A verdict that differs outranks an inconclusive one, wherever each is in the list.
    expect(exitCodeOf([inconclusive, differs])).toBe(1);
    expect(exitCodeOf([differs, inconclusive])).toBe(1);
  });
});

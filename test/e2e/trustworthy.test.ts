// What an architect must be able to trust in a verdict: a run is judged only after a liveness
// phase that gives every component its turn, an undecidable check says `unknown` and why in
// every form of the report, and a planned fault that never struck is reported as such.
import { describe, expect, it } from 'vitest';
import { bufferIo } from '../../src/cli/io.ts';
import { main } from '../../src/cli/main.ts';
import { replay } from '../../src/modes/replay.ts';
import { explore } from '../../src/modes/explore.ts';
import { check } from '../../src/modes/check/check.ts';
import { renderHtml, renderScenarioHtml } from '../../src/report/html.ts';
import { renderJson } from '../../src/report/json.ts';
import { renderJunit } from '../../src/report/junit.ts';
import { renderMarkdownFile } from '../../src/report/markdown.ts';
import { replayJson } from '../../src/report/runJson.ts';
import type { Scenario } from '../../src/scenario/scenario.ts';
import { runWindows } from '../../src/modes/windows.ts';
import outbox from '../../scenarios/mercury-outbox.ts';
import dualWrite from '../../scenarios/mercury-dual-write-commit-first.ts';
import { checkClaim } from '../../src/checkers/compose.ts';
import { verdictSummary } from '../../src/report/verdictSummary.ts';
import { exitCodeOf } from '../../src/checkers/verdict.ts';

describe('the liveness phase', () => {
  it('gives the relay its next poll after a heal that comes when the world has long been still (regression)', () => {
    // Two delayed poll messages end the safety phase at a tick when nothing durable had changed
    // for 60 ticks and the relay's next poll was one tick away; the liveness phase used to end
    // there at once and judge the orders lost.
    const r = replay(outbox, {
      kind: 'plan',
      seed: 1,
      plan: [
        { kind: 'delay', point: 'ordersDb->relay:db.ran', occurrence: 2 },
        { kind: 'delay', point: 'relay->ordersDb:db.run', occurrence: 2 },
      ],
    });
    expect(r.outcome).toBe('holds');
    const heal = r.trace.find((e) => e.kind === 'phase')!;
    const lastTick = r.trace.at(-1)!.tick;
    // The relay polled after the heal and the reservations committed after it.
    expect(r.trace.some((e) => e.tick > heal.tick && e.component === 'relay' && e.kind === 'timer')).toBe(true);
    expect(lastTick - heal.tick).toBeGreaterThanOrEqual(60);
  });
});

describe('a clause no run could decide, beside a violation the scenario expects', () => {
  // The dual write loses orders, as its scenario expects; a second claim reads a component the
  // design does not have. The expected violation does not make the whole as expected.
  it('is not as expected, names the clause and why, and exits 1', async () => {
    const { default: dualWrite } = await import('../../scenarios/mercury-dual-write-commit-first.ts');
    const misread: Scenario = {
      ...dualWrite,
      name: 'dual-write-with-a-misread-claim',
      claims: [...dualWrite.claims, { ...dualWrite.claims[0]!, effect: 'shipment', outcomes: (view) => view.durable<{ rows: [] }>('shipmentDb').rows }],
    };
    const r = runWindows(misread, { maxOccurrence: 1 });
    expect(r.judgement.found).toContain('lost effect');
    expect(r.judgement.asExpected).toBe(false);
    expect(r.judgement.undecided.map((u) => `${u.effect} ${u.clause}: ${u.reason}`)).toContain('shipment atMostOne: no component named shipmentDb');
    expect(renderMarkdownFile(r)).toContain('undecided: at most one committed outcome per key (shipment): no component named shipmentDb');
  });
});

describe('a run the World’s step bound cuts', () => {
  // Forty steps end every run long before the outbox design's two orders are through: nothing a
  // run did not finish is a finding, and the verdict says nothing was decided.
  const cut: Scenario = { ...outbox, name: 'outbox-cut-short', world: { stepsMax: 40 } };

  it('is inconclusive, never a lost effect or a stuck run, with why and what to change', () => {
    const r = runWindows(cut, { maxOccurrence: 1 });
    expect(r.judgement.verdict).toBe('inconclusive');
    expect(r.judgement.found).toEqual([]);
    expect(r.distinctOutcomes).toEqual(['inconclusive']);
    expect(r.rows.every((row) => row.outcome === 'inconclusive' && row.repair?.role === 'none')).toBe(true);
    const liveness = r.coverage.clauses.find((k) => k.clause === 'liveness')!;
    expect(liveness).toMatchObject({ status: 'inconclusive', reason: 'the run was cut by its bound of 40 steps in its safety phase, before it could end' });
    expect(verdictSummary(r).problems).toEqual(["the search was inconclusive: the run was cut by its bound of 40 steps in its safety phase, before it could end; shrink the workload or raise the scenario's world.stepsMax"]);
    expect(exitCodeOf([r.judgement])).toBe(3);
  });

  it('still reports what the run did commit twice', () => {
    const [claim] = outbox.claims;
    const duplicated = checkClaim({ ...claim!, outcomes: () => [{ key: 'o-1|1' }, { key: 'o-1|1' }], facts: () => ['o-1|1', 'o-2|1'] }, {
      durable: () => ({}),
      notes: [],
      result: { ending: { kind: 'stuck', reason: { kind: 'steps', bound: 40, phase: 'safety' } } },
    } as never);
    expect(duplicated.outcome).toBe('duplicate effect');
    // The effect o-2 never got is not counted lost: the run never came to its end.
    expect(duplicated.findings.map((f) => f.violation)).toEqual(['duplicate effect']);
    expect(duplicated.clauses.find((c) => c.clause === 'liveness')!.status).toBe('inconclusive');
  });
});

describe('a checker that throws', () => {
  const broken: Scenario = {
    ...outbox,
    name: 'outbox-with-a-broken-observer',
    claims: [{ ...outbox.claims[0]!, facts: () => { throw new Error('orders table missing from the durable state'); } }],
  };
  const reason = 'orders table missing from the durable state';

  it('makes the windows verdict unknown, never holds, and says why in every form', () => {
    const r = runWindows(broken);
    expect(r.judgement.verdict).toBe('unknown');
    expect(r.judgement.asExpected).toBe(false);
    expect(renderMarkdownFile(r)).toContain(reason);
    expect(renderMarkdownFile(r)).toContain('**Verdict: unknown**');
    expect(renderMarkdownFile(r)).toMatch(/- \*\*Worst window:\*\* source\.idle crash: unknown; 0 of \d+ faults broke a claim; \d+ could not be judged\./);
    expect(renderScenarioHtml(r)).toContain(reason);
    expect(renderHtml([r])).toContain('<span class="badge unknown">unknown</span>');
    const json = JSON.parse(renderJson([r])) as { scenarios: { verdict: string; coverage: { clauses: { status: string; reason?: string }[] }; windows: { undecided?: { reason: string }[] }[] }[] };
    expect(json.scenarios[0]!.verdict).toBe('unknown');
    expect(json.scenarios[0]!.coverage.clauses.find((c) => c.status === 'unknown')?.reason).toBe(reason);
    expect(json.scenarios[0]!.windows.every((w) => w.undecided?.[0]?.reason === reason)).toBe(true);
    const junit = renderJunit([r]);
    expect(junit).toContain(`unknown: the checkers could not decide this run (inventory reservation: liveness: ${reason}`);
    expect(junit).toMatch(/<failure message="outbox-with-a-broken-observer is NOT as expected: the verdict is unknown but holds was expected; undecided: every committed fact yields its effect \(inventory reservation\): orders table missing from the durable state/);
  });

  it('makes a replay unknown, with the reason in its text and its JSON', () => {
    const r = replay(broken, { kind: 'plan', seed: 1, plan: [] });
    expect(r.outcome).toBe('unknown');
    expect(r.judgement.verdict).toBe('unknown');
    const doc = JSON.parse(replayJson(r)) as { verdict: string; coverage: { clauses: { status: string; reason?: string }[] } };
    expect(doc.verdict).toBe('unknown');
    expect(doc.coverage.clauses.filter((c) => c.status === 'unknown').map((c) => c.reason)).toEqual([reason, reason]);
  });
});

describe('a claim no run gives anything to judge', () => {
  // It reads a table nothing writes, and turns its fact clauses off: every run holds, vacuously.
  const claim = outbox.claims[0]!;
  const vacuous: Scenario = {
    ...outbox,
    name: 'outbox-with-a-vacuous-claim',
    claims: [{ ...claim, outcomes: () => [], unchecked: ['lost effect', 'phantom effect'] }],
  };

  it('is unknown, never holds, in windows and check, and says why', () => {
    for (const r of [runWindows(vacuous), check(vacuous, { faults: 1, kinds: ['crash'] })]) {
      expect(r.judgement.verdict, r.coverage.mode).toBe('unknown');
      expect(r.judgement.asExpected).toBe(false);
      expect(r.judgement.undecided).toEqual([{ effect: claim.effect, clause: 'atMostOne', reason: expect.stringMatching(/^no run of this search gave any clause of the claim anything to judge \([\d,]+ runs? without one outcome or fact of it\): no component writes what its observers read, or the search's bounds \(a smaller --size, --max-depth\) reached no run that would$/) }]);
      expect(exitCodeOf([r.judgement])).toBe(1);
    }
  });

  it('is judged when some run gives it something, and a claim with facts no run commits is not one', () => {
    // The same claim reading the real table: the fault-free run alone exercises it.
    expect(runWindows({ ...vacuous, claims: [{ ...claim, unchecked: ['lost effect', 'phantom effect'] }] }).judgement.verdict).toBe('holds');
    // No outcome ever, but facts to judge: every fact is a lost effect, which is a finding, not a vacuous pass.
    expect(runWindows({ ...vacuous, claims: [{ ...claim, outcomes: () => [] }] }).judgement.verdict).toBe('violated');
  });

  it('changes nothing beside a violation the search found: the violation is its finding', () => {
    const lossy = { ...dualWrite, claims: [...dualWrite.claims, { ...claim, effect: 'refund', outcomes: () => [], unchecked: ['lost effect', 'phantom effect'] as const }] };
    const r = runWindows(lossy);
    expect(r.judgement.verdict).toBe('violated');
    expect(r.judgement.asExpected).toBe(true);
    expect(r.judgement.undecided).toEqual([]);
  });

  it('is not one in a single replayed run, a sample of explore or a sweep at one place, which judge part of the space', () => {
    expect(replay(vacuous, { kind: 'plan', seed: 1, plan: [] }).judgement.verdict).toBe('holds');
    expect(explore(vacuous, { runs: 20 }).judgement.asExpected).toBe(true);
    expect(runWindows(vacuous, { only: 'source.idle' }).judgement.asExpected).toBe(true);
  });
});

describe('a planned fault that never strikes', () => {
  it('is reported by replay, not passed over', async () => {
    const io = bufferIo();
    const code = await main(['replay', 'mercury-outbox', '--seed', '1', '--plan', '[{"kind":"crash","window":"relay.afterBrokerAccept","occurrence":999}]'], io);
    expect(code).toBe(0);
    expect(io.stdout).toContain('warning: the planned fault "crash-and-restart at relay.afterBrokerAccept (occurrence 999)" never struck');
    const r = replay(outbox, { kind: 'plan', seed: 1, plan: [{ kind: 'crash', window: 'relay.afterBrokerAccept', occurrence: 999 }] });
    expect(r.unstruck).toEqual([{ kind: 'crash', window: 'relay.afterBrokerAccept', occurrence: 999 }]);
    expect(r.coverage.unstruckRuns).toBe(1);
  });

  it('is counted by windows mode', () => {
    const r = runWindows(outbox);
    // The source's keyed and dual-write states are never entered by the outbox workload.
    expect(r.coverage.unstruckRuns).toBeGreaterThanOrEqual(r.unreachedWindows.length);
    expect(r.rows.filter((row) => row.struck === 0).length).toBeGreaterThan(0);
  });
});

describe('scenario validation', () => {
  it('refuses an expected violation that does not exist, naming the nearest one', async () => {
    const { defineScenario } = await import('../../src/scenario/scenario.ts');
    expect(() => defineScenario({ ...outbox, expect: { verdict: 'violated', violations: ['lost efect' as never] } })).toThrow(
      /expect\.violations\[0\] has no value "lost efect" \(did you mean lost effect\?\)/,
    );
    expect(() => defineScenario({ ...outbox, expect: { single: { verdict: 'holds' }, pairs: { verdict: 'holds' } } as never })).toThrow(/expect\.why must be a string, got nothing/);
    expect(() => defineScenario({ ...outbox, evidence: () => '' } as never)).toThrow(/the scenario has no field evidence/);
  });
});

describe('an expectation that names the claims it expects to fail', () => {
  it('judges a violation of any other claim as not expected, though its kind is the one expected', async () => {
    const { default: notGated } = await import('../../scenarios/reprocess-captures-not-gated.ts');
    const capture = "a closed window's settlement capture";
    expect(runWindows(notGated).judgement.asExpected).toBe(true);
    // The same design, its expectation moved to another claim: the captures' duplicates are now a regression.
    const elsewhere: Scenario = { ...notGated, expect: { verdict: 'violated', violations: ['duplicate effect'], claims: [notGated.claims.find((c) => c.effect !== capture)!.effect] } };
    const r = runWindows(elsewhere);
    expect(r.judgement.asExpected).toBe(false);
    expect(r.judgement.unexpectedClaims).toEqual([capture]);
    expect(r.judgement.unexpected).toEqual([]);
  });
});

// What an architect must be able to trust in a verdict: a run is judged only after a liveness
// phase that gives every component its turn, an undecidable check says `unknown` and why in
// every form of the report, and a planned fault that never struck is reported as such.
import { describe, expect, it } from 'vitest';
import { bufferIo } from '../../src/cli/io.ts';
import { main } from '../../src/cli/main.ts';
import { replay } from '../../src/replay.ts';
import { renderHtml } from '../../src/report/html.ts';
import { renderJson } from '../../src/report/json.ts';
import { renderJunit } from '../../src/report/junit.ts';
import { renderMarkdownFile } from '../../src/report/markdown.ts';
import { replayJson } from '../../src/report/runJson.ts';
import type { Scenario } from '../../src/scenario.ts';
import { runWindows } from '../../src/windows.ts';
import outbox from '../../scenarios/mercury-outbox.ts';

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
    expect(renderMarkdownFile(r)).toContain('**Verdict:** unknown');
    expect(renderHtml([r])).toContain(reason);
    expect(renderHtml([r])).toContain('<span class="badge unknown">unknown</span>');
    const json = JSON.parse(renderJson([r])) as { scenarios: { verdict: string; coverage: { clauses: { status: string; reason?: string }[] }; windows: { undecided?: { reason: string }[] }[] }[] };
    expect(json.scenarios[0]!.verdict).toBe('unknown');
    expect(json.scenarios[0]!.coverage.clauses.find((c) => c.status === 'unknown')?.reason).toBe(reason);
    expect(json.scenarios[0]!.windows.every((w) => w.undecided?.[0]?.reason === reason)).toBe(true);
    const junit = renderJunit([r]);
    expect(junit).toContain(`unknown: the checkers could not decide this run (inventory reservation: liveness: ${reason}`);
    expect(junit).toMatch(/<failure message="outbox-with-a-broken-observer is NOT as expected: the verdict is unknown but holds was expected"/);
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
    const { defineScenario } = await import('../../src/scenario.ts');
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

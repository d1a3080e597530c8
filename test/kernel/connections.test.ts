// A crash closes its component's connections at both ends. What was on its way to the component
// is dropped at the crash, and what is sent to it while it is down at its restart (world.test.ts
// holds both); what a peer sends back in the step that handles a message of the crashed
// incarnation goes nowhere, since it answers on a connection the crash closed. A requester that
// stamps each request with its boot count must never see an answer stamped with another, in any
// mode and under pairs of faults.
import { describe, expect, it } from 'vitest';
import { check } from '../../src/modes/check/check.ts';
import { explore } from '../../src/modes/explore.ts';
import { runWindows } from '../../src/modes/windows.ts';
import { runScenario } from '../../src/run/runScenario.ts';
import type { FaultPlan } from '../../src/faults/faults.ts';
import scenario from '../fixtures/incarnations.ts';

const drops = (plan: FaultPlan, reason: string) =>
  runScenario(scenario, { seed: 1, plan, keepTrace: true }).report.trace!.filter((e) => e.kind === 'drop' && (e.data as { reason?: string }).reason === reason);

describe('a crash closes the connections of the crashed incarnation', () => {
  it('drops the answer a responder gives, in the same step, to a request of a requester that has since crashed', () => {
    // The request is delayed, the requester crashes while it is on its way and restarts before
    // it lands: the responder's answer to it would reach the new incarnation.
    const dropped = drops(
      [
        { kind: 'delay', point: 'requester->responder:request', occurrence: 1 },
        { kind: 'crash', window: 'requester.waiting', occurrence: 1 },
      ],
      'connection closed',
    );
    expect(dropped.map((e) => [e.component, (e.data as { event: { type: string; boot: number } }).event])).toEqual([['requester', { type: 'answer', seq: 1, boot: 1 }]]);
  });

  it('holds under every pair of faults, under a two-fault search with each pair of kinds, and under sampled plans', () => {
    const pairs = runWindows(scenario, { pairs: true });
    expect(pairs.judgement.verdict, pairs.judgement.found.join(', ')).toMatch(/^holds/);
    for (const kinds of [['crash', 'delay'], ['crash', 'reorder'], ['crash', 'duplicate']] as const) {
      const r = check(scenario, { faults: 2, kinds });
      expect(r.judgement.verdict, `check --faults 2 --kinds ${kinds.join(',')}`).toMatch(/^holds/);
    }
    const sampled = explore(scenario, { maxFaults: 2, runs: 2000, seed: 4 });
    expect(sampled.judgement.verdict).toMatch(/^holds/);
  });
});

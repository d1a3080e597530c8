// The programmatic API exactly as a team would use it in its own vitest suite: import from
// 'faultline', describe a design, gate on the verdicts.
import { describe, expect, it } from 'vitest';
import { claimSentence, defineScenario, explore, formatPlace, replayLine, runWindows, type Scenario } from 'faultline';
import { orderPipeline, reservationClaim } from '../../models/designs/orderPipeline.ts';

// "Our" design: the outbox pipeline, but with an at-most-once relay (mark before send).
const design: Scenario = defineScenario({
  name: 'our-at-most-once-relay',
  title: 'Our relay marks rows before it sends them',
  source: 'our design review',
  lesson: 'Marking progress before the send turns a crash into a lost event.',
  build: orderPipeline({ design: 'outbox', relay: { mark: 'beforeSend' } }),
  workload: { size: 2 },
  claims: [reservationClaim],
  expect: { verdict: 'violated', violations: ['lost effect'] },
});

describe('our design, gated in CI', () => {
  it('loses a reservation in a window, as we documented', () => {
    const result = runWindows(design);
    expect(result.judgement.asExpected).toBe(true);
    const lost = result.counterexamples.find((c) => c.violation === 'lost effect')!;
    expect(replayLine(lost.replay)).toMatch(/^npx faultline replay our-at-most-once-relay --seed 1 --plan /);
    expect(result.rows.filter((w) => w.outcome === 'lost effect').map((w) => formatPlace(w.place))).toContain('relay.afterRelayProgress');
  });

  it('is found by exploration too, with the claim printed back', () => {
    const result = explore(design, { runs: 300 });
    expect(result.judgement.verdict).toBe('violated');
    expect(result.search.status).toBe('failed');
    expect(claimSentence(design.claims[0]!)).toMatch(/^For inventory reservation/);
  });
});

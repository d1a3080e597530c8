// The programmatic API exactly as a team would use it in its own vitest suite: import from
// 'faultline', describe a design, gate on the verdicts.
import { describe, expect, it } from 'vitest';
import { claimSentence, defineScenario, explore, formatPlace, InputError, loadScenario, replay, replayLine, runScenario, runWindows, type Scenario } from 'faultline';
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

describe('options the command line would refuse', () => {
  // A count read from an unset environment variable is NaN: a search told so must not run
  // nothing and pass, as the command line refuses `--runs 0`.
  it('are refused by the API too, in one line naming the call and the option', () => {
    expect(() => explore(design, { runs: Number(undefined) })).toThrow(/^explore: option runs must be a whole number from 1 to 100,000,000, got NaN$/);
    expect(() => explore(design, { runs: 0 })).toThrow(/^explore: option runs must be a whole number from 1 to 100,000,000, got 0$/);
    expect(() => explore(design, { seed: 1.5 })).toThrow(/^explore: option seed must be a whole number from 0 to 2,147,483,647, got 1\.5$/);
    expect(() => explore(design, { maxOccurrence: '3' as unknown as number })).toThrow(/^explore: option maxOccurrence must be a whole number from 1 to 1,000, got "3"$/);
    expect(() => runWindows(design, { maxOccurrence: 0 })).toThrow(/^runWindows: option maxOccurrence must be a whole number from 1 to 1,000, got 0$/);
    expect(() => runWindows(design, { seed: -1 })).toThrow(/^runWindows: option seed must be a whole number/);
    expect(() => replay(design, { kind: 'plan', seed: Infinity, plan: [] })).toThrow(/^replay: option seed must be a whole number from 0 to 2,147,483,647, got Infinity$/);
    expect(() => replay(design, { kind: 'choices', choices: [0], faults: -1 })).toThrow(/^replay: option faults must be a whole number from 0 to 64, got -1$/);
  });

  it('a plan the command line would refuse is refused as one InputError, not a TypeError from inside the run', () => {
    const refused = (f: () => unknown, message: RegExp) => {
      expect(f).toThrow(InputError);
      expect(f).toThrow(message);
    };
    refused(() => replay(design, { kind: 'plan', seed: 1, plan: [{ window: 'relay.afterBrokerAccept', occurrence: 1 }] as never }), /^replay: plan fault 1: kind must be one of crash, /);
    refused(() => replay(design, { kind: 'plan', seed: 1, plan: [{ kind: 'crash', window: 'relay.afterBrokerAccept', occurence: 1 }] as never }), /^replay: plan fault 1: occurrence must be a positive whole number$/);
    refused(() => replay(design, { kind: 'plan', seed: 1, plan: { kind: 'crash' } as never }), /^replay: plan must be a JSON array of faults$/);
    refused(() => replay(design, { kind: 'plans' } as never), /^replay: kind must be one of plan, choices, path, got "plans"$/);
    refused(() => runScenario(design, { seed: 1, plan: [{ kind: 'crash', window: 'relay.afterBrokerAccept', occurrence: 1, extra: true }] as never }), /^runScenario: plan fault 1: a crash fault has no field "extra"/);
  });
});

describe('a scenario loaded from a file', () => {
  it('is named by that file in the replay lines its results print, as the command names it', async () => {
    const file = 'scenarios/mercury-dual-write-commit-first.ts';
    const { scenario, ref } = await loadScenario(`./${file}`);
    expect(ref).toBe(`./${file}`);
    const line = replayLine(runWindows(scenario).counterexamples[0]!.replay);
    expect(line).toMatch(/^npx faultline replay \.\/scenarios\/mercury-dual-write-commit-first\.ts --seed 1 --plan '/);
    const found = explore(scenario, { runs: 50 });
    expect(found.search.status).toBe('failed');
    if (found.search.status === 'failed') expect(replayLine(found.search.counterexample.replay)).toMatch(/^npx faultline replay \.\/scenarios\/mercury-dual-write-commit-first\.ts --seed 1 --path /);
    // Changed after loading, it is another design: named by its name.
    expect(replayLine(runWindows({ ...scenario, name: 'changed' }).counterexamples[0]!.replay)).toMatch(/^npx faultline replay changed /);
  });
});

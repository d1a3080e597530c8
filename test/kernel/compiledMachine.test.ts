// The compiled driver must be indistinguishable from XState's own `machine.transition`: for every
// catalogue scenario, the reference run and a spread of windows-mode single faults give the same
// trace hash, the same kept trace events, the same notes and the same window census under both.
// The quick suite compares the sampled scenarios; the catalogue suite every one (test/support/suite.ts).
import { assign, createMachine, emit, raise, setup } from 'xstate';
import { describe, expect, it } from 'vitest';
import { loadCatalogue } from '../../src/scenario/catalogue.ts';
import { compileMachine } from '../../src/kernel/compiledMachine.ts';
import type { FaultPlan } from '../../src/faults/faults.ts';
import { runScenario } from '../../src/run/runScenario.ts';
import { timeScaleOf, type Scenario } from '../../src/scenario/scenario.ts';
import { faultSpace } from '../../src/modes/faultSpace.ts';
import { DEFAULT_SEED } from '../../src/modes/windows.ts';
import { World, type Driver } from '../../src/run/world.ts';
import { senderReceiver } from '../example/senderReceiver.ts';
import { SAMPLE_SCENARIOS, sampled } from '../support/suite.ts';

const catalogue = await loadCatalogue();

/** The reference plan plus up to `n` single faults spread over the scenario's windows-mode list. */
function plansOf(scenario: Scenario, n: number): FaultPlan[] {
  const reference = runScenario(scenario, { seed: DEFAULT_SEED, plan: [], driver: 'xstate' });
  const faults = faultSpace(reference, { maxOccurrence: scenario.windows?.maxOccurrence ?? 2 }).singles;
  const picked = new Set<number>();
  for (let i = 0; i < n && i < faults.length; i++) picked.add(Math.floor((i * faults.length) / n));
  // The first crash and the first message fault, whatever the spread picked.
  const crash = faults.findIndex((f) => f.kind === 'crash');
  const message = faults.findIndex((f) => f.kind !== 'crash');
  if (crash >= 0) picked.add(crash);
  if (message >= 0) picked.add(message);
  return [[], ...[...picked].sort((a, b) => a - b).map((i) => [faults[i]!])];
}

function observe(scenario: Scenario, plan: FaultPlan, driver: Driver, seed = DEFAULT_SEED) {
  const untraced = runScenario(scenario, { seed, plan, driver });
  const traced = runScenario(scenario, { seed, plan, driver, keepTrace: true });
  return {
    hash: untraced.report.traceHash,
    tracedHash: traced.report.traceHash,
    outcome: untraced.outcome,
    steps: untraced.report.steps,
    ticks: untraced.report.ticks,
    events: traced.report.trace,
    notes: traced.report.notes,
    windows: [...traced.report.windowCounts],
    durable: traced.report.durable,
  };
}

describe('compiled driver', () => {
  it('compiles every machine of the catalogue (none falls back to XState)', () => {
    const refused: string[] = [];
    for (const { scenario } of catalogue) {
      for (const c of scenario.build({ size: scenario.workload.size }, timeScaleOf(scenario))) {
        const r = compileMachine(c.machine);
        if (typeof r === 'string') refused.push(`${scenario.name}/${c.name}: ${r}`);
      }
    }
    expect(refused).toEqual([]);
  });

  for (const { scenario } of sampled(catalogue, (e) => SAMPLE_SCENARIOS.includes(e.scenario.name))) {
    it(`gives ${scenario.name} the same trace hash and events as XState`, () => {
      for (const plan of plansOf(scenario, 4)) {
        const x = observe(scenario, plan, 'xstate');
        const c = observe(scenario, plan, 'compiled');
        expect(c.hash, JSON.stringify(plan)).toBe(x.hash);
        expect(c.tracedHash).toBe(x.hash);
        expect(c.outcome).toBe(x.outcome);
        expect([c.steps, c.ticks]).toEqual([x.steps, x.ticks]);
        expect(c.events).toEqual(x.events);
        expect(c.notes).toEqual(x.notes);
        expect(c.windows).toEqual(x.windows);
        expect(c.durable).toEqual(x.durable);
      }
    });
  }

  it('gives the example sender/receiver the same trace under faults and many seeds', () => {
    const plan: FaultPlan = [
      { kind: 'crash', window: 'receiver.got', occurrence: 2 },
      { kind: 'duplicate', point: 'sender->receiver:msg', occurrence: 1 },
      { kind: 'lose', point: 'receiver->sender:ack', occurrence: 3 },
    ];
    for (let seed = 0; seed < 50; seed++) {
      const run = (driver: Driver) => {
        const w = new World(senderReceiver(4), { seed, plan, driver });
        const r = w.run();
        return { hash: r.traceHash, events: w.trace.events };
      };
      expect(run('compiled')).toEqual(run('xstate'));
    }
  });

  it('refuses what it does not support, so the World falls back to XState', () => {
    const nested = createMachine({ id: 'n', initial: 'a', states: { a: { initial: 'x', states: { x: {} } } } });
    expect(compileMachine(nested)).toMatch(/compound/);
    const parallel = createMachine({ id: 'p', type: 'parallel', states: { a: {}, b: {} } });
    expect(compileMachine(parallel)).toMatch(/parallel/);
    const custom = setup({ actions: { log: () => {} } }).createMachine({ id: 'c', initial: 'a', states: { a: { entry: 'log' } } });
    expect(compileMachine(custom)).toMatch(/not a builtin/);
    const wildcard = createMachine({ id: 'w', initial: 'a', states: { a: { on: { '*': 'a' } } } });
    expect(compileMachine(wildcard)).toMatch(/wildcard/);
    const invoking = createMachine({ id: 'i', initial: 'a', states: { a: { invoke: { src: 'x' } } } });
    expect(compileMachine(invoking)).toMatch(/invoke/);
    const immediate = setup({}).createMachine({ id: 'r', initial: 'a', states: { a: { entry: raise({ type: 'go' }), on: { go: 'b' } }, b: {} } });
    expect(compileMachine(immediate)).toMatch(/raise without a delay/);
    const unnamed = createMachine({ id: 'u', initial: 'a', states: { a: { after: { nope: 'b' } }, b: {} } });
    expect(compileMachine(unnamed)).toMatch(/delay nope has no implementation/);
    const flat = setup({}).createMachine({
      id: 'f',
      context: { n: 0 },
      initial: 'a',
      states: { a: { entry: [assign({ n: 1 }), emit({ type: 'note' })], after: { 5: 'b' } }, b: { tags: ['idle'] } },
    });
    expect(typeof compileMachine(flat)).toBe('object');
  });
});

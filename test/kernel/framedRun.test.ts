// A framed run is the run itself, noted down: the same trace and hash as the plain run of the
// same seed and plan, a frame before every step that shows the World as that step found it, and
// the steps at which the finding's key went wrong found by the claims' own checkers.
import { describe, expect, it } from 'vitest';
import carrier from '../../scenarios/carrier-no-key-no-lookup.ts';
import dualWrite from '../../scenarios/mercury-dual-write-commit-first.ts';
import liveReplay from '../../scenarios/replay-through-live-consumer.ts';
import topicProcess from '../../scenarios/topic-read-process-write-separate-commit.ts';
import { framedRun } from '../../src/run/framedRun.ts';
import { keyMoments } from '../../src/analysis/keyMoments.ts';
import { runScenario } from '../../src/run/runScenario.ts';
import { stepFrames } from '../../src/run/stepFrames.ts';
import type { FaultPlan } from '../../src/faults/faults.ts';

const crashAwaiting: FaultPlan = [{ kind: 'crash', window: 'caller.awaitingExternalResponse', occurrence: 1 }];

describe('framedRun', () => {
  it('is the plain run: the same trace, hash and findings', () => {
    const framed = framedRun(carrier, { seed: 1, plan: crashAwaiting });
    const plain = runScenario(carrier, { seed: 1, plan: crashAwaiting, keepTrace: true });
    expect(framed.record.report.traceHash).toBe(plain.report.traceHash);
    expect(framed.record.report.trace).toEqual(plain.report.trace);
    expect(framed.record.findings).toEqual(plain.findings);
  });

  it('notes the World before every step: the message a step delivers is still in flight, a crashed component is down', () => {
    const { frames, record, components } = framedRun(carrier, { seed: 1, plan: crashAwaiting });
    const trace = record.report.trace!;
    const names = components.map((c) => c.name);
    expect(frames.at(-1)!.at).toBe(trace.length);
    for (const f of frames.slice(0, -1)) {
      const e = trace[f.at]!;
      expect(['state', 'note', 'start']).not.toContain(e.kind);
      if (e.kind === 'deliver') expect(f.inFlight[0]).toEqual(expect.objectContaining({ to: e.component, event: (e.data as { event: unknown }).event }));
    }
    const crash = trace.findIndex((e) => e.kind === 'crash');
    const after = frames.find((f) => f.at > crash)!;
    expect(after.down[names.indexOf('caller')]).toBe(true);
    // The provider records an operation per call it serves: o-1 twice (the duplicate), then o-2.
    const provider = names.indexOf('provider');
    expect((frames.at(-1)!.durable[provider] as { operations: unknown[] }).operations).toHaveLength(3);
    expect((frames[0]!.durable[provider] as { operations: unknown[] }).operations).toHaveLength(0);
  });

  it('says which step each frame falls in: frames of one step show the World alike, each step starts with a delivery, a timer, a restart, a drop or the heal', () => {
    const lost: FaultPlan = [{ kind: 'lose', point: 'ordersDb->source:db.committed', occurrence: 1 }];
    for (const [scenario, plan] of [[dualWrite, lost], [carrier, crashAwaiting]] as const) {
      const { frames, record } = framedRun(scenario, { seed: 1, plan });
      const trace = record.report.trace!;
      let split = 0;
      for (let i = 1; i < frames.length - 1; i++) {
        const [before, f] = [frames[i - 1]!, frames[i]!];
        expect(['deliver', 'timer', 'restart', 'drop', 'phase']).toContain(trace[f.step]!.kind);
        if (f.step !== before.step) continue;
        split++;
        expect(f.durable).toEqual(before.durable);
        expect(f.states).toEqual(before.states);
        expect(f.inFlight).toEqual(before.inFlight);
      }
      // Both plans' runs have steps that record more than one event (a lost reply, a crash).
      expect(split).toBeGreaterThan(0);
    }
  });

  it('describes each durable state in its component\'s words, sharing the words of one that did not change', () => {
    const run = framedRun(dualWrite, { seed: 1, plan: [{ kind: 'crash', window: 'source.committing', occurrence: 1 }] });
    const { components, frames } = stepFrames(dualWrite, run);
    const db = components.indexOf('ordersDb');
    expect(frames.at(-1)!.parts[db]).toEqual([{ label: 'orders', items: ['o-1 ACCEPTED v1', 'o-2 ACCEPTED v1'] }]);
    expect(frames[1]!.parts[db]).toBe(frames[0]!.parts[db]);
  });
});

describe('keyMoments', () => {
  it('finds the second committed outcome of a duplicate at the call the provider served after the restart', () => {
    const run = framedRun(carrier, { seed: 1, plan: crashAwaiting });
    const moments = keyMoments(run, carrier.claims, 'duplicate effect');
    const trace = run.record.report.trace!;
    const outcomes = moments.filter((m) => m.kind === 'outcome');
    expect(outcomes.map((m) => [m.nth, m.component, trace[m.at!]!.kind, (trace[m.at!]!.data as { event: { type: string } }).event.type])).toEqual([
      [1, 'provider', 'deliver', 'provider.call'],
      [2, 'provider', 'deliver', 'provider.call'],
    ]);
    expect(trace.findIndex((e) => e.kind === 'restart')).toBeLessThan(outcomes[1]!.at!);
  });

  it('finds the fact of a lost effect and says where its effect should have been', () => {
    const run = framedRun(dualWrite, { seed: 1, plan: [{ kind: 'crash', window: 'source.committing', occurrence: 1 }] });
    const moments = keyMoments(run, dualWrite.claims, 'lost effect');
    expect(moments.map((m) => [m.kind, m.key, m.component])).toEqual([
      ['fact', 'o-1|1', 'ordersDb'],
      ['missing', 'o-1|1', 'inventoryDb'],
    ]);
    expect(moments[1]!.at).toBeUndefined();
  });

  it('places a moment on the event that starts the step which made it, not on a fault that step suffered', () => {
    // The commit is delivered and its reply lost in one step: the fact is the commit's.
    const run = framedRun(dualWrite, { seed: 1, plan: [{ kind: 'lose', point: 'ordersDb->source:db.committed', occurrence: 1 }] });
    const trace = run.record.report.trace!;
    const fact = keyMoments(run, dualWrite.claims, 'lost effect').find((m) => m.kind === 'fact')!;
    expect([trace[fact.at!]!.kind, (trace[fact.at!]!.data as { event: { type: string } }).event.type, fact.component]).toEqual(['deliver', 'db.commit', 'ordersDb']);
    // The first outcome is produced and its acknowledgement lost in one step.
    const topic = framedRun(topicProcess, { seed: 1, plan: [{ kind: 'lose', point: 'topics->processor:topics.produced', occurrence: 1 }] });
    const events = topic.record.report.trace!;
    const outcomes = keyMoments(topic, topicProcess.claims, 'duplicate effect').filter((m) => m.kind === 'outcome');
    expect(outcomes.map((m) => [m.nth, events[m.at!]!.kind])).toEqual([
      [1, 'deliver'],
      [2, 'deliver'],
    ]);
  });

  it('marks no step for a source fact that held before the first step', () => {
    const plan: FaultPlan = [{ kind: 'lose', point: 'caller->broker:broker.subscribe', occurrence: 1 }];
    const run = framedRun(liveReplay, { seed: 1, plan });
    const moments = keyMoments(run, liveReplay.claims, 'duplicate effect');
    expect(moments.filter((m) => m.kind === 'fact')).toEqual([]);
    expect(moments.filter((m) => m.kind === 'outcome').map((m) => m.nth)).toEqual([1, 2, 1, 2]);
  });
});

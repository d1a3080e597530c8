// The one quiet rule (src/kernel/quiet.ts), which the World and check mode both ask: when a run has
// nothing left to do. Each condition is held to its boundary on a world described by hand, and a
// design whose broker redelivers on a slow timer shows the rule at work in both engines: a
// delivery lost just after the broker's sweep is redelivered by the next sweep, and no path is
// judged before that sweep could run.
import { describe, expect, it } from 'vitest';
import { check } from '../../src/modes/check/check.ts';
import { orderPipeline, reservationClaim } from '../../models/designs/orderPipeline.ts';
import { isQuiet, timerKeepsAwake, type QuietSubject } from '../../src/kernel/quiet.ts';
import { defineScenario } from '../../src/scenario/scenario.ts';
import { runScenario } from '../../src/run/runScenario.ts';
import { runWindows } from '../../src/modes/windows.ts';

interface Part {
  down?: boolean;
  idle?: boolean;
  process?: boolean;
  timers?: readonly { set: number; delay: number }[];
}

function world(now: number, since: number, parts: readonly Part[], carrying: { inFlight?: boolean; held?: boolean } = {}): QuietSubject {
  return {
    now,
    since,
    carrying: (ignoreHeld) => carrying.inFlight === true || (!ignoreHeld && carrying.held === true),
    components: parts.length,
    isDown: (i) => parts[i]!.down === true,
    isIdle: (i) => parts[i]!.idle !== false,
    isProcess: (i) => parts[i]!.process === true,
    timerCount: (i) => parts[i]!.timers?.length ?? 0,
    timerSet: (i, k) => parts[i]!.timers![k]!.set,
    timerDelay: (i, k) => parts[i]!.timers![k]!.delay,
  };
}

const options = { quietTicks: 60, livenessTicksMax: 4000 };

describe('the quiet rule', () => {
  it('waits quietTicks after the last change, to the tick', () => {
    expect(isQuiet(world(159, 100, [{ process: true }]), options)).toBe(false);
    expect(isQuiet(world(160, 100, [{ process: true }]), options)).toBe(true);
  });

  it('is never quiet with a message on its way, a component down, or a process at work', () => {
    expect(isQuiet(world(500, 0, [{}], { inFlight: true }), options)).toBe(false);
    expect(isQuiet(world(500, 0, [{ down: true }]), options)).toBe(false);
    expect(isQuiet(world(500, 0, [{ process: true, idle: false }]), options)).toBe(false);
    // A server not at rest matters only while it waits on a timer of its own.
    expect(isQuiet(world(500, 0, [{ idle: false }]), options)).toBe(true);
    expect(isQuiet(world(500, 0, [{ idle: false, timers: [{ set: 400, delay: 10 }] }]), options)).toBe(false);
  });

  it('sets a held-back message aside only when asked whether it alone keeps the world awake', () => {
    expect(isQuiet(world(500, 0, [{}], { held: true }), options)).toBe(false);
    expect(isQuiet(world(500, 0, [{}], { held: true }), options, true)).toBe(true);
  });

  it('waits for a timer until it was armed a whole delay after the last change, to the tick', () => {
    // A sweep every 48 ticks, the last change at t=9: the sweep at 48 may have left work younger
    // than 48 ticks; the one armed at 57 or later saw everything that was there at t=9.
    expect(timerKeepsAwake(48, 48, 9)).toBe(true);
    expect(timerKeepsAwake(56, 48, 9)).toBe(true);
    expect(timerKeepsAwake(57, 48, 9)).toBe(false);
    expect(isQuiet(world(96, 9, [{ timers: [{ set: 48, delay: 48 }] }]), options)).toBe(false);
    expect(isQuiet(world(96, 9, [{ timers: [{ set: 96, delay: 48 }] }]), options)).toBe(true);
    // However long the timer, it still comes: a two-hour visibility timeout keeps the world awake.
    expect(timerKeepsAwake(0, 7200, 9)).toBe(true);
    expect(timerKeepsAwake(7209, 7200, 9)).toBe(false);
  });
});

describe('a broker that redelivers on a slow timer', () => {
  // Deliveries left uncommitted are redelivered by a sweep every 48 ticks; the consumer's inbox
  // keeps a redelivered order from counting twice. A delivery lost right after a sweep waits
  // for the sweep after the next one, which comes long after the world has otherwise gone still.
  const slow = defineScenario({
    name: 'outbox-slow-redelivery',
    title: 'Outbox relay, a broker that redelivers every 48 s',
    source: 'test: the quiet rule with a redelivery sweep slower than the quiet period',
    lesson: 'A redelivery that comes late still comes: the run is not judged before it.',
    build: orderPipeline({ design: 'outbox', broker: { redelivery: '48s' } }),
    workload: { size: 1 },
    claims: [reservationClaim],
    expect: { verdict: 'holds' },
  });

  it('holds under every lost message and interleaving in check mode: no path is judged before the sweep that redelivers', () => {
    const r = check(slow, { faults: 1, kinds: ['lose'] });
    expect(r.judgement.found).toEqual([]);
    expect(r.judgement.verdict).toBe('holds');
    expect(r.check.ends).toBeGreaterThan(0);
  }, 120_000);

  it('holds in windows mode, where the same lost delivery is redelivered by a sweep', () => {
    expect(runWindows(slow).judgement.verdict).toBe('holds');
    const lost = runScenario(slow, { seed: 1, plan: [{ kind: 'lose', point: 'broker->consumer:broker.deliver', occurrence: 1 }], keepTrace: true });
    expect(lost.outcome).toBe('holds');
    const delivered = lost.report.trace!.filter((e) => e.kind === 'deliver' && e.component === 'consumer' && (e.data as { event: { type: string } }).event.type === 'broker.deliver');
    expect(delivered.length).toBeGreaterThan(0);
  });
});

// A search's path ends where the World's run would, by the same two phases: it heals where it
// first goes quiet (no fault after that, and quiet measured from the heal, so every timer still
// pending fires once more), and, as the World, it asks whether the world is quiet only after a
// step, never at a tick the clock was moved to before what is due there. A path in
// group-rebalance-inbox at two faults (a delayed assignment, then a delayed commit reply) has
// consumer1's commit refused as stale at t=84, its record still uncommitted, and the broker's
// next redelivery due at t=110. A search once judged that path at t=110, before the redelivery
// due there, and found the record behind it lost; run on, the redelivery comes, the record is
// committed, and every claim holds.
import { describe, expect, it } from 'vitest';
import { checkSetup, judgeEnd } from '../../src/modes/check/check.ts';
import { decodeChoices } from '../../src/modes/check/choicePath.ts';
import { loadScenario } from '../../src/scenario/catalogue.ts';
import { isFault } from '../../src/kernel/kernel.ts';
import type { TraceEvent } from '../../src/kernel/trace.ts';

/** A catalogue scenario's search world at a fault budget, and a log that keeps every event its steps trace. */
async function traced(name: string, faults: number) {
  const { scenario } = await loadScenario(name);
  const { world } = checkSetup(scenario, { faults });
  const events: TraceEvent[] = [];
  const log = { trace: (tick: number, component: string, kind: TraceEvent['kind'], data?: unknown) => void events.push({ tick, seq: events.length, component, kind, data }), enter: () => undefined };
  return { scenario, world, events, log };
}

describe('a path whose world goes still with a redelivery due', () => {
  it('is not judged before the redelivery, and ends after it with every claim holding', async () => {
    const { scenario, world, events, log } = await traced('group-rebalance-inbox', 2);
    let s = world.initial(log);
    for (const c of decodeChoices('0.2x1.6.48x0.5.21x0')) s = world.apply(s, world.choices(s)[c]!, log);
    const stale = events.find((e) => e.kind === 'note' && (e.data as { kind: string }).kind === 'broker.staleCommit');
    expect(stale?.tick).toBe(84);
    // The clock moved to the redelivery: by the quiet rule alone the world is quiet here, and
    // judged here the record behind the uncommitted one is lost. But a redelivery is due now.
    expect(s.jumped).toBe(true);
    expect(world.quiet(s, false)).toBe(true);
    expect(judgeEnd(scenario, world.durable(s), { kind: 'quiet' }).findings.map((f) => f.violation)).toContain('lost effect');
    expect(world.end(s, world.choices(s))).toBeUndefined();
    expect(world.choices(s)).toContainEqual(expect.objectContaining({ kind: 'timer', id: 'redeliver consumer1 0' }));
    // On, with no fault, to its end.
    for (let steps = 0; world.end(s, world.choices(s)) === undefined; steps++) {
      expect(steps).toBeLessThan(10_000);
      expect(isFault(world.choices(s)[0]!)).toBe(false);
      s = world.apply(s, world.choices(s)[0]!, log);
    }
    expect(events.some((e) => e.tick >= 110 && e.component === 'broker' && e.kind === 'timer')).toBe(true);
    const end = world.end(s, world.choices(s))!;
    expect(end).toEqual({ kind: 'quiet' });
    const judged = judgeEnd(scenario, world.durable(s), end);
    expect(judged.findings).toEqual([]);
    expect(judged.outcome).toBe('holds');
  });

  it('heals where it first goes quiet, takes no fault after it, and ends quiet again once a poll has run', async () => {
    // mercury-outbox's relay polls its outbox for ever: its fault-free path goes quiet between
    // two polls, heals there, and polls again before it ends.
    const { world, events, log } = await traced('mercury-outbox', 1);
    let s = world.initial(log);
    let healedAt = -1;
    for (let steps = 0; world.end(s, world.choices(s)) === undefined; steps++) {
      expect(steps).toBeLessThan(10_000);
      const offered = world.choices(s);
      if (healedAt >= 0) expect(offered.some(isFault), `a fault offered after the heal at t=${s.now}`).toBe(false);
      // Where it goes quiet the heal is the one step that is not a fault.
      if (offered.some((c) => c.kind === 'heal')) {
        expect(healedAt).toBe(-1);
        expect(offered.filter((c) => !isFault(c))).toEqual([{ kind: 'heal' }]);
        healedAt = s.now;
      }
      s = world.apply(s, offered[0]!, log);
    }
    expect(healedAt).toBeGreaterThan(0);
    expect(events.filter((e) => e.kind === 'phase')).toEqual([expect.objectContaining({ tick: healedAt, data: 'liveness' })]);
    expect(events.some((e) => e.tick > healedAt && e.component === 'relay' && e.kind === 'timer')).toBe(true);
    expect(s.now - healedAt).toBeGreaterThanOrEqual(world.options.quietTicks);
    expect(world.end(s, world.choices(s))).toEqual({ kind: 'quiet' });
  });
});

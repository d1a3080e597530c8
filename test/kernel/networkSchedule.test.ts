// A World given a schedule of latencies takes each message's latency from it instead of from
// its stream: the n-th message sent waits the least latency plus the n-th entry, kept within the
// window; every message past the end, and every release at heal, waits the least. Lost, held and
// connection-drop messages keep their places in the count, so a fault added to or taken from a
// plan does not shift the latencies of the messages after it.
import { describe, expect, it } from 'vitest';
import type { MessageFault } from '../../src/faults/faults.ts';
import { World } from '../../src/run/world.ts';
import { type ComponentSpec } from '../../src/kernel/componentSpec.ts';
import { actor, type Send } from '../support/scriptedActor.ts';
import { senderReceiver } from '../example/senderReceiver.ts';

/** Runs a script of sends among a, b, c, … in a World given `latencies`; each delivery as `n@tick`. */
function scheduled(sends: readonly Omit<Send, 'n'>[], latencies: readonly number[], plan: readonly MessageFault[] = []): string[] {
  const script = sends.map((s, n) => ({ ...s, n: n + 1 }));
  const names = [...new Set(script.flatMap((s) => [s.from, s.to]))].sort();
  const specs: ComponentSpec[] = names.map((name) => ({ name, machine: actor, input: { script: script.filter((s) => s.from === name) }, process: true }));
  const report = new World(specs, { seed: 1, plan, latencyTicksMin: 2, latencyTicksMax: 5, delayFaultTicks: 40, latencies, safetyTicksMax: 25, keepTrace: true }).run();
  return report.trace!.filter((e) => e.kind === 'deliver').map((e) => `${(e.data as { event: { n: number } }).event.n}@${e.tick}`);
}

const at = (tick: number, from: string, to: string, type = 'm') => ({ at: tick, from, to, type, unordered: false });

describe('a World given a schedule of latencies', () => {
  it('gives the n-th message the least latency plus the n-th entry, within the window, and the least past the end', () => {
    // Each message on a link of its own, so no FIFO wait hides its latency.
    const sends = [1, 2, 3, 4, 5, 6, 7].map((i) => at(10, 'a', `b${i}`));
    expect(scheduled(sends, [0, 3, 1, 9, -4]).sort()).toEqual(['1@12', '2@15', '3@13', '4@15', '5@12', '6@12', '7@12'].sort());
  });

  it('counts lost and held messages in their places, and releases held ones at the least latency', () => {
    const faults: MessageFault[] = [
      { kind: 'lose', point: 'a->b:m', occurrence: 1 },
      { kind: 'reorder', point: 'a->c:m', occurrence: 1 },
    ];
    // The lost message's entry goes unused; the held one is released at the heal (tick 25).
    const delivered = scheduled([at(0, 'a', 'b'), at(0, 'a', 'c'), at(0, 'a', 'e'), at(30, 'a', 'f')], [1, 1, 2, 3], faults);
    expect(delivered).toEqual(['3@4', '2@27', '4@35']);
  });

  it('still keeps a link first in, first out', () => {
    expect(scheduled([at(0, 'a', 'b'), at(0, 'a', 'b')], [3, 0])).toEqual(['1@5', '2@5']);
  });
});

describe('a World given a schedule', () => {
  const components = () => senderReceiver(3);

  it('records the schedule in its start event, so the trace hash covers it, and leaves a run without one as it was', () => {
    const run = (latencies?: readonly number[]) => new World(components(), { seed: 7, plan: [], ...(latencies ? { latencies } : {}) }).run();
    const seeded = run();
    expect(seeded.trace![0]!.data).not.toHaveProperty('latencies');
    const scheduled = run([2, 0, 1]);
    expect(scheduled.trace![0]!.data).toMatchObject({ seed: '7', latencies: [2, 0, 1] });
    expect(scheduled.traceHash).not.toBe(run([2, 0, 0]).traceHash);
    // An empty schedule is every message at the least latency, not the seed's draws.
    expect(run([]).traceHash).not.toBe(seeded.traceHash);
    expect(run([]).traceHash).toBe(run([]).traceHash);
  });

  it('draws nothing from its seed: two seeds give the same run but for the seed the start event names', () => {
    const strip = (r: ReturnType<World['run']>) => r.trace!.slice(1).map((e) => ({ ...e }));
    const a = new World(components(), { seed: 1, plan: [], latencies: [1, 0, 2, 2] }).run();
    const b = new World(components(), { seed: 2, plan: [], latencies: [1, 0, 2, 2] }).run();
    expect(strip(a)).toEqual(strip(b));
    expect(a.traceHash).not.toBe(b.traceHash);
  });
});

// A Network given a schedule of latencies takes each message's latency from it instead of from
// its stream: the n-th message sent waits the least latency plus the n-th entry, kept within the
// window; every message past the end, and every release at heal, waits the least. Lost, held and
// connection-drop messages keep their places in the count, so a fault added to or taken from a
// plan does not shift the latencies of the messages after it.
import { describe, expect, it } from 'vitest';
import type { MessageFault } from '../../src/faults.ts';
import { Network } from '../../src/network.ts';
import { Prng } from '../../src/prng.ts';
import { World } from '../../src/world.ts';
import { senderReceiver } from '../example/senderReceiver.ts';

/** A stream that fails the test if anything draws from it. */
const untouchable = new Proxy(new Prng(1), {
  get(target, prop) {
    if (prop === 'between' || prop === 'int' || prop === 'float' || prop === 'chance' || prop === 'pick') {
      return () => {
        throw new Error('a scheduled network drew from its stream');
      };
    }
    return Reflect.get(target, prop) as unknown;
  },
});

function network(latencies: readonly number[], faults: readonly MessageFault[] = []) {
  const delivered: string[] = [];
  const n = new Network(untouchable, { latencyTicksMin: 2, latencyTicksMax: 5, delayFaultTicks: 40, latencies }, faults, {
    schedule: (tick, e) => delivered.push(`${(e.event as unknown as { n: number }).n}@${tick}`),
    record: () => undefined,
  });
  return { n, delivered };
}

describe('a scheduled network', () => {
  it('gives the n-th message the least latency plus the n-th entry, within the window, and the least past the end', () => {
    const { n, delivered } = network([0, 3, 1, 9, -4]);
    // Each message on a link of its own, so no FIFO wait hides its latency.
    for (let i = 1; i <= 7; i++) n.send(10, 'a', `b${i}`, { type: 'm', n: i } as never);
    expect(delivered).toEqual(['1@12', '2@15', '3@13', '4@15', '5@12', '6@12', '7@12']);
  });

  it('counts lost, held and connection-drop messages in their places, and releases held ones at the least latency', () => {
    const faults: MessageFault[] = [
      { kind: 'lose', point: 'a->b:m', occurrence: 1 },
      { kind: 'reorder', point: 'a->c:m', occurrence: 1 },
    ];
    const { n, delivered } = network([1, 1, 1, 2, 3], faults);
    n.send(0, 'a', 'b', { type: 'm', n: 1 } as never); // lost: its entry goes unused
    n.send(0, 'a', 'c', { type: 'm', n: 2 } as never); // held by the reorder
    n.send(0, 'a', 'd', { type: 'sys.peerCrashed', n: 3 } as never, false, true);
    n.send(0, 'a', 'e', { type: 'm', n: 4 } as never);
    n.heal(20);
    n.send(30, 'a', 'f', { type: 'm', n: 5 } as never);
    expect(delivered).toEqual(['3@3', '4@4', '2@22', '5@35']);
  });

  it('still keeps a link first in, first out', () => {
    const { n, delivered } = network([3, 0]);
    n.send(0, 'a', 'b', { type: 'm', n: 1 } as never);
    n.send(0, 'a', 'b', { type: 'm', n: 2 } as never);
    expect(delivered).toEqual(['1@5', '2@5']);
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

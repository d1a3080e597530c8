// The network's part of a rebalance: the struck message is delivered as any other, and its
// sender is told at the very tick it sent it, on the reverse link, which work to take away from
// the receiver. No other message is touched, and after the heal nothing is rebalanced.
import { describe, expect, it } from 'vitest';
import { Network, type Envelope } from '../../src/network.ts';
import { Prng } from '../../src/prng.ts';

function network(occurrence: number) {
  const scheduled: { tick: number; e: Envelope }[] = [];
  const recorded: string[] = [];
  const n = new Network(new Prng(1), { latencyTicksMin: 2, latencyTicksMax: 2, delayFaultTicks: 20 }, [{ kind: 'rebalance', point: 'broker->c1:deliver', occurrence }], {
    schedule: (tick, e) => scheduled.push({ tick, e }),
    record: (f, e) => recorded.push(`${f.kind} ${e.point}`),
  });
  return { n, scheduled, recorded };
}

describe('network: rebalance', () => {
  it('delivers the struck message, and notifies its sender at the send tick about the receiver and the message', () => {
    const { n, scheduled, recorded } = network(2);
    n.send(5, 'broker', 'c1', { type: 'deliver', offset: 0 } as never);
    n.send(6, 'broker', 'c1', { type: 'deliver', offset: 1 } as never);
    expect(recorded).toEqual(['rebalance broker->c1:deliver']);
    expect(scheduled.map(({ tick, e }) => [tick, e.from, e.to, e.event])).toEqual([
      [7, 'broker', 'c1', { type: 'deliver', offset: 0 }],
      [8, 'broker', 'c1', { type: 'deliver', offset: 1 }],
      [6, 'c1', 'broker', { type: 'sys.rebalance', peer: 'c1', event: { type: 'deliver', offset: 1 } }],
    ]);
    // The notice is a system message: the census counts only the deliveries.
    expect(n.census().get('broker->c1:deliver')).toBe(2);
    expect(n.census().has('c1->broker:sys.rebalance')).toBe(false);
  });

  it('strikes nothing once healed', () => {
    const { n, scheduled, recorded } = network(1);
    n.heal(0);
    n.send(1, 'broker', 'c1', { type: 'deliver', offset: 0 } as never);
    expect(recorded).toEqual([]);
    expect(scheduled).toHaveLength(1);
  });
});

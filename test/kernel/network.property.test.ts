// The Network's promises, for any sequence of sends and any latency draws: each link (from, to)
// delivers its ordered sends in the order they were sent; nothing is reordered without a
// reorder fault; a lose, duplicate, delay or reorder fault at occurrence n strikes exactly the
// n-th message of its point, once, and does to it exactly what its kind says. Delivery order is
// the Schedule's: by tick, then by the order envelopes were scheduled. The seeds are fixed, so a
// failure prints a seed and path that reproduce it.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { MessageFault, MessageFaultKind } from '../../src/faults.ts';
import { Network, type Envelope } from '../../src/network.ts';
import { Prng } from '../../src/prng.ts';

const COMPONENTS = ['a', 'b', 'c'] as const;
const TYPES = ['m', 'n'] as const;

type Op =
  | { readonly op: 'send'; readonly from: string; readonly to: string; readonly type: string; readonly unordered: boolean; readonly system: boolean }
  | { readonly op: 'wait'; readonly ticks: number }
  | { readonly op: 'heal' };

const send = (unorderedShare: number, components: readonly string[]): fc.Arbitrary<Op> =>
  fc
    .record({
      from: fc.constantFrom(...components),
      to: fc.constantFrom(...components),
      type: fc.constantFrom(...TYPES),
      unordered: fc.integer({ min: 0, max: 99 }).map((n) => n < unorderedShare),
      system: fc.integer({ min: 0, max: 99 }).map((n) => n < 10),
    })
    .filter((s) => s.from !== s.to)
    .map((s) => ({ op: 'send' as const, ...s, unordered: s.unordered && !s.system }));

/** Sends (a share of them unordered) among `components`, waits, and perhaps an early heal. */
const ops = (unorderedShare: number, components: readonly string[] = COMPONENTS): fc.Arbitrary<Op[]> =>
  fc.array(
    fc.oneof(
      { weight: 6, arbitrary: send(unorderedShare, components) },
      { weight: 2, arbitrary: fc.integer({ min: 0, max: 6 }).map((ticks) => ({ op: 'wait' as const, ticks })) },
      { weight: 1, arbitrary: fc.constant({ op: 'heal' as const }) },
    ),
    { maxLength: 60 },
  );

const pointsOf = (components: readonly string[]) => components.flatMap((from) => components.filter((to) => to !== from).flatMap((to) => TYPES.map((type) => `${from}->${to}:${type}`)));

/** Faults at distinct (point, occurrence), so each names one message. */
const plan = (kinds: readonly MessageFaultKind[], components: readonly string[] = COMPONENTS): fc.Arbitrary<MessageFault[]> =>
  fc.uniqueArray(fc.record({ kind: fc.constantFrom(...kinds), point: fc.constantFrom(...pointsOf(components)), occurrence: fc.integer({ min: 1, max: 4 }) }), {
    maxLength: 8,
    selector: (f) => `${f.point}#${f.occurrence}`,
  });

const latencies = fc.record({ min: fc.integer({ min: 1, max: 5 }), spread: fc.integer({ min: 0, max: 8 }), delay: fc.integer({ min: 1, max: 30 }), seed: fc.nat() });

interface Sent {
  readonly id: number;
  readonly op: Op & { op: 'send' };
  readonly now: number;
  readonly link: string;
  readonly point: string;
  /** The fault that should strike it: the plan's fault for its point at its count, before heal. */
  readonly fault: MessageFault | undefined;
}

interface Scheduled {
  readonly tick: number;
  /** The position of this call among every schedule call: the Schedule's tie-break. */
  readonly call: number;
  /** The op (a send's index, or the heal) during which it was scheduled. */
  readonly during: number;
  readonly envelope: Envelope;
  /** Which message it carries: its payload, copied by a duplicate. */
  readonly n: number;
}

/** Runs the ops against a Network with a recording sink, then heals (a second heal is skipped). */
function simulate(opList: readonly Op[], faults: readonly MessageFault[], lat: { min: number; spread: number; delay: number; seed: number }) {
  const scheduled: Scheduled[] = [];
  const recorded: { fault: MessageFault; n: number; during: number }[] = [];
  const sent: Sent[] = [];
  let during = -1;
  let now = 0;
  let healedAt: { now: number; during: number } | undefined;
  const counts = new Map<string, number>();
  const network = new Network(new Prng(lat.seed), { latencyTicksMin: lat.min, latencyTicksMax: lat.min + lat.spread, delayFaultTicks: lat.delay }, faults, {
    schedule: (tick, envelope) => scheduled.push({ tick, call: scheduled.length, during, envelope, n: (envelope.event as unknown as { n: number }).n }),
    record: (fault, envelope) => recorded.push({ fault, n: (envelope.event as unknown as { n: number }).n, during }),
  });
  // The run always ends healed, so every held message is accounted for.
  const all: readonly Op[] = [...opList, { op: 'heal' }];
  for (const [i, o] of all.entries()) {
    during = i;
    if (o.op === 'wait') now += o.ticks;
    else if (o.op === 'heal') {
      if (healedAt !== undefined) continue;
      healedAt = { now, during: i };
      network.heal(now);
    } else {
      const point = `${o.from}->${o.to}:${o.type}`;
      let fault: MessageFault | undefined;
      if (!o.system) {
        const count = (counts.get(point) ?? 0) + 1;
        counts.set(point, count);
        if (healedAt === undefined) fault = faults.find((f) => f.point === point && f.occurrence === count);
      }
      sent.push({ id: i, op: o, now, link: `${o.from}->${o.to}`, point, fault });
      network.send(now, o.from, o.to, { type: o.type, n: i } as never, o.unordered, o.system);
    }
  }
  const delivered = [...scheduled].sort((x, y) => x.tick - y.tick || x.call - y.call);
  return { scheduled, delivered, recorded, sent, healedAt: healedAt! };
}

/** Per link, the messages (by payload) delivered, in delivery order, keeping only those `keep` selects. */
function orderPerLink(delivered: readonly Scheduled[], sent: readonly Sent[], keep: (s: Sent) => boolean): Map<string, number[]> {
  const byId = new Map(sent.map((s) => [s.id, s]));
  const out = new Map<string, number[]>();
  for (const d of delivered) {
    const s = byId.get(d.n)!;
    if (!keep(s)) continue;
    out.set(s.link, [...(out.get(s.link) ?? []), d.n]);
  }
  return out;
}

const nonDecreasing = (xs: readonly number[]) => xs.every((x, i) => i === 0 || xs[i - 1]! <= x);

const RUNS = 400;

describe('Network, property', () => {
  it('delivers the ordered sends of each link in the order they were sent, whatever the latencies, with no faults', () => {
    fc.assert(
      fc.property(ops(20), latencies, (opList, lat) => {
        const { delivered, sent, scheduled, recorded } = simulate(opList, [], lat);
        expect(recorded).toEqual([]);
        // Every message is scheduled exactly once, never earlier than the least latency allows.
        expect(scheduled.map((d) => d.n).sort((x, y) => x - y)).toEqual(sent.map((s) => s.id));
        const byId = new Map(sent.map((s) => [s.id, s]));
        for (const d of scheduled) {
          const s = byId.get(d.n)!;
          expect(d.tick).toBeGreaterThanOrEqual(s.now + lat.min);
          // An unordered send waits for nobody: its latency alone decides when it lands.
          if (s.op.unordered) expect(d.tick).toBeLessThanOrEqual(s.now + lat.min + lat.spread);
        }
        for (const [link, order] of orderPerLink(delivered, sent, (s) => !s.op.unordered)) expect(nonDecreasing(order), `${link}: ${order.join(',')}`).toBe(true);
      }),
      { seed: 0x0e71, numRuns: RUNS },
    );
  });

  it('never reorders a link without a reorder fault: losing, duplicating and delaying keep FIFO', () => {
    fc.assert(
      fc.property(ops(20), plan(['lose', 'duplicate', 'delay']), latencies, (opList, faults, lat) => {
        const { delivered, sent } = simulate(opList, faults, lat);
        for (const [link, order] of orderPerLink(delivered, sent, (s) => !s.op.unordered)) expect(nonDecreasing(order), `${link}: ${order.join(',')}`).toBe(true);
      }),
      { seed: 0x0e72, numRuns: RUNS },
    );
  });

  it('strikes exactly the n-th message of its point, once, and does exactly what its kind says', () => {
    fc.assert(
      fc.property(ops(20), plan(['lose', 'duplicate', 'delay', 'reorder']), latencies, (opList, faults, lat) => {
        const { scheduled, recorded, sent, healedAt } = simulate(opList, faults, lat);
        // The recorded strikes are exactly the messages the model names, in send order; no
        // system message and nothing sent after the heal is ever struck.
        expect(recorded.map((r) => ({ fault: r.fault, n: r.n, during: r.during }))).toEqual(sent.filter((s) => s.fault).map((s) => ({ fault: s.fault, n: s.id, during: s.id })));
        const copies = (n: number) => scheduled.filter((d) => d.n === n);
        for (const s of sent) {
          const mine = copies(s.id);
          switch (s.fault?.kind) {
            case 'lose':
              expect(mine, `message ${s.id} was lost`).toHaveLength(0);
              break;
            case 'duplicate':
              // Two copies, distinct envelopes, at the same tick, one right behind the other.
              expect(mine, `message ${s.id} was duplicated`).toHaveLength(2);
              expect(mine[0]!.tick).toBe(mine[1]!.tick);
              expect(mine[1]!.call).toBe(mine[0]!.call + 1);
              expect(mine[0]!.envelope.id).not.toBe(mine[1]!.envelope.id);
              expect(mine[0]!.during).toBe(s.id);
              break;
            case 'delay':
              expect(mine).toHaveLength(1);
              expect(mine[0]!.during).toBe(s.id);
              expect(mine[0]!.tick).toBeGreaterThanOrEqual(s.now + lat.min + lat.delay);
              break;
            case 'reorder': {
              expect(mine).toHaveLength(1);
              // Held until the next message on its link is scheduled, then right behind it (and
              // its duplicate): at the same tick when that message keeps the link's order, no
              // earlier than it when it is an unordered send; released at the heal if none came.
              const releaser = sent.find((x) => x.id > s.id && x.link === s.link && x.id < healedAt.during && x.fault?.kind !== 'lose' && x.fault?.kind !== 'reorder');
              if (releaser) {
                const theirs = copies(releaser.id);
                expect(mine[0]!.during, `message ${s.id} released by ${releaser.id}`).toBe(releaser.id);
                if (releaser.op.unordered) expect(mine[0]!.tick).toBeGreaterThanOrEqual(theirs[0]!.tick);
                else expect(mine[0]!.tick).toBe(theirs[0]!.tick);
                expect(mine[0]!.call).toBeGreaterThan(theirs.at(-1)!.call);
              } else {
                expect(mine[0]!.during, `message ${s.id} released at the heal`).toBe(healedAt.during);
                expect(mine[0]!.tick).toBeGreaterThanOrEqual(healedAt.now + lat.min);
              }
              break;
            }
            default:
              expect(mine, `message ${s.id} was not faulted`).toHaveLength(1);
              expect(mine[0]!.during).toBe(s.id);
          }
        }
      }),
      { seed: 0x0e73, numRuns: RUNS },
    );
  });

  it('lets a reordered message be overtaken only by the message that released it', () => {
    fc.assert(
      // One pair of components, so faults often strike messages sent close together on one link.
      fc.property(ops(30, ['a', 'b']), plan(['reorder', 'lose', 'duplicate', 'delay'], ['a', 'b']), latencies, (opList, faults, lat) => {
        const { delivered, sent } = simulate(opList, faults, lat);
        // Without the reordered messages, every link's ordered sends are still in send order.
        for (const [link, order] of orderPerLink(delivered, sent, (s) => !s.op.unordered && s.fault?.kind !== 'reorder')) expect(nonDecreasing(order), `${link}: ${order.join(',')}`).toBe(true);
        // And a reordered (ordered) send arrives after every ordered send made before it on its
        // link: being overtaken must not let it overtake others in turn.
        for (const [link, order] of orderPerLink(delivered, sent, (s) => !s.op.unordered)) {
          for (const [i, n] of order.entries()) {
            const s = sent.find((x) => x.id === n)!;
            if (s.fault?.kind !== 'reorder') continue;
            expect(order.slice(i + 1).filter((m) => m < n), `${link}: ${order.join(',')}: ${n} overtook earlier messages`).toEqual([]);
          }
        }
      }),
      { seed: 0x0e74, numRuns: RUNS },
    );
  });

  it('does not let an unordered send release a held message ahead of the link’s earlier messages', () => {
    // The case the last property found: 1 is delayed, 2 is held by a reorder fault, and 3, an
    // unordered send, lands long before 1. Released with 3, 2 would overtake 1 as well.
    const order: string[] = [];
    const network = new Network(new Prng(1), { latencyTicksMin: 1, latencyTicksMax: 1, delayFaultTicks: 20 }, [{ kind: 'delay', point: 'a->b:x', occurrence: 1 }, { kind: 'reorder', point: 'a->b:x', occurrence: 2 }], {
      schedule: (tick, e) => order.push(`${tick}:${(e.event as unknown as { n: number }).n}`),
      record: () => undefined,
    });
    network.send(0, 'a', 'b', { type: 'x', n: 1 } as never);
    network.send(0, 'a', 'b', { type: 'x', n: 2 } as never);
    network.send(0, 'a', 'b', { type: 'y', n: 3 } as never, true);
    expect(order).toEqual(['21:1', '1:3', '21:2']);
  });
});

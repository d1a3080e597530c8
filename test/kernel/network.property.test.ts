// The network's promises, for any script of sends and any latencies, as the kernel keeps them in
// a World run: each link (from, to) delivers its ordered sends in the order they were sent;
// nothing is reordered without a reorder fault; a lose, duplicate, delay or reorder fault at
// occurrence n strikes exactly the n-th message of its point, once, and does to it exactly what
// its kind says; a reordered message is overtaken by the next message sent on its link alone, or
// released at the heal. Three components follow a script: at given ticks each sends numbered
// messages (some on connections of their own), and each records every message it gets. The
// seeds are fixed, so a failure prints a seed and path that reproduce it.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { MessageFault, MessageFaultKind } from '../../src/faults/faults.ts';
import { World } from '../../src/run/world.ts';
import { type ComponentSpec } from '../../src/kernel/componentSpec.ts';
import { actor, type Send } from '../support/scriptedActor.ts';

const COMPONENTS = ['a', 'b', 'c'] as const;
const TYPES = ['m', 'n'] as const;

/** Sends at ticks 0 to 40 among `components`, a share of them unordered, numbered in script order. */
const script = (unorderedShare: number, components: readonly string[] = COMPONENTS): fc.Arbitrary<Send[]> =>
  fc
    .array(
      fc.record({
        at: fc.integer({ min: 0, max: 40 }),
        from: fc.constantFrom(...components),
        to: fc.constantFrom(...components),
        type: fc.constantFrom(...TYPES),
        unordered: fc.integer({ min: 0, max: 99 }).map((n) => n < unorderedShare),
      }),
      { maxLength: 40 },
    )
    .map((sends) =>
      sends
        .filter((s) => s.from !== s.to)
        .sort((x, y) => x.at - y.at)
        .map((s, n) => ({ ...s, n })),
    );

const pointsOf = (components: readonly string[]) => components.flatMap((from) => components.filter((to) => to !== from).flatMap((to) => TYPES.map((type) => `${from}->${to}:${type}`)));

/** Faults at distinct (point, occurrence), so each names one message. */
const plan = (kinds: readonly MessageFaultKind[], components: readonly string[] = COMPONENTS): fc.Arbitrary<MessageFault[]> =>
  fc.uniqueArray(fc.record({ kind: fc.constantFrom(...kinds), point: fc.constantFrom(...pointsOf(components)), occurrence: fc.integer({ min: 1, max: 4 }) }), {
    maxLength: 8,
    selector: (f) => `${f.point}#${f.occurrence}`,
  });

const latencies = fc.record({ min: fc.integer({ min: 1, max: 5 }), spread: fc.integer({ min: 0, max: 8 }), delay: fc.integer({ min: 1, max: 30 }), seed: fc.nat() });

/** The script's sends in the order they are made (by tick, then by sender, each in script order), each with its plan's fault. */
function sendsOf(sends: readonly Send[], faults: readonly MessageFault[]): (Send & { fault: MessageFault | undefined })[] {
  const counts = new Map<string, number>();
  return [...sends]
    .sort((x, y) => x.at - y.at || COMPONENTS.indexOf(x.from as never) - COMPONENTS.indexOf(y.from as never) || x.n - y.n)
    .map((s) => {
      const point = `${s.from}->${s.to}:${s.type}`;
      const count = (counts.get(point) ?? 0) + 1;
      counts.set(point, count);
      return { ...s, fault: faults.find((f) => f.point === point && f.occurrence === count) };
    });
}

/** Runs the script in a World, faults healed once every send is made; every delivery, in order. */
function simulate(sends: readonly Send[], faults: readonly MessageFault[], lat: { min: number; spread: number; delay: number; seed: number }, components: readonly string[] = COMPONENTS) {
  const specs: ComponentSpec[] = components.map((name) => ({ name, machine: actor, input: { script: sends.filter((s) => s.from === name) }, process: true }));
  const world = new World(specs, { seed: lat.seed, plan: faults, latencyTicksMin: lat.min, latencyTicksMax: lat.min + lat.spread, delayFaultTicks: lat.delay, safetyTicksMax: 41, keepTrace: true });
  const report = world.run();
  const healedAt = report.trace!.find((e) => e.kind === 'phase')!.tick;
  const delivered = report.trace!.filter((e) => e.kind === 'deliver').map((e) => ({ tick: e.tick, seq: e.seq, n: (e.data as { event: { n: number } }).event.n, link: `${(e.data as { from: string }).from}->${e.component}` }));
  const struck = report.strikes.map((s) => s.fault);
  return { delivered, struck, healedAt, report };
}

/** Per link, the messages (by number) delivered, in delivery order, keeping only those `keep` selects. */
function orderPerLink(delivered: ReturnType<typeof simulate>['delivered'], sends: readonly Send[], keep: (s: Send) => boolean): Map<string, number[]> {
  const out = new Map<string, number[]>();
  for (const d of delivered) {
    const s = sends.find((x) => x.n === d.n)!;
    if (!keep(s)) continue;
    out.set(d.link, [...(out.get(d.link) ?? []), d.n]);
  }
  return out;
}

const inOrder = (xs: readonly number[], sends: readonly Send[]) => {
  const rank = new Map(sendsOf(sends, []).map((s, i) => [s.n, i]));
  return xs.every((x, i) => i === 0 || rank.get(xs[i - 1]!)! <= rank.get(x)!);
};

const RUNS = 150;

describe('the network, property', () => {
  it('delivers every message once, the ordered sends of each link in the order they were sent, whatever the latencies', () => {
    fc.assert(
      fc.property(script(20), latencies, (sends, lat) => {
        const { delivered, struck } = simulate(sends, [], lat);
        expect(struck).toEqual([]);
        expect(delivered.map((d) => d.n).sort((x, y) => x - y)).toEqual(sends.map((s) => s.n));
        for (const d of delivered) {
          const s = sends.find((x) => x.n === d.n)!;
          expect(d.tick).toBeGreaterThanOrEqual(s.at + lat.min);
          // An unordered send waits for nobody: its latency alone decides when it lands.
          if (s.unordered) expect(d.tick).toBeLessThanOrEqual(s.at + lat.min + lat.spread);
        }
        for (const [link, order] of orderPerLink(delivered, sends, (s) => !s.unordered)) expect(inOrder(order, sends), `${link}: ${order.join(',')}`).toBe(true);
      }),
      { seed: 0x0e71, numRuns: RUNS },
    );
  });

  it('never reorders a link without a reorder fault: losing, duplicating and delaying keep FIFO', () => {
    fc.assert(
      fc.property(script(20), plan(['lose', 'duplicate', 'delay']), latencies, (sends, faults, lat) => {
        const { delivered } = simulate(sends, faults, lat);
        for (const [link, order] of orderPerLink(delivered, sends, (s) => !s.unordered)) expect(inOrder(order, sends), `${link}: ${order.join(',')}`).toBe(true);
      }),
      { seed: 0x0e72, numRuns: RUNS },
    );
  });

  it('strikes exactly the n-th message of its point, once, and does exactly what its kind says', () => {
    fc.assert(
      fc.property(script(20), plan(['lose', 'duplicate', 'delay', 'reorder']), latencies, (sends, faults, lat) => {
        const { delivered, struck, healedAt } = simulate(sends, faults, lat);
        const made = sendsOf(sends, faults);
        expect(struck).toEqual(made.filter((s) => s.fault !== undefined).map((s) => s.fault));
        const copies = (n: number) => delivered.filter((d) => d.n === n);
        for (const s of made) {
          const mine = copies(s.n);
          const link = `${s.from}->${s.to}`;
          switch (s.fault?.kind) {
            case 'lose':
              expect(mine, `message ${s.n} was lost`).toHaveLength(0);
              break;
            case 'duplicate':
              // Two copies at the same tick, one right behind the other.
              expect(mine, `message ${s.n} was duplicated`).toHaveLength(2);
              expect(mine[0]!.tick).toBe(mine[1]!.tick);
              expect(delivered.indexOf(mine[1]!)).toBe(delivered.indexOf(mine[0]!) + 1);
              break;
            case 'delay':
              expect(mine).toHaveLength(1);
              expect(mine[0]!.tick).toBeGreaterThanOrEqual(s.at + lat.min + lat.delay);
              break;
            case 'reorder': {
              expect(mine).toHaveLength(1);
              // Released by the next message sent on its link (an unordered one too), right behind
              // it; at the heal if none came.
              const later = made.slice(made.indexOf(s) + 1);
              const releaser = later.find((x) => `${x.from}->${x.to}` === link && x.fault?.kind !== 'lose' && x.fault?.kind !== 'reorder');
              if (releaser) {
                const theirs = copies(releaser.n);
                expect(mine[0]!.tick, `message ${s.n} released by ${releaser.n}`).toBeGreaterThanOrEqual(theirs[0]!.tick);
                expect(delivered.indexOf(mine[0]!)).toBeGreaterThan(delivered.indexOf(theirs.at(-1)!));
              } else {
                expect(mine[0]!.tick, `message ${s.n} released at the heal`).toBeGreaterThanOrEqual(healedAt + lat.min);
              }
              break;
            }
            default:
              expect(mine, `message ${s.n} was not faulted`).toHaveLength(1);
          }
        }
      }),
      { seed: 0x0e73, numRuns: RUNS },
    );
  });

  it('lets a reordered message be overtaken only by the message that released it', () => {
    fc.assert(
      // One pair of components, so faults often strike messages sent close together on one link.
      fc.property(script(30, ['a', 'b']), plan(['reorder', 'lose', 'duplicate', 'delay'], ['a', 'b']), latencies, (sends, faults, lat) => {
        const { delivered } = simulate(sends, faults, lat, ['a', 'b']);
        const reordered = new Set(sendsOf(sends, faults).filter((s) => s.fault?.kind === 'reorder').map((s) => s.n));
        // Without the reordered messages, every link's ordered sends are still in send order.
        for (const [link, order] of orderPerLink(delivered, sends, (s) => !s.unordered && !reordered.has(s.n))) expect(inOrder(order, sends), `${link}: ${order.join(',')}`).toBe(true);
        // And a reordered (ordered) send arrives after every ordered send made before it on its
        // link: being overtaken must not let it overtake others in turn.
        const rank = new Map(sendsOf(sends, []).map((s, i) => [s.n, i]));
        for (const [link, order] of orderPerLink(delivered, sends, (s) => !s.unordered)) {
          for (const [i, n] of order.entries()) {
            if (!reordered.has(n)) continue;
            expect(order.slice(i + 1).filter((m) => rank.get(m)! < rank.get(n)!), `${link}: ${order.join(',')}: ${n} overtook earlier messages`).toEqual([]);
          }
        }
      }),
      { seed: 0x0e74, numRuns: RUNS },
    );
  });

  it('does not let an unordered send release a held message ahead of the link’s earlier messages', () => {
    // 0 is delayed, 1 is held by a reorder fault, and 2, an unordered send, lands long before 0.
    // Released with 2, 1 would overtake 0 as well.
    const sends: Send[] = [
      { at: 0, from: 'a', to: 'b', type: 'm', unordered: false, n: 0 },
      { at: 0, from: 'a', to: 'b', type: 'm', unordered: false, n: 1 },
      { at: 0, from: 'a', to: 'b', type: 'n', unordered: true, n: 2 },
    ];
    const faults: MessageFault[] = [
      { kind: 'delay', point: 'a->b:m', occurrence: 1 },
      { kind: 'reorder', point: 'a->b:m', occurrence: 2 },
    ];
    const { delivered } = simulate(sends, faults, { min: 1, spread: 0, delay: 20, seed: 1 }, ['a', 'b']);
    expect(delivered.map((d) => `${d.tick}:${d.n}`)).toEqual(['1:2', '21:0', '21:1']);
  });
});

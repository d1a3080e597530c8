// A breadth-first level gives back each state it was given: every clock and budget field, its
// hash, node id and tag, components equal to the ones pushed (one object per distinct hash), and link
// lists and send counts equal to the ones pushed, even where two differ only in a message's
// ordinal or share one lane of their key.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkSetup } from '../../src/modes/check/check.ts';
import { Frontier, type PartHashes } from '../../src/modes/check/frontier.ts';
import { loadScenario } from '../../src/scenario/catalogue.ts';
import type { Hash64 } from '../../src/kernel/stateHash.ts';

interface FakeComp {
  readonly v: number;
}
interface FakeLink {
  readonly key: string;
  readonly n: number;
}

const KEYS = ['a->b', 'b->c', 'a->b#1'];
// Hashes that tell every value apart, as 64 bits do in practice, and whose low lanes collide
// often (v mod 4, the list's length mod 2), so the level's second table is used too.
const fake: PartHashes<FakeComp, FakeLink> = {
  compHash: (c): Hash64 => [c.v * 7919, c.v % 4],
  linksKey: (links): Hash64 => [links.reduce((h, l) => h * 64 + KEYS.indexOf(l.key) * 8 + l.n + 1, 0), links.length % 2],
};

const state = fc.record({
  now: fc.nat({ max: 5_000_000_000 }),
  comps: fc.array(fc.nat({ max: 20 }), { minLength: 3, maxLength: 3 }).map((vs) => vs.map((v) => ({ v }))),
  links: fc.array(fc.record({ key: fc.constantFrom(...KEYS), n: fc.nat({ max: 5 }) }), { maxLength: 3 }),
  faults: fc.nat({ max: 3 }),
  lastProgress: fc.integer({ min: -1, max: 1000 }),
  lastFault: fc.integer({ min: -1, max: 1000 }),
  nextUnordered: fc.nat({ max: 9 }),
  sent: fc.array(fc.nat({ max: 9 }), { maxLength: 4 }),
  stillTicks: fc.nat({ max: 3_000_000 }),
  healTick: fc.integer({ min: -1, max: 1000 }),
  jumped: fc.boolean(),
});

// Hash lanes as the search gives them: unsigned 32-bit numbers, the extremes among them.
const lane = fc.oneof(fc.constantFrom(0, 1, 0xffffffff, 0x80000000), fc.nat({ max: 0xffffffff }));

describe('Frontier', () => {
  it('gives back every state pushed, through growth, and again after it is emptied', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(state, fc.tuple(lane, lane), fc.nat(), fc.integer({ min: -1, max: 40 })), { maxLength: 300 }), fc.array(fc.tuple(state, fc.tuple(lane, lane), fc.nat(), fc.integer({ min: -1, max: 40 })), { maxLength: 300 }), (rows, later) => {
        const level = new Frontier(fake, 4);
        // A search reuses a level: what it held before it was emptied must not leak into the next.
        for (const batch of [rows, later]) {
          level.clear();
          for (const [s, [hi, lo], id, tag] of batch) level.push(s, hi, lo, id, tag);
          expect(level.length).toBe(batch.length);
          batch.forEach(([s, h, id, tag], i) => {
            // A lane comes back as the same 32 bits, which is all the visited set reads of it.
            expect([level.hi(i) >>> 0, level.lo(i) >>> 0]).toEqual(h.map((x) => x >>> 0));
            expect(level.id(i)).toBe(id);
            expect(level.tag(i)).toBe(tag);
            expect(level.state(i)).toEqual(s);
          });
        }
      }),
    );
  });

  it('keeps one component object per distinct hash, and apart link lists that differ only in an ordinal', () => {
    const level = new Frontier(fake);
    const a = { v: 5 };
    const twin = { v: 5 };
    const base = { now: 1, faults: 0, lastProgress: 0, lastFault: -1, nextUnordered: 0, sent: [1, 2], stillTicks: 0, healTick: -1, jumped: false };
    level.push({ ...base, comps: [a], links: [{ key: 'a->b', n: 1 }] }, 1, 2, 0, 0);
    level.push({ ...base, comps: [twin], links: [{ key: 'a->b', n: 2 }] }, 3, 4, 1, 0);
    expect(level.state(1).comps[0]).toBe(a);
    expect(level.state(0).links).toEqual([{ key: 'a->b', n: 1 }]);
    expect(level.state(1).links).toEqual([{ key: 'a->b', n: 2 }]);
  });

  it('rebuilds a real search level whose states hash and step as the originals do', async () => {
    const { scenario } = await loadScenario('mercury-outbox-two-relays');
    const { world } = checkSetup(scenario, { faults: 1 });
    let states = [world.initial()];
    // Three levels of every choice: deliveries, timers, crashes and message faults.
    for (let depth = 0; depth < 3; depth++) states = states.flatMap((s) => world.choices(s).map((c) => world.apply(s, c)));
    const level = new Frontier(world);
    states.forEach((s, i) => {
      const [hi, lo] = world.hash(s, i % 3);
      level.push(s, hi, lo, i, i % 3);
    });
    expect(level.length).toBe(states.length);
    states.forEach((s, i) => {
      const back = level.state(i) as typeof s;
      expect(back).toEqual(s);
      expect(world.hash(back)).toEqual(world.hash(s));
      expect(world.durable(back)).toEqual(world.durable(s));
      const next = world.choices(s);
      expect(world.choices(back)).toEqual(next);
      for (const c of next) expect(world.hash(world.apply(back, c))).toEqual(world.hash(world.apply(s, c)));
    });
  });
});

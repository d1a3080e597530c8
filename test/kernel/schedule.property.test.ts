// The Schedule against a model anyone can check by eye: an array of live entries, sorted on each
// pop. For any interleaving of push, cancel, pop, peek and removeWhere, both must release the
// same entries in the same (tick, seq) order and agree on the size at every step. The seed is
// fixed, so a failure prints a seed and path that reproduce it exactly.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Schedule, type Scheduled } from '../../src/kernel/schedule.ts';

type Op =
  | { readonly op: 'push'; readonly tick: number }
  | { readonly op: 'cancel'; readonly which: number }
  | { readonly op: 'pop' }
  | { readonly op: 'peek' }
  | { readonly op: 'removeWhere'; readonly mod: number; readonly rest: number };

const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ op: fc.constant('push' as const), tick: fc.integer({ min: 0, max: 20 }) }) },
  // `which` indexes every seq ever handed out, and a little past them: entries still pending,
  // already taken, already cancelled, and seqs never given.
  { weight: 2, arbitrary: fc.record({ op: fc.constant('cancel' as const), which: fc.nat({ max: 1_000 }) }) },
  { weight: 3, arbitrary: fc.constant({ op: 'pop' as const }) },
  { weight: 1, arbitrary: fc.constant({ op: 'peek' as const }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('removeWhere' as const), mod: fc.integer({ min: 2, max: 4 }), rest: fc.nat({ max: 3 }) }) },
);

const byTickThenSeq = (a: Scheduled<number>, b: Scheduled<number>) => a.tick - b.tick || a.seq - b.seq;

describe('Schedule, property', () => {
  it('releases entries in (tick, seq) order for any interleaving of push, cancel, pop, peek and removeWhere', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 120 }), (ops) => {
        const schedule = new Schedule<number>();
        // The model: live entries, unordered; the item of an entry is its own seq.
        let model: Scheduled<number>[] = [];
        let pushed = 0;
        for (const o of ops) {
          switch (o.op) {
            case 'push': {
              const seq = schedule.push(o.tick, pushed);
              expect(seq, 'the seq of a push').toBe(pushed);
              model.push({ tick: o.tick, seq, item: pushed });
              pushed++;
              break;
            }
            case 'cancel': {
              const seq = o.which % (pushed + 3);
              schedule.cancel(seq);
              model = model.filter((e) => e.seq !== seq);
              break;
            }
            case 'pop':
            case 'peek': {
              model.sort(byTickThenSeq);
              const expected = model[0];
              const got = o.op === 'pop' ? schedule.pop() : schedule.peek();
              if (o.op === 'pop') model.shift();
              expect(got, o.op).toEqual(expected);
              break;
            }
            case 'removeWhere': {
              const drop = (item: number) => item % o.mod === o.rest;
              schedule.removeWhere(drop);
              model = model.filter((e) => !drop(e.item));
              break;
            }
          }
          expect(schedule.size, `the size after ${o.op}`).toBe(model.length);
        }
        // What is left comes out in order, and entries() lists exactly it beforehand.
        model.sort(byTickThenSeq);
        expect(schedule.entries()).toEqual(model);
        const rest: Scheduled<number>[] = [];
        for (let e = schedule.pop(); e; e = schedule.pop()) rest.push(e);
        expect(rest).toEqual(model);
        expect(schedule.size).toBe(0);
        expect(schedule.peek()).toBeUndefined();
      }),
      { seed: 0x5c4ed, numRuns: 500 },
    );
  });
});

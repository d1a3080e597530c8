// A scenario whose own code draws on something outside its seed (an observer with state of its
// own, records stamped as the design is built) gives another run for the same seed and plan; every
// mode refuses it before it sweeps or searches, in one line, rather than report a verdict or a
// replay line that would not hold. The stand-ins here differ on purpose and every time, so the
// test never depends on chance.
import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/base/inputError.ts';
import { runWindows } from '../../src/modes/windows.ts';
import { explore } from '../../src/modes/explore.ts';
import { check } from '../../src/modes/check/check.ts';
import type { Scenario } from '../../src/scenario/scenario.ts';
import outbox from '../../scenarios/mercury-outbox.ts';
import { fullDedupTable, fullDedupTableScenario } from '../fixtures/fullDedupTable.ts';

const claim = outbox.claims[0]!;

/** Its facts observer names one more fact every other time it is asked: a phantom, then none. */
function flickering(): Scenario {
  let asked = 0;
  return { ...outbox, name: 'flickering-observer', claims: [{ ...claim, facts: (v) => [...claim.facts!(v), ...(asked++ % 2 === 1 ? ['o-99|1'] : [])] }] };
}

/** Each build stamps the design anew, as records stamped with the clock would be. */
function stampedAtBuild(): Scenario {
  let builds = 0;
  const stamped = (input: { commands: { data: object }[] }) => ({ ...input, commands: input.commands.map((c) => ({ ...c, data: { ...c.data, stamp: builds } })) });
  return {
    ...outbox,
    name: 'stamped-at-build',
    build: (w, t) => {
      builds++;
      return outbox.build(w, t).map((c) => (c.name === 'client' ? { ...c, input: stamped(c.input as never) } : c));
    },
  };
}

/** Each build sizes the receiver's dedup table anew: the fault-free run sends and judges alike, and only the durable table differs. */
function durableOnly(): Scenario {
  let builds = 0;
  return { ...fullDedupTableScenario, name: 'durable-only', build: () => fullDedupTable(6 - (builds++ % 2)) };
}

describe('a scenario that is not a function of its seed', () => {
  it('is refused when only a durable end state differs, naming where', () => {
    expect(() => runWindows(durableOnly())).toThrow(/^durable-only is not deterministic: its fault-free run with seed 1 gave another durable end state \(….+… against ….+…\), built and run again the same way; /);
  });

  it('is refused by windows, explore and check, naming what differed', () => {
    for (const make of [flickering, stampedAtBuild]) {
      for (const mode of [(s: Scenario) => runWindows(s), (s: Scenario) => explore(s, { runs: 5 }), (s: Scenario) => check(s, { faults: 0 })]) {
        const s = make();
        expect(() => mode(s), s.name).toThrow(InputError);
        expect(() => mode(make()), s.name).toThrow(/^(flickering-observer|stamped-at-build) is not deterministic: its fault-free run with seed \d+ gave .+, built and run again the same way; its code must not draw random numbers, read the clock, use timers or keep state from one run to the next$/);
      }
    }
  });

  it('is told apart from one that is: the catalogue design itself sweeps', () => {
    expect(runWindows(outbox, { maxOccurrence: 1 }).judgement.asExpected).toBe(true);
  });
});

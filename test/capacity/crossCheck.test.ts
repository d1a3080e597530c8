// Cross-check by simulation (issue 7): the processor model, crashed through the World's own fault
// path at every tick of one checkpoint interval, replays what `checkpointReplay` says it should.
// One tick stands for one second, so 18 events per tick and a checkpoint every 30 ticks are the
// formula's 18/s and 30 s scaled down; recovery at 24 per tick mirrors 24,000/s.
//
// The formula assumes a crash at a uniformly random moment of continuous time, so its average is
// rate × interval ÷ 2 = 270. The model moves in whole ticks: during tick 30 + j (j = 0..29 of the
// interval that starts with the checkpoint at tick 30) it rests in `waiting` with j ticks of
// records processed since that checkpoint, so a crash there replays 18 × j records. The discrete
// mean is therefore 18 × (0 + 1 + … + 29) ÷ 30 = 261, half a tick's events below 270, and the
// discrete maximum is 18 × 29 = 522, one tick short of the full interval: the tick that would
// bring it to 540 is followed by the checkpoint at tick 60. The full interval of 540 is reached by
// crashing after tick 60's records are processed but before that checkpoint completes, in
// `processing` or `checkpointing`, which is the formula's "at most the full interval".
import { describe, expect, it } from 'vitest';
import { checkpointReplay } from '../../src/capacity/checkpoint.ts';
import type { FaultPlan } from '../../src/faults.ts';
import { World } from '../../src/world.ts';
import { expectedState, processorComponent, type ProcessorDurable } from '../../models/processor.ts';

const RATE = 18;
const INTERVAL = 30;
const input = { eventsPerTick: RATE, recoveryEventsPerTick: 24, checkpointEveryTicks: INTERVAL, totalTicks: 120 };
// The interval under test starts with the checkpoint at tick 30, so every crash restores a
// checkpoint the processor actually took rather than the empty state it booted with.
const FIRST = INTERVAL;
const TICKS = Array.from({ length: INTERVAL }, (_, j) => FIRST + j);
const formula = checkpointReplay({ ratePerSec: RATE, intervalSec: INTERVAL, recoveryRatePerSec: 24 });

function run(plan: FaultPlan) {
  const world = new World([processorComponent(input)], { seed: 7, plan });
  const result = world.run();
  return { world, result, durable: world.durable<ProcessorDurable>('processor') };
}

// The occurrence of `window` the fault-free run enters at each tick, read from its trace, so
// that a crash fault with that occurrence strikes at exactly that tick.
function occurrencesByTick(window: string): Map<number, number> {
  const { world } = run([]);
  const byTick = new Map<number, number>();
  let n = 0;
  for (const e of world.trace.events) {
    if (e.component !== 'processor' || e.kind !== 'state' || e.data !== window) continue;
    n += 1;
    if (!byTick.has(e.tick)) byTick.set(e.tick, n);
  }
  return byTick;
}

// Crashes the processor once per tick in `window` and returns the records replayed after each
// restore, checking along the way that every run ends with each source record counted once.
function replaysPerTick(window: string, ticks: readonly number[]): number[] {
  const occurrences = occurrencesByTick(window);
  return ticks.map((tick) => {
    const occurrence = occurrences.get(tick);
    if (occurrence === undefined) throw new Error(`processor never enters ${window} at tick ${tick}`);
    const { result, durable } = run([{ kind: 'crash', window: `processor.${window}`, occurrence }]);
    expect(result.ending).toBe('quiescent');
    expect(result.strikes.map((s) => s.tick)).toEqual([tick]);
    expect(durable.replays).toHaveLength(1);
    expect(durable.checkpoint.state).toEqual(expectedState(input.totalTicks * RATE));
    expect(durable.processedTotal).toBe(input.totalTicks * RATE + durable.replayedTotal);
    return durable.replays[0]!;
  });
}

const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

describe('checkpoint replay: simulation against the formula', () => {
  it('the formula side: 18/s for 30 s averages 270 events and at most 540', () => {
    expect(formula.averageReplayEvents.toFixed()).toBe('270');
    expect(formula.fullReplayEvents.toFixed()).toBe('540');
  });

  it('a crash at every tick of the interval replays 261 on average (the discrete 270) and at most 522', () => {
    // The waiting window is entered once per tick, at tick t as its (t + 1)-th occurrence.
    expect(occurrencesByTick('waiting').get(FIRST)).toBe(FIRST + 1);
    const replays = replaysPerTick('waiting', TICKS);
    expect(replays).toEqual(TICKS.map((t) => RATE * (t - FIRST)));

    const discreteMean = (RATE * ((INTERVAL - 1) * INTERVAL) / 2) / INTERVAL; // 18 × (0+…+29) ÷ 30
    expect(discreteMean).toBe(261);
    expect(mean(replays)).toBe(discreteMean);
    // Within one tick's events of the continuous formula: exactly half a tick below it.
    expect(Math.abs(mean(replays) - formula.averageReplayEvents.toNumber())).toBeLessThanOrEqual(RATE);
    expect(formula.averageReplayEvents.minus(mean(replays)).toFixed()).toBe(String(RATE / 2));

    expect(Math.max(...replays)).toBe(522);
    expect(formula.fullReplayEvents.minus(Math.max(...replays)).toFixed()).toBe(String(RATE));
  });

  it('sampling the other end of each tick gives 279, and the two samplings average exactly 270', () => {
    // `processing` at tick 31..60 is entered after that tick's records and before any checkpoint,
    // so it sees 1..30 ticks of records since the checkpoint at tick 30: 18 × (1+…+30) ÷ 30 = 279.
    const after = replaysPerTick('processing', TICKS.map((t) => t + 1));
    expect(after).toEqual(TICKS.map((t) => RATE * (t + 1 - FIRST)));
    expect(mean(after)).toBe(279);
    const before = TICKS.map((t) => RATE * (t - FIRST)); // the waiting sampling, shown above
    expect(formula.averageReplayEvents.eq((mean(before) + mean(after)) / 2)).toBe(true);
    // Crashing just before the checkpoint at tick 60 completes replays the whole interval.
    expect(Math.max(...after)).toBe(540);
    expect(formula.fullReplayEvents.eq(Math.max(...after))).toBe(true);
  });

  it('a crash while the checkpoint is taken but not completed replays the full interval, 540', () => {
    // checkpointing is entered at ticks 30, 60, 90, 120; its second occurrence is the checkpoint
    // that would close the interval under test.
    expect(occurrencesByTick('checkpointing').get(FIRST + INTERVAL)).toBe(2);
    const [replayed] = replaysPerTick('checkpointing', [FIRST + INTERVAL]);
    expect(replayed).toBe(540);
    expect(formula.fullReplayEvents.eq(replayed!)).toBe(true);
  });
});

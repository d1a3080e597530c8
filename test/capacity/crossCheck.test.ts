// Cross-check by simulation: the processor model, crashed through the World's own fault
// path at every tick of one checkpoint interval, replays what `checkpointReplay` says it should,
// and recovers, slowed by a hot key, when either reading of the slowdown says it does.
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
import type { FaultPlan } from '../../src/faults/faults.ts';
import { World } from '../../src/run/world.ts';
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
    expect(result.ending).toEqual({ kind: 'quiescent' });
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

// A hot-key slowdown by simulation, both readings `calc checkpoint` prints. Here one tick is one
// second and one event stands for a hundred, so 180 a tick and recovery at 240 a tick are the
// seed's 18,000/s and 24,000/s; the scale is a hundred rather than a thousand because 10% off 24 a
// tick would be 21.6, and the model processes whole records. The World keeps a crashed processor
// down 20 ticks, the seed drill's 20 s restore, so 3,600 live events (the formula's 360,000) join
// the backlog before it restarts.
const LIVE = 180;
const RECOVERY = 240;
const RESTORE = 20;
// The source stays live past the latest catch-up below (tick 330), so every figure is read while
// input still arrives; the run itself is bounded because the source then stops.
const TOTAL = 360;

function adjustedFor(slowdown: string) {
  const adjusted = checkpointReplay({
    ratePerSec: LIVE,
    intervalSec: INTERVAL,
    recoveryRatePerSec: RECOVERY,
    restoreSec: RESTORE,
    hotKeySlowdown: slowdown,
  }).adjusted;
  if (adjusted === null) throw new Error('a slowdown always gives adjusted figures');
  return adjusted;
}

// Crashes the processor once at the given window occurrence and reads, from the checkpoints it
// completes after restarting, how far behind the live edge it was at each: the records that had
// arrived by then minus the position the checkpoint records.
function recover(recoveryEventsPerTick: number, window: string, occurrence: number) {
  const slowInput = { eventsPerTick: LIVE, recoveryEventsPerTick, checkpointEveryTicks: INTERVAL, totalTicks: TOTAL };
  const world = new World([processorComponent(slowInput)], {
    seed: 7,
    plan: [{ kind: 'crash', window: `processor.${window}`, occurrence }],
    restartDelayTicks: RESTORE,
  });
  const result = world.run();
  expect(result.ending).toEqual({ kind: 'quiescent' });
  const durable = world.durable<ProcessorDurable>('processor');
  // However the catch-up went, each source record is reflected in the state exactly once.
  expect(durable.checkpoint.state).toEqual(expectedState(TOTAL * LIVE));
  const notes = result.notes.map((n) => ({ tick: n.tick, kind: n.kind, data: n.data as { tick?: number; position?: number } }));
  const restartTick = notes.filter((n) => n.kind === 'restore').at(-1)!.tick;
  const crashTick = result.strikes[0]!.tick;
  const backlogs = notes
    .filter((n) => n.kind === 'checkpoint' && n.tick > restartTick)
    .map((n) => [n.tick, Math.min(n.tick, TOTAL) * LIVE - n.data.position!] as const);
  return { crashTick, restartTick, backlogs, finalTick: backlogs.at(-1)![0], traceHash: result.traceHash };
}

// Reading (a): the catch-up takes s% longer, after the restore backlog has joined it, and the
// restore itself does not. A processor whose catch-up takes 1 + s times as long clears its
// backlog at the unslowed margin divided by 1 + s, so the simulation runs the processor at the
// live rate plus that: at 25%, 180 + 60 ÷ 1.25 = 228 a tick, a margin of 48.
describe('hot-key slowdown on catch-up time: simulation against the formula', () => {
  const a = adjustedFor('0.25');
  const net = (RECOVERY - LIVE) / a.slowdownFactor.toNumber();

  it('the formula side: 25% makes 131.25 s and 187.5 s of catch-up, and the restore stays 20 s', () => {
    // (2,700 + 3,600) × 1.25 ÷ 60 = 131.25 and (5,400 + 3,600) × 1.25 ÷ 60 = 187.5.
    expect(a.catchUpAverageSec.toFixed()).toBe('131.25');
    expect(a.catchUpFullSec.toFixed()).toBe('187.5');
    expect(a.recoveryAverageSec.toFixed()).toBe('151.25');
    expect(a.recoveryFullSec.toFixed()).toBe('207.5');
    expect(net).toBe(48);
  });

  it('at 25% the backlog shrinks by 48 a tick, and its line reaches zero when reading (a) says, for the average and the full interval', () => {
    for (const [window, occurrence, crashTick, replay, catchUp, recovery] of [
      ['waiting', FIRST + 16, 45, 2700, a.catchUpAverageSec, a.recoveryAverageSec],
      ['checkpointing', 2, 60, 5400, a.catchUpFullSec, a.recoveryFullSec],
    ] as const) {
      const run = recover(LIVE + net, window, occurrence);
      expect(run.crashTick).toBe(crashTick);
      // The processor is down for the whole restore, slowed or not.
      expect(run.restartTick).toBe(crashTick + RESTORE);
      const atRestart = replay + LIVE * RESTORE;
      for (const [tick, backlog] of run.backlogs) {
        expect(backlog).toBe(Math.max(0, atRestart - net * (tick - run.restartTick)));
      }
      // The catch-up's length read off the run: the last checkpoint still behind, and the margin
      // the run showed between two checkpoints, give where the backlog's line reaches zero. The
      // model works in whole ticks, so it catches up within the tick after that, by the next
      // checkpoint; the line itself lands on the formula's figure, fractions and all.
      const behind = run.backlogs.filter(([, backlog]) => backlog > 0);
      expect(behind.length).toBeGreaterThanOrEqual(2);
      const [[t1, b1], [t2, b2]] = [behind.at(-2)!, behind.at(-1)!];
      const margin = (b1 - b2) / (t2 - t1);
      expect(margin).toBe(48);
      const crossing = t2 + b2 / margin;
      expect(catchUp.eq(crossing - run.restartTick)).toBe(true);
      expect(recovery.eq(crossing - run.crashTick)).toBe(true);
      const caughtUp = run.backlogs.find(([, backlog]) => backlog === 0)![0];
      expect(caughtUp).toBe(Math.ceil(crossing / INTERVAL) * INTERVAL);
      // Slowing the restore as well would have put recovery 20 s × 25% = 5 s later than the run shows.
      expect(recovery.plus(RESTORE * 0.25).eq(crossing - run.crashTick)).toBe(false);
      expect(caughtUp).toBeLessThan(TOTAL);
    }
  });
});

// Reading (b): the processor recovers at the recovery rate reduced by the slowdown while live
// input keeps its full rate.
describe('hot-key slowdown on the recovery rate: simulation against the formula', () => {
  const slowed = (slowdown: string) => adjustedFor(slowdown).slowdownOnRecoveryRate;

  it('the formula side: 10% leaves 216 a tick and 175 s / 250 s of catch-up, 25% leaves 180 a tick and none', () => {
    // 240 × 0.9 = 216, 36 above the live 180: (2,700 + 3,600) ÷ 36 = 175 and (5,400 + 3,600) ÷ 36 = 250.
    const ten = slowed('0.1');
    expect(ten.recoveryRatePerSec.toFixed()).toBe('216');
    expect(ten.netCatchUpPerSec.toFixed()).toBe('36');
    expect(ten.catchUpAverageSec?.toFixed()).toBe('175');
    expect(ten.catchUpFullSec?.toFixed()).toBe('250');
    expect(ten.recoveryAverageSec?.toFixed()).toBe('195');
    expect(ten.recoveryFullSec?.toFixed()).toBe('270');
    // 240 × 0.75 = 180, exactly the live rate.
    const quarter = slowed('0.25');
    expect(quarter.recoveryRatePerSec.toFixed()).toBe('180');
    expect(quarter.netCatchUpPerSec.toFixed()).toBe('0');
    expect(quarter.catchUpCompletes).toBe(false);
  });

  it('at 10% the backlog shrinks by 36 a tick and is gone when the formula says, for the average and the full interval', () => {
    const rate = slowed('0.1').recoveryRatePerSec.toNumber();
    const net = rate - LIVE;
    // A crash in `waiting` at tick 45 (its 46th occurrence) replays the 15 ticks since the
    // checkpoint at tick 30, 2,700 records, the formula's average; one in `checkpointing` at tick
    // 60 falls back to that checkpoint too and replays the full interval, 5,400.
    for (const [window, occurrence, crashTick, replay, catchUp] of [
      ['waiting', FIRST + 16, 45, 2700, slowed('0.1').catchUpAverageSec!],
      ['checkpointing', 2, 60, 5400, slowed('0.1').catchUpFullSec!],
    ] as const) {
      const run = recover(rate, window, occurrence);
      expect(run.crashTick).toBe(crashTick);
      expect(run.restartTick).toBe(crashTick + RESTORE);
      const atRestart = replay + LIVE * RESTORE;
      // Until it is back at the live edge the backlog falls by exactly the net rate every tick.
      for (const [tick, backlog] of run.backlogs) {
        expect(backlog).toBe(Math.max(0, atRestart - net * (tick - run.restartTick)));
      }
      const caughtUp = run.backlogs.find(([, backlog]) => backlog === 0)![0];
      expect(caughtUp - run.restartTick).toBe(catchUp.toNumber());
      const before = run.backlogs.filter(([tick]) => tick < caughtUp);
      expect(before.length).toBeGreaterThan(0);
      expect(before.every(([, backlog]) => backlog > 0)).toBe(true);
      // Caught up while the source is still live, so the slowed margin did it, not the source stopping.
      expect(caughtUp).toBeLessThan(TOTAL);
      expect(run.finalTick).toBe(TOTAL);
    }
  });

  it('at 25% the backlog never shrinks while live input arrives, and drains only after the source stops', () => {
    const rate = slowed('0.25').recoveryRatePerSec.toNumber();
    expect(rate).toBe(LIVE);
    for (const [window, occurrence, replay] of [
      ['waiting', FIRST + 16, 2700],
      ['checkpointing', 2, 5400],
    ] as const) {
      const run = recover(rate, window, occurrence);
      const atRestart = replay + LIVE * RESTORE;
      const live = run.backlogs.filter(([tick]) => tick <= TOTAL);
      // Every checkpoint from the restart to the end of the source, ten or more of them, finds the
      // backlog exactly as large as it was when the processor came back.
      expect(live.length).toBeGreaterThanOrEqual(10);
      expect(live.every(([, backlog]) => backlog === atRestart)).toBe(true);
      // With no more input the same 180 a tick clears it: 6,300 ÷ 180 = 35 and 9,000 ÷ 180 = 50 ticks.
      expect(run.finalTick).toBe(TOTAL + atRestart / rate);
      expect(run.backlogs.at(-1)![1]).toBe(0);
    }
  });

  it('is deterministic: the same crash gives the same trace', () => {
    const rate = slowed('0.25').recoveryRatePerSec.toNumber();
    expect(recover(rate, 'waiting', FIRST + 16).traceHash).toBe(recover(rate, 'waiting', FIRST + 16).traceHash);
  });
});

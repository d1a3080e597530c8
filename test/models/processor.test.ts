// The checkpointed processor model: it reaches every one of its states, a crash in any of them
// loses only the volatile position and operator state, and restore plus replay brings the
// operator state back to exactly the fault-free run's, each source record counted once.
import { initialTransition } from 'xstate';
import { describe, expect, it } from 'vitest';
import type { FaultPlan } from '../../src/faults/faults.ts';
import { World } from '../../src/run/world.ts';
import { InputError } from '../../src/base/inputError.ts';
import { expectedState, processorComponent, processorMachine, type ProcessorDurable } from '../../models/processor.ts';

const input = { eventsPerTick: 18, recoveryEventsPerTick: 24, checkpointEveryTicks: 30, totalTicks: 120 };
const TOTAL = input.eventsPerTick * input.totalTicks;
const STATES = Object.keys(processorMachine.root.states);

type Note = { kind: string; data: { checkpointTick: number; resumeFrom: number; emittedThrough: number } };

function run(plan: FaultPlan, seed = 1) {
  const world = new World([processorComponent(input)], { seed, plan });
  const result = world.run();
  const notes = world.trace.events.filter((e) => e.kind === 'note').map((e) => ({ tick: e.tick, ...(e.data as Note) }));
  return { world, result, durable: world.durable<ProcessorDurable>('processor'), notes };
}

// Each test that compares with the fault-free run makes it itself (vitest.mutants.config.ts says why).
describe('processor model', () => {
  it('processes every record once without faults, checkpointing every 30 ticks, and ends idle', () => {
    const clean = run([]);
    expect(clean.result.ending).toEqual({ kind: 'quiescent' });
    expect(clean.world.stateOf('processor')).toBe('done');
    expect(clean.durable).toEqual({
      checkpoint: { tick: 120, position: TOTAL, state: expectedState(TOTAL) },
      emittedThrough: TOTAL,
      processedTotal: TOTAL,
      replayedTotal: 0,
      replays: [],
    });
    expect(clean.notes.filter((n) => n.kind === 'checkpoint').map((n) => n.tick)).toEqual([30, 60, 90, 120]);
  });

  it('reaches every state of the machine, each one a failure window the World counts', () => {
    const clean = run([]);
    expect(STATES).toEqual(['restoring', 'waiting', 'processing', 'checkpointing', 'afterCheckpoint', 'done']);
    for (const state of STATES) expect(clean.result.windowCounts.get(`processor.${state}`) ?? 0).toBeGreaterThan(0);
    // One wait and one processing step per tick of the source, one checkpoint per interval.
    expect(clean.result.windowCounts.get('processor.waiting')).toBe(input.totalTicks);
    expect(clean.result.windowCounts.get('processor.checkpointing')).toBe(4);
  });

  it('a crash loses the volatile progress and keeps the durable checkpoint and output counters', () => {
    const clean = run([]);
    // processing occurrence 45 is tick 45: 45 ticks of records processed, checkpoint at tick 30.
    const { result, durable, notes } = run([{ kind: 'crash', window: 'processor.processing', occurrence: 45 }]);
    const strike = result.strikes[0]!;
    expect(strike.tick).toBe(45);
    const atCrash = strike.durable['processor'] as ProcessorDurable;
    expect(atCrash).toEqual({
      checkpoint: { tick: 30, position: 540, state: expectedState(540) },
      emittedThrough: 810,
      processedTotal: 810,
      replayedTotal: 0,
      replays: [],
    });
    // Booting from that durable state, as the World's restart does, starts from the checkpoint:
    // the 270 records processed after it are gone from the operator state.
    const [restored] = initialTransition(processorMachine, { ...input, durable: atCrash });
    expect(restored.value).toBe('restoring');
    expect(restored.context.position).toBe(540);
    expect(restored.context.state).toEqual(expectedState(540));
    expect(restored.context.pending).toBeNull();
    expect(restored.context.durable).toEqual({ ...atCrash, replays: [0] });
    // In the World the restart comes 10 ticks later and says where it resumes.
    expect(notes.find((n) => n.kind === 'restore' && n.tick > 0)).toMatchObject({ tick: 55, data: { checkpointTick: 30, resumeFrom: 540, emittedThrough: 810 } });
    // It then replays exactly the 270 lost records and ends with the fault-free state.
    expect(durable.replays).toEqual([270]);
    expect(durable.replayedTotal).toBe(270);
    expect(durable.processedTotal).toBe(TOTAL + 270);
    expect(durable.checkpoint.state).toEqual(clean.durable.checkpoint.state);
    expect(durable.emittedThrough).toBe(TOTAL);
  });

  it('restores to the fault-free state after a crash in any window, replaying what the window implies', () => {
    const clean = run([]);
    // waiting and processing strike early, at ticks 1 and 2, when the last checkpoint is the
    // empty state at tick 0; checkpointing and afterCheckpoint strike at the tick-60 checkpoint.
    const cases: Array<[state: string, occurrence: number, replayed: number]> = [
      ['restoring', 1, 0], // crashed at boot: nothing processed yet
      ['waiting', 2, 18], // tick 1's records processed, checkpoint at tick 0
      ['processing', 2, 36], // tick 2's records processed too
      ['checkpointing', 2, 540], // the tick-60 checkpoint never completes: back to tick 30
      ['afterCheckpoint', 2, 0], // the tick-60 checkpoint is durable
      ['done', 1, 0], // the final checkpoint covers everything
    ];
    expect(cases.map(([s]) => s)).toEqual(STATES);
    for (const [state, occurrence, replayed] of cases) {
      const { result, durable } = run([{ kind: 'crash', window: `processor.${state}`, occurrence }]);
      expect(result.strikes, state).toHaveLength(1);
      expect(result.ending, state).toEqual({ kind: 'quiescent' });
      expect(durable.replays, state).toEqual([replayed]);
      expect(durable.checkpoint.state, state).toEqual(clean.durable.checkpoint.state);
      expect(durable.processedTotal, state).toBe(TOTAL + replayed);
    }
  });

  it('survives a second crash during catch-up and still counts each record once', () => {
    const clean = run([]);
    // The first crash at tick 45 replays from 540; the second strikes during the replay, before
    // the processor is back at 810 and before the tick-60 checkpoint, so it falls back to the
    // same checkpoint.
    const { result, durable } = run([
      { kind: 'crash', window: 'processor.processing', occurrence: 45 },
      { kind: 'crash', window: 'processor.processing', occurrence: 50 },
    ]);
    expect(result.strikes.map((s) => s.tick)).toEqual([45, 60]);
    // Restarted at tick 55, it replays 5 ticks × 24 = 120 of the 270 before the crash at tick 60;
    // the output still stands at 810, so the next restore replays all 270 again.
    expect(durable.replays).toEqual([120, 270]);
    expect(durable.checkpoint.state).toEqual(clean.durable.checkpoint.state);
    expect(durable.processedTotal).toBe(TOTAL + durable.replayedTotal);
  });

  it('is deterministic: the same plan gives the same trace', () => {
    const plan: FaultPlan = [{ kind: 'crash', window: 'processor.waiting', occurrence: 40 }];
    expect(run(plan, 3).result.traceHash).toBe(run(plan, 3).result.traceHash);
  });

  it('refuses input it cannot model, as bad input', () => {
    expect(() => processorComponent({ ...input, eventsPerTick: 0 })).toThrow(new InputError('processor eventsPerTick must be a whole number ≥ 1, got 0'));
    expect(() => processorComponent({ ...input, recoveryEventsPerTick: 12 })).toThrow('recoveryEventsPerTick');
    expect(() => processorComponent({ ...input, checkpointEveryTicks: 1.5 })).toThrow('checkpointEveryTicks');
    expect(() => processorComponent({ ...input, totalTicks: 1e300 })).toThrow(InputError);
    // More records than their values' sum can hold exactly: refused, where it once ran for ever.
    expect(() => processorComponent({ ...input, eventsPerTick: 1e15, recoveryEventsPerTick: undefined })).toThrow(new InputError('processor totalTicks × eventsPerTick is 120,000,000,000,000,000 records, more than the 100,000,000 a run can add up exactly'));
  });

  it('takes a tick of a million records in one step, with the exact count and sum', () => {
    const big = { eventsPerTick: 1_000_000, checkpointEveryTicks: 10, totalTicks: 40 };
    const world = new World([processorComponent(big)], { seed: 1, plan: [{ kind: 'crash', window: 'processor.waiting', occurrence: 25 }] });
    expect(world.run().ending).toEqual({ kind: 'quiescent' });
    const durable = world.durable<ProcessorDurable>('processor');
    expect(durable.checkpoint.state).toEqual(expectedState(40_000_000));
    expect(durable.checkpoint.state).toEqual({ count: 40_000_000, sum: 800_000_020_000_000 });
    expect(durable.processedTotal).toBe(40_000_000 + durable.replayedTotal);
    expect(durable.replayedTotal).toBeGreaterThan(0);
  });
});

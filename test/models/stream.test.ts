// The stream machines, each held to what its header promises: the aggregator's watermark, windows,
// late policies, checkpoints, restore and upgrade; the sink's three modes; the device's clock and
// resends; the promoter's comparison. Machines are stepped by hand where a single reply decides,
// and run in a World on a small stream design where the behaviour needs the whole pipeline.
import { describe, expect, it } from 'vitest';
import { alertOnceClaim, captureOnceClaim, historicalFacts, reprocessing, servedTotalsClaim, type ReprocessingOptions } from '../../models/designs/reprocessing.ts';
import { closedPeriodClaim, factCountedOnceClaim, resultDeliveryClaim, STREAM_TICK, streamPipeline, type StreamPipelineOptions } from '../../models/designs/streamPipeline.ts';
import { deviceMachine, type DeviceDurable } from '../../models/device.ts';
import { END_OF_TIME, type EventLogDurable, type StreamRecord } from '../../models/eventLog.ts';
import type { FactTimes } from '../../models/factTimes.ts';
import { promoterMachine, type PromoterDurable } from '../../models/promoter.ts';
import { factTimeline, finalResults, postKey, resultSinkMachine, type ResultPost, type SinkDurable, type StoredPost } from '../../models/resultSink.ts';
import { aggregatorMachine, initialAggregatorDurable, restoreCheckpointByAge, restoreLatestCheckpoint, restoreOlderCheckpoint, valueOf, type AggregatorDurable, type AggregatorInput, type WindowState } from '../../models/windowedAggregator.ts';
import { checkClaim } from '../../src/checkers/compose.ts';
import { checkFinality } from '../../src/checkers/finality.ts';
import type { WorldView } from '../../src/kernel/worldView.ts';
import type { FaultPlan } from '../../src/faults/faults.ts';
import { runScenario } from '../../src/run/runScenario.ts';
import { defineScenario } from '../../src/scenario/scenario.ts';
import { ruledOutWindows } from '../../src/run/failureWindows.ts';
import { TimeScale } from '../../src/base/duration.ts';
import { MachineDriver } from './machineDriver.ts';

const scenario = (options: StreamPipelineOptions, name = 'stream-test') =>
  defineScenario({ name, title: 't', source: 's', lesson: 'l', tick: STREAM_TICK, build: streamPipeline(options), workload: { size: 3 }, claims: [factCountedOnceClaim(), resultDeliveryClaim('the sink'), closedPeriodClaim('ledger')], expect: { verdict: 'holds' } });

const run = (options: StreamPipelineOptions, plan: FaultPlan = []) => runScenario(scenario(options), { seed: 1, plan, keepTrace: true });
const sinkOf = (r: ReturnType<typeof run>) => r.report.durable['sink'] as SinkDurable;
const results = (r: ReturnType<typeof run>) => sinkOf(r).posts.filter((p) => p.kind === 'result').map((p) => `w${p.window}@v${(p as { version: number }).version}`);

const record = (partition: number, offset: number, fact_id: string, eventTime: number, extra: Partial<StreamRecord> = {}): StreamRecord => ({ fact_id, eventTime, ingestedAt: 0, value: 1, schema: 1, partition, offset, ...extra });
const input = (over: Partial<AggregatorInput> = {}): AggregatorInput => ({
  log: 'log',
  partitions: 2,
  sink: 'sink',
  sinkMode: 'idempotent',
  windowTicks: 60,
  watermarkDelayTicks: 12,
  latenessTicks: 90,
  latePolicy: 'correction',
  dedup: true,
  checkpointEveryTicks: 30,
  pollTicks: 3,
  timeoutTicks: 12,
  ...over,
});

/** Steps an aggregator through one poll that returns `records` per partition; the posts it sends. */
function poll(d: MachineDriver, byPartition: readonly (readonly StreamRecord[])[]): ResultPost[] {
  const before = d.sent.length;
  byPartition.forEach((records, p) => d.receive({ type: 'log.records', partition: p, offset: d.context.op.positions[p], records }, 'log'));
  d.advance(0);
  const posts: ResultPost[] = [];
  for (;;) {
    const sent = d.sent.slice(before).filter((m) => m.event.type === 'sink.post');
    const last = sent[posts.length];
    if (last === undefined) break;
    // A result, correction or retraction carries the processing time it was computed at, the
    // operator's now; each fact it counts carries its own times, in the order of its facts.
    const { processedAt, times, ...post } = last.event['post'] as ResultPost & { processedAt?: number; times?: readonly FactTimes[] };
    if (post.kind === 'result' || post.kind === 'correction' || post.kind === 'retraction') expect(processedAt).toBe(d.now);
    else expect(processedAt).toBeUndefined();
    if ('facts' in post) expect(times?.map((t) => t.fact_id)).toEqual(post.facts);
    else expect(times).toBeUndefined();
    for (const t of times ?? []) expect(t.processedAt).toBeLessThanOrEqual(d.now);
    posts.push(post as ResultPost);
    d.receive({ type: 'sink.posted', ref: last.event['ref'] as string }, 'sink');
  }
  return posts;
}

function aggregator(over: Partial<AggregatorInput> = {}): MachineDriver {
  const d = new MachineDriver(aggregatorMachine, input(over) as unknown as Record<string, unknown>);
  d.advance(0);
  expect(d.state).toBe('polling');
  return d;
}

describe('the windowed aggregator', () => {
  it('posts a window when the slowest partition passes its end plus the allowed delay, and not before', () => {
    const d = aggregator();
    // Partition 0 is far ahead; partition 1 is at 40, so the watermark is 40 - 12 = 28 < 60.
    expect(poll(d, [[record(0, 0, 'a', 20), record(0, 1, 'b', 100)], [record(1, 0, 'c', 40)]])).toEqual([]);
    expect(d.context.op.watermark).toBe(28);
    d.advance(3);
    // Partition 1 reaches 75: the watermark is 63, past window 0's end (60).
    expect(poll(d, [[], [record(1, 1, 'd', 75)]])).toEqual([{ kind: 'result', window: 0, version: 1, facts: ['a', 'c'], value: 2 }]);
  });

  it('takes each partition\'s answer to a poll once: a repeated answer does not stand for the partition still to answer', () => {
    const d = aggregator();
    // Partition 0 has nothing new; its answer comes twice (a duplicated reply), partition 1's not yet.
    d.receive({ type: 'log.records', partition: 0, offset: 0, records: [] }, 'log');
    d.receive({ type: 'log.records', partition: 0, offset: 0, records: [] }, 'log');
    expect(d.state).toBe('polling');
    expect(d.context.answered).toEqual([0]);
    d.receive({ type: 'log.records', partition: 1, offset: 0, records: [record(1, 0, 'c', 40)] }, 'log');
    expect(d.state).not.toBe('polling');
    expect(d.context.answered).toEqual([0, 1]);
  });

  it('ignores a late answer for a position it has read past', () => {
    const d = aggregator();
    poll(d, [[record(0, 0, 'a', 20)], []]);
    d.advance(3);
    expect(d.state).toBe('polling');
    // The first poll's answer for partition 0 again: its records are already counted.
    d.receive({ type: 'log.records', partition: 0, offset: 0, records: [record(0, 0, 'a', 20)] }, 'log');
    expect(d.context.answered).toEqual([]);
    expect(d.state).toBe('polling');
  });

  it('sends the next post on the head post\'s own ack only: an ack of another post neither sends it again nor moves on', () => {
    const d = aggregator();
    poll(d, [[record(0, 0, 'a', 20), record(0, 1, 'b', 100)], [record(1, 0, 'c', 40)]]);
    d.advance(3);
    d.receive({ type: 'log.records', partition: 0, offset: 2, records: [] }, 'log');
    d.receive({ type: 'log.records', partition: 1, offset: 1, records: [record(1, 1, 'd', 75)] }, 'log');
    d.advance(0);
    expect(d.state).toBe('emitting');
    const head = d.sent.at(-1)!.event;
    expect(head.type).toBe('sink.post');
    const before = d.sent.length;
    d.receive({ type: 'sink.posted', ref: `${String(head['ref'])}-other` }, 'sink');
    expect(d.state).toBe('emitting');
    expect(d.sentSince(before)).toEqual([]);
    d.receive({ type: 'sink.posted', ref: head['ref'] as string }, 'sink');
    expect(d.state).not.toBe('emitting');
  });

  /** An aggregator that read a record at tick 0 and polled every 3 ticks up to tick 30, its checkpoint interval. */
  function throughFirstInterval(over: Partial<AggregatorInput> = {}): MachineDriver {
    const d = aggregator(over);
    poll(d, [[record(0, 0, 'a', 20)], []]);
    for (let t = 3; t <= 30; t += 3) {
      d.advance(3);
      poll(d, [[], []]);
    }
    return d;
  }

  it('checkpoints at the tick its interval ends, and an idempotent sink\'s checkpoint stages nothing', () => {
    const d = throughFirstInterval();
    expect(d.notes.filter((n) => n.kind === 'checkpoint').map((n) => n.data?.['tick'])).toEqual([30]);
    expect(d.sent.filter((m) => m.event.type === 'sink.prepare')).toEqual([]);
  });

  it('transactional: completes the checkpoint on its own epoch\'s prepared answer, and moves on on its own commit answer', () => {
    const d = throughFirstInterval({ sinkMode: 'transactional' });
    expect(d.state).toBe('preparing');
    const epoch = d.sent.at(-1)!.event['epoch'] as number;
    expect(d.sent.at(-1)!.event.type).toBe('sink.prepare');
    d.receive({ type: 'sink.prepared', epoch: epoch + 1 }, 'sink');
    expect(d.state).toBe('preparing');
    d.receive({ type: 'sink.prepared', epoch }, 'sink');
    expect(d.state).toBe('committing');
    d.receive({ type: 'sink.committed', epoch: epoch + 1 }, 'sink');
    expect(d.state).toBe('committing');
    d.receive({ type: 'sink.committed', epoch }, 'sink');
    expect(d.state).toBe('afterCheckpoint');
  });

  it('with no start tick, or one already reached, polls at once, never resting in the wait for it', () => {
    for (const over of [{}, { startAtTick: 0 }]) expect(aggregator(over).states).not.toContain('scheduledWait');
  });

  it('deploys an upgrade at the first moment at or after its tick, not before', () => {
    const d = aggregator({ upgrade: { atTick: 6, schema: 2, migrates: true } });
    const codeAt = () => (d.context.durable as AggregatorDurable).code;
    poll(d, [[record(0, 0, 'a', 20)], []]);
    expect(codeAt()).toBe(1);
    d.advance(3);
    poll(d, [[], []]);
    expect(codeAt()).toBe(1);
    d.advance(3);
    poll(d, [[], []]);
    expect(codeAt()).toBe(2);
    expect(d.notes.find((n) => n.kind === 'upgrade')?.data).toMatchObject({ from: 1, to: 2 });
  });

  it('leaves a silent partition out of the watermark only where idleness is detected', () => {
    const silent = (idleTicks?: number) => {
      const d = aggregator(idleTicks === undefined ? {} : { idleTicks });
      poll(d, [[record(0, 0, 'a', 20)], []]);
      d.advance(40);
      return poll(d, [[record(0, 1, 'b', 100)], []]);
    };
    expect(silent()).toEqual([]);
    expect(silent(30)).toEqual([{ kind: 'result', window: 0, version: 1, facts: ['a'], value: 1 }]);
  });

  it('revises a posted window under the next version within the lateness, then closes it', () => {
    const d = aggregator();
    poll(d, [[record(0, 0, 'a', 20), record(0, 1, 'b', 80)], [record(1, 0, 'c', 90)]]);
    d.advance(3);
    // A fact of window 0 arriving while the watermark (68) is within 90 of its end.
    expect(poll(d, [[], [record(1, 1, 'late', 30)]])).toEqual([{ kind: 'result', window: 0, version: 2, facts: ['a', 'late'], value: 2 }]);
    d.advance(3);
    expect(poll(d, [[record(0, 2, 'end', END_OF_TIME, { end: true })], [record(1, 2, 'end', END_OF_TIME, { end: true })]]).map((p) => `${p.kind} ${p.window}`)).toEqual(['close 0', 'result 1', 'close 1']);
  });

  it.each([
    ['correction', [{ kind: 'correction', window: 0, corrects: '0@v1', facts: ['x'], value: 1 }]],
    ['revise', [{ kind: 'result', window: 0, version: 2, facts: ['a', 'x'], value: 2 }]],
    ['retract', [{ kind: 'retraction', window: 0, version: 1 }, { kind: 'result', window: 0, version: 2, facts: ['a', 'x'], value: 2 }]],
    ['wait', [{ kind: 'review', window: 0, facts: ['x'] }]],
    ['overwrite', [{ kind: 'result', window: 0, version: 1, facts: ['a', 'x'], value: 2 }]],
    ['review', [{ kind: 'review', window: 0, facts: ['x'] }]],
    ['drop', [{ kind: 'dropped', window: 0, facts: ['x'] }]],
    ['ignore', []],
  ] as const)('treats a fact after its window closed by the %s policy', (latePolicy, expected) => {
    const d = aggregator({ latePolicy });
    poll(d, [[record(0, 0, 'a', 20), record(0, 1, 'end', END_OF_TIME, { end: true })], [record(1, 0, 'end', END_OF_TIME, { end: true })]]);
    d.advance(3);
    expect(poll(d, [[record(0, 2, 'x', 25)], []])).toEqual(expected);
    // A resent copy of the same late fact is recognised, whatever the policy did with it.
    d.advance(3);
    expect(poll(d, [[record(0, 3, 'x', 25)], []])).toEqual([]);
    expect(d.notes.some((n) => n.kind === 'guard' && n.data?.['guard'] === 'factDedup')).toBe(true);
  });

  it('retracts the version readers hold before each revision under `retract`, within the lateness too', () => {
    const d = aggregator({ latePolicy: 'retract' });
    poll(d, [[record(0, 0, 'a', 20), record(0, 1, 'b', 80)], [record(1, 0, 'c', 90)]]);
    d.advance(3);
    expect(poll(d, [[], [record(1, 1, 'late', 30)]])).toEqual([
      { kind: 'retraction', window: 0, version: 1 },
      { kind: 'result', window: 0, version: 2, facts: ['a', 'late'], value: 2 },
    ]);
  });

  it('posts nothing provisional under `wait`: one result once the lateness has passed, final at once, with the facts that came within it', () => {
    const d = aggregator({ latePolicy: 'wait' });
    // The watermark (78) passes window 0's end (60) but not its end plus the lateness (150).
    expect(poll(d, [[record(0, 0, 'a', 20), record(0, 1, 'b', 80)], [record(1, 0, 'c', 90)]])).toEqual([]);
    d.advance(3);
    expect(poll(d, [[], [record(1, 1, 'late', 30)]])).toEqual([]);
    d.advance(3);
    expect(poll(d, [[record(0, 2, 'd', 175)], [record(1, 2, 'e', 170)]])).toEqual([
      { kind: 'result', window: 0, version: 1, facts: ['a', 'late'], value: 2 },
      { kind: 'close', window: 0, version: 1 },
    ]);
    // Windows 0, 1 (b, c) and 2 (d, e) were all held open before window 0's result: measured.
    expect((d.context.durable as AggregatorDurable).peakOpen).toBe(3);
    expect(d.context.op.windows[1].version).toBe(0);
  });

  it('measures the most windows held open at once, and the measure outlives a restore', () => {
    const d = aggregator();
    poll(d, [[record(0, 0, 'a', 20), record(0, 1, 'b', 80), record(0, 2, 'c', 130)], []]);
    expect((d.context.durable as AggregatorDurable).peakOpen).toBe(3);
    d.advance(3);
    poll(d, [[record(0, 3, 'end', END_OF_TIME, { end: true })], [record(1, 0, 'end', END_OF_TIME, { end: true })]]);
    expect(Object.values(d.context.op.windows).every((w) => (w as WindowState).closed)).toBe(true);
    expect((d.context.durable as AggregatorDurable).peakOpen).toBe(3);
    expect(restoreOlderCheckpoint(d.context.durable).peakOpen).toBe(3);
  });

  it('applies the late policy to a fact whose window nothing reached in time, which closes empty first', () => {
    const d = aggregator({ latePolicy: 'review' });
    poll(d, [[record(0, 0, 'a', 20), record(0, 1, 'end', END_OF_TIME, { end: true })], [record(1, 0, 'end', END_OF_TIME, { end: true })]]);
    d.advance(3);
    expect(poll(d, [[record(0, 2, 'x', 70)], []])).toEqual([
      { kind: 'result', window: 1, version: 1, facts: [], value: 0 },
      { kind: 'close', window: 1, version: 1 },
      { kind: 'review', window: 1, facts: ['x'] },
    ]);
  });

  it('counts a resent fact twice without dedup', () => {
    const d = aggregator({ dedup: false });
    poll(d, [[record(0, 0, 'a', 20), record(0, 1, 'a', 20)], [record(1, 0, 'end', END_OF_TIME, { end: true })]]);
    d.advance(3);
    expect(poll(d, [[record(0, 2, 'end', END_OF_TIME, { end: true })], []])[0]).toEqual({ kind: 'result', window: 0, version: 1, facts: ['a', 'a'], value: 2 });
  });

  it('ignores a fetch reply for positions it has moved past', () => {
    const d = aggregator();
    poll(d, [[record(0, 0, 'a', 20)], []]);
    d.advance(3);
    d.receive({ type: 'log.records', partition: 0, offset: 0, records: [record(0, 0, 'a', 20)] }, 'log');
    expect(d.context.op.windows[0].facts).toEqual(['a']);
  });

  it('restores the checkpoint before the latest, keeping the id counter and the code', () => {
    const base = initialAggregatorDurable(2);
    const second = { ...base.checkpoint, id: 2, tick: 60 };
    const durable: AggregatorDurable = { checkpoint: { ...base.checkpoint, id: 3, tick: 90 }, previous: second, ids: 3, code: 1 };
    expect(restoreOlderCheckpoint(durable)).toEqual({ checkpoint: second, ids: 3, code: 1 });
    expect(restoreOlderCheckpoint({ checkpoint: base.checkpoint, ids: 0, code: 1 }).checkpoint).toEqual(base.checkpoint);
  });

  it('restores the newest checkpoint at least an age old at the moment of the restore, the older ones kept for a second restore', () => {
    const base = initialAggregatorDurable(2);
    const at = (id: number, tick: number) => ({ ...base.checkpoint, id, tick });
    const durable: AggregatorDurable = { checkpoint: at(3, 90), previous: at(2, 60), retained: [at(1, 30), at(2, 60)], ids: 3, code: 1 };
    const byAge = (age: number, now: number) => restoreCheckpointByAge(age)(durable, now);
    expect(byAge(20, 100)).toEqual({ checkpoint: at(2, 60), previous: at(1, 30), retained: [at(1, 30)], ids: 3, code: 1 });
    expect(byAge(10, 100).checkpoint).toEqual(at(3, 90));
    expect(byAge(70, 100)).toEqual({ checkpoint: at(1, 30), ids: 3, code: 1 });
    // None that old: the empty checkpoint the aggregator started from.
    expect(byAge(80, 100)).toEqual({ checkpoint: base.checkpoint, ids: 3, code: 1 });
    expect(restoreLatestCheckpoint(durable)).toBe(durable);
  });

  it('keeps, as it checkpoints, only the checkpoints a restore by age can still reach', () => {
    const r = run({ sink: 'idempotent', restoreTo: '10m', checkpointEvery: '1m' });
    const d = r.report.durable['aggregator'] as AggregatorDurable;
    const retained = d.retained!.map((c) => c.tick);
    // Ten minutes is 60 ticks: the oldest kept is the newest at least 60 ticks before the latest checkpoint.
    expect(retained[0]).toBeLessThanOrEqual(d.checkpoint.tick - 60);
    expect(retained[1]).toBeGreaterThan(d.checkpoint.tick - 60);
    expect(d.retained!.at(-1)).toEqual(d.previous);
    expect((run({ sink: 'idempotent', restorable: true }).report.durable['aggregator'] as AggregatorDurable).retained).toBeUndefined();
  });

  it('stops on a checkpoint its code cannot read, and migrates one it can', () => {
    const deploy = (migrates: boolean) => {
      const d = aggregator({ upgrade: { atTick: 5, schema: 2, migrates } });
      poll(d, [[record(0, 0, 'a', 20)], []]);
      d.advance(6);
      poll(d, [[], []]);
      return d;
    };
    const stuck = deploy(false);
    expect(stuck.state).toBe('unreadableCheckpoint');
    expect(stuck.notes.find((n) => n.kind === 'checkpoint unreadable')?.data).toMatchObject({ schema: 1, code: 2 });
    const migrated = deploy(true);
    expect(migrated.state).not.toBe('unreadableCheckpoint');
    expect((migrated.context.durable as AggregatorDurable).checkpoint.schema).toBe(2);
    expect(migrated.context.op.windows[0].facts).toEqual(['a']);
  });

  it('reads an old schema through its adapter, and without one as today\'s code reads the current schema', () => {
    const old = record(0, 0, 'a', 20, { schema: 2, fields: { qty: 4 } });
    expect(valueOf({ adapters: { 2: (r) => r.fields!['qty']! } }, old)).toBe(4);
    expect(valueOf({}, old)).toBe(0);
    expect(valueOf({}, record(0, 0, 'b', 20, { value: 7 }))).toBe(7);
  });
});

describe('the result sink', () => {
  const post = (d: MachineDriver, p: ResultPost, ref = 'r') => d.receive({ type: 'sink.post', ref, post: p }, 'aggregator');
  const result: ResultPost = { kind: 'result', window: 0, version: 1, facts: ['a'], value: 1 };

  it('keeps every post at an external endpoint, a repeat too', () => {
    const d = new MachineDriver(resultSinkMachine, { mode: 'external' });
    post(d, result);
    post(d, result);
    expect((d.context.durable as SinkDurable).posts).toHaveLength(2);
  });

  it('keeps one post per key in an idempotent store, and refuses another content under it', () => {
    const d = new MachineDriver(resultSinkMachine, { mode: 'idempotent' });
    post(d, result);
    post(d, result);
    post(d, { ...result, facts: ['a', 'b'], value: 2 });
    const durable = d.context.durable as SinkDurable;
    expect(durable.posts.map((p) => p.kind)).toEqual(['result']);
    expect(durable.conflicts).toHaveLength(1);
    expect(d.notes.map((n) => n.kind)).toEqual(['guard', 'conflict']);
    expect(d.sent.filter((m) => m.event.type === 'sink.posted')).toHaveLength(3);
  });

  it('shows a transactional epoch only when committed, once, and ignores a prepare for a committed epoch', () => {
    const d = new MachineDriver(resultSinkMachine, { mode: 'transactional' });
    d.receive({ type: 'sink.prepare', epoch: 1, posts: [result] }, 'aggregator');
    expect((d.context.durable as SinkDurable).posts).toEqual([]);
    d.receive({ type: 'sink.commit', epoch: 1 }, 'aggregator');
    d.receive({ type: 'sink.commit', epoch: 1 }, 'aggregator');
    d.receive({ type: 'sink.prepare', epoch: 1, posts: [result, result] }, 'aggregator');
    d.receive({ type: 'sink.commit', epoch: 1 }, 'aggregator');
    expect((d.context.durable as SinkDurable).posts).toHaveLength(1);
    expect(d.notes.filter((n) => n.data?.['guard'] === 'epochCommitted')).toHaveLength(2);
  });
});

describe('the device', () => {
  it('stamps facts with its clock, which a skew moves ahead from then on', () => {
    const d = new MachineDriver(deviceMachine, { log: 'log', partition: 0, facts: [{ fact_id: 'a', occursAt: 5, value: 1 }, { fact_id: 'b', occursAt: 10, value: 1 }] });
    d.advance(5);
    const first = d.sent.at(-1)!.event;
    expect((first['record'] as StreamRecord).eventTime).toBe(5);
    d.receive({ type: 'sys.clockSkew', ticks: 90 });
    d.receive({ type: 'log.appended', ref: first['ref'] as string }, 'log');
    d.advance(5);
    expect((d.sent.at(-1)!.event['record'] as StreamRecord).eventTime).toBe(100);
  });

  it('stamps a fact by the clock of the moment it occurred, so its resend after a skew keeps that stamp', () => {
    const d = new MachineDriver(deviceMachine, { log: 'log', partition: 0, facts: [{ fact_id: 'a', occursAt: 5, value: 1 }], timeoutTicks: 4 });
    d.advance(6);
    d.receive({ type: 'sys.clockSkew', ticks: 90 });
    d.advance(4);
    const appends = d.sent.filter((m) => m.event.type === 'log.append').map((m) => (m.event['record'] as StreamRecord).eventTime);
    expect(appends).toEqual([5, 5]);
  });

  it('sends a fact again when its acknowledgement does not come, and ends its partition', () => {
    const d = new MachineDriver(deviceMachine, { log: 'log', partition: 1, facts: [{ fact_id: 'a', occursAt: 0, value: 1 }], timeoutTicks: 4 });
    d.advance(0);
    d.advance(4);
    const appends = d.sent.filter((m) => m.event.type === 'log.append');
    expect(appends.map((m) => (m.event['record'] as StreamRecord).fact_id)).toEqual(['a', 'a']);
    d.receive({ type: 'log.appended', ref: appends[1]!.event['ref'] as string }, 'log');
    d.advance(0);
    expect((d.sent.at(-1)!.event['record'] as StreamRecord).end).toBe(true);
  });
});

describe('the promoter', () => {
  const contents = (d: MachineDriver, from: string, posts: readonly ResultPost[]) => d.receive({ type: 'sink.contents', posts: posts.map((p) => ({ ...p, at: 0 })) }, from);
  const closed = (value: number): ResultPost[] => [
    { kind: 'result', window: 0, version: 1, facts: ['a'], value },
    { kind: 'close', window: 0, version: 1 },
  ];
  const decide = (compare: boolean, rebuilt: number) => {
    const d = new MachineDriver(promoterMachine, { live: 'sink', rebuild: 'rebuildSink', compare, pollTicks: 6, timeoutTicks: 12 });
    d.advance(6);
    contents(d, 'sink', closed(3));
    contents(d, 'rebuildSink', closed(rebuilt));
    return d.context.durable as PromoterDurable;
  };

  it('promotes a rebuild whose results match, and refuses one that differs, naming the window', () => {
    expect(decide(true, 3)).toEqual({ status: 'promoted', served: 'rebuildSink', mismatches: [] });
    expect(decide(true, 2)).toEqual({ status: 'refused', served: 'sink', mismatches: ['w0'] });
    expect(decide(false, 2)).toEqual({ status: 'promoted', served: 'rebuildSink', mismatches: [] });
  });

  it('waits while either run has a result the other has not closed, rather than compare a result with none', () => {
    const d = new MachineDriver(promoterMachine, { live: 'sink', rebuild: 'rebuildSink', compare: true, pollTicks: 6, timeoutTicks: 12 });
    d.advance(6);
    const later: ResultPost[] = [...closed(3), { kind: 'result', window: 1, version: 1, facts: ['b'], value: 1 }, { kind: 'close', window: 1, version: 1 }];
    contents(d, 'sink', closed(3));
    contents(d, 'rebuildSink', later);
    expect(d.state).toBe('waiting');
    // The same windows closed, but the live run has a result for window 1 the rebuild has not yet.
    d.advance(6);
    contents(d, 'sink', [...closed(3), { kind: 'result', window: 1, version: 1, facts: ['b'], value: 1 }]);
    contents(d, 'rebuildSink', closed(3));
    expect(d.state).toBe('waiting');
    d.advance(6);
    contents(d, 'sink', later);
    contents(d, 'rebuildSink', later);
    expect(d.context.durable).toEqual({ status: 'promoted', served: 'rebuildSink', mismatches: [] });
  });

  it('waits while the rebuild has not closed every window the live run closed', () => {
    const d = new MachineDriver(promoterMachine, { live: 'sink', rebuild: 'rebuildSink', compare: true, pollTicks: 6, timeoutTicks: 12 });
    d.advance(6);
    contents(d, 'sink', closed(3));
    contents(d, 'rebuildSink', []);
    expect(d.state).toBe('waiting');
    expect((d.context.durable as PromoterDurable).status).toBe('pending');
  });
});

describe('stream designs in a World', () => {
  it('posts each window once and counts every fact once without faults', () => {
    const r = run({ sink: 'idempotent' });
    expect(r.outcome).toBe('holds');
    expect(results(r)).toEqual(['w0@v1', 'w1@v1', 'w2@v1']);
    const log = r.report.durable['log'] as EventLogDurable;
    expect(log.partitions.map((p) => p.filter((x) => !x.end).length)).toEqual([3, 3]);
  });

  it('posts again after a crash mid-emission to an external endpoint, and not to a transactional store', () => {
    const crash: FaultPlan = [{ kind: 'crash', window: 'aggregator.emitting', occurrence: 1 }];
    const external = run({ sink: 'external' }, crash);
    expect(external.findings.map((f) => f.violation)).toContain('duplicate effect');
    expect(new Set(results(external)).size).toBeLessThan(results(external).length);
    const transactional = run({ sink: 'transactional' }, [{ kind: 'crash', window: 'aggregator.preparing', occurrence: 1 }]);
    expect(transactional.outcome).toBe('holds');
    expect(new Set(results(transactional)).size).toBe(results(transactional).length);
  });

  it('posts a replayed correction under the same identity when it is derived, and under a new one when it is drawn', () => {
    const ledger = (correctionId: 'derived' | 'drawn'): StreamPipelineOptions => ({ sink: 'idempotent', late: 'correction', idleAfter: '5m', device: { restartAfter: '30m' }, correctionId });
    // The crash falls after f1-3's correction was acknowledged and before the next checkpoint.
    const crash: FaultPlan = [{ kind: 'crash', window: 'aggregator.waiting', occurrence: 18 }];
    const corrections = (r: ReturnType<typeof run>) => sinkOf(r).posts.filter((p) => p.kind === 'correction');
    const derived = run(ledger('derived'), crash);
    expect(corrections(derived).map((p) => postKey(p))).toEqual(['correction w2 f1-3']);
    expect(derived.report.notes.some((n) => n.component === 'sink' && (n.data as { key?: string } | undefined)?.key === 'correction w2 f1-3')).toBe(true);
    const drawn = run(ledger('drawn'), crash);
    const ids = corrections(drawn).map((p) => (p as { id?: string }).id);
    expect(ids).toHaveLength(2);
    expect(new Set(ids).size).toBe(2);
    // Without the crash a drawn identity is made once: nothing but a replay makes a second.
    expect(corrections(run(ledger('drawn'))).length).toBe(1);
  });

  it('makes a crashed device\'s facts late, and a correction carries them to the closed window', () => {
    const r = run({ sink: 'transactional', late: 'correction', idleAfter: '5m', device: { restartAfter: '30m' } }, [{ kind: 'crash', window: 'device1.waiting', occurrence: 2 }]);
    expect(r.outcome).toBe('holds');
    const corrections = sinkOf(r).posts.filter((p) => p.kind === 'correction');
    expect(corrections.length).toBeGreaterThan(0);
    expect(r.report.notes.some((n) => n.kind === 'late')).toBe(true);
  });
});

describe('the closed-period claim', () => {
  const at = (p: object) => ({ ...p, at: 0 }) as StoredPost;
  const result = (version: number, facts: string[]) => at({ kind: 'result', window: 0, version, facts, value: facts.length });
  const close = (version: number) => at({ kind: 'close', window: 0, version });
  const finality = (kind: 'ledger' | 'dashboard', posts: StoredPost[]) => {
    const view = { durable: <T>() => ({ posts, staged: {}, committed: [] }) as SinkDurable as T, result: { ending: { kind: 'quiescent' } }, notes: [] } as unknown as WorldView;
    return checkFinality(closedPeriodClaim(kind), view);
  };

  it('lets a dashboard retract the version readers hold and replace it, and finds a retraction of another version', () => {
    expect(finality('dashboard', [result(1, ['a']), close(1), at({ kind: 'retraction', window: 0, version: 1 }), result(2, ['a', 'b'])])).toEqual({ observed: true, judged: 2, findings: [] });
    const wrong = finality('dashboard', [result(1, ['a']), result(2, ['a', 'c']), close(2), at({ kind: 'retraction', window: 0, version: 1 }), result(3, ['a', 'c', 'b'])]);
    expect(wrong.observed && wrong.findings.map((f) => (f.violation === 'silent revision' ? f.how : f.violation))).toEqual(['version 1 retracted while readers held version 2']);
  });

  it('judges a late fact routed to review or a counted drop after the close: the closed result stands', () => {
    for (const kind of ['ledger', 'dashboard'] as const) {
      expect(finality(kind, [result(1, ['a']), close(1), at({ kind: 'review', window: 0, facts: ['b'] })])).toEqual({ observed: true, judged: 1, findings: [] });
      expect(finality(kind, [result(1, ['a']), close(1), at({ kind: 'dropped', window: 0, facts: ['b'] })])).toEqual({ observed: true, judged: 1, findings: [] });
      // Before the close a review is the provisional period's business: nothing to judge.
      expect(finality(kind, [result(1, ['a']), at({ kind: 'review', window: 0, facts: ['b'] }), close(1)])).toEqual({ observed: true, judged: 0, findings: [] });
    }
  });

  it('takes a retracted final version out of the final results, and its replacement in, the window still closed', () => {
    const posts = [result(1, ['a']), close(1), at({ kind: 'retraction', window: 0, version: 1 })];
    expect(finalResults(posts).has(0)).toBe(false);
    expect(finalResults([...posts, result(2, ['a', 'b'])]).get(0)).toMatchObject({ version: 2, facts: ['a', 'b'], closed: true });
  });
});

describe("a fact's four times", () => {
  // A device one minute fast (its skew strikes before device1's second fact), a transactional
  // sink that commits a while after it stages: every clock reads differently, so a time taken
  // from the wrong one would show. Each test makes the run itself (vitest.mutants.config.ts says why).
  const fourTimes = () => {
    const r = run({ sink: 'transactional', device: { skew: '1m' } }, [{ kind: 'skew', window: 'device1.waiting', occurrence: 2 }]);
    const trace = r.report.trace!;
    const delivered = (to: string, type: string) =>
      trace.filter((e) => e.component === to && e.kind === 'deliver').map((e) => ({ tick: e.tick, event: (e.data as { event: Record<string, unknown> }).event })).filter((d) => d.event['type'] === type);
    const records = (r.report.durable['log'] as EventLogDurable).partitions.flat().filter((x) => x.end !== true);
    return { r, delivered, records, timeline: factTimeline(sinkOf(r).posts) };
  };

  it('are all there: every fact the log holds has its times once its result committed', () => {
    const { r, records, timeline } = fourTimes();
    expect(r.outcome).toBe('holds');
    expect([...timeline.keys()].sort()).toEqual(records.map((x) => x.fact_id).sort());
  });

  it('take event time from the device clock, skewed where the device was', () => {
    const { r, records, timeline } = fourTimes();
    for (const x of records) {
      const planned = (r.report.durable[`device${x.partition}`] as DeviceDurable).facts.find((f) => f.fact_id === x.fact_id)!;
      // device1's facts after its first are stamped six ticks (one minute) after they occurred.
      const skew = x.partition === 1 && x.fact_id !== 'f1-1' ? 6 : 0;
      expect(timeline.get(x.fact_id)!.eventTime).toBe(planned.occursAt + skew);
    }
  });

  it('take ingestion time from the log, processing time from the operator and commit time from the sink', () => {
    const { delivered, timeline } = fourTimes();
    const appends = delivered('log', 'log.append');
    const reads = delivered('aggregator', 'log.records');
    const commits = delivered('sink', 'sink.commit');
    const prepares = delivered('sink', 'sink.prepare');
    for (const [fact, t] of timeline) {
      expect(t.ingestedAt, fact).toBe(appends.find((d) => (d.event['record'] as StreamRecord).fact_id === fact)!.tick);
      expect(t.processedAt, fact).toBe(reads.find((d) => (d.event['records'] as StreamRecord[]).some((x) => x.fact_id === fact))!.tick);
      const epoch = prepares.find((d) => (d.event['posts'] as ResultPost[]).some((p) => 'facts' in p && p.facts.includes(fact)))!.event['epoch'];
      expect(t.committedAt, fact).toBe(commits.find((d) => d.event['epoch'] === epoch)!.tick);
      // The system's own clocks are read one after the other, and none of them coincide here.
      expect(t.ingestedAt).toBeLessThan(t.processedAt);
      expect(t.processedAt).toBeLessThan(t.committedAt);
    }
  });

  it('keep a fast device clock apart from the others: one fact is stamped after the log received it', () => {
    const { timeline } = fourTimes();
    const stampedLate = [...timeline.values()].filter((t) => t.eventTime > t.ingestedAt).map((t) => t.fact_id);
    expect(stampedLate.length).toBeGreaterThan(0);
    expect(stampedLate.every((f) => f.startsWith('f1-'))).toBe(true);
  });
});

describe('the reprocessing design', () => {
  const reprocess = (adapters: ReprocessingOptions['adapters'], gated: boolean) =>
    runScenario(defineScenario({ name: 'reprocess-test', title: 't', source: 's', lesson: 'l', tick: STREAM_TICK, build: reprocessing({ adapters, compare: true, gated }), workload: { size: 3 }, claims: [servedTotalsClaim, alertOnceClaim], expect: { verdict: 'holds' } }), { seed: 1, plan: [] });

  it('writes its facts in every historical schema', () => {
    expect([0, 1].flatMap((d) => historicalFacts(d, 3).map((f) => f.schema)).sort()).toEqual([1, 1, 2, 3, 3, 4]);
  });

  it('promotes a rebuild read through every adapter, and refuses one missing an adapter', () => {
    expect((reprocess('perVersion', true).report.durable['promoter'] as PromoterDurable).status).toBe('promoted');
    const refused = reprocess('missingForSchema1', true).report.durable['promoter'] as PromoterDurable;
    expect(refused.status).toBe('refused');
    expect(refused.mismatches.length).toBeGreaterThan(0);
  });

  it('refuses a rebuild missing the adapter of a renamed field or of a changed meaning, naming the windows with such records', () => {
    const refused = (adapters: 'missingForSchema2' | 'missingForSchema3') => (reprocess(adapters, true).report.durable['promoter'] as PromoterDurable).mismatches;
    // f0-2 is device0's one schema-2 record (window 1); f1-1 and f0-3 are the schema-3 ones (windows 0 and 1).
    expect(refused('missingForSchema2')).toEqual(['w1']);
    expect(refused('missingForSchema3')).toEqual(['w0', 'w1']);
  });

  it('refuses a comparison where the rebuild writes into the live results: there would be nothing of its own to compare', () => {
    expect(() => reprocessing({ adapters: 'missingForSchema3', compare: true, gated: true, output: 'live' })).toThrow("reprocessing option compare needs output 'isolated'");
    expect(() => reprocessing({ adapters: 'missingForSchema3', compare: false, gated: true, output: 'live' })).not.toThrow();
  });

  it('charges each window once with captures gated, and twice, under two run ids, without', () => {
    const captures = (mode: 'gated' | 'notGated') => {
      const scenario = defineScenario({ name: 'reprocess-test', title: 't', source: 's', lesson: 'l', tick: STREAM_TICK, build: reprocessing({ adapters: 'perVersion', compare: true, gated: true, captures: mode }), workload: { size: 3 }, claims: [captureOnceClaim], expect: { verdict: 'holds' } });
      const r = runScenario(scenario, { seed: 1, plan: [] });
      return { outcome: r.outcome, charged: (r.report.durable['payments'] as SinkDurable).posts.map((p) => (p.kind === 'capture' ? `w${p.window} ${p.value} ${p.run}` : p.kind)) };
    };
    expect(captures('gated')).toEqual({ outcome: 'holds', charged: ['w0 25 live', 'w1 21 live', 'w2 1 live'] });
    const twice = captures('notGated');
    expect(twice.outcome).toBe('duplicate effect');
    expect(twice.charged.filter((c) => c.endsWith('rebuild'))).toEqual(['w0 25 rebuild', 'w1 21 rebuild', 'w2 1 rebuild']);
  });

  it('sends each alert twice when the rebuild is not gated', () => {
    const r = reprocess('perVersion', false);
    const alerts = (r.report.durable['alerts'] as SinkDurable).posts;
    expect(alerts.filter((p) => p.kind === 'close' && p.run === 'rebuild').length).toBeGreaterThan(0);
    expect(checkClaim(alertOnceClaim, { durable: (n) => r.report.durable[n] as never, result: r.report, notes: r.report.notes }).outcome).toBe('duplicate effect');
  });
});

describe('the stream claims and the design they judge', () => {
  it('read how many devices there are from the log, so a design of three holds with the claims as they come', () => {
    const scenario = defineScenario({ name: 'three-devices', title: 't', source: 's', lesson: 'l', tick: STREAM_TICK, build: streamPipeline({ sink: 'transactional', devices: 3 }), workload: { size: 2 }, claims: [resultDeliveryClaim('transactional'), factCountedOnceClaim()], expect: { verdict: 'holds' } });
    const r = runScenario(scenario, { seed: 1, plan: [] });
    expect(r.findings).toEqual([]);
    expect(r.outcome).toBe('holds');
    // device2's facts are among those judged, not left out of the truth.
    expect((r.report.durable['device2'] as DeviceDurable).facts.length).toBeGreaterThan(0);
  });
});

describe('the aggregator\'s windows a design rules out', () => {
  it('has no unreadableCheckpoint window without an upgrade, which alone changes the state schema, and has one with it', () => {
    const ruledOut = (options: StreamPipelineOptions) => ruledOutWindows(streamPipeline(options)({ size: 2 }, new TimeScale(STREAM_TICK)) as never);
    expect(ruledOut({ sink: 'transactional' }).has('aggregator.unreadableCheckpoint')).toBe(true);
    expect(ruledOut({ sink: 'transactional', upgrade: { at: '30m', migrates: false } } as StreamPipelineOptions).has('aggregator.unreadableCheckpoint')).toBe(false);
  });
});

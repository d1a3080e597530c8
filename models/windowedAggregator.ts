// A stateful stream operator in event time (seed 000, "Stateful processors recover from positions
// plus consistent state" and "Event time makes result meaning explicit"): it reads every partition
// of an event log by position, assigns each fact to a tumbling window by its event time, and posts
// each window's aggregate (the facts it counts and the sum of their values) to a result sink.
//
// Event time and its progress:
// - the watermark is the least, over partitions still counted, of the latest event time seen in
//   each, minus an allowed delay (the seed's "maximum observed event time minus two minutes");
//   it never moves back. A partition that has sent nothing for `idleTicks` of processing time is
//   left out until it sends again, where the design detects idleness; otherwise a silent
//   partition holds every window open. A partition's end marker counts as the end of time.
// - a window's first result (version 1, provisional) is posted when the watermark passes its end;
//   a fact of that window that arrives while the watermark is within `latenessTicks` of the end
//   revises the result under the next version; once the watermark passes end + lateness the
//   window is closed, and a `close` post makes the last version final;
// - a fact that arrives after its window closed follows the late policy: `correction` posts one
//   correction linked to the closed result; `revise` posts a new version of the closed result;
//   `retract` withdraws the version readers hold and posts its replacement under the next one
//   (and revises within the lateness the same way); `overwrite` posts it again under the same
//   version (a silent revision); `review` routes it to the correction workflow; `drop` drops it
//   and posts that it did, so it is counted; `ignore` drops it without a word;
// - `wait` is the seed's "wait longer": no provisional result, the window's one result waits
//   until the watermark has passed its end plus the lateness and is final at once, so a fact
//   that late is counted in it; a fact later still is routed to review. Its cost is later
//   results and state held longer, which the operator measures: the most windows it held open
//   at once (`peakOpen`).
//
// Each fact the operator counts carries its event, ingestion and processing times (factTimes.ts)
// into the window state, the checkpoint and every post that counts it.
// With `dedup` a fact id already counted in its window (a device resent it, so the log holds it
// twice) is not counted again.
//
// Checkpoints bind source positions, the operator state (every window's facts, versions and
// whether it closed), the watermark and each partition's event-time progress, and where the sink
// participates (`transactional`) the epoch whose results the sink stages: every
// `checkpointEveryTicks` the operator takes a checkpoint, once every post it made is
// acknowledged. With an `external` or `idempotent` sink results are posted as they fire, outside
// the checkpoint; with a `transactional` sink they are staged under the next epoch and committed
// once the checkpoint that covers them has completed.
//
// Fault model: a crash loses the volatile state, everything since the last completed checkpoint;
// the restart restores that checkpoint and reads the log again from its positions, so the state
// counts each record once while the posts made since the checkpoint are made again. Where the
// design declares it restorable, a `restore` fault restores the checkpoint the design chooses (an
// operator restoring a checkpoint): the latest, the one before it, or the newest at least an age
// old, for which the operator keeps the checkpoints such a restore can reach (`retained`, as a
// job manager retains checkpoints). The checkpoint id counter survives all of them, as a job
// manager's does. A checkpoint records the state schema of the code that wrote it; an `upgrade`
// deploys new code at a given tick (after a final checkpoint), and code that cannot read the
// checkpoint's schema stops in `unreadableCheckpoint`, which is where the run ends.
//
// Failure windows: `aggregator.restoring`, `scheduled`, `scheduledWait`, `polling`, `processing`,
// `emitting`, `checkpointing`, `preparing`, `committing`, `afterCheckpoint`, `waiting`,
// `upgrading`, `unreadableCheckpoint`.
import { assign, enqueueActions, setup, type EventObject } from 'xstate';
import { note, send, type Emitted, type PeerCrashed } from '../src/kernel/emitted.ts';
import type { LatePolicy } from '../src/scenario/latePolicy.ts';
import type { EvidencePart } from '../src/scenario/scenario.ts';
import { END_OF_TIME, type EventLogReply, type StreamRecord } from './eventLog.ts';
import { factTimes, type FactTimes } from './factTimes.ts';
import type { ResultPost, SinkMode, SinkReply } from './resultSink.ts';

export type { LatePolicy } from '../src/scenario/latePolicy.ts';

/** A window's state in the operator. */
export interface WindowState {
  readonly facts: readonly string[];
  /** Each counted fact's event, ingestion and processing times, in the order of `facts`. */
  readonly times: readonly FactTimes[];
  readonly value: number;
  /** The last version posted (0: not yet posted). */
  readonly version: number;
  readonly closed: boolean;
  /** Counted since its last post, so a revision is due. */
  readonly changed: boolean;
  /** Facts handled after it closed (corrected, reviewed, dropped), so a resent one is recognised. */
  readonly late: readonly string[];
}

/** Everything a checkpoint binds besides the sink's epoch. */
export interface OperatorState {
  /** The next offset to read, per partition. */
  readonly positions: readonly number[];
  /** The latest event time seen per partition (-1: none yet). */
  readonly maxEventTime: readonly number[];
  /** The processing tick a record last came from each partition. */
  readonly lastRecordAt: readonly number[];
  readonly watermark: number;
  readonly windows: Readonly<Record<string, WindowState>>;
}

export interface AggregatorCheckpoint {
  readonly id: number;
  readonly tick: number;
  readonly state: OperatorState;
  /** The state schema of the code that wrote it. */
  readonly schema: number;
  /** Transactional: the epoch this checkpoint completed, to be committed (again, after a restore). */
  readonly commit?: number;
}

export interface AggregatorDurable {
  readonly checkpoint: AggregatorCheckpoint;
  /** The checkpoint before it: what a `restore` to the previous checkpoint goes back to. */
  readonly previous?: AggregatorCheckpoint;
  /**
   * With checkpoints retained for a restore by age (`retainCheckpointsTicks`): the completed
   * checkpoints before the latest that such a restore can still reach, oldest first.
   */
  readonly retained?: readonly AggregatorCheckpoint[];
  /** The checkpoint id counter, kept outside the checkpoints as a job manager keeps it. */
  readonly ids: number;
  /** The state schema of the code running (1 until an upgrade). */
  readonly code: number;
  /** The most windows held open at once (counted, not yet closed): the state a longer wait retains. */
  readonly peakOpen?: number;
}

/** How a value is read from a record of an older event schema (reprocessing). */
export type SchemaAdapter = (record: StreamRecord) => number;

export interface AggregatorInput {
  readonly log: string;
  readonly partitions: number;
  readonly sink: string;
  readonly sinkMode: SinkMode;
  readonly windowTicks: number;
  readonly watermarkDelayTicks: number;
  readonly latenessTicks: number;
  readonly latePolicy: LatePolicy;
  readonly idleTicks?: number;
  readonly dedup: boolean;
  readonly checkpointEveryTicks: number;
  readonly pollTicks: number;
  readonly timeoutTicks: number;
  /** Deploy code of state schema `schema` at tick `atTick`; `migrates`: it can read the schema before it. */
  readonly upgrade?: { readonly atTick: number; readonly schema: number; readonly migrates: boolean };
  /**
   * How the value of a record of each older event schema is read. A record with schema fields
   * and no adapter for its schema is read as today's code reads the current schema: its
   * `quantity`, a missing one taken as the current default, 0.
   */
  readonly adapters?: Readonly<Record<number, SchemaAdapter>>;
  /**
   * An endpoint that gets an alert (an email) for every window that closes: an irreversible
   * effect. Its message id carries `runId`, as each run's messages do, so the endpoint can
   * recognise a resend of the same run's alert but not another run's. None when absent.
   */
  readonly alerts?: string;
  /**
   * A payment provider that charges each window's total when it closes (a settlement capture):
   * another irreversible effect. Its idempotency key names the window and `runId`, so the
   * provider recognises a resend of the same run's capture but not another run's. None when absent.
   */
  readonly captures?: string;
  readonly runId?: string;
  /** The operator starts reading at this tick (a rebuild started later than the live run). */
  readonly startAtTick?: number;
  /**
   * A correction's identity: `derived` from its window and its fact (the default), so a replayed
   * correction is the same one again; or `drawn` when it is processed, as a random id would be,
   * so a replay makes a new one.
   */
  readonly correctionId?: 'derived' | 'drawn';
  /**
   * Keep the completed checkpoints a restore to one at least this many ticks old can reach (in
   * `retained`); none are kept when absent.
   */
  readonly retainCheckpointsTicks?: number;
  readonly durable?: AggregatorDurable;
}

type Ctx = {
  readonly input: AggregatorInput;
  readonly durable: AggregatorDurable;
  // Volatile: lost in a crash.
  readonly op: OperatorState;
  readonly now: number;
  /** Partitions whose fetch of this poll has been answered. */
  readonly answered: readonly number[];
  /** Posts sent and not yet acknowledged, by ref, with where each goes (the sink, or the alerts endpoint). */
  readonly pending: readonly { readonly ref: string; readonly to: string; readonly post: ResultPost }[];
  /** Transactional: this epoch's posts, staged at the next checkpoint. */
  readonly buffer: readonly ResultPost[];
  readonly posts: number;
  /** The operator state differs from the last checkpoint's. */
  readonly dirty: boolean;
  readonly lastCheckpointAt: number;
  /** The epoch being prepared (transactional). */
  readonly preparing: number;
};

const EMPTY_WINDOW: WindowState = { facts: [], times: [], value: 0, version: 0, closed: false, changed: false, late: [] };

function emptyState(partitions: number): OperatorState {
  return {
    positions: Array.from({ length: partitions }, () => 0),
    maxEventTime: Array.from({ length: partitions }, () => -1),
    lastRecordAt: Array.from({ length: partitions }, () => 0),
    watermark: -1,
    windows: {},
  };
}

/** The durable state a fresh operator starts from: an empty checkpoint 0 written by code of schema 1. */
export function initialAggregatorDurable(partitions: number): AggregatorDurable {
  return { checkpoint: { id: 0, tick: 0, state: emptyState(partitions), schema: 1 }, ids: 0, code: 1 };
}

/** The schemas code of state schema `code` can read: its own, and the one before where it migrates. */
function readable(input: AggregatorInput, code: number): readonly number[] {
  const u = input.upgrade;
  return u !== undefined && code === u.schema && u.migrates ? [code - 1, code] : [code];
}

const tickOf = (e: EventObject, fallback: number) => {
  const at = (e as { at?: unknown }).at;
  return typeof at === 'number' ? at : fallback;
};

const windowEnd = (input: AggregatorInput, w: number) => (w + 1) * input.windowTicks;

/** The watermark after what has been read: it never moves back, and waits for the slowest partition still counted. */
function watermarkOf(input: AggregatorInput, op: OperatorState, now: number): number {
  const counted = op.maxEventTime.filter((t, p) => t === END_OF_TIME || input.idleTicks === undefined || now - op.lastRecordAt[p]! < input.idleTicks);
  if (counted.length === 0) return op.watermark;
  const least = Math.min(...counted);
  return Math.max(op.watermark, least === END_OF_TIME ? END_OF_TIME : least - input.watermarkDelayTicks);
}

type Step = { op: OperatorState; posts: ResultPost[]; notes: { kind: string; data: unknown }[] };

/** A record's value as this operator's code reads it (see AggregatorInput.adapters). */
export function valueOf(input: Pick<AggregatorInput, 'adapters'>, r: StreamRecord): number {
  const adapter = input.adapters?.[r.schema];
  if (adapter !== undefined) return adapter(r);
  return r.fields === undefined ? r.value : (r.fields['quantity'] ?? 0);
}

/** Counts one record into the operator state: its window's aggregate, or the late policy once the window is closed. */
function ingest(input: AggregatorInput, s: Step, r: StreamRecord, now: number): void {
  const p = r.partition;
  const op = s.op;
  const positions = op.positions.map((o, i) => (i === p ? Math.max(o, r.offset + 1) : o));
  const maxEventTime = op.maxEventTime.map((t, i) => (i === p ? Math.max(t, r.eventTime) : t));
  const lastRecordAt = op.lastRecordAt.map((t, i) => (i === p ? now : t));
  s.op = { ...op, positions, maxEventTime, lastRecordAt };
  if (r.end === true) return;
  const w = Math.floor(r.eventTime / input.windowTicks);
  let win = s.op.windows[w] ?? EMPTY_WINDOW;
  if (input.dedup && (win.facts.includes(r.fact_id) || win.late.includes(r.fact_id))) {
    s.notes.push({ kind: 'guard', data: { guard: 'factDedup', fact: r.fact_id } });
    return;
  }
  const value = valueOf(input, r);
  const times = factTimes(r, now);
  const set = (next: WindowState): void => {
    s.op = { ...s.op, windows: { ...s.op.windows, [w]: next } };
  };
  // A window nothing had reached before the watermark passed its end and lateness is closed all
  // the same: its period ends with nothing counted (an empty result, closed), and this fact is
  // late like any other, so the late policy, not the on-time path, decides what becomes of it.
  if (!win.closed && win.version === 0 && s.op.watermark >= windowEnd(input, w) + input.latenessTicks) {
    s.posts.push({ kind: 'result', window: w, version: 1, facts: [], value: 0, processedAt: now, times: [] }, { kind: 'close', window: w, version: 1 });
    win = { ...win, version: 1, closed: true };
    set(win);
  }
  if (!win.closed) {
    set({ ...win, facts: [...win.facts, r.fact_id], times: [...win.times, times], value: win.value + value, changed: win.version > 0 });
    return;
  }
  s.notes.push({ kind: 'late', data: { fact: r.fact_id, window: w, policy: input.latePolicy } });
  switch (input.latePolicy) {
    case 'correction':
      s.posts.push({ kind: 'correction', window: w, corrects: `${w}@v${win.version}`, facts: [r.fact_id], value, processedAt: now, times: [times] });
      return set({ ...win, late: [...win.late, r.fact_id] });
    case 'revise':
    case 'retract':
    case 'overwrite': {
      const version = input.latePolicy === 'overwrite' ? win.version : win.version + 1;
      const next = { ...win, facts: [...win.facts, r.fact_id], times: [...win.times, times], value: win.value + value, version };
      if (input.latePolicy === 'retract') s.posts.push({ kind: 'retraction', window: w, version: win.version, processedAt: now });
      s.posts.push({ kind: 'result', window: w, version, facts: next.facts, value: next.value, processedAt: now, times: next.times });
      return set(next);
    }
    // Waiting longer has a limit too: what comes after it goes to the correction workflow.
    case 'wait':
    case 'review':
      s.posts.push({ kind: 'review', window: w, facts: [r.fact_id], times: [times] });
      return set({ ...win, late: [...win.late, r.fact_id] });
    case 'drop':
      s.posts.push({ kind: 'dropped', window: w, facts: [r.fact_id], times: [times] });
      return set({ ...win, late: [...win.late, r.fact_id] });
    case 'ignore':
      return set({ ...win, late: [...win.late, r.fact_id] });
  }
}

/** Moves the watermark and posts what it makes due: first results, revisions, closes, in window order. Whether anything changed. */
function advance(input: AggregatorInput, s: Step, now: number): boolean {
  const watermark = watermarkOf(input, s.op, now);
  let changed = watermark !== s.op.watermark;
  const windows: Record<string, WindowState> = { ...s.op.windows };
  for (const key of Object.keys(windows).sort((a, b) => Number(a) - Number(b))) {
    const w = Number(key);
    const before = windows[key]!;
    let win = before;
    const end = windowEnd(input, w);
    // Waiting longer posts nothing provisional: the first result is due only once the lateness has passed.
    const due = input.latePolicy === 'wait' ? end + input.latenessTicks : end;
    if (win.version === 0 && watermark >= due) {
      s.posts.push({ kind: 'result', window: w, version: 1, facts: win.facts, value: win.value, processedAt: now, times: win.times });
      win = { ...win, version: 1, changed: false };
    } else if (win.changed) {
      if (input.latePolicy === 'retract') s.posts.push({ kind: 'retraction', window: w, version: win.version, processedAt: now });
      s.posts.push({ kind: 'result', window: w, version: win.version + 1, facts: win.facts, value: win.value, processedAt: now, times: win.times });
      win = { ...win, version: win.version + 1, changed: false };
    }
    if (win.version > 0 && !win.closed && watermark >= end + input.latenessTicks) {
      s.posts.push({ kind: 'close', window: w, version: win.version });
      win = { ...win, closed: true };
    }
    if (win !== before) changed = true;
    windows[key] = win;
  }
  s.op = { ...s.op, watermark, windows };
  return changed;
}

/**
 * Each new correction with an identity drawn at processing time. A random draw differs on every
 * processing, a replay's included; here the identity is minted from the processing tick, the
 * checkpoint the run stands on and the post's place since it, which no other processing shares (a
 * replay comes at a later tick), so it behaves as a draw would with no randomness at all.
 */
function drawnIds(ctx: Ctx, posts: ResultPost[], now: number): ResultPost[] {
  const since = ctx.posts + ctx.buffer.length;
  return posts.map((p, i) => (p.kind === 'correction' ? { ...p, id: `${now}.${ctx.durable.checkpoint.id}.${since + i}` } : p));
}

/** The volatile context a boot starts from: the checkpoint's state, nothing pending. */
function restored(durable: AggregatorDurable): Omit<Ctx, 'input' | 'durable'> {
  return { op: durable.checkpoint.state, now: durable.checkpoint.tick, answered: [], pending: [], buffer: [], posts: 0, dirty: false, lastCheckpointAt: durable.checkpoint.tick, preparing: 0 };
}

/** The durable measure of retained state, raised when `op` holds more windows open than ever before. */
function held(ctx: Ctx, op: OperatorState): Partial<Ctx> {
  const open = Object.values(op.windows).filter((w) => !w.closed).length;
  return open > (ctx.durable.peakOpen ?? 0) ? { durable: { ...ctx.durable, peakOpen: open } } : {};
}

const postRef = (ctx: Ctx, n: number) => `c${ctx.durable.checkpoint.id}.${n}`;

/**
 * Where new posts go: straight to the sink, acknowledged one by one, or (transactional) into this
 * epoch's stage; a close also goes to the alerts endpoint and, as a charge of the window's total
 * in `op`, to the payment provider, both outside any transaction.
 */
function queued(ctx: Ctx, posts: readonly ResultPost[], op: OperatorState): Partial<Ctx> {
  if (posts.length === 0) return {};
  const { sink, alerts, captures, sinkMode } = ctx.input;
  const run = ctx.input.runId ?? 'live';
  const direct: { to: string; post: ResultPost }[] = [];
  for (const post of posts) {
    if (sinkMode !== 'transactional') direct.push({ to: sink, post });
    if (alerts !== undefined && post.kind === 'close') direct.push({ to: alerts, post: { ...post, run } });
    if (captures !== undefined && post.kind === 'close') direct.push({ to: captures, post: { kind: 'capture', window: post.window, version: post.version, value: op.windows[post.window]?.value ?? 0, run } });
  }
  return {
    ...(sinkMode === 'transactional' ? { buffer: [...ctx.buffer, ...posts] } : {}),
    pending: [...ctx.pending, ...direct.map((d, i) => ({ ...d, ref: postRef(ctx, ctx.posts + i) }))],
    posts: ctx.posts + direct.length,
  };
}

export const aggregatorMachine = setup({
  types: { context: {} as Ctx, input: {} as AggregatorInput, events: {} as EventLogReply | SinkReply | PeerCrashed, emitted: {} as Emitted },
  delays: {
    untilStart: ({ context }) => Math.max(0, (context.input.startAtTick ?? 0) - context.now),
    poll: ({ context }) => context.input.pollTicks,
    timeout: ({ context }) => context.input.timeoutTicks,
  },
  guards: {
    // Only an upgrade changes the state schema, so without one every checkpoint is readable. The
    // option is read first, so a design without an upgrade has no unreadableCheckpoint window at all.
    unreadable: ({ context }) => context.input.upgrade !== undefined && !readable(context.input, context.durable.code).includes(context.durable.checkpoint.schema),
    mustCommit: ({ context }) => context.input.sinkMode === 'transactional' && context.durable.checkpoint.commit !== undefined,
    allAnswered: ({ context }) => context.answered.length === context.input.partitions,
    isFetchReply: ({ context, event }) => event.type === 'log.records' && !context.answered.includes(event.partition) && event.offset === context.op.positions[event.partition],
    nothingPending: ({ context }) => context.pending.length === 0,
    isHeadAck: ({ context, event }) => event.type === 'sink.posted' && context.pending[0]?.ref === event.ref,
    checkpointDue: ({ context }) => (context.dirty || context.buffer.length > 0) && context.now - context.lastCheckpointAt >= context.input.checkpointEveryTicks,
    transactional: ({ context }) => context.input.sinkMode === 'transactional',
    isPrepared: ({ context, event }) => event.type === 'sink.prepared' && event.epoch === context.preparing,
    isCommitted: ({ context, event }) => event.type === 'sink.committed' && event.epoch === context.durable.checkpoint.commit,
    notStarted: ({ context }) => context.input.startAtTick !== undefined && context.now < context.input.startAtTick,
    upgradeDue: ({ context }) => context.input.upgrade !== undefined && context.durable.code !== context.input.upgrade.schema && context.now >= context.input.upgrade.atTick,
  },
  actions: {
    learnTime: assign(({ context, event }) => ({ now: tickOf(event, context.now) })),
    fetch: enqueueActions(({ context, enqueue }) => {
      enqueue.assign({ answered: [] });
      for (let p = 0; p < context.input.partitions; p++) enqueue.emit(send(context.input.log, { type: 'log.fetch', partition: p, offset: context.op.positions[p]! }));
    }),
    take: enqueueActions(({ context, event, enqueue }) => {
      if (event.type !== 'log.records') return;
      const now = tickOf(event, context.now);
      const s: Step = { op: context.op, posts: [], notes: [] };
      for (const r of event.records) ingest(context.input, s, r, now);
      if (context.input.correctionId === 'drawn') s.posts = drawnIds(context, s.posts, now);
      for (const n of s.notes) enqueue.emit(note(n.kind, n.data));
      enqueue.assign({ op: s.op, now, answered: [...context.answered, event.partition], dirty: context.dirty || s.op !== context.op, ...queued(context, s.posts, s.op), ...held(context, s.op) });
    }),
    advance: enqueueActions(({ context, enqueue }) => {
      const s: Step = { op: context.op, posts: [], notes: [] };
      const changed = advance(context.input, s, context.now);
      if (changed) enqueue.assign({ op: s.op, dirty: true, ...queued(context, s.posts, s.op), ...held(context, s.op) });
    }),
    // Posts go out one at a time, in order, each once the one before is acknowledged, as a writer
    // with one request in flight: a window's close never overtakes its result.
    postHead: enqueueActions(({ context, enqueue }) => {
      const p = context.pending[0];
      if (p !== undefined) enqueue.emit(send(p.to, { type: 'sink.post', ref: p.ref, post: p.post }));
    }),
    acked: assign(({ context, event }) => (event.type === 'sink.posted' && context.pending[0]?.ref === event.ref ? { pending: context.pending.slice(1) } : {})),
    // External and idempotent sinks: every post is acknowledged, so the checkpoint completes at once.
    completeCheckpoint: enqueueActions(({ context, enqueue }) => {
      const d = context.durable;
      const id = d.ids + 1;
      const checkpoint: AggregatorCheckpoint = { id, tick: context.now, state: context.op, schema: d.code };
      enqueue.assign({ durable: { ...d, checkpoint, previous: d.checkpoint, ids: id, ...retaining(context.input, d, checkpoint) }, dirty: false, lastCheckpointAt: context.now, posts: 0 });
      enqueue.emit(note('checkpoint', { id, tick: context.now }));
    }),
    // Transactional: the epoch's id is taken from the counter before its results are staged, so
    // an epoch staged and never completed is never reused.
    prepare: enqueueActions(({ context, enqueue }) => {
      const epoch = context.preparing === 0 ? context.durable.ids + 1 : context.preparing;
      if (context.preparing === 0) enqueue.assign({ preparing: epoch, durable: { ...context.durable, ids: epoch } });
      enqueue.emit(send(context.input.sink, { type: 'sink.prepare', epoch, posts: context.buffer }));
    }),
    completeTransactional: enqueueActions(({ context, enqueue }) => {
      const d = context.durable;
      const checkpoint: AggregatorCheckpoint = { id: context.preparing, tick: context.now, state: context.op, schema: d.code, commit: context.preparing };
      enqueue.assign({ durable: { ...d, checkpoint, previous: d.checkpoint, ...retaining(context.input, d, checkpoint) }, dirty: false, lastCheckpointAt: context.now, buffer: [], preparing: 0 });
      enqueue.emit(note('checkpoint', { id: context.preparing, tick: context.now }));
    }),
    commit: enqueueActions(({ context, enqueue }) => enqueue.emit(send(context.input.sink, { type: 'sink.commit', epoch: context.durable.checkpoint.commit! }))),
    // An upgrade stops with a savepoint (a completed checkpoint, with no sink epoch), then the
    // new code restores it.
    savepointAndDeploy: enqueueActions(({ context, enqueue }) => {
      const d = context.durable;
      const id = d.ids + 1;
      const to = context.input.upgrade!.schema;
      const checkpoint: AggregatorCheckpoint = { id, tick: context.now, state: context.op, schema: d.code };
      enqueue.assign({ durable: { ...d, checkpoint, previous: d.checkpoint, ids: id, code: to, ...retaining(context.input, d, checkpoint) } });
      enqueue.emit(note('upgrade', { from: d.code, to, savepoint: id }));
    }),
    migrate: enqueueActions(({ context, enqueue }) => {
      const d = context.durable;
      if (d.checkpoint.schema === d.code) return;
      enqueue.assign({ durable: { ...d, checkpoint: { ...d.checkpoint, schema: d.code } } });
      enqueue.emit(note('migrate', { from: d.checkpoint.schema, to: d.code }));
    }),
    resume: assign(({ context }) => restored(context.durable)),
    noteUnreadable: enqueueActions(({ context, enqueue }) =>
      enqueue.emit(note('checkpoint unreadable', { checkpoint: context.durable.checkpoint.id, schema: context.durable.checkpoint.schema, code: context.durable.code })),
    ),
  },
}).createMachine({
  id: 'aggregator',
  context: ({ input }) => {
    const durable = input.durable ?? initialAggregatorDurable(input.partitions);
    return { input, durable, ...restored(durable) };
  },
  initial: 'restoring',
  states: {
    // The latest completed checkpoint is loaded (or found unreadable); nothing read yet.
    restoring: {
      after: {
        0: [
          { guard: 'unreadable', target: 'unreadableCheckpoint', actions: 'noteUnreadable' },
          { guard: 'mustCommit', target: 'committing', actions: ['learnTime', 'migrate'] },
          { target: 'scheduled', actions: ['learnTime', 'migrate'] },
        ],
      },
    },
    // Waiting for the tick the operator is to start at (at once, unless it starts late).
    scheduled: {
      always: { guard: 'notStarted', target: 'scheduledWait' },
      after: { 0: 'polling' },
    },
    scheduledWait: { tags: ['idle'], after: { untilStart: { target: 'polling', actions: 'learnTime' } } },
    // Every partition asked for its records from the operator's positions, not all answered.
    polling: {
      entry: 'fetch',
      on: { 'log.records': { guard: 'isFetchReply', actions: 'take' } },
      always: { guard: 'allAnswered', target: 'processing' },
      after: { timeout: { target: 'polling', reenter: true } },
    },
    // What was read is counted; the watermark and the posts it makes due are worked out next.
    processing: { after: { 0: { target: 'emitting', actions: 'advance' } } },
    // Posts sent to the sink and not all acknowledged (a transactional sink's are staged instead).
    emitting: {
      entry: 'postHead',
      always: { guard: 'nothingPending', target: 'afterEmit' },
      on: { 'sink.posted': { guard: 'isHeadAck', target: 'emitting', reenter: true, actions: ['acked', 'learnTime'] } },
      after: { timeout: { target: 'emitting', reenter: true } },
    },
    afterEmit: { always: [{ guard: 'checkpointDue', target: 'checkpointing' }, { guard: 'upgradeDue', target: 'upgrading' }, { target: 'waiting' }] },
    // The cut is taken and the checkpoint not yet completed: a crash here restores the one before.
    checkpointing: { after: { 0: [{ guard: 'transactional', target: 'preparing' }, { target: 'afterCheckpoint', actions: 'completeCheckpoint' }] } },
    // Transactional: the epoch's results sent to be staged, not acknowledged; the checkpoint completes on the answer.
    preparing: {
      entry: 'prepare',
      on: { 'sink.prepared': { guard: 'isPrepared', target: 'committing', actions: 'completeTransactional' } },
      after: { timeout: { target: 'preparing', reenter: true } },
    },
    // Transactional: the checkpoint is complete and its epoch not yet committed in the sink.
    committing: {
      entry: 'commit',
      on: { 'sink.committed': { guard: 'isCommitted', target: 'afterCheckpoint' } },
      after: { timeout: { target: 'committing', reenter: true } },
    },
    // The checkpoint is complete (and its epoch committed): a crash here replays nothing.
    afterCheckpoint: { after: { 0: [{ guard: 'upgradeDue', target: 'upgrading' }, { target: 'waiting' }] } },
    // Between polls, nothing unacknowledged.
    waiting: { tags: ['idle'], after: { poll: { target: 'polling', actions: 'learnTime' } } },
    // New code deployed after a savepoint; it reads the savepoint next.
    upgrading: {
      entry: 'savepointAndDeploy',
      after: { 0: [{ guard: 'unreadable', target: 'unreadableCheckpoint', actions: 'noteUnreadable' }, { target: 'polling', actions: ['migrate', 'resume', 'learnTime'] }] },
    },
    // The code cannot read the checkpoint it must restore: the processor stops here, not idle.
    unreadableCheckpoint: {},
  },
});

/** A restore goes back to the checkpoint before the latest (the empty one when there is none), keeping the id counter, the code and the measure of held state. */
export function restoreOlderCheckpoint(durable: unknown): AggregatorDurable {
  const d = durable as AggregatorDurable;
  const previous = d.previous ?? initialAggregatorDurable(d.checkpoint.state.positions.length).checkpoint;
  return { checkpoint: previous, ids: d.ids, code: d.code, ...(d.peakOpen === undefined ? {} : { peakOpen: d.peakOpen }) };
}

/**
 * A restore to the latest completed checkpoint: an operator restarting the job from where it
 * stands, which is what a crash restores too, at a moment of the operator's choosing.
 */
export function restoreLatestCheckpoint(durable: unknown): AggregatorDurable {
  return durable as AggregatorDurable;
}

/**
 * A restore to the newest completed checkpoint at least `ageTicks` old at the moment of the
 * restore (the empty one when none is that old), keeping the id counter, the code, the measure of
 * held state, and the retained checkpoints older than the one restored.
 */
export function restoreCheckpointByAge(ageTicks: number): (durable: unknown, now: number) => AggregatorDurable {
  return (durable, now) => {
    const d = durable as AggregatorDurable;
    const all = [...(d.retained ?? []), d.checkpoint];
    let i = all.length - 1;
    while (i >= 0 && all[i]!.tick > now - ageTicks) i--;
    const chosen = i < 0 ? initialAggregatorDurable(d.checkpoint.state.positions.length).checkpoint : all[i]!;
    const older = i < 0 ? [] : all.slice(0, i);
    return { checkpoint: chosen, ids: d.ids, code: d.code, ...(d.peakOpen === undefined ? {} : { peakOpen: d.peakOpen }), ...(older.length === 0 ? {} : { previous: older.at(-1)!, retained: older }) };
  };
}

/**
 * The retained checkpoints once `next` completes after `d.checkpoint`: the one it replaces added,
 * and those no restore by age can reach any more dropped (older than the newest one at least the
 * retention before `next`).
 */
function retaining(input: AggregatorInput, d: AggregatorDurable, next: AggregatorCheckpoint): Pick<AggregatorDurable, 'retained'> {
  if (input.retainCheckpointsTicks === undefined) return {};
  const all = [...(d.retained ?? []), d.checkpoint];
  let from = 0;
  while (from + 1 < all.length && all[from + 1]!.tick <= next.tick - input.retainCheckpointsTicks) from++;
  return { retained: all.slice(from) };
}

/** Evidence for the operator: its last completed checkpoint, the positions and watermark it binds, and the most windows it held open. */
export function aggregatorEvidence(durable: unknown): EvidencePart[] {
  const d = durable as AggregatorDurable | undefined;
  if (d === undefined) return [];
  const c = d.checkpoint;
  const wm = c.state.watermark === END_OF_TIME ? 'end' : String(c.state.watermark);
  return [
    { label: 'checkpoint', items: [`#${c.id} at t=${c.tick}`, `positions ${c.state.positions.join('/')}`, `watermark ${wm}`, ...(c.schema === d.code ? [] : [`schema ${c.schema}, code ${d.code}`])] },
    ...(d.peakOpen === undefined ? [] : [{ label: 'held open', items: [`at most ${d.peakOpen} window${d.peakOpen === 1 ? '' : 's'}`] }]),
  ];
}

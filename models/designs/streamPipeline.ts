// A stream-processing design (seed 000, "Stateful processors recover from positions plus
// consistent state", "Event time makes result meaning explicit", "Reprocess without rewriting
// history"): devices upload facts to their partitions of an event log, a windowed aggregator
// counts them into tumbling event-time windows, and posts each window's result to a sink. The
// design options are the seed's decisions: where the results go (an external endpoint, an
// idempotent store, a store inside the checkpoint transaction), the watermark's allowed delay, the
// window, how long results stay open to revision, what happens to a fact later than that, whether
// a silent partition is detected, how often checkpoints complete, and the state schema of the
// code after an upgrade.
//
// Its claims are about results rather than effects of single messages:
// - `resultDeliveryClaim`: each window's result (each version) reaches the sink once;
// - `factCountedOnceClaim`: each fact is counted once, in the window its true event time falls
//   in, by the window's final result, a correction linked to it, the correction workflow, or a
//   declared and counted drop, and in nothing else;
// - `correctionOnceClaim`: a late fact's correction reaches the sink once, however often a
//   replay makes it;
// - `closedPeriodClaim`: a final result is never revised silently: for a ledger not at all (a
//   late fact becomes a correction linked to the closed result), for a dashboard only under a
//   new version;
// - `timelyResultClaim`: each window's first result is posted within a bound of its end.
import type { Claim, Revision } from '../../src/checkers/claims.ts';
import { common, componentFields, design, given, ticksOf, type DesignBuild } from '../../src/scenario/design.ts';
import type { Duration } from '../../src/base/duration.ts';
import { LATE_POLICIES } from '../../src/scenario/latePolicy.ts';
import { TimeScale } from '../../src/base/duration.ts';
import { duration, parseOptions, z } from '../../src/scenario/options.ts';
import type { WorldView } from '../../src/kernel/worldView.ts';
import { device, DeviceOptions, type DeviceDurable, type PlannedFact } from '../device.ts';
import { eventLogEvidence, eventLogMachine, factRecords, type EventLogDurable, type StreamRecord } from '../eventLog.ts';
import { finalResults, resultSinkEvidence, resultSinkMachine, type SinkDurable } from '../resultSink.ts';
import { aggregatorEvidence, aggregatorMachine, restoreCheckpointByAge, restoreLatestCheckpoint, restoreOlderCheckpoint, type AggregatorInput, type SchemaAdapter } from '../windowedAggregator.ts';
import { InputError } from '../../src/base/inputError.ts';
import { partOptions } from './partOptions.ts';
import { deviceFactsView, devicesOf, differingResults, factRecordsView, isFinalResult, resultViews, type StreamClock } from './streamTables.ts';

/** The time scale of every stream scenario: ten seconds a tick, so a ten-minute window is 60 ticks. */
export const STREAM_TICK: Duration = '10s';

/** The names the stream design gives its components (its devices are `device0`, `device1`, …). */
export const STREAM_PIPELINE = { components: { log: 'log', aggregator: 'aggregator', sink: 'sink' } } as const;

export const StreamPipelineOptions = z.strictObject({
  /** How many devices (one partition each) upload facts (2). */
  devices: z.number().int().min(1).max(8).optional(),
  /** Where results go: an external endpoint, an idempotent store, or a store inside the checkpoint. */
  sink: z.enum(['external', 'idempotent', 'transactional']),
  /** The tumbling window (10 minutes). */
  window: duration.optional(),
  /** How far behind the latest event time the watermark stays (2 minutes). */
  watermarkDelay: duration.optional(),
  /** How long after a window's end its result accepts revisions (15 minutes). */
  lateness: duration.optional(),
  /** What a fact later than that becomes (a correction linked to the closed result); `wait` posts nothing before the lateness has passed. */
  late: z.enum(LATE_POLICIES).optional(),
  /** A partition silent this long is left out of the watermark until it sends again (never). */
  idleAfter: duration.optional(),
  /** Whether a fact id counted once in its window is not counted again (yes). */
  dedup: z.boolean().optional(),
  /** How often a checkpoint completes (5 minutes). */
  checkpointEvery: duration.optional(),
  /** How often the aggregator reads the log (30 seconds). */
  poll: duration.optional(),
  /** Whether a `restore` fault can set the aggregator back to the checkpoint before its latest (no). */
  restorable: z.boolean().optional(),
  /**
   * Which completed checkpoint a `restore` fault sets the aggregator back to (none: not
   * restorable, unless `restorable`): `latest` (what a crash restores, at a moment an operator
   * chooses), `previous` (the one before it, as `restorable`), or a duration: the newest one at
   * least that old at the moment of the restore, the empty one when none is; the aggregator then
   * keeps the checkpoints such a restore can reach.
   */
  restoreTo: z.union([z.enum(['latest', 'previous']), duration]).optional(),
  /**
   * A correction's identity (`derived`): from its window and the fact it carries, so the sink
   * recognises a replayed correction; or `drawn` when it is processed (a random id), so a replay
   * is a new correction to the sink.
   */
  correctionId: z.enum(['derived', 'drawn']).optional(),
  /** New code with state schema 2, deployed at `at` after a savepoint; `migrates`: it reads schema 1 checkpoints. */
  upgrade: z.strictObject({ at: duration, migrates: z.boolean() }).optional(),
  /** The devices' own options: how long one stays down after a crash, how far a skew moves its clock. */
  device: partOptions('device', DeviceOptions, { name: true, notes: true }),
  aggregator: z.strictObject({ ...componentFields, timeout: duration.optional() }).optional(),
});

export type StreamPipelineOptions = z.input<typeof StreamPipelineOptions>;

/**
 * The facts device `d` records for a workload of `size` facts each: the k-th occurs at
 * 200 s + k × 450 s + d × 250 s, so two devices' facts interleave across the first windows.
 */
export function streamFacts(d: number, size: number): PlannedFact[] {
  return Array.from({ length: size }, (_, k) => ({ fact_id: `f${d}-${k + 1}`, occursAt: 20 + 45 * k + 25 * d, value: 10 * (d + 1) + k + 1 }));
}

/** The stream design: `device0…`, the `log`, the `aggregator` and the `sink`. */
export function streamPipeline(options: StreamPipelineOptions, facts: (d: number, size: number) => readonly PlannedFact[] = streamFacts, adapters?: Readonly<Record<number, SchemaAdapter>>): DesignBuild {
  const o = parseOptions('streamPipeline', StreamPipelineOptions, options);
  const devices = o.devices ?? 2;
  const deviceBuilders = Array.from({ length: devices }, (_, d) => device({ name: `device${d}`, log: 'log', partition: d, facts: (size) => facts(d, size), timeout: '2m', ...given(o.device ?? {}) }));
  return design(
    deviceBuilders,
    () => ({ name: 'log', machine: eventLogMachine, process: false, answersOnly: true, describe: eventLogEvidence, input: { partitions: devices } }),
    ({ time }) => {
      const t = (where: string, d: Duration | undefined, fallback: Duration, min = 1) => ticksOf(time, `streamPipeline option ${where}`, d ?? fallback, min)!;
      const windowTicks = t('window', o.window, '10m');
      const restoreAge = o.restoreTo === undefined || o.restoreTo === 'latest' || o.restoreTo === 'previous' ? undefined : t('restoreTo', o.restoreTo, o.restoreTo, 0);
      const input: AggregatorInput = {
        log: 'log',
        partitions: devices,
        sink: 'sink',
        sinkMode: o.sink,
        windowTicks,
        watermarkDelayTicks: t('watermarkDelay', o.watermarkDelay, '2m', 0),
        latenessTicks: t('lateness', o.lateness, '15m', 0),
        latePolicy: o.late ?? 'correction',
        ...(o.idleAfter === undefined ? {} : { idleTicks: t('idleAfter', o.idleAfter, '5m') }),
        dedup: o.dedup ?? true,
        checkpointEveryTicks: t('checkpointEvery', o.checkpointEvery, '5m'),
        pollTicks: t('poll', o.poll, '30s'),
        // Longer than the slowest round trip (two messages of up to 30 s), so a retry means a loss.
        timeoutTicks: t('aggregator.timeout', o.aggregator?.timeout, '2m'),
        ...(o.upgrade === undefined ? {} : { upgrade: { atTick: t('upgrade.at', o.upgrade.at, '20m'), schema: 2, migrates: o.upgrade.migrates } }),
        ...(adapters === undefined ? {} : { adapters }),
        ...(restoreAge === undefined ? {} : { retainCheckpointsTicks: restoreAge }),
        ...(o.correctionId === undefined ? {} : { correctionId: o.correctionId }),
      };
      return {
        name: 'aggregator',
        machine: aggregatorMachine,
        process: true,
        peers: ['log', 'sink'],
        describe: aggregatorEvidence,
        input: input as unknown as Record<string, unknown>,
        ...checkpointRestore(o.restoreTo, o.restorable, restoreAge),
        ...common(time, 'aggregator', o.aggregator ?? {}),
      };
    },
    () => ({ name: 'sink', machine: resultSinkMachine, process: false, answersOnly: true, describe: resultSinkEvidence, input: { mode: o.sink } }),
  );
}

/** The aggregator's restore: the checkpoint `restoreTo` chooses, or the one before the latest where it is only `restorable`. */
function checkpointRestore(restoreTo: string | undefined, restorable: boolean | undefined, ageTicks: number | undefined): { restore?: (durable: unknown, now: number) => unknown } {
  if (restoreTo !== undefined && restorable === false) throw new InputError('streamPipeline option restoreTo makes the aggregator restorable; drop restorable: false');
  if (ageTicks !== undefined) return { restore: restoreCheckpointByAge(ageTicks) };
  if (restoreTo === 'latest') return { restore: restoreLatestCheckpoint };
  return restoreTo === 'previous' || restorable ? { restore: restoreOlderCheckpoint } : {};
}

// ---------------------------------------------------------------------------------------------
// Reading the end state.

const sinkOf = (v: WorldView) => v.durable<SinkDurable>('sink');
/** In a revisions condition: the highest version of the window readers were shown before this post (0: none). */
const SHOWN_BEFORE = "coalesce((SELECT max(p.version) FROM window_results p WHERE p.kind = 'result' AND p.window_id = $window_id AND p.seq < $seq), 0)";
const recordsOf = (v: WorldView): StreamRecord[] => factRecords(v.durable<EventLogDurable>('log'));

/**
 * What the claims need to know of the design: how long a window (10 minutes unless the design's
 * `window` says otherwise), and how many devices (read from the log, one partition each, unless given).
 */
export interface StreamShape {
  readonly devices?: number;
  readonly window?: Duration;
}

const STREAM_TIME = new TimeScale(STREAM_TICK);
const windowTicksOf = (shape: StreamShape) => STREAM_TIME.ticks('the window', shape.window ?? '10m', 1);

/** Every device's planned facts, by id: the truth results are held to. */
function plannedFacts(v: WorldView, shape: StreamShape): Map<string, PlannedFact> {
  const out = new Map<string, PlannedFact>();
  for (const device of devicesOf(shape, v)) for (const f of v.durable<DeviceDurable>(device).facts) out.set(f.fact_id, f);
  return out;
}

/** How the claims' tables reckon time and windows. */
const clockOf = (shape: StreamShape): StreamClock => ({ time: STREAM_TIME, windowTicks: windowTicksOf(shape), ...(shape.devices === undefined ? {} : { devices: shape.devices }) });

/** The sink's posts as the results table readers query (`window_results`, its facts in `window_results_facts`), and the log's records. */
const resultTables = (shape: StreamShape) => [...resultViews('window_results', sinkOf, clockOf(shape)), factRecordsView(clockOf(shape))];

/** The window a tick falls in, for a window of `windowTicks`. */
const windowAt = (tick: number, windowTicks: number) => Math.floor(tick / windowTicks);

/**
 * A window's result, each version of it, reaches the sink once. Every window some record falls
 * in must get its first result; a result for a window no record falls in is a phantom.
 */
export function resultDeliveryClaim(sink: string, shape: StreamShape = {}): Claim {
  const w = windowTicksOf(shape);
  return {
    effect: `a window's result posted to ${sink}`,
    key: ['window', 'version'],
    authority: sink,
    lifetime: 'the retention of the sink',
    differentIntent: 'is refused: a different result under a window and version it holds changes nothing',
    tables: {
      effect: { table: 'window_results', key: ['window_id', 'version'], where: "$kind = 'result'", format: 'w{0}@v{1}' },
      source: { table: 'fact_records', key: ['window_id', '1'], format: 'w{0}@v{1}' },
      // A result answers to a window some record falls in, whatever its version.
      causes: { table: 'window_results', key: ['window_id', 'version'], where: "$kind = 'result' AND EXISTS (SELECT 1 FROM fact_records r WHERE r.window_id = $window_id)" },
      conflicts: differingResults('window_results'),
      views: resultTables(shape),
    },
    outcomes: (v) => sinkOf(v).posts.flatMap((p) => (p.kind === 'result' ? [{ key: `w${p.window}@v${p.version}` }] : [])),
    conflicts: (v) => {
      const d = sinkOf(v);
      const first = new Map<string, string>();
      const out: { key: string; refused: boolean }[] = [];
      for (const p of d.posts) {
        if (p.kind !== 'result') continue;
        const key = `w${p.window}@v${p.version}`;
        const content = [...p.facts].sort().join(',');
        const seen = first.get(key);
        if (seen === undefined) first.set(key, content);
        else if (seen !== content) out.push({ key, refused: false });
      }
      for (const p of d.conflicts ?? []) if (p.kind === 'result') out.push({ key: `w${p.window}@v${p.version}`, refused: true });
      return out;
    },
    facts: (v) => [...new Set(recordsOf(v).map((r) => `w${windowAt(r.eventTime, w)}@v1`))].sort(),
    sources: (v) => {
      const windows = new Set(recordsOf(v).map((r) => windowAt(r.eventTime, w)));
      return sinkOf(v).posts.flatMap((p) => (p.kind === 'result' && windows.has(p.window) ? [`w${p.window}@v${p.version}`] : []));
    },
  };
}

/**
 * Each fact is counted once in its true window: by the final result, a correction linked to the
 * closed result, the correction workflow or a declared and counted drop. A fact counted in a
 * window its true time is not in (a skewed clock) is a phantom there and lost from its own.
 */
export function factCountedOnceClaim(shape: StreamShape = {}): Claim {
  const w = windowTicksOf(shape);
  return {
    effect: "a fact's count in its window's final result",
    key: ['fact_id', 'window'],
    namespace: 'the aggregate the sink publishes',
    authority: "the aggregator's checkpointed state and the sink's results",
    lifetime: 'the retention of the results',
    sameIntent: "the result already published for the window's version",
    // A fact is counted by its window's final result, or by a correction, review or counted drop;
    // it is owed once for every fact the log took in, in the window it truly occurred in.
    tables: {
      effect: { table: 'window_results_facts', key: ['fact_id', 'window_id'], where: `$kind IN ('correction', 'review', 'dropped') OR (${isFinalResult('window_results')})`, format: '{0}@w{1}' },
      source: { table: 'device_facts', key: ['fact_id', 'window_id'], where: 'EXISTS (SELECT 1 FROM fact_records r WHERE r.fact_id = $fact_id)', format: '{0}@w{1}' },
      replays: differingResults('window_results'),
      views: [...resultTables(shape), deviceFactsView(clockOf(shape))],
    },
    outcomes: (v) => {
      const posts = sinkOf(v).posts;
      const out: { key: string }[] = [];
      for (const r of finalResults(posts).values()) for (const f of r.facts) out.push({ key: `${f}@w${r.window}` });
      // A correction, a review or a counted drop accounts for its facts once per post: a repeated
      // post (an endpoint that keeps repeats) counts them twice.
      for (const p of posts) if (p.kind === 'correction' || p.kind === 'review' || p.kind === 'dropped') for (const f of p.facts) out.push({ key: `${f}@w${p.window}` });
      return out;
    },
    facts: (v) => {
      const planned = plannedFacts(v, shape);
      const ingested = new Set(recordsOf(v).map((r) => r.fact_id));
      return [...ingested].sort().map((id) => `${id}@w${windowAt(planned.get(id)?.occursAt ?? 0, w)}`);
    },
    replies: (v) =>
      // A window's version published twice (a replay after a restore) must carry the same facts.
      sinkOf(v).posts.flatMap((p) => (p.kind === 'result' ? [{ intent: `w${p.window}@v${p.version}`, outcome: [...p.facts].sort().join(','), ok: true }] : [])),
  };
}

/**
 * A late fact is corrected once: at most one correction per (fact, window) reaches the sink, however
 * often a replay makes it again. It claims nothing about which facts must be corrected (which are
 * late depends on the run), so its liveness and phantom clauses are not checked.
 */
export function correctionOnceClaim(shape: StreamShape = {}): Claim {
  return {
    effect: "a late fact's correction of its closed window",
    key: ['fact_id', 'window'],
    authority: 'the sink readers read, by the identity of each correction',
    lifetime: 'the retention of the results',
    sameIntent: 'the correction already posted',
    // Which facts are late depends on the run: the claim has no source facts, and says so.
    unchecked: ['lost effect', 'phantom effect'],
    tables: {
      effect: { table: 'window_results_facts', key: ['fact_id', 'window_id'], where: "$kind = 'correction'", format: '{0}@w{1}' },
      views: resultTables(shape),
    },
    outcomes: (v) => sinkOf(v).posts.flatMap((p) => (p.kind === 'correction' ? p.facts.map((f) => ({ key: `${f}@w${p.window}` })) : [])),
  };
}

/**
 * A period closes once, and its final result is never revised silently. A ledger: no result after
 * the close, and every correction linked to the version that closed. A dashboard: a revision after
 * the close must carry a higher version than the result it replaces.
 */
export function closedPeriodClaim(kind: 'ledger' | 'dashboard', shape: StreamShape = {}): Claim {
  const w = windowTicksOf(shape);
  return {
    effect: kind === 'ledger' ? "a period's closing of its posted total (a ledger)" : "a window's closing of its displayed total (a dashboard)",
    key: ['window'],
    authority: 'the sink readers read',
    lifetime: 'the retention of the results',
    finality:
      kind === 'ledger'
        ? 'a closed period is never revised in place, and a late fact becomes one correction linked to the closed result'
        : 'a revision after the close carries a new version readers can see',
    tables: {
      effect: { table: 'window_results', key: ['window_id'], where: "$kind = 'close'", format: 'w{0}' },
      source: { table: 'fact_records', key: ['window_id'], format: 'w{0}' },
      // A post after the window's first close: for a ledger any result; for a dashboard a result
      // whose version is no higher than one shown before, or a retraction of any version but the
      // one readers hold; for both a correction linked to anything but the version that closed.
      revisions: {
        table: 'window_results',
        key: ['window_id'],
        where: `EXISTS (SELECT 1 FROM window_results c WHERE c.kind = 'close' AND c.window_id = $window_id AND c.seq < $seq) AND (${
          kind === 'ledger'
            ? "$kind = 'result'"
            : `($kind = 'result' AND $version <= ${SHOWN_BEFORE}) OR ($kind = 'retraction' AND $version <> ${SHOWN_BEFORE})`
        } OR ($kind = 'correction' AND $corrects IS DISTINCT FROM ($window_id || '@v' || (SELECT c.version FROM window_results c WHERE c.kind = 'close' AND c.window_id = $window_id ORDER BY c.seq LIMIT 1))))`,
        format: 'w{0}',
      },
      views: resultTables(shape),
    },
    // A period is closed once: each `close` post is an outcome, and every window a record falls in must close.
    outcomes: (v) => sinkOf(v).posts.flatMap((p) => (p.kind === 'close' ? [{ key: `w${p.window}` }] : [])),
    facts: (v) => [...new Set(recordsOf(v).map((r) => `w${windowAt(r.eventTime, w)}`))].sort(),
    revisions: (v) => {
      const out: Revision[] = [];
      const closedAt = new Map<number, number>();
      const shown = new Map<number, number>();
      for (const p of sinkOf(v).posts) {
        const key = `w${p.window}`;
        if (p.kind === 'close') {
          if (!closedAt.has(p.window)) closedAt.set(p.window, p.version);
          continue;
        }
        const closed = closedAt.get(p.window);
        if (p.kind === 'result') {
          const before = shown.get(p.window) ?? 0;
          shown.set(p.window, Math.max(before, p.version));
          if (closed === undefined) continue;
          if (kind === 'ledger') out.push({ key, silent: true, how: `revised after it closed (version ${p.version})` });
          else out.push({ key, silent: p.version <= before, how: p.version <= before ? `overwritten under version ${p.version} after it closed` : `revised as version ${p.version}` });
        } else if (p.kind === 'correction' && closed !== undefined) {
          const linked = p.corrects === `${p.window}@v${closed}`;
          out.push({ key, silent: !linked, how: linked ? `corrected by a linked correction` : `corrected by a correction linked to ${p.corrects}, not to the closed version ${closed}` });
        } else if (p.kind === 'retraction' && closed !== undefined && kind === 'dashboard') {
          // A retraction after the close is visible when it withdraws the version readers hold.
          const held = shown.get(p.window) ?? 0;
          out.push({ key, silent: p.version !== held, how: p.version === held ? `version ${p.version} retracted` : `version ${p.version} retracted while readers held version ${held}` });
        } else if ((p.kind === 'review' || p.kind === 'dropped') && closed !== undefined) {
          // A late fact that reaches a closed period and leaves its result as it was puts finality
          // to the test too: the result stands, and the fact is accounted for in the open.
          out.push({ key, silent: false, how: p.kind === 'review' ? 'a late fact routed to the correction workflow; the closed result stands' : 'a late fact dropped and counted; the closed result stands' });
        }
      }
      return out;
    },
  };
}

/**
 * Each window's first result is posted within `bound` of the moment it could be: the window's
 * end, or the arrival of its first record when that came later (a fact the log did not have yet
 * is no result's delay), by the world's clock.
 */
export function timelyResultClaim(bound: Duration, shape: StreamShape = {}): Claim {
  const time = STREAM_TIME;
  const boundTicks = time.ticks('the timely claim’s bound', bound, 1);
  const w = windowTicksOf(shape);
  const windows = (v: WorldView) => [...new Set(recordsOf(v).map((r) => `w${windowAt(r.eventTime, w)}`))].sort();
  return {
    effect: `a window's first result, posted within ${time.format(boundTicks)} of its end`,
    key: ['window'],
    authority: "the sink: the tick each result became visible, against the window's end and its first record's arrival",
    lifetime: `${time.format(boundTicks)} from the window's end`,
    guarantee: 'atLeastOnce',
    // A window's first result counts when it became visible within the bound of its end, or of its
    // first record's arrival when that came later.
    tables: {
      effect: {
        table: 'window_results',
        key: ['window_id'],
        where: `$kind = 'result' AND $seq = (SELECT min(earliest.seq) FROM window_results earliest WHERE earliest.kind = 'result' AND earliest.window_id = $window_id) AND $visible_at - greatest(($window_id + 1) * ${time.tickSeconds.times(w).toNumber()}, (SELECT min(r.ingested_at) FROM fact_records r WHERE r.window_id = $window_id)) <= ${time.tickSeconds.times(boundTicks).toNumber()}`,
        format: 'w{0}',
      },
      source: { table: 'fact_records', key: ['window_id'], format: 'w{0}' },
      views: resultTables(shape),
    },
    outcomes: (v) => {
      const firstRecord = new Map<number, number>();
      for (const r of recordsOf(v)) {
        const win = windowAt(r.eventTime, w);
        firstRecord.set(win, Math.min(firstRecord.get(win) ?? Infinity, r.ingestedAt));
      }
      const first = new Map<number, number>();
      for (const p of sinkOf(v).posts) if (p.kind === 'result' && !first.has(p.window)) first.set(p.window, p.at);
      return [...first].filter(([win, at]) => at - Math.max((win + 1) * w, firstRecord.get(win) ?? 0) <= boundTicks).map(([win]) => ({ key: `w${win}` }));
    },
    facts: windows,
    sources: windows,
  };
}

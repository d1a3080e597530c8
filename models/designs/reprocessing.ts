// Versioned reprocessing (seed 000, "Reprocessing is a new versioned production run" and the drill
// "Reprocess without rewriting history"; seed 003, "A replay that rebuilds an internal order
// projection should not resend confirmations or recapture payments"). The log holds demand facts
// written over the years in four event schemas, and the quantity means the same thing in none of
// the old ones as it does today:
// - schema 1 has no quantity field at all: every order then was for one unit, and today's code
//   reads an absent `quantity` as its current default, 0;
// - schema 2 names it `qty`;
// - schema 3 names it `quantity` but counts in dozens;
// - schema 4 (today's) counts units in `quantity`.
// The live aggregator ran with the code of each era, which read its own schema correctly; its
// results are the recorded history, and each window that closes sends an alert email (an
// irreversible effect, sent to a mail gateway that recognises a resend of one run's message by
// its id) and, where the design says so, charges the window's total to the partner through a
// payment provider (a settlement capture, a second irreversible effect, keyed by window and run).
// The rebuild is a second aggregator with its own identity (its own positions, from the start of
// the log), started later, running today's code with the adapters the design gives it, writing
// to its own namespace (`rebuildSink`) unless the design points it at the live one, and sending
// alerts and captures only if the design forgot to gate them. A promoter compares the two runs'
// results and cuts over to the rebuild, or refuses.
import type { Claim } from '../../src/checkers/claims.ts';
import { design, given, ticksOf, type DesignBuild } from '../../src/scenario/design.ts';
import { TimeScale } from '../../src/base/duration.ts';
import { InputError } from '../../src/base/inputError.ts';
import { parseOptions, z } from '../../src/scenario/options.ts';
import type { WorldView } from '../../src/kernel/worldView.ts';
import { device, DeviceOptions, type DeviceDurable, type PlannedFact } from '../device.ts';
import { partOptions } from './partOptions.ts';
import { eventLogEvidence, eventLogMachine, type StreamRecord } from '../eventLog.ts';
import { promoterEvidence, promoterMachine, type PromoterDurable } from '../promoter.ts';
import { finalResults, resultSinkEvidence, resultSinkMachine, type SinkDurable } from '../resultSink.ts';
import { aggregatorEvidence, aggregatorMachine, type AggregatorInput, type SchemaAdapter } from '../windowedAggregator.ts';
import { STREAM_TICK } from './streamPipeline.ts';
import { deviceFactsView, isFinalResult, resultViews, type StreamClock } from './streamTables.ts';

const TIME = new TimeScale(STREAM_TICK);
const WINDOW_TICKS = TIME.ticks('the window', '10m', 1);

/** The adapters each era's code had for its own schema: what the live run read the log with. */
export const ERA_ADAPTERS: Readonly<Record<number, SchemaAdapter>> = {
  1: () => 1,
  2: (r: StreamRecord) => r.fields?.['qty'] ?? 0,
  3: (r: StreamRecord) => 12 * (r.fields?.['quantity'] ?? 0),
};

/** The historical facts of device `d`: the k-th in schema ((k + 2d) mod 4) + 1, with its true quantity as `value`. */
export function historicalFacts(d: number, size: number): PlannedFact[] {
  return Array.from({ length: size }, (_, k): PlannedFact => {
    const schema = ((k + 2 * d) % 4) + 1;
    const fact_id = `f${d}-${k + 1}`;
    const occursAt = 20 + 45 * k + 25 * d;
    switch (schema) {
      case 1:
        return { fact_id, occursAt, value: 1, schema, fields: {} };
      case 2:
        return { fact_id, occursAt, value: 2 + k, schema, fields: { qty: 2 + k } };
      case 3:
        return { fact_id, occursAt, value: 12 * (1 + d), schema, fields: { quantity: 1 + d } };
      default:
        return { fact_id, occursAt, value: 5 + k, schema, fields: { quantity: 5 + k } };
    }
  });
}

/** The names the design gives its components (its devices are `device0` and `device1`). */
export const REPROCESSING = {
  components: { log: 'log', aggregator: 'aggregator', rebuild: 'rebuild', sink: 'sink', alerts: 'alerts', payments: 'payments', rebuildSink: 'rebuildSink', promoter: 'promoter' },
} as const;

export const ReprocessingOptions = z.strictObject({
  /**
   * Which adapters today's code has: one per historical schema, or every one but one: schema 1's
   * (an absent quantity read as today's default, 0), schema 2's (the renamed `qty` not found, so
   * read as 0 too) or schema 3's (a quantity in dozens read as units).
   */
  adapters: z.enum(['perVersion', 'missingForSchema1', 'missingForSchema2', 'missingForSchema3']),
  /** Whether the promoter compares the two runs' results before the cutover. */
  compare: z.boolean(),
  /** Whether the rebuild's alert emails are gated off. */
  gated: z.boolean(),
  /** Where the rebuild writes: its own namespace, or the live results. */
  output: z.enum(['isolated', 'live']).optional(),
  /** The live run charges each closed window's total through the payment provider; the rebuild's charges are gated off, or not. No charges when absent. */
  captures: z.enum(['gated', 'notGated']).optional(),
  /** The two devices' own options: how long one stays down, how far a skew moves its clock. */
  device: partOptions('device', DeviceOptions, { name: true, notes: true }),
});

export type ReprocessingOptions = z.input<typeof ReprocessingOptions>;

function aggregatorInput(runId: string, sink: string, adapters: Readonly<Record<number, SchemaAdapter>>, effects: { readonly alerts?: string; readonly captures?: string }, startAtTick?: number): AggregatorInput {
  return {
    runId,
    log: 'log',
    partitions: 2,
    sink,
    sinkMode: 'idempotent',
    windowTicks: WINDOW_TICKS,
    watermarkDelayTicks: TIME.ticks('the watermark delay', '2m', 0),
    latenessTicks: TIME.ticks('the lateness', '15m', 0),
    latePolicy: 'correction',
    dedup: true,
    checkpointEveryTicks: TIME.ticks('the checkpoint interval', '5m', 1),
    pollTicks: TIME.ticks('the poll', '1m', 1),
    timeoutTicks: TIME.ticks('the timeout', '2m', 1),
    adapters,
    ...effects,
    ...(startAtTick === undefined ? {} : { startAtTick }),
  };
}

/** The live run, the rebuild, their results, alerts and captures, and the promoter. */
export function reprocessing(options: ReprocessingOptions): DesignBuild {
  const o = parseOptions('reprocessing', ReprocessingOptions, options);
  // Written into the live results, the rebuild has no results of its own: the promoter would
  // compare the live results with themselves and always find them equal.
  if (o.compare && o.output === 'live') throw new InputError("reprocessing option compare needs output 'isolated': a rebuild that writes into the live results leaves no results of its own to compare, so the promoter would compare the live results with themselves");
  const rebuildOut = o.output === 'live' ? 'sink' : 'rebuildSink';
  const missing = { perVersion: undefined, missingForSchema1: 1, missingForSchema2: 2, missingForSchema3: 3 }[o.adapters];
  const today = Object.fromEntries(Object.entries(ERA_ADAPTERS).filter(([schema]) => Number(schema) !== missing));
  const live = { alerts: 'alerts', ...(o.captures === undefined ? {} : { captures: 'payments' }) };
  const rebuilt = { ...(o.gated ? {} : { alerts: 'alerts' }), ...(o.captures === 'notGated' ? { captures: 'payments' } : {}) };
  // The mail gateway keeps one message per message id, and the payment provider one capture per
  // idempotency key, so a run's resent alert or capture is recognised.
  const sink = (name: string) => () => ({ name, machine: resultSinkMachine, process: false, answersOnly: true, describe: resultSinkEvidence, input: { mode: 'idempotent' } });
  const operator = (name: string, input: AggregatorInput) => () => ({
    name,
    machine: aggregatorMachine,
    process: true,
    peers: ['log', input.sink, ...(input.alerts ? [input.alerts] : []), ...(input.captures ? [input.captures] : [])],
    describe: aggregatorEvidence,
    input: input as unknown as Record<string, unknown>,
  });
  return design(
    [0, 1].map((d) => device({ name: `device${d}`, log: 'log', partition: d, facts: (size) => historicalFacts(d, size), timeout: '2m', ...given(o.device ?? {}) })),
    () => ({ name: 'log', machine: eventLogMachine, process: false, answersOnly: true, describe: eventLogEvidence, input: { partitions: 2 } }),
    operator('aggregator', aggregatorInput('live', 'sink', ERA_ADAPTERS, live)),
    ({ time }) => operator('rebuild', aggregatorInput('rebuild', rebuildOut, today, rebuilt, ticksOf(time, 'the rebuild start', '40m')))(),
    sink('sink'),
    sink('alerts'),
    o.captures === undefined ? [] : [sink('payments')],
    o.output === 'live' ? [] : [sink('rebuildSink')],
    () => ({
      name: 'promoter',
      machine: promoterMachine,
      process: true,
      peers: ['sink', rebuildOut],
      describe: promoterEvidence,
      input: { live: 'sink', rebuild: rebuildOut, compare: o.compare, pollTicks: TIME.ticks('the promoter poll', '1m', 1), timeoutTicks: TIME.ticks('the promoter timeout', '2m', 1) },
    }),
  );
}

const facts = (v: WorldView) => [0, 1].flatMap((d) => v.durable<DeviceDurable>(`device${d}`).facts);
const windowOf = (f: PlannedFact) => Math.floor(f.occursAt / WINDOW_TICKS);

/** A window's total in today's meaning: the sum of its facts' true quantities. */
function trueTotals(v: WorldView): Map<number, number> {
  const out = new Map<number, number>();
  for (const f of facts(v)) out.set(windowOf(f), (out.get(windowOf(f)) ?? 0) + f.value);
  return out;
}

/** The results readers are served: where the promoter points them (the live ones until a cutover). */
function served(v: WorldView): SinkDurable {
  return v.durable<SinkDurable>(v.durable<PromoterDurable>('promoter').served);
}

/**
 * The claims' tables: the devices' facts with their true quantities, the mail gateway's alerts,
 * and the results readers are served (the view the cutover points at the live results or the
 * rebuild's), each as a table of posts in the order they became visible.
 */
const CLOCK: StreamClock = { time: TIME, windowTicks: WINDOW_TICKS, devices: 2 };
const DEVICE_FACTS = deviceFactsView(CLOCK);
const TRUE_WINDOWS = { table: 'device_facts', key: ['window_id'], format: 'w{0}' };

/** Every window closes with exactly one alert email: the alerts are irreversible, a replay must not send them again. */
export const alertOnceClaim: Claim = {
  effect: "a closed window's demand alert email",
  key: ['window'],
  authority: 'the mail gateway, which recognises a resent message by its id, while each run gives its messages ids of its own',
  lifetime: 'for ever: an email cannot be taken back',
  tables: {
    effect: { table: 'alert_emails', key: ['window_id'], where: "$kind = 'close'", format: 'w{0}' },
    source: TRUE_WINDOWS,
    views: [...resultViews('alert_emails', (v) => v.durable<SinkDurable>('alerts'), CLOCK), DEVICE_FACTS],
  },
  outcomes: (v) => v.durable<SinkDurable>('alerts').posts.flatMap((p) => (p.kind === 'close' ? [{ key: `w${p.window}` }] : [])),
  facts: (v) => [...new Set(facts(v).map((f) => `w${windowOf(f)}`))].sort(),
};

/**
 * Every window closes with exactly one settlement capture: a charge cannot be taken back (only
 * refunded, which is a second effect), so a replay must not capture again.
 */
export const captureOnceClaim: Claim = {
  effect: "a closed window's settlement capture",
  key: ['window'],
  authority: 'the payment provider, which recognises a resent capture by its idempotency key, while each run keys its captures by its own run id',
  lifetime: 'for ever: a captured payment can only be refunded',
  // The payment provider's captures, as the export of its ledger: one row per capture it kept.
  tables: {
    effect: { table: 'settlement_captures', key: ['window_id'], where: "$kind = 'capture'", format: 'w{0}' },
    source: TRUE_WINDOWS,
    views: [...resultViews('settlement_captures', (v) => v.durable<SinkDurable>('payments'), CLOCK), DEVICE_FACTS],
  },
  outcomes: (v) => v.durable<SinkDurable>('payments').posts.flatMap((p) => (p.kind === 'capture' ? [{ key: `w${p.window}` }] : [])),
  facts: (v) => [...new Set(facts(v).map((f) => `w${windowOf(f)}`))].sort(),
};

/**
 * Readers are served each window's total in today's meaning, before and after the cutover: on
 * replay, the same facts return the total they add up to.
 */
export const servedTotalsClaim: Claim = {
  effect: "the demand total readers are served for a window",
  key: ['window'],
  authority: 'the results readers are pointed at (the live namespace, then the promoted rebuild)',
  lifetime: 'the retention of the results',
  sameIntent: "the total its facts add up to in today's meaning",
  // A window is served its final result; the total it should be is the sum of its facts' true quantities.
  tables: {
    effect: { table: 'served_results', key: ['window_id'], where: isFinalResult('served_results'), format: 'w{0}' },
    source: TRUE_WINDOWS,
    replays: {
      table: 'served_results',
      key: ['window_id'],
      where: `${isFinalResult('served_results')} AND $value <> coalesce((SELECT sum(d.value) FROM device_facts d WHERE d.window_id = $window_id), 0)`,
      format: 'w{0}',
    },
    views: [...resultViews('served_results', served, CLOCK), DEVICE_FACTS],
  },
  outcomes: (v) => [...finalResults(served(v).posts).keys()].map((w) => ({ key: `w${w}` })),
  facts: (v) => [...trueTotals(v).keys()].sort((a, b) => a - b).map((w) => `w${w}`),
  replies: (v) => {
    const truth = trueTotals(v);
    const out = [];
    for (const [w, r] of finalResults(served(v).posts)) {
      out.push({ intent: `w${w}`, outcome: String(truth.get(w) ?? 0), ok: true });
      out.push({ intent: `w${w}`, outcome: String(r.value), ok: true });
    }
    return out;
  },
};

/** The rebuild ends promoted: a reprocessing run that is never cut over has not done its work. */
export const promotionClaim: Claim = {
  effect: 'the cutover to the rebuilt results',
  key: ['run'],
  authority: 'the promoter, after comparing the two runs',
  lifetime: 'the reprocessing run',
  guarantee: 'atLeastOnce',
  // The promoter's decision, as the deployment record a team would query: one row for the rebuild.
  tables: {
    effect: { table: 'reprocessing_runs', key: ['run'], where: "$status = 'promoted'" },
    source: { table: 'reprocessing_runs', key: ['run'] },
    views: [
      {
        table: 'reprocessing_runs',
        columns: { run: 'text', status: 'text', served: 'text' },
        rows: (v) => {
          const p = v.durable<PromoterDurable>('promoter');
          return [{ run: 'rebuild', status: p.status, served: p.served }];
        },
      },
    ],
  },
  outcomes: (v) => (v.durable<PromoterDurable>('promoter').status === 'promoted' ? [{ key: 'rebuild' }] : []),
  facts: () => ['rebuild'],
};

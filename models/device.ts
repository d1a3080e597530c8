// A device (a phone, a store's till) that records facts as they happen and uploads them to its
// own partition of the event log, stamping each with its own clock: the event time (seed 003:
// "Event time says when the business fact occurred. It may come from a device … so its
// trustworthiness is part of the contract"). Its facts are planned for the workload: each occurs
// at a fixed tick, which is the truth a checker holds results to. It keeps them in local storage
// (durable) with how many the log has acknowledged, and uploads them one at a time in order,
// resending one whose acknowledgement does not come, so the log may hold a fact twice. After its
// last fact it appends the partition's end marker, which tells readers nothing more will come.
//
// Fault model: a crash loses only the upload in hand; while the device is down its partition is
// idle, and once it restarts it uploads every fact that occurred meanwhile with its original event
// time, so they reach readers late (the seed's offline phone delivering yesterday's order). Where
// the design declares a clock skew, a `skew` fault makes its clock read that many ticks ahead from
// then on: every fact that occurs afterwards is stamped with an event time that far off the
// truth, and the skew survives a restart, as a wrong clock does. A fact is stamped by the clock of
// the moment it occurred, so a resend or a late upload carries the stamp it was given then.
//
// Failure windows: `device.starting` (booted, not yet told the time), `device.waiting` (nothing
// due yet), `device.uploading` (an append sent, not acknowledged), `device.done` (every fact and
// the end marker acknowledged).
import { assign, enqueueActions, setup } from 'xstate';
import { common, componentFields, ticksOf, type ComponentBuilder } from '../src/scenario/design.ts';
import { send, type Emitted, type PeerCrashed } from '../src/kernel/emitted.ts';
import { duration, parseOptions, sizedValue, z } from '../src/scenario/options.ts';
import type { EvidencePart } from '../src/scenario/scenario.ts';
import type { ClockSkewed } from '../src/kernel/runReport.ts';
import { END_OF_TIME, type Appended, type EventLogReply } from './eventLog.ts';

/** One fact the device will record: when it truly occurs and what it carries. */
export interface PlannedFact {
  readonly fact_id: string;
  /** The tick it occurs at: the truth, whatever the device's clock says. */
  readonly occursAt: number;
  readonly value: number;
  /** The event schema it is written in, and its fields in that schema (the current one when absent). */
  readonly schema?: number;
  readonly fields?: Readonly<Record<string, number>>;
}

export interface DeviceDurable {
  /** The facts the device records, in the order they occur: its local storage. */
  readonly facts: readonly PlannedFact[];
  /** How many of them the log has acknowledged; `facts.length + 1` once the end marker is too. */
  readonly acked: number;
  /** How far ahead its clock reads, in ticks (0 unless a skew struck). */
  readonly skew: number;
  /** Each skew with the tick it struck at, so a fact is stamped by the clock of its own moment. */
  readonly skews?: readonly { readonly at: number; readonly ticks: number }[];
}

export interface DeviceInput {
  readonly log: string;
  readonly partition: number;
  readonly facts: readonly PlannedFact[];
  readonly timeoutTicks?: number;
  readonly durable?: DeviceDurable;
}

type Ctx = { durable: DeviceDurable; input: DeviceInput; now: number; attempt: number };

/** The current schema: records in it carry their value as `value` and no fields. */
export const CURRENT_SCHEMA = 1;

/** The append for the upload in hand: the next fact, stamped with the device's clock, or the end marker. */
function upload(ctx: Ctx): Appended {
  const f = ctx.durable.facts[ctx.durable.acked];
  if (f === undefined) return { fact_id: `end-${ctx.input.partition}`, eventTime: END_OF_TIME, value: 0, schema: CURRENT_SCHEMA, end: true };
  return { fact_id: f.fact_id, eventTime: f.occursAt + skewAt(ctx.durable, f.occursAt), value: f.value, schema: f.schema ?? CURRENT_SCHEMA, ...(f.fields ? { fields: f.fields } : {}) };
}

/** How far ahead the device's clock read at tick `t`: the skews that had struck before it. */
function skewAt(d: DeviceDurable, t: number): number {
  return (d.skews ?? []).filter((s) => s.at < t).reduce((sum, s) => sum + s.ticks, 0);
}

const refOf = (ctx: Ctx) => `${ctx.input.partition}/${ctx.durable.acked}/${ctx.attempt}`;

/** Ticks until the next fact occurs (0 when it already has, or when only the end marker is left). */
function untilNext(ctx: Ctx): number {
  const f = ctx.durable.facts[ctx.durable.acked];
  return f === undefined ? 0 : Math.max(0, f.occursAt - ctx.now);
}

export const deviceMachine = setup({
  types: { context: {} as Ctx, input: {} as DeviceInput, events: {} as EventLogReply | PeerCrashed | ClockSkewed, emitted: {} as Emitted },
  delays: {
    untilNext: ({ context }) => untilNext(context),
    timeout: ({ context }) => context.input.timeoutTicks ?? 6,
  },
  guards: {
    finished: ({ context }) => context.durable.acked > context.durable.facts.length,
    isAcked: ({ context, event }) => event.type === 'log.appended' && event.ref === refOf(context),
  },
  actions: {
    learnTime: assign(({ event }) => ({ now: (event as { at?: number }).at ?? 0 })),
    append: enqueueActions(({ context, enqueue }) => enqueue.emit(send(context.input.log, { type: 'log.append', partition: context.input.partition, ref: refOf(context), record: upload(context) }))),
    acknowledged: assign(({ context, event }) => ({ durable: { ...context.durable, acked: context.durable.acked + 1 }, attempt: 0, now: (event as { at?: number }).at ?? context.now })),
    retry: assign(({ context }) => ({ attempt: context.attempt + 1 })),
    skewClock: assign(({ context, event }) =>
      event.type === 'sys.clockSkew' ? { durable: { ...context.durable, skew: context.durable.skew + event.ticks, skews: [...(context.durable.skews ?? []), { at: event.at, ticks: event.ticks }] } } : {},
    ),
  },
}).createMachine({
  id: 'device',
  context: ({ input }) => ({ durable: input.durable ?? { facts: input.facts, acked: 0, skew: 0 }, input, now: 0, attempt: 0 }),
  on: { 'sys.clockSkew': { actions: 'skewClock' } },
  initial: 'starting',
  states: {
    // A machine learns the time only from the events it is given: a zero-tick timer tells it.
    starting: { after: { 0: { target: 'waiting', actions: 'learnTime' } } },
    // Nothing due yet: the next fact has not occurred.
    waiting: {
      always: { guard: 'finished', target: 'done' },
      after: { untilNext: { target: 'uploading', actions: 'learnTime' } },
    },
    // The fact in hand (or the end marker) is sent to the log, its acknowledgement not yet back.
    uploading: {
      entry: 'append',
      on: { 'log.appended': { guard: 'isAcked', target: 'waiting', actions: 'acknowledged' } },
      after: { timeout: { target: 'uploading', reenter: true, actions: 'retry' } },
    },
    done: { tags: ['idle'] },
  },
});

/** Evidence for a device: how many of its facts the log acknowledged, and its clock's skew. */
export function deviceEvidence(durable: unknown): EvidencePart[] {
  const d = durable as DeviceDurable | undefined;
  if (d === undefined) return [];
  const sent = d.facts.slice(0, d.acked).map((f) => f.fact_id);
  return [
    { label: 'uploaded', items: sent.length > 0 ? sent : ['none'] },
    ...(d.skew === 0 ? [] : [{ label: 'clock', items: [`${d.skew} ticks ahead`] }]),
  ];
}

export const DeviceOptions = z.strictObject({
  ...componentFields,
  /** How long it waits for the log's acknowledgement before sending again (6 ticks). */
  timeout: duration.optional(),
  /** How far a `skew` fault moves its clock ahead; no skew can strike it when absent. */
  skew: duration.optional(),
});

/** A device uploading `facts` to partition `partition` of `log`. */
export function device(options: z.input<typeof DeviceOptions> & { readonly log: string; readonly partition: number; readonly facts: (size: number) => readonly PlannedFact[] }): ComponentBuilder {
  const { log, partition, facts, ...rest } = options;
  const o = parseOptions('device', DeviceOptions, rest);
  const name = o.name ?? `device${partition}`;
  return ({ size, time }) => {
    const timeout = ticksOf(time, `${name} option timeout`, o.timeout);
    const skew = ticksOf(time, `${name} option skew`, o.skew);
    return {
      name,
      machine: deviceMachine,
      process: true,
      peers: [log],
      describe: deviceEvidence,
      input: { log, partition, facts: sizedValue(`${name} facts`, z.array(z.strictObject({ fact_id: z.string(), occursAt: z.number(), value: z.number(), schema: z.number().optional(), fields: z.record(z.string(), z.number()).optional() })), facts, size), ...(timeout === undefined ? {} : { timeoutTicks: timeout }) },
      ...(skew === undefined ? {} : { skewTicks: skew }),
      ...common(time, name, o),
    };
  };
}

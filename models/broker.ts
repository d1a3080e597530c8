// A partitioned log broker. Records are keyed by aggregate id and land in one partition per
// key, so one aggregate's records keep their log order. A producer gets an ack per record, and
// that ack can be lost like any message, so a retrying producer appends the record again unless
// producer-side dedup is on. Consumer groups commit offsets; the committed offset is durable,
// a consumer session is not: after a consumer restarts it subscribes again and the broker
// redelivers from the committed offset. A delivery that is never committed is redelivered after
// `redeliveryTicks`. Records older than `retentionTicks` are gone.
//
// A group's partitions are shared among its live members (models/groupAssignment.ts): each
// partition is delivered to one member at a time, round-robin in member-name order, and a member
// that joins, rejoins or crashes changes the assignment. A partition that changes hands is taken
// up by its new owner from the committed offset; one leaving a live owner waits until that owner
// has committed the record it holds (or held it past the redelivery timeout). A `rebalance` fault moves one partition to the
// next member while a record of it is on its way to the old owner, so both hold that record. The
// old owner's late commit is then accepted (`commits: 'naive'`, a broker that keeps no group
// generations: any member's commit moves the offset, backwards too) or refused (`'fenced'`:
// deliveries carry the generation the partition was handed over in, and a commit from another
// generation changes nothing, as Kafka's group coordinator refuses a commit of an old generation).
//
// Where the design lets it crash (`crashes`), it crashes at its own windows: `beforeAppend` (a
// record received, not yet in the log, so the crash loses it) and `afterAppend` (in the log,
// its ack not yet sent, so the producer cannot tell and sends it again). The log and the
// committed offsets survive; consumer sessions and group assignments do not, and each consumer,
// told of the crash as of any dropped connection, subscribes again. Producers are told nothing:
// a producer waiting for an ack already sends again when none comes, which is what a connection
// error makes it do. With `syncBeforeAck: false` an append is acknowledged at once and written
// to disk only `syncAfter` later (a flush interval, acks before fsync): such a broker's crash is
// taken as a power failure of its host, which loses every record not yet synced, acknowledged
// or not. A process crash that spared the page cache would lose nothing; the model takes the
// worse case, since the design declared it does not wait for the disk. Its extra window,
// `beforeSync`, is the moment the flush is due and not yet done.

import { assign, enqueueActions, setup } from 'xstate';
import { note, send, window, type Emitted, type FromPeer, type PeerCrashed, type Rebalanced } from '../src/kernel/emitted.ts';
import { emptyAssignment, handOver, reassign, release, type GroupAssignment } from './groupAssignment.ts';
import type { EvidencePart } from '../src/scenario/scenario.ts';
import { common, componentFields, given, ticksOf, type ComponentBuilder } from '../src/scenario/design.ts';
import { InputError } from '../src/base/inputError.ts';
import { duration, parseOptions, z } from '../src/scenario/options.ts';
import { ofKind } from '../src/base/notOfKind.ts';

export type Payload = Readonly<Record<string, string | number | boolean | null>>;

export interface LogRecord {
  readonly offset: number;
  readonly key: string;
  readonly payload: Payload;
  readonly at: number;
  /**
   * With `producerDedup: 'session'`: the producer that appended it and its session there (how
   * many times the broker had heard of its crash), which a retry must match to be taken for a
   * repeat. Absent otherwise.
   */
  readonly producer?: string;
  readonly session?: number;
}

export interface BrokerDurable {
  readonly partitions: readonly (readonly LogRecord[])[];
  /** group → partition → the next offset the group will read. */
  readonly offsets: Readonly<Record<string, readonly number[]>>;
  /**
   * A broker that acknowledges before it syncs: how many records of each partition are on disk.
   * The rest are in the log only until the host loses power.
   */
  readonly synced?: readonly number[];
  /**
   * With `producerDedup: 'session'`: by producer, its session, one more each time the broker
   * hears it crashed. Kept on disk, as a Kafka broker keeps its producer state in the log.
   */
  readonly producerSessions?: Readonly<Record<string, number>>;
}

/** The broker's failure windows; `beforeSync` only where appends are acknowledged before they are synced. */
export const BROKER_WINDOWS = ['beforeAppend', 'afterAppend', 'beforeSync'] as const;

export interface BrokerInput {
  readonly partitions?: number;
  readonly redeliveryTicks?: number;
  readonly retentionTicks?: number;
  /**
   * `true`: the broker's duplicate detection, a record whose `event_id` is already in its partition
   * is not appended again, whoever sends it. `'session'`: Kafka's idempotent producer, only a
   * retry by the same producer in the same session (since it last restarted) is a repeat.
   */
  readonly producerDedup?: boolean | 'session';
  /** A commit from a member that no longer owns the partition: accepted (`naive`, the default) or refused (`fenced`). */
  readonly commits?: 'naive' | 'fenced';
  /** Whether an append is on disk before its ack (true, the default) or synced `syncTicks` later. */
  readonly syncBeforeAck?: boolean;
  /** With `syncBeforeAck: false`, how long after an append its record is synced. */
  readonly syncTicks?: number;
  readonly durable?: BrokerDurable;
}

/** The default flush delay of a broker that acknowledges before it syncs, in ticks. */
export const SYNC_TICKS = 5;

export type BrokerEvent =
  | ({ type: 'broker.publish'; ref: string; key: string; payload: Payload } & FromPeer)
  | ({ type: 'broker.subscribe'; group: string } & FromPeer)
  | ({ type: 'broker.commit'; partition: number; offset: number; generation?: number } & FromPeer)
  | ({ type: 'broker.resetOffsets'; group: string; offset: number } & FromPeer)
  | PeerCrashed
  | Rebalanced
  | { readonly type: 'broker.sync'; readonly at: number }
  | { readonly type: 'broker.redeliveryDue'; readonly at: number };

export type BrokerReply =
  | ({ type: 'broker.ack'; ref: string; partition: number; offset: number } & FromPeer)
  | ({ type: 'broker.subscribed'; group: string } & FromPeer)
  /** A rewind of a group's offsets, done: what a consumer-group tool prints once it has set them. */
  | ({ type: 'broker.offsetsReset'; group: string; offset: number } & FromPeer)
  | ({ type: 'broker.deliver'; partition: number; offset: number; key: string; payload: Payload; generation?: number } & FromPeer);

interface Session {
  readonly group: string;
  /** partition → next offset to deliver. */
  readonly position: readonly number[];
  /** partition → the delivery awaiting commit, and when it went out. */
  readonly inflight: readonly ({ offset: number; at: number } | null)[];
}

type Ctx = {
  durable: BrokerDurable;
  /**
   * The redelivery timers armed, by id (`redeliver <member> <partition>`): the tick the delivery
   * each one guards went out. Volatile: a crash takes the timers and this with them.
   */
  armed: Readonly<Record<string, number>>;
  partitions: number;
  redeliveryTicks: number;
  retentionTicks: number;
  /** Which repeats are not appended again: none, any by event_id, or a producer's own within its session. */
  producerDedup: boolean | 'session';
  commits: 'naive' | 'fenced';
  /** Acknowledged appends wait for the disk (absent) or are synced this many ticks later. */
  syncTicks?: number;
  sessions: Readonly<Record<string, Session>>;
  /** group → which member owns each partition. The coordinator's state: members rejoin after a restart. */
  groups: Readonly<Record<string, GroupAssignment>>;
};

/** FNV-1a: a stable partitioner, the same in every process. */
export function partitionOf(key: string, partitions: number): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h % partitions;
}

/** Every record of the log, partition by partition; for checkers and evidence. */
export function recordsOf(durable: BrokerDurable | undefined): LogRecord[] {
  ofKind(durable, 'offsets', 'recordsOf', 'a broker');
  return durable ? durable.partitions.flat() : [];
}

type Delivery = { to: string; event: { type: 'broker.deliver'; partition: number; offset: number; key: string; payload: Payload; generation?: number } };

/** The members of a group with a live session, in name order. */
function membersOf(sessions: Readonly<Record<string, Session>>, group: string): string[] {
  return Object.keys(sessions)
    .filter((n) => sessions[n]!.group === group)
    .sort();
}

/** Sessions after partitions changed hands: each new owner takes its moved partitions up from the committed offset. */
function takeUp(ctx: Pick<Ctx, 'durable' | 'partitions'>, sessions: Readonly<Record<string, Session>>, group: string, assignment: GroupAssignment, moved: readonly number[]): Record<string, Session> {
  const committed = ctx.durable.offsets[group] ?? Array.from({ length: ctx.partitions }, () => 0);
  const out: Record<string, Session> = { ...sessions };
  for (const p of moved) {
    const owner = assignment.owners[p];
    if (owner === null || owner === undefined) continue;
    const s = out[owner]!;
    out[owner] = { group: s.group, position: s.position.map((o, i) => (i === p ? committed[p]! : o)), inflight: s.inflight.map((f, i) => (i === p ? null : f)) };
  }
  return out;
}

/** Whether a member holds a record of a partition: delivered and not yet committed. */
function holding(sessions: Readonly<Record<string, Session>>) {
  return (p: number, owner: string) => (sessions[owner]?.inflight[p] ?? null) !== null;
}

/** Partitions whose owner was asked to give them up and has now done so (or held on past `overdueBefore`), handed over. */
function releaseDone(ctx: Pick<Ctx, 'durable' | 'partitions' | 'groups'>, sessions: Readonly<Record<string, Session>>, overdueBefore: number): { sessions: Record<string, Session>; groups: Record<string, GroupAssignment>; released: number } {
  let out: Record<string, Session> = { ...sessions };
  const groups: Record<string, GroupAssignment> = { ...ctx.groups };
  let released = 0;
  for (const group of Object.keys(groups).sort()) {
    for (let p = 0; p < ctx.partitions; p++) {
      const a = groups[group]!;
      const owner = a.owners[p];
      if (a.pending[p] === null || a.pending[p] === undefined || owner === null || owner === undefined) continue;
      const held = out[owner]?.inflight[p] ?? null;
      if (held !== null && held.at > overdueBefore) continue;
      const r = release(a, p)!;
      groups[group] = r.assignment;
      if (out[owner]) out[owner] = { ...out[owner]!, inflight: out[owner]!.inflight.map((f, i) => (i === p ? null : f)) };
      out = takeUp(ctx, out, group, r.assignment, [p]);
      released++;
    }
  }
  return { sessions: out, groups, released };
}

/** Sends the next record of every idle partition of every session; redelivers stale ones. */
function pump(ctx: Ctx, now: number, redeliverStale: boolean): { sessions: Record<string, Session>; deliveries: Delivery[]; skipped: number } {
  const sessions: Record<string, Session> = {};
  const deliveries: Delivery[] = [];
  let skipped = 0;
  for (const name of Object.keys(ctx.sessions).sort()) {
    const s = ctx.sessions[name]!;
    const position = [...s.position];
    const inflight = [...s.inflight];
    const assignment = ctx.groups[s.group];
    for (let p = 0; p < ctx.partitions; p++) {
      // A member is delivered only the partitions its group assigned to it, and nothing more of
      // one it has been asked to give up.
      if (assignment !== undefined && (assignment.owners[p] !== name || (assignment.pending[p] ?? null) !== null)) continue;
      const log = ctx.durable.partitions[p]!;
      const current = inflight[p];
      if (current && !(redeliverStale && now - current.at >= ctx.redeliveryTicks)) continue;
      let offset = current ? current.offset : position[p]!;
      // Records past retention are gone: the reader's position jumps over them.
      while (offset < log.length && now - log[offset]!.at >= ctx.retentionTicks) {
        offset++;
        skipped++;
      }
      if (offset >= log.length) {
        inflight[p] = null;
        position[p] = offset;
        continue;
      }
      const r = log[offset]!;
      inflight[p] = { offset, at: now };
      position[p] = offset;
      const generation = ctx.commits === 'fenced' && assignment !== undefined ? { generation: assignment.epochs[p]! } : {};
      deliveries.push({ to: name, event: { type: 'broker.deliver', partition: p, offset, key: r.key, payload: r.payload, ...generation } });
    }
    sessions[name] = { group: s.group, position, inflight };
  }
  return { sessions, deliveries, skipped };
}

/** The group's offset and the member's session after a commit the broker accepts. */
function commitAssignment(ctx: Ctx, event: { from: string; partition: number; offset: number }, s: Session, group: string): Partial<Ctx> {
  const current = ctx.durable.offsets[group] ?? Array.from({ length: ctx.partitions }, () => 0);
  const offsets = { ...ctx.durable.offsets, [group]: current.map((o, i) => (i === event.partition ? event.offset : o)) };
  const inflight = s.inflight.map((f, i) => (i === event.partition && f && f.offset < event.offset ? null : f));
  const position = s.position.map((o, i) => (i === event.partition ? Math.max(o, event.offset) : o));
  return { durable: { ...ctx.durable, offsets }, sessions: { ...ctx.sessions, [event.from]: { group, inflight, position } } };
}

export const brokerMachine = setup({
  types: {
    context: {} as Ctx,
    input: {} as BrokerInput,
    events: {} as BrokerEvent,
    emitted: {} as Emitted,
  },
  actions: {
    // Each delivery awaiting its commit has a timer due exactly `redeliveryTicks` after it went
    // out: armed when it goes out, cancelled once it is committed, moved or its member gone. The
    // timers are read off the sessions after every step, so no handler can leave one behind.
    armRedelivery: enqueueActions(({ context, event, enqueue }) => {
      const now = (event as unknown as { at: number }).at;
      const want: Record<string, number> = {};
      // A broker that never redelivers on a timer arms none.
      if (Number.isFinite(context.redeliveryTicks)) for (const [name, s] of Object.entries(context.sessions)) s.inflight.forEach((f, p) => f !== null && (want[`redeliver ${name} ${p}`] = f.at));
      let changed = false;
      for (const id of Object.keys(context.armed)) {
        if (want[id] === context.armed[id]) continue;
        enqueue.cancel(id);
        changed = true;
      }
      for (const [id, at] of Object.entries(want)) {
        if (context.armed[id] === at) continue;
        enqueue.raise({ type: 'broker.redeliveryDue', at: 0 }, { id, delay: Math.max(1, at + context.redeliveryTicks - now) });
        changed = true;
      }
      if (changed) enqueue.assign({ armed: want });
    }),
    // A member asked to give a partition up that has held its record past the redelivery timeout
    // is presumed gone: the partition moves without it.
    releaseOverdue: enqueueActions(({ context, event, enqueue }) => {
      if (!Object.values(context.groups).some((g) => g.pending.some((x) => x !== null))) return;
      const r = releaseDone(context, context.sessions, (event as unknown as { at: number }).at - context.redeliveryTicks);
      if (r.released > 0) enqueue.assign({ sessions: r.sessions, groups: r.groups });
    }),
    deliver: enqueueActions(({ context, event, enqueue }, params: { stale: boolean }) => {
      const { sessions, deliveries, skipped } = pump(context, (event as unknown as { at: number }).at, params.stale);
      enqueue.assign({ sessions });
      if (skipped > 0) enqueue.emit(note('broker.retentionSkip', { records: skipped }));
      for (const d of deliveries) enqueue.emit(send(d.to, d.event));
    }),
  },
}).createMachine({
  id: 'broker',
  meta: { failureWindows: (input: BrokerInput) => BROKER_WINDOWS.filter((w) => w !== 'beforeSync' || input.syncBeforeAck === false) },
  context: ({ input }) => {
    const partitions = input.partitions ?? 1;
    const unsynced = input.syncBeforeAck === false;
    const bySession = input.producerDedup === 'session';
    const empty = { partitions: Array.from({ length: partitions }, () => []), offsets: {}, ...(unsynced ? { synced: Array.from({ length: partitions }, () => 0) } : {}), ...(bySession ? { producerSessions: {} } : {}) };
    return {
      // A restart after a power failure finds on disk only what was synced.
      durable: input.durable === undefined ? empty : onDisk(input.durable),
      partitions,
      redeliveryTicks: input.redeliveryTicks ?? 30,
      retentionTicks: input.retentionTicks ?? Number.MAX_SAFE_INTEGER,
      producerDedup: input.producerDedup ?? false,
      commits: input.commits ?? 'naive',
      ...(unsynced ? { syncTicks: input.syncTicks ?? SYNC_TICKS } : {}),
      sessions: {},
      groups: {},
      armed: {},
    };
  },
  initial: 'serving',
  states: {
    serving: {
      tags: ['idle'],
      on: {
        'broker.redeliveryDue': { actions: ['releaseOverdue', { type: 'deliver', params: { stale: true } }, 'armRedelivery'] },
        'broker.publish': {
          actions: [
            enqueueActions(({ context, event, enqueue }) => {
              const p = partitionOf(event.key, context.partitions);
              const log = context.durable.partitions[p]!;
              const eventId = event.payload['event_id'];
              const session = context.producerDedup === 'session' ? (context.durable.producerSessions?.[event.from] ?? 0) : undefined;
              const existing =
                context.producerDedup && eventId !== undefined ? log.find((r) => r.payload['event_id'] === eventId && (session === undefined || (r.producer === event.from && r.session === session))) : undefined;
              if (existing) {
                enqueue.emit(note('guard', { guard: 'producerDedup', event_id: eventId }));
                enqueue.emit(send(event.from, { type: 'broker.ack', ref: event.ref, partition: p, offset: existing.offset }));
                return;
              }
              const record: LogRecord = { offset: log.length, key: event.key, payload: event.payload, at: event.at, ...(session === undefined ? {} : { producer: event.from, session }) };
              const partitions = context.durable.partitions.map((l, i) => (i === p ? [...l, record] : l));
              enqueue.emit(window('beforeAppend', true));
              enqueue.assign({ durable: { ...context.durable, partitions } });
              if (context.syncTicks !== undefined) enqueue.raise({ type: 'broker.sync', at: 0 }, { id: `sync ${p}.${record.offset}`, delay: context.syncTicks });
              enqueue.emit(window('afterAppend'));
              enqueue.emit(send(event.from, { type: 'broker.ack', ref: event.ref, partition: p, offset: record.offset }));
            }),
            { type: 'deliver', params: { stale: false } },
            'armRedelivery',
          ],
        },
        'broker.subscribe': {
          actions: [
            assign(({ context, event }) => {
              const committed = context.durable.offsets[event.group] ?? Array.from({ length: context.partitions }, () => 0);
              const session: Session = { group: event.group, position: [...committed], inflight: committed.map(() => null) };
              const sessions = { ...context.sessions, [event.from]: session };
              // A member that joins or rejoins changes the group's assignment; the partitions that
              // change hands are taken up from the committed offset.
              const { assignment, moved } = reassign(context.groups[event.group] ?? emptyAssignment(context.partitions), membersOf(sessions, event.group), event.from, holding(sessions));
              return { sessions: takeUp(context, sessions, event.group, assignment, moved), groups: { ...context.groups, [event.group]: assignment } };
            }),
            enqueueActions(({ event, enqueue }) => enqueue.emit(send(event.from, { type: 'broker.subscribed', group: event.group }))),
            { type: 'deliver', params: { stale: false } },
            'armRedelivery',
          ],
        },
        'broker.commit': {
          actions: [
            enqueueActions(({ context, event, enqueue }) => {
              const s = context.sessions[event.from];
              const group = s?.group;
              if (!s || group === undefined) return;
              const assignment = context.groups[group];
              const owner = assignment?.owners[event.partition];
              // A commit for a partition its sender no longer owns (or owned in another generation)
              // is a previous owner's late commit.
              const stale = assignment !== undefined && (owner !== event.from || (event.generation !== undefined && event.generation !== assignment.epochs[event.partition]));
              if (stale) {
                const refused = context.commits === 'fenced';
                enqueue.emit(note('broker.staleCommit', { member: event.from, partition: event.partition, offset: event.offset, committed: (context.durable.offsets[group] ?? [])[event.partition] ?? 0, accepted: !refused }));
                if (refused) return;
              }
              const committed = { ...context, ...commitAssignment(context, event, s, group) };
              enqueue.assign(committed);
              // An owner asked to give this partition up has finished its record: it moves now.
              if (!stale && (assignment?.pending[event.partition] ?? null) !== null && committed.sessions[event.from]!.inflight[event.partition] === null) {
                const r = releaseDone({ ...committed, groups: { [group]: assignment! } }, committed.sessions, -1);
                enqueue.assign({ sessions: r.sessions, groups: { ...context.groups, ...r.groups } });
              }
            }),
            { type: 'deliver', params: { stale: false } },
            'armRedelivery',
          ],
        },
        'broker.sync': {
          // The flush: every record appended so far is on disk.
          actions: enqueueActions(({ context, enqueue }) => {
            const synced = context.durable.partitions.map((l) => l.length);
            if (context.durable.synced?.every((n, i) => n === synced[i])) return;
            enqueue.emit(window('beforeSync', true));
            enqueue.assign({ durable: { ...context.durable, synced } });
          }),
        },
        'sys.rebalance': {
          actions: [
            enqueueActions(({ context, event, enqueue }) => {
              const s = context.sessions[event.peer];
              const partition = (event.event as { partition?: unknown }).partition;
              if (!s || typeof partition !== 'number') return;
              const moved = handOver(context.groups[s.group] ?? emptyAssignment(context.partitions), membersOf(context.sessions, s.group), partition, event.peer);
              if (!moved) return;
              const sessions = takeUp(context, context.sessions, s.group, moved.assignment, [partition]);
              const old = sessions[event.peer]!;
              sessions[event.peer] = { ...old, inflight: old.inflight.map((f, i) => (i === partition ? null : f)) };
              enqueue.assign({ sessions, groups: { ...context.groups, [s.group]: moved.assignment } });
              enqueue.emit(note('broker.rebalance', { group: s.group, partition, from: event.peer, to: moved.to, generation: moved.assignment.generation }));
            }),
            { type: 'deliver', params: { stale: false } },
            'armRedelivery',
          ],
        },
        'broker.resetOffsets': {
          actions: [
            assign(({ context, event }) => {
              const offsets = { ...context.durable.offsets, [event.group]: Array.from({ length: context.partitions }, () => event.offset) };
              const sessions: Record<string, Session> = {};
              for (const [name, s] of Object.entries(context.sessions)) {
                sessions[name] = s.group === event.group ? { group: s.group, position: offsets[event.group]!, inflight: s.inflight.map(() => null) } : s;
              }
              return { durable: { ...context.durable, offsets }, sessions };
            }),
            enqueueActions(({ event, enqueue }) => enqueue.emit(send(event.from, { type: 'broker.offsetsReset', group: event.group, offset: event.offset }))),
            { type: 'deliver', params: { stale: false } },
            'armRedelivery',
          ],
        },
        'sys.peerCrashed': {
          actions: [
            enqueueActions(({ context, event, enqueue }) => {
              const { [event.peer]: gone, ...rest } = context.sessions;
              enqueue.assign({ sessions: rest });
              // A producer that crashed starts a new session when it comes back (Kafka gives it a
              // new producer id), so what it sends again is no retry of what it sent before. The
              // broker learns of the crash by this notice; one that was down when the notice came
              // takes the restarted producer's sends for the old session's.
              if (context.producerDedup === 'session') {
                const sessions = context.durable.producerSessions ?? {};
                enqueue.assign({ durable: { ...context.durable, producerSessions: { ...sessions, [event.peer]: (sessions[event.peer] ?? 0) + 1 } } });
              }
              if (gone === undefined) return;
              // The crashed member's partitions go to the group's other members, which take them up
              // from the committed offset. A group left without members keeps its offsets for later.
              const members = membersOf(rest, gone.group);
              if (members.length === 0) return;
              const { assignment, moved } = reassign(context.groups[gone.group] ?? emptyAssignment(context.partitions), members, undefined, holding(rest));
              enqueue.assign({ sessions: takeUp(context, rest, gone.group, assignment, moved), groups: { ...context.groups, [gone.group]: assignment } });
              if (moved.length > 0) enqueue({ type: 'deliver', params: { stale: false } });
            }),
            'armRedelivery',
          ],
        },
      },
    },
  },
});

/** What a restarted broker finds on disk: with unsynced appends, each partition only as far as it was synced. */
function onDisk(d: BrokerDurable): BrokerDurable {
  if (d.synced === undefined || d.partitions.every((l, i) => l.length === d.synced![i])) return d;
  return { ...d, partitions: d.partitions.map((l, i) => l.slice(0, d.synced![i])) };
}

/** Evidence for the broker: the log's records by event_id, and each group's committed offsets. */
export function brokerEvidence(durable: unknown): EvidencePart[] {
  const d = durable as BrokerDurable | undefined;
  const log = recordsOf(d).map((r) => String(r.payload['event_id']));
  const offsets = Object.entries(d?.offsets ?? {}).map(([g, o]) => `${g}@${o.join('/')}`);
  return [
    { label: 'log', items: log.length > 0 ? log : ['empty'] },
    { label: 'offsets', items: offsets.length > 0 ? offsets : ['none'] },
  ];
}

/** The broker's options as a design draws it; durations in their units. */
export const BrokerOptions = z.strictObject({
  ...componentFields,
  partitions: z.number().int().min(1).max(64).optional(),
  /**
   * How long a delivery may go unacknowledged before it is sent again (30 ticks); `'never'`: a
   * delivery is sent again only when its member reconnects or the partition moves.
   */
  redelivery: z.union([duration, z.literal('never')]).optional(),
  /** How long records are kept (for ever). */
  retention: duration.optional(),
  /**
   * Repeats of a record not appended again: `true`, the broker's duplicate detection, a record
   * whose event_id the partition already holds, whoever sends it (a message-id check, as Azure
   * Service Bus and NATS JetStream offer); `'session'`, Kafka's idempotent producer, only a retry
   * by the same producer since it last started (a restarted producer, or another one, appends it again).
   * There are no sequence numbers: a producer's send of an event_id it already sent in the same
   * session is taken for its retry, where Kafka appends one the application sent anew.
   */
  producerDedup: z.union([z.boolean(), z.literal('session')]).optional(),
  /**
   * A group member's commit for a partition it no longer owns: accepted (`naive`, the default:
   * the broker keeps no group generations) or refused (`fenced`: by the generation each delivery
   * carries, as Kafka's group coordinator does).
   */
  commits: z.enum(['naive', 'fenced']).optional(),
  /** Whether the broker itself crashes and restarts, at beforeAppend and afterAppend (no). */
  crashes: z.boolean().optional(),
  /**
   * Whether an append is on disk before its ack (yes). With `false` the ack goes out at once and
   * the record is synced `syncAfter` later; a crash then is a power failure that loses every
   * record not yet synced, and `beforeSync` is one more window.
   */
  syncBeforeAck: z.boolean().optional(),
  /** With `syncBeforeAck: false`, how long after an append its record is synced (5 ticks). */
  syncAfter: duration.optional(),
  /**
   * Whether a `restore` fault can set its group offsets back to their snapshot (no): the one
   * taken before the workload began, so every group reads the retained log again from its start,
   * as after an operator restores the offsets or resets a group to the earliest offset. The log
   * itself is kept.
   */
  restorable: z.boolean().optional(),
});

/** A partitioned log broker, named `broker` unless the design names it. */
export function broker(options: z.input<typeof BrokerOptions> = {}): ComponentBuilder {
  const o = parseOptions('broker', BrokerOptions, options);
  const name = o.name ?? 'broker';
  // A flush interval means nothing for a broker that syncs before it acks.
  if (o.syncAfter !== undefined && o.syncBeforeAck !== false) throw new InputError(`${name} option syncAfter needs syncBeforeAck: false`);
  return ({ time }) => ({
    name,
    machine: brokerMachine,
    process: false,
    describe: brokerEvidence,
    input: given({
      partitions: o.partitions,
      redeliveryTicks: o.redelivery === 'never' ? Number.POSITIVE_INFINITY : ticksOf(time, `${name} option redelivery`, o.redelivery),
      retentionTicks: ticksOf(time, `${name} option retention`, o.retention),
      producerDedup: o.producerDedup,
      commits: o.commits,
      syncBeforeAck: o.syncBeforeAck,
      syncTicks: ticksOf(time, `${name} option syncAfter`, o.syncAfter),
    }),
    ...common(time, name, o),
    ...(o.crashes ? { crashes: true } : {}),
    ...(o.restorable ? { restore: restoreOffsets } : {}),
  });
}

/** The broker's restore: every group's committed offsets back to the snapshot taken before the workload (none committed), the log kept. */
export function restoreOffsets(durable: unknown): BrokerDurable {
  const d = durable as BrokerDurable;
  return { ...d, offsets: {} };
}

// Where a stream processor's results go, in the three forms seed 000 sets against each other
// ("Exactly-once processor state … does not automatically retract an HTTP call, email, file write,
// or database mutation performed outside the checkpoint transaction"):
// - `external`: an HTTP endpoint (a partner's webhook, a mail gateway) that keeps every post it
//   is handed, a repeat as a second post: a replay after a restore posts again;
// - `idempotent`: a store that keeps each post once by its key (a window's result by window and
//   version, a correction by its identity: the window and the fact it corrects, or the identity
//   drawn when it was made), so a repeat changes nothing; a post under a
//   key it holds with other content is refused as a conflict (seed 000: "same key, different
//   intent: reject as conflict"), and the store keeps what it had;
// - `transactional`: a store the processor writes inside its checkpoint: posts are staged under
//   the checkpoint's epoch (`sink.prepare`) and become visible only when that checkpoint has
//   completed and the processor commits the epoch (`sink.commit`, which it repeats after a restore
//   and which commits an epoch once). What was staged after the checkpoint a restore goes back to
//   is never committed: its epoch stays staged, invisible, and the replay stages under new ones.
// The sink also keeps the processor's side records: facts routed to review (the correction
// workflow) and facts dropped under a declared policy, each by its fact id, so a dropped fact is
// counted and a reviewed one is accounted for, and retractions of a version readers held. The
// same machine stands for the endpoints of irreversible effects (a mail gateway for alerts, a
// payment provider for settlement captures), which keep one post per key in `idempotent` mode.
// It acknowledges every request; it does not crash here (its storage is taken as durable).
import { enqueueActions, setup } from 'xstate';
import { note, send, type Emitted, type FromPeer, type PeerCrashed } from '../src/kernel/emitted.ts';
import { stableJson } from '../src/kernel/trace.ts';
import type { EvidencePart } from '../src/scenario/scenario.ts';
import type { CommittedFactTimes, FactTimes } from './factTimes.ts';

/**
 * One result as the processor posts it. Of seed 003's several clocks, a result carries the
 * processing time it was computed at (`processedAt`) and, for each fact it counts, that fact's
 * event, ingestion and processing times (`times`, in the order of `facts`); the sink adds the
 * commit time it became visible at (`at`), so `factTimeline` can give every fact all four.
 */
export type ResultPost =
  /** A window's aggregate, provisional until its `close`; a later version revises it. */
  | { readonly kind: 'result'; readonly window: number; readonly version: number; readonly facts: readonly string[]; readonly value: number; readonly processedAt?: number; readonly times?: readonly FactTimes[] }
  /** A window's result is final: its period is closed. `run` names the run that sent it, where its id is part of the message (an alert). */
  | { readonly kind: 'close'; readonly window: number; readonly version: number; readonly run?: string }
  /**
   * A late fact's contribution to a closed window, linked to the result it corrects
   * (`window@version`). Its identity is the window and the fact, unless it carries an `id` drawn
   * when it was processed.
   */
  | { readonly kind: 'correction'; readonly window: number; readonly corrects: string; readonly facts: readonly string[]; readonly value: number; readonly processedAt?: number; readonly times?: readonly FactTimes[]; readonly id?: string }
  /** A window's result `version` is withdrawn; the replacement follows under the next version. */
  | { readonly kind: 'retraction'; readonly window: number; readonly version: number; readonly processedAt?: number }
  /** A late fact routed to the correction workflow instead of the result. */
  | { readonly kind: 'review'; readonly window: number; readonly facts: readonly string[]; readonly times?: readonly FactTimes[] }
  /** A late fact dropped under a declared policy, and counted. */
  | { readonly kind: 'dropped'; readonly window: number; readonly facts: readonly string[]; readonly times?: readonly FactTimes[] }
  /** A closed window's total charged through a payment provider, under an idempotency key that names the window and the run. */
  | { readonly kind: 'capture'; readonly window: number; readonly version: number; readonly value: number; readonly run: string };

/** A post as the sink keeps it: when it became visible. */
export type StoredPost = ResultPost & { readonly at: number };

export type SinkMode = 'external' | 'idempotent' | 'transactional';

export interface SinkDurable {
  /** What readers see, in the order it became visible. */
  readonly posts: readonly StoredPost[];
  /** Transactional: posts staged per epoch, not yet visible. */
  readonly staged: Readonly<Record<string, readonly ResultPost[]>>;
  /** Transactional: the epochs committed, each once. */
  readonly committed: readonly number[];
  /** Idempotent: posts refused because their key was held with other content. */
  readonly conflicts?: readonly StoredPost[];
}

export type SinkRequest =
  | ({ type: 'sink.post'; ref: string; post: ResultPost } & FromPeer)
  | ({ type: 'sink.prepare'; epoch: number; posts: readonly ResultPost[] } & FromPeer)
  | ({ type: 'sink.commit'; epoch: number } & FromPeer)
  | ({ type: 'sink.read' } & FromPeer);

export type SinkReply =
  | ({ type: 'sink.posted'; ref: string } & FromPeer)
  | ({ type: 'sink.prepared'; epoch: number } & FromPeer)
  | ({ type: 'sink.committed'; epoch: number } & FromPeer)
  | ({ type: 'sink.contents'; posts: readonly StoredPost[] } & FromPeer);

/** The key a post is upserted by in an idempotent sink. */
export function postKey(p: ResultPost): string {
  switch (p.kind) {
    case 'result':
      return `${p.kind} ${p.window}@v${p.version}`;
    case 'close':
      return `${p.kind} ${p.window}@v${p.version}${p.run === undefined ? '' : ` by ${p.run}`}`;
    case 'retraction':
      return `${p.kind} ${p.window}@v${p.version}`;
    // A payment provider's idempotency key: a run charges a window once, whatever version closed it.
    case 'capture':
      return `${p.kind} ${p.window} by ${p.run}`;
    // A correction's identity: the one drawn when it was processed, or derived from the window and the fact.
    case 'correction':
      return p.id === undefined ? `${p.kind} w${p.window} ${p.facts.join(',')}` : `${p.kind} ${p.id}`;
    default:
      return `${p.kind} ${p.facts.join(',')}`;
  }
}

type Ctx = { durable: SinkDurable; mode: SinkMode };

/** Whether two posts under one key say the same thing: the same content, whenever each was computed or arrived. */
function sameContent(a: ResultPost, b: ResultPost): boolean {
  const { at: _at, processedAt: _p, times: _t, ...rest } = a as StoredPost & { processedAt?: number; times?: unknown };
  const { processedAt: _q, times: _u, ...other } = b as ResultPost & { processedAt?: number; times?: unknown };
  return stableJson(rest) === stableJson(other);
}

/**
 * Each window's final result among posts: the highest version, the last posted among equals, and
 * whether the window closed. A retraction of the version readers hold withdraws it, and the
 * replacement that follows takes its place; the window stays closed through both.
 */
export function finalResults(posts: readonly StoredPost[]): Map<number, Extract<StoredPost, { kind: 'result' }> & { readonly closed: boolean }> {
  const out = new Map<number, Extract<StoredPost, { kind: 'result' }> & { readonly closed: boolean }>();
  const closed = new Set<number>();
  for (const p of posts) {
    const seen = out.get(p.window);
    if (p.kind === 'result' && (seen === undefined || p.version >= seen.version)) out.set(p.window, { ...p, closed: closed.has(p.window) });
    if (p.kind === 'close' && seen !== undefined) {
      closed.add(p.window);
      out.set(p.window, { ...seen, closed: true });
    }
    if (p.kind === 'retraction' && seen?.version === p.version) out.delete(p.window);
  }
  return out;
}

/**
 * Every fact's four times, from the first visible post that counts it (a result, a correction, a
 * review or a counted drop): the event, ingestion and processing times the operator sent with
 * it, and the commit time the sink made it visible at.
 */
export function factTimeline(posts: readonly StoredPost[]): Map<string, CommittedFactTimes> {
  const out = new Map<string, CommittedFactTimes>();
  for (const p of posts) {
    if (!('times' in p) || p.times === undefined) continue;
    for (const t of p.times) if (!out.has(t.fact_id)) out.set(t.fact_id, { ...t, committedAt: p.at });
  }
  return out;
}

export const resultSinkMachine = setup({
  types: { context: {} as Ctx, input: {} as { mode: SinkMode; durable?: SinkDurable }, events: {} as SinkRequest | PeerCrashed, emitted: {} as Emitted },
}).createMachine({
  id: 'resultSink',
  context: ({ input }) => ({ durable: input.durable ?? { posts: [], staged: {}, committed: [] }, mode: input.mode }),
  initial: 'serving',
  states: {
    serving: {
      tags: ['idle'],
      on: {
        'sink.post': {
          actions: enqueueActions(({ context, event, enqueue }) => {
            const d = context.durable;
            const key = postKey(event.post);
            const held = context.mode === 'idempotent' ? d.posts.find((p) => postKey(p) === key) : undefined;
            if (held === undefined) enqueue.assign({ durable: { ...d, posts: [...d.posts, { ...event.post, at: event.at }] } });
            else if (sameContent(held, event.post)) enqueue.emit(note('guard', { guard: 'resultKey', key }));
            else {
              enqueue.assign({ durable: { ...d, conflicts: [...(d.conflicts ?? []), { ...event.post, at: event.at }] } });
              enqueue.emit(note('conflict', { key }));
            }
            enqueue.emit(send(event.from, { type: 'sink.posted', ref: event.ref }));
          }),
        },
        'sink.prepare': {
          actions: enqueueActions(({ context, event, enqueue }) => {
            const d = context.durable;
            // A prepare for an epoch already committed is a zombie's: the commit it would join is done.
            if (!d.committed.includes(event.epoch)) enqueue.assign({ durable: { ...d, staged: { ...d.staged, [event.epoch]: event.posts } } });
            enqueue.emit(send(event.from, { type: 'sink.prepared', epoch: event.epoch }));
          }),
        },
        // A reader (a promotion job comparing two runs' results) reads what is visible.
        'sink.read': { actions: enqueueActions(({ context, event, enqueue }) => enqueue.emit(send(event.from, { type: 'sink.contents', posts: context.durable.posts }))) },
        'sink.commit': {
          actions: enqueueActions(({ context, event, enqueue }) => {
            const d = context.durable;
            if (d.committed.includes(event.epoch)) enqueue.emit(note('guard', { guard: 'epochCommitted', epoch: event.epoch }));
            else {
              const posts = (d.staged[event.epoch] ?? []).map((p) => ({ ...p, at: event.at }));
              const { [event.epoch]: _done, ...staged } = d.staged;
              enqueue.assign({ durable: { ...d, posts: [...d.posts, ...posts], staged, committed: [...d.committed, event.epoch] } });
            }
            enqueue.emit(send(event.from, { type: 'sink.committed', epoch: event.epoch }));
          }),
        },
      },
    },
  },
});

/** Evidence for the sink: what readers see, post by post. */
export function resultSinkEvidence(durable: unknown): EvidencePart[] {
  const d = durable as SinkDurable | undefined;
  const shown = (d?.posts ?? []).map((p) => {
    switch (p.kind) {
      case 'result':
        return `w${p.window}@v${p.version}=${p.value}`;
      case 'close':
        return `w${p.window} closed`;
      case 'retraction':
        return `w${p.window}@v${p.version} retracted`;
      case 'capture':
        return `w${p.window} charged ${p.value} by ${p.run}`;
      default:
        return `${p.kind} w${p.window} ${p.facts.join(',')}`;
    }
  });
  const staged = Object.keys(d?.staged ?? {}).sort();
  return [{ label: 'visible', items: shown.length > 0 ? shown : ['nothing'] }, ...(staged.length > 0 ? [{ label: 'staged epochs', items: staged }] : [])];
}

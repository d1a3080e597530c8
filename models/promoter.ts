// The cutover of a reprocessing run (seed 000, "A safe reprocessing run uses a new consumer
// identity and isolated output, validates counts and invariants by partition/time/key, compares
// old and new results, and promotes through an explicit cutover"). It reads the live results and
// the rebuild's, and once both have closed the same windows and have no other result, it compares
// them window by window (the total and how many facts it counts) and promotes the rebuild, or
// refuses with the windows that differ. Without `compare` it promotes as soon as the two have
// caught up with each other. Its decision is durable; a crash while it reads only makes it read
// again.
//
// Failure windows: `promoter.waiting`, `promoter.reading`, `promoter.promoted`, `promoter.refused`.
import { assign, enqueueActions, setup } from 'xstate';
import { note, send, type Emitted, type PeerCrashed } from '../src/kernel/emitted.ts';
import type { EvidencePart } from '../src/scenario/scenario.ts';
import { finalResults, type SinkReply, type StoredPost } from './resultSink.ts';

export interface PromoterDurable {
  readonly status: 'pending' | 'promoted' | 'refused';
  /** The results readers are pointed at: the live ones, until a cutover points them at the rebuild's. */
  readonly served: string;
  /** The windows whose rebuilt result differs from the live one, when refused. */
  readonly mismatches: readonly string[];
}

export interface PromoterInput {
  readonly live: string;
  readonly rebuild: string;
  readonly compare: boolean;
  readonly pollTicks: number;
  readonly timeoutTicks: number;
  readonly durable?: PromoterDurable;
}

type Read = Readonly<Record<string, readonly StoredPost[]>>;
type Ctx = { durable: PromoterDurable; input: PromoterInput; read: Read };

const bothRead = (ctx: Ctx) => ctx.read[ctx.input.live] !== undefined && ctx.read[ctx.input.rebuild] !== undefined;

/**
 * Whether the two runs have reached the same point: results for the same windows, at least one,
 * and every one of them closed in both. A window only one run has a result for, or one still open
 * to revision in either, would compare a final result with a provisional one (or with none), so
 * the promoter waits for the run that is behind, whichever it is.
 */
function caughtUp(read: Read, input: PromoterInput): boolean {
  const settled = (posts: readonly StoredPost[] | undefined): string | undefined => {
    const results = [...finalResults(posts ?? [])];
    return results.every(([, r]) => r.closed) ? results.map(([w]) => w).sort((a, b) => a - b).join(',') : undefined;
  };
  const live = settled(read[input.live]);
  return live !== undefined && live !== '' && live === settled(read[input.rebuild]);
}

/** The windows whose totals or fact counts differ between the two runs, in window order. */
function mismatchesOf(read: Read, input: PromoterInput): string[] {
  const live = finalResults(read[input.live] ?? []);
  const rebuilt = finalResults(read[input.rebuild] ?? []);
  const windows = [...new Set([...live.keys(), ...rebuilt.keys()])].sort((a, b) => a - b);
  return windows.filter((w) => live.get(w)?.value !== rebuilt.get(w)?.value || live.get(w)?.facts.length !== rebuilt.get(w)?.facts.length).map((w) => `w${w}`);
}

export const promoterMachine = setup({
  types: { context: {} as Ctx, input: {} as PromoterInput, events: {} as SinkReply | PeerCrashed, emitted: {} as Emitted },
  delays: { poll: ({ context }) => context.input.pollTicks, timeout: ({ context }) => context.input.timeoutTicks },
  guards: {
    promoted: ({ context }) => context.durable.status === 'promoted',
    refused: ({ context }) => context.durable.status === 'refused',
    bothRead: ({ context }) => bothRead(context),
    isContents: ({ event }) => event.type === 'sink.contents',
    readyToPromote: ({ context }) => bothRead(context) && caughtUp(context.read, context.input) && (!context.input.compare || mismatchesOf(context.read, context.input).length === 0),
    readyToRefuse: ({ context }) => bothRead(context) && caughtUp(context.read, context.input),
  },
  actions: {
    read: enqueueActions(({ context, enqueue }) => {
      enqueue.assign({ read: {} });
      enqueue.emit(send(context.input.live, { type: 'sink.read' }));
      enqueue.emit(send(context.input.rebuild, { type: 'sink.read' }));
    }),
    keep: assign(({ context, event }) => (event.type === 'sink.contents' ? { read: { ...context.read, [(event as { from: string }).from]: event.posts } } : {})),
    promote: enqueueActions(({ context, enqueue }) => {
      enqueue.assign({ durable: { status: 'promoted', served: context.input.rebuild, mismatches: [] } });
      enqueue.emit(note('promoted', { compared: context.input.compare }));
    }),
    refuse: enqueueActions(({ context, enqueue }) => {
      const mismatches = mismatchesOf(context.read, context.input);
      enqueue.assign({ durable: { status: 'refused', served: context.input.live, mismatches } });
      enqueue.emit(note('refused', { mismatches }));
    }),
  },
}).createMachine({
  id: 'promoter',
  context: ({ input }) => ({ durable: input.durable ?? { status: 'pending', served: input.live, mismatches: [] }, input, read: {} }),
  initial: 'waiting',
  states: {
    // Nothing decided; the next read is due.
    waiting: {
      always: [{ guard: 'promoted', target: 'promoted' }, { guard: 'refused', target: 'refused' }],
      tags: ['idle'],
      after: { poll: 'reading' },
    },
    // Both result sets asked for, not both read; once both are, the decision is taken or put off.
    reading: {
      entry: 'read',
      on: { 'sink.contents': { guard: 'isContents', actions: 'keep' } },
      always: [
        { guard: 'readyToPromote', target: 'promoted', actions: 'promote' },
        { guard: 'readyToRefuse', target: 'refused', actions: 'refuse' },
        { guard: 'bothRead', target: 'waiting' },
      ],
      after: { timeout: { target: 'reading', reenter: true } },
    },
    promoted: { tags: ['idle'] },
    refused: { tags: ['idle'] },
  },
});

/** Evidence for the promoter: its decision. */
export function promoterEvidence(durable: unknown): EvidencePart[] {
  const d = durable as PromoterDurable | undefined;
  if (d === undefined) return [];
  return [{ label: 'cutover', items: [d.status === 'refused' ? `refused: ${d.mismatches.join(', ')} differ` : d.status] }];
}

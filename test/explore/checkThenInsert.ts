// A design whose only failure is an interleaving: two claimers each take an item by reading
// whether it is claimed and inserting their claim when it is not, with no unique constraint on
// the item. The second starts a few ticks after the first, so at the least latency its read sees
// the first claim; a duplicate claim needs the second read to reach the database after the
// first read and before the first insert, which only a late message of the first claimer's gives.
// No fault is needed, so a search with no faults finds it through the latencies alone.
import { enqueueActions, setup } from 'xstate';
import { send, type Emitted, type PeerCrashed } from '../../src/kernel/emitted.ts';
import { rowsOf, type DatabaseDurable, type DatabaseReply } from '../../models/database.ts';
import { databaseComponent } from '../../models/designs/databaseComponent.ts';
import { defineScenario, type DesignComponent } from '../../src/scenario/scenario.ts';

interface ClaimerInput {
  readonly db: string;
  readonly item: string;
  /** Ticks after (re)start before it reads. */
  readonly afterTicks: number;
}

type Ctx = { input: ClaimerInput; name: string };

/** Reads the claims of its item, and inserts its own when it found none. */
export const claimerMachine = setup({
  types: { context: {} as Ctx, input: {} as ClaimerInput & { name: string }, events: {} as DatabaseReply | PeerCrashed, emitted: {} as Emitted },
  delays: { start: ({ context }) => context.input.afterTicks },
  guards: {
    readNothing: ({ event }) => event.type === 'db.ran' && event.ref === 'read' && (event.results[0]?.rows ?? []).length === 0,
    readClaim: ({ event }) => event.type === 'db.ran' && event.ref === 'read',
    inserted: ({ event }) => event.type === 'db.ran' && event.ref === 'insert',
  },
  actions: {
    read: enqueueActions(({ context, enqueue }) => {
      enqueue.emit(send(context.input.db, { type: 'db.run', ref: 'read', ops: [{ op: 'select', table: 'claims', where: { item: context.input.item } }] }));
    }),
    insert: enqueueActions(({ context, enqueue }) => {
      enqueue.emit(send(context.input.db, { type: 'db.run', ref: 'insert', ops: [{ op: 'insert', table: 'claims', row: { item: context.input.item, by: context.name } }] }));
    }),
  },
}).createMachine({
  id: 'claimer',
  context: ({ input }) => ({ input, name: input.name }),
  initial: 'waiting',
  states: {
    waiting: { after: { start: { target: 'reading', actions: 'read' } } },
    reading: {
      on: {
        'db.ran': [
          { guard: 'readNothing', target: 'inserting', actions: 'insert' },
          { guard: 'readClaim', target: 'done' },
        ],
      },
    },
    inserting: { on: { 'db.ran': { guard: 'inserted', target: 'done' } } },
    done: { tags: ['idle'] },
  },
});

function claimer(name: string, afterTicks: number): DesignComponent {
  return { name, machine: claimerMachine, input: { name, db: 'db', item: 'item-1', afterTicks }, process: true, peers: ['db'] };
}

/** The second claimer starts this many ticks after the first. */
export const LATE_START_TICKS = 3;

export default defineScenario({
  name: 'check-then-insert',
  title: 'Two claimers check, then insert, with no unique constraint',
  source: 'a test fixture',
  lesson: 'A read followed by an insert is no claim unless a constraint makes the insert the claim.',
  build: () => [
    databaseComponent('db', { claims: { key: ['item', 'by'] } }),
    claimer('early', 1),
    claimer('late', 1 + LATE_START_TICKS),
  ],
  workload: { size: 1 },
  claims: [
    {
      effect: 'item claim',
      key: ['item'],
      authority: 'nobody: the claimers only read first',
      lifetime: 'the run',
      guarantee: 'atMostOnce',
      // No fact asks for the claim: the claimers simply want the item, so only duplicates are judged.
      unchecked: ['phantom effect'],
      outcomes: (v) => rowsOf(v.durable<DatabaseDurable>('db'), 'claims').map((r) => ({ key: String(r['item']) })),
    },
  ],
  expect: { verdict: 'violated', violations: ['duplicate effect'] },
});

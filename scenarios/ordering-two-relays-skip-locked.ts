// Seed 002, "Use FOR UPDATE SKIP LOCKED so multiple relay instances can run safely in parallel
// without coordinating", against seed 000, "a relay that publishes versions concurrently can
// reorder one aggregate": two relay workers share one outbox, each round claiming the pending
// rows FOR UPDATE SKIP LOCKED, publishing them and marking them in the same transaction. Order
// o-1 moves through ACCEPTED (v1), PACKED (v2) and DELIVERED (v3); the projection is upserted
// without a version check.
// How the reorder arises: relay2's claim of v1 succeeds but its reply is lost, so relay2 waits
// out its timeout while its open round still holds v1. relay's next claim passes over the held
// v1 and takes v2, which it publishes at once; v1 is published only after relay2's round rolls
// back. The broker appends v2 before v1 and the consumer, trusting log order, applies the stale
// version last. SKIP LOCKED keeps two workers from publishing one row together; it does nothing
// for the order of one aggregate's rows, which the worker that skips a row goes on to break.
import { defineScenario } from '../src/scenario/scenario.ts';
import { orderLifecycle, orderPipeline, projectionClaim } from '../models/designs/orderPipeline.ts';

export default defineScenario({
  name: 'ordering-two-relays-skip-locked',
  title: 'One order through three versions; two relay workers claiming with SKIP LOCKED, projection without a version check',
  source: '002 · Polling publisher (FOR UPDATE SKIP LOCKED); 000 · a relay that publishes versions concurrently can reorder one aggregate',
  lesson: 'SKIP LOCKED lets several relays share an outbox without publishing a row twice, but a worker that skips a held row publishes the versions behind it first.',
  build: orderPipeline({ design: 'outbox', effect: 'projection', relay: { workers: 2, claim: 'skipLocked' }, consumer: { inbox: 'sameTx', versionCheck: false }, commands: orderLifecycle }),
  workload: { size: 1 },
  claims: [projectionClaim],
  expect: { verdict: 'violated', violations: ['order regression'] },
});

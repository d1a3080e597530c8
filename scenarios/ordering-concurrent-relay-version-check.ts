// Seed 003, "A version per order can reject or quarantine an older state transition" and seed
// 002, "apply the update only if the incoming version is greater than the stored one": the same
// concurrent relay as ordering-concurrent-relay-no-version-check, which still appends o-1's
// versions out of order whenever it publishes a backlog, but the projection's upsert only moves
// a row's version forwards. The verdict teaches that the version check makes the consumer
// independent of transport order: the stale PACKED (v2) arriving after DELIVERED (v3) is
// rejected (the window table shows the `versionCheck` guard firing) and the projection ends
// DELIVERED.
import { defineScenario } from '../src/scenario/scenario.ts';
import { orderLifecycle, orderPipeline, projectionClaim } from '../models/designs/orderPipeline.ts';

export default defineScenario({
  name: 'ordering-concurrent-relay-version-check',
  title: 'One order through three versions; concurrent relay, projection with a version check',
  source: '003 · Order Only What the Invariant Requires; 002 · Version-based conditional writes',
  lesson: 'Order only what the invariant requires, and enforce it where the state lives: a per-aggregate version check rejects the stale transition whatever order transport delivers.',
  build: orderPipeline({ design: 'outbox', effect: 'projection', relay: { concurrency: 'concurrent' }, consumer: { inbox: 'sameTx', versionCheck: true }, commands: orderLifecycle }),
  workload: { size: 1 },
  claims: [projectionClaim],
  expect: { verdict: 'holds' },
});

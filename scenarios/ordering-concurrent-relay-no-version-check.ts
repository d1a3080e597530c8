// Seed 000, "a relay that publishes versions concurrently can reorder one aggregate", and seed
// 003, "Order 12345 should not move from delivered back to packed because a stale event
// arrived": order o-1 moves through ACCEPTED (v1), PACKED (v2) and DELIVERED (v3); the
// inventory side keeps an order-status projection, upserted without a version check.
// How the reorder arises: the client sends the three commands one after another and a healthy
// relay keeps up, publishing one row per poll, so the fault-free run stays in order. Any fault
// that puts the relay behind (a crash before it sends or while it polls, a lost or late broker
// ack, a slow poll or mark) leaves several versions of o-1 pending; its next poll returns them
// together and a concurrent relay sends them at once on separate connections, so the broker
// appends them in whatever order those connections deliver (2,1,3 or 1,3,2). The consumer
// applies log order and the projection moves from DELIVERED back to PACKED.
import { defineScenario } from '../src/scenario/scenario.ts';
import { orderLifecycle, orderPipeline, projectionClaim } from '../models/designs/orderPipeline.ts';

export default defineScenario({
  name: 'ordering-concurrent-relay-no-version-check',
  title: 'One order through three versions; concurrent relay, projection without a version check',
  source: '000 · Put source state and publication intent in one transaction (a relay that publishes versions concurrently); 003 · Order Only What the Invariant Requires',
  lesson: 'A relay that falls behind and then publishes a backlog concurrently reorders one aggregate; a handler that trusts transport order applies the stale version last.',
  build: orderPipeline({ design: 'outbox', effect: 'projection', relay: { concurrency: 'concurrent' }, consumer: { inbox: 'sameTx', versionCheck: false }, commands: orderLifecycle }),
  workload: { size: 1 },
  claims: [projectionClaim],
  expect: { verdict: 'violated', violations: ['order regression'] },
});

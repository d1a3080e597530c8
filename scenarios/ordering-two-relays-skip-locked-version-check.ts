// Seed 003, "the handler still checks versions because retries, restores, and multiple
// producers can violate assumptions outside that log": the same two SKIP LOCKED relay workers
// as ordering-two-relays-skip-locked, which publish o-1's v2 ahead of v1 when one of them holds
// v1 in a round that stalls, but the projection is upserted only when the incoming version is
// newer. The stale v1 arrives last and changes nothing.
import { defineScenario } from '../src/scenario/scenario.ts';
import { orderLifecycle, orderPipeline, projectionClaim } from '../models/designs/orderPipeline.ts';

export default defineScenario({
  name: 'ordering-two-relays-skip-locked-version-check',
  title: 'One order through three versions; two relay workers claiming with SKIP LOCKED, projection with a version check',
  source: '003 · Order Only What the Invariant Requires; 002 · Polling publisher (FOR UPDATE SKIP LOCKED)',
  lesson: 'A version check in the handler absorbs the reorder several relays cause; it is the guard that survives a change of topology.',
  build: orderPipeline({ design: 'outbox', effect: 'projection', relay: { workers: 2, claim: 'skipLocked' }, consumer: { inbox: 'sameTx', versionCheck: true }, commands: orderLifecycle }),
  workload: { size: 1 },
  claims: [projectionClaim],
  expect: { verdict: 'holds' },
});

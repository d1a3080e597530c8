// Seed 002's SKIP LOCKED polling publisher with two workers, repaired for seed 000's "Publishing
// order must preserve the aggregate's version rule": each claim takes only the earliest pending
// row of each aggregate (`AND NOT EXISTS` an earlier pending row of the same aggregate), so a
// row one worker holds keeps the rows behind it from the other. The projection still has no
// version check, as in ordering-two-relays-skip-locked.
// What windows mode finds: it holds for every single fault and every pair. A worker whose claim
// reply is lost, or whose abort is lost so that its round lingers until the database's idle
// timeout, holds o-1's head; the other worker then finds no head to claim for o-1 and waits
// instead of taking v2. A crash or a rolled-back round republishes a version already sent, in
// order, and the inbox suppresses the repeat.
import { defineScenario } from '../src/scenario/scenario.ts';
import { orderLifecycle, orderPipeline, projectionClaim } from '../models/designs/orderPipeline.ts';

export default defineScenario({
  name: 'ordering-two-relays-skip-locked-heads',
  title: 'One order through three versions; two relay workers claiming each aggregate’s head with SKIP LOCKED, projection without a version check',
  source: '002 · Polling publisher (FOR UPDATE SKIP LOCKED); 000 · Publishing order must preserve the aggregate’s version rule',
  lesson: 'Claiming only the head of each aggregate keeps several relays from reordering it: a held row blocks its successors instead of being skipped past.',
  build: orderPipeline({ design: 'outbox', effect: 'projection', relay: { workers: 2, claim: 'skipLocked', heads: true }, consumer: { inbox: 'sameTx', versionCheck: false }, commands: orderLifecycle }),
  workload: { size: 1 },
  claims: [projectionClaim],
  expect: { verdict: 'holds' },
});

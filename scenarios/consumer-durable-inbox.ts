// Seed 000, "Deduplication evidence" (authority: a durable database) and "Put consumed identity
// and the durable effect in one transaction": the repaired counterpart of the local-cache
// scenario. The same consumer records the event id in an inbox table in the reservation's
// transaction. The verdict teaches that evidence kept in the same durable transaction as the
// effect survives the crash that causes the redelivery, and the repeat is suppressed.
import { defineScenario } from '../src/scenario/scenario.ts';
import { groupPipeline, groupReservationClaim } from '../models/designs/groupPipeline.ts';

export default defineScenario({
  name: 'consumer-durable-inbox',
  title: 'One consumer deduplicating in a durable inbox, committed with the reservation',
  source: '000 · Deduplication evidence; Put consumed identity and the durable effect in one transaction',
  lesson: 'The inbox row commits or rolls back with the reservation, so a restart finds exactly the history the effect has.',
  build: groupPipeline({ consumers: 1, inbox: 'sameTx', effectKey: 'none' }),
  workload: { size: 3 },
  claims: [groupReservationClaim],
  expect: { verdict: 'holds' },
});

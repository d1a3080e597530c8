// Seed 000, "Deduplication evidence" ("Authority: local memory, durable database, sink
// uniqueness constraint, or external idempotency service … A process-local cache improves speed
// but loses history on restart and cannot coordinate replicas"): one inventory consumer keeps
// the event ids it has applied in process memory and the reservation table has only a surrogate
// id. The verdict teaches that a crash after the reservation commits and before the offset does
// empties the cache, and the redelivered record is reserved again.
import { defineScenario } from '../src/scenario/scenario.ts';
import { groupPipeline, groupReservationClaim } from '../models/designs/groupPipeline.ts';

export default defineScenario({
  name: 'consumer-local-cache',
  title: 'One consumer deduplicating in a process-local cache, reservation keyed by a surrogate id',
  source: '000 · Deduplication evidence (a process-local cache loses history on restart)',
  lesson: 'Dedup evidence must outlive the process that redelivery outlives: a cache emptied by the crash that causes the redelivery recognises nothing.',
  build: groupPipeline({ consumers: 1, inbox: 'localCache', effectKey: 'none' }),
  workload: { size: 3 },
  claims: [groupReservationClaim],
  expect: { verdict: 'violated', violations: ['duplicate effect'] },
});

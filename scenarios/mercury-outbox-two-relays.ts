// Seed 002, "Use FOR UPDATE SKIP LOCKED so multiple relay instances can run safely in parallel
// without coordinating", and "the relay is at-least-once by construction, so duplicates are now
// a consumer problem": the Mercury outbox design with two relay workers, each round claiming
// rows FOR UPDATE SKIP LOCKED and marking them in the same transaction before it commits. A
// worker that crashes or loses its commit rolls its round back, and whichever worker claims
// next publishes the same event_id again; the inventory consumer's inbox suppresses it.
import { defineScenario } from '../src/scenario/scenario.ts';
import { orderPipeline, reservationClaim } from '../models/designs/orderPipeline.ts';

export default defineScenario({
  name: 'mercury-outbox-two-relays',
  title: 'Mercury order acceptance: outbox with two SKIP LOCKED relay workers + inbox consumer',
  source: '002 · Polling publisher (FOR UPDATE SKIP LOCKED); 000 · Put source state and publication intent in one transaction',
  lesson: 'Several relay workers change who republishes after a fault, not whether the effect stays unique: the outbox keeps the fact, the inbox absorbs the repeat.',
  build: orderPipeline({ design: 'outbox', relay: { workers: 2, claim: 'skipLocked' } }),
  workload: { size: 2 },
  claims: [reservationClaim],
  expect: { verdict: 'holds' },
});

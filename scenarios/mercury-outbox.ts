// Seed 000, "Put source state and publication intent in one transaction" and "Applied repair":
// the order database commits ACCEPTED and an outbox row together, a relay publishes at least
// once, and the inventory consumer records inbox identity and reservation in one transaction,
// advancing its offset only after commit. The verdict teaches that the repair holds at every
// failure window, the eight drills included, even though the relay may publish twice and the
// consumer may execute twice.
import { defineScenario } from '../src/scenario/scenario.ts';
import { orderPipeline, reservationClaim } from '../models/designs/orderPipeline.ts';

export default defineScenario({
  name: 'mercury-outbox',
  title: 'Mercury order acceptance: outbox + relay + inbox consumer',
  source: '000 · Put source state and publication intent in one transaction; Applied repair',
  lesson: 'One authoritative transaction per side (order + outbox, inbox + reservation) makes every failure window safe: repeats are suppressed by the inbox, nothing is lost.',
  build: orderPipeline({ design: 'outbox' }),
  workload: { size: 2 },
  claims: [reservationClaim],
  expect: { verdict: 'holds' },
});

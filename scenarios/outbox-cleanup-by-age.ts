// Seed 000, "Retention must exceed incident diagnosis and replay needs, while cleanup must not
// delete the only evidence of an unknown publish", against a cleanup written for the table's
// size alone: every hour it deletes every outbox row inserted more than 3 days ago, published or
// not. A crashed relay stays down for 4 days. One tick is an hour.
// How the effect is lost: a crash of the relay at any of its windows keeps it away for 4 days
// while an order's outbox row is still pending (o-1's before it is published, or o-2's, which
// the client sends after o-1); on the fourth day the sweep deletes that row, the only record
// that the event was never published. The relay comes back to an outbox without it and the
// accepted order never gets its reservation.
// The outbox made the fact durable; the cleanup took that back.
import { defineScenario } from '../src/scenario/scenario.ts';
import { orderPipeline, reservationClaim } from '../models/designs/orderPipeline.ts';

export default defineScenario({
  name: 'outbox-cleanup-by-age',
  title: 'Mercury outbox with a 3-day cleanup by age alone; the relay can be down for 4 days',
  source: '000 · cleanup must not delete the only evidence of an unknown publish; 002 · Retention matters too',
  lesson: 'A cleanup that ignores the published flag turns a relay outage longer than the retention into a lost event: the pending row was the only copy of the fact to publish.',
  build: orderPipeline({ design: 'outbox', relay: { restartAfter: '4d' }, cleanup: { retention: '3d', every: '1h', rows: 'all' } }),
  tick: '1h',
  workload: { size: 2 },
  claims: [reservationClaim],
  expect: { verdict: 'violated', violations: ['lost effect'] },
});

// Seed 002, "Prune published rows on a schedule tied to your maximum plausible replay window",
// and seed 004's outbox decision "Delete or archive published rows after a retention period:
// Delete after 3 days": the Mercury outbox design with a cleanup job that sweeps every hour and
// deletes outbox rows inserted more than 3 days ago, only once they are published. The relay is
// the slow part here: a crashed relay stays down for 4 days, longer than the retention. One tick
// is an hour.
// What windows mode finds: it holds for every single fault and every pair. A row the relay has
// not published is never old enough to matter to a cleanup that looks at the published flag;
// the relay finds it when it comes back, however long that took.
import { defineScenario } from '../src/scenario/scenario.ts';
import { orderPipeline, reservationClaim } from '../models/designs/orderPipeline.ts';

export default defineScenario({
  name: 'outbox-cleanup-published',
  title: 'Mercury outbox with a 3-day cleanup of published rows; the relay can be down for 4 days',
  source: '002 · Retention matters too (prune published rows); 004 · Outbox decisions (outbox cleanup)',
  lesson: 'Cleanup keyed on the published flag can run on any schedule: an unpublished row is never its business, however long the relay is away.',
  build: orderPipeline({ design: 'outbox', relay: { restartAfter: '4d' }, cleanup: { retention: '3d', every: '1h', rows: 'published' } }),
  tick: '1h',
  workload: { size: 2 },
  claims: [reservationClaim],
  expect: { verdict: 'holds' },
});

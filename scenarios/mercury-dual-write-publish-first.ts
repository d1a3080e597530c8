// Seed 000, "The proposed fix was to publish first" and seed 002, "Publish succeeds, commit
// fails": publish OrderAccepted, then commit. The verdict teaches that moving the window does
// not close it: a crash or failed commit after the publish gives inventory a reservation for
// an order that never committed (the 47 phantom fulfilment events).
import { defineScenario } from '../src/scenario/scenario.ts';
import { orderPipeline, reservationClaim } from '../models/designs/orderPipeline.ts';

export default defineScenario({
  name: 'mercury-dual-write-publish-first',
  title: 'Mercury order acceptance: dual write, publish then commit',
  source: '000 · Mercury’s order service (47 events for transactions that later failed); 002 · The dual-write problem',
  lesson: 'Publishing first trades lost facts for phantom ones: downstream acts on an order that does not exist.',
  build: orderPipeline({ design: 'dualWritePublishFirst' }),
  workload: { size: 2 },
  claims: [reservationClaim],
  expect: { verdict: 'violated', violations: ['phantom effect'] },
});

// Seed 000, "Stateful processors recover from positions plus consistent state": the Mercury
// outbox pipeline, with the inventory database restorable from the backup taken before the
// workload, while the consumer's input position lives in the broker and is not restored with it.
//
// Analysis. A restore of the database at any window after the first reservation committed (the
// relay's windows once o-1 is published, every consumer window from `consumer.idle` on) empties
// the reservations and the inbox while the broker keeps the group's offset past the events that
// made them: nobody delivers those events again, and their reservations stay lost. The engine and
// the model are not at fault; the design is, as the seed says: the state was restored without the
// positions it matches. mercury-outbox-restore-offsets restores the positions and holds.
import { defineScenario } from '../src/scenario/scenario.ts';
import { orderPipeline, reservationClaim } from '../models/designs/orderPipeline.ts';

export default defineScenario({
  name: 'mercury-outbox-restore-database',
  title: 'Mercury outbox: the inventory database restored from a backup, its offsets not',
  source: '000 · Stateful processors recover from positions plus consistent state',
  lesson: 'A backup restored without the input positions it matches loses every effect since the backup: the broker has already moved past the events that made them.',
  build: orderPipeline({ design: 'outbox', restores: ['inventoryDb'] }),
  workload: { size: 2 },
  claims: [reservationClaim],
  expect: { verdict: 'violated', violations: ['lost effect'] },
});

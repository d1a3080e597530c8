// Seed 000, "Stateful processors recover from positions plus consistent state" ("A useful
// checkpoint binds source positions … operator state at a consistent cut"), for a consumer whose
// state is a database: the Mercury outbox pipeline with the inventory database restored together
// with the inventory group's committed offsets, both to the snapshot taken before the workload,
// by one `restore` fault (mercury-outbox-restore-database restores the database alone).
//
// Analysis. Every restore holds, alone or with a second fault (`windows --pairs`). Restored
// together, at any window, the reservations, the inbox and the group's offsets go back to before
// the workload at the same moment: the broker restarts with its log and no offset committed, the
// consumer subscribes again and reads every retained record from the start into an empty
// database, and each reservation is made again exactly once, its inbox row in the same
// transaction. The broker's offsets restored alone (also offered) replay every record into a
// database that still has them, and the inbox turns each repeat into a no-op (guard `inboxKey`).
// The repair mercury-outbox-restore-database calls for: restore the data and the positions it
// matches together.
import { defineScenario } from '../src/scenario/scenario.ts';
import { orderPipeline, reservationClaim } from '../models/designs/orderPipeline.ts';

export default defineScenario({
  name: 'mercury-inventory-restored-with-offsets',
  title: 'Mercury outbox: the inventory database restored together with its consumer offsets',
  source: '000 · Stateful processors recover from positions plus consistent state',
  lesson: 'A backup restored with the input positions it matches is a consistent snapshot: the consumer replays from there, and every effect comes back exactly once.',
  build: orderPipeline({ design: 'outbox', restores: ['inventoryDbWithOffsets'] }),
  workload: { size: 2 },
  claims: [reservationClaim],
  expect: { verdict: 'holds' },
});

// Seed 000, "Applied repair": "The relay may publish twice. The consumer may execute twice. A
// checkpoint may restore and replay. The inventory effect remains one because its authority
// recognizes the semantic key." The Mercury outbox pipeline, with the broker's group offsets
// restorable: a `restore` sets them back to the snapshot taken before the workload, so the
// inventory consumer reads the whole retained log again.
//
// Analysis. A restore of the offsets at any process window holds, under one fault and under two
// (`windows --pairs`): the broker restarts with no offset committed, the consumer subscribes
// again, and every record of the retained log is delivered once more; the inbox row of each
// (committed with its reservation) turns the repeat into a no-op (guard `inboxKey`).
import { defineScenario } from '../src/scenario/scenario.ts';
import { orderPipeline, reservationClaim } from '../models/designs/orderPipeline.ts';

export default defineScenario({
  name: 'mercury-outbox-restore-offsets',
  title: 'Mercury outbox: the consumer group restored to old offsets and replaying the log',
  source: '000 · Applied repair (a checkpoint may restore and replay)',
  lesson: 'A replay from restored offsets delivers every event again; the inbox and the reservation key make each repeat a no-op, so the effect stays one.',
  build: orderPipeline({ design: 'outbox', restores: ['broker'] }),
  workload: { size: 2 },
  claims: [reservationClaim],
  expect: { verdict: 'holds' },
});

// Seed 000, "CDC ... adds database-log retention, connector offsets, ... and connector recovery
// to the contract", taken at its word: the same CDC connector as mercury-outbox-cdc, but its
// offset moves past a change before the change is sent (an offset flushed ahead of the
// producer's acknowledgement).
// How the effect is lost: a crash of the connector at `connector.afterOffsetCommit` leaves its
// durable offset past o-1's change, which was never sent. After the restart it reads on from the
// offset; the outbox row is still there, but nothing reads it again. The order is accepted and
// never reserved. A crash after the send is harmless here: the publish is already on the wire.
import { defineScenario } from '../src/scenario/scenario.ts';
import { orderPipeline, reservationClaim } from '../models/designs/orderPipeline.ts';

export default defineScenario({
  name: 'mercury-outbox-cdc-offset-before-ack',
  title: 'Mercury order acceptance: outbox streamed by a CDC connector committing its offset before the send',
  source: '000 · Change-data-capture systems ... add connector offsets and connector recovery to the contract; 002 · Change data capture',
  lesson: 'A connector’s offset is its progress mark: moved before the broker has the change, it is the at-most-once relay of the seeds, and a crash loses the event the outbox had kept.',
  build: orderPipeline({ design: 'outbox', relay: { type: 'cdc', offsetCommit: 'beforeAck' } }),
  workload: { size: 2 },
  claims: [reservationClaim],
  expect: { verdict: 'violated', violations: ['lost effect'] },
});

// The Mercury outbox pipeline as its preset draws it, with the dedup horizon cut short: the
// inventory inbox forgets an event_id 20 s after it committed, while the broker redelivers an
// uncommitted delivery after 30 s and the relay republishes after a crash. The reservation table
// keeps its semantic key (order_id, reservation_version).
//
// Reasoned verdict, before running: holds.
// - Every repeat the faults make (a relay crash after the send republishes the same event_id; a
//   lost or delayed offset commit or a consumer crash after the effect commit redelivers) can
//   now arrive after the inbox row expired, so the inbox insert succeeds the second time. But the
//   reservation insert then meets the unique (order_id, reservation_version) key and inserts
//   nothing, which the consumer takes as a repeat: one reservation per order. Seed 000: "the
//   reservation constraint enforces the semantic outcome even if two distinct events request the
//   same version"; here it also covers an expired inbox.
// - Nothing is lost: the outbox row commits with the order and the offset moves after the commit.
// - The redelivery timer is a pending timer, so a run is not quiet before it fires: no false
//   lost effect from an early end.
import { defineScenario } from 'faultline';
import { orderPipeline, reservationClaim } from 'faultline/models/designs/orderPipeline.ts';

export default defineScenario({
  name: 'heldout-outbox-inbox-expires-effect-key-holds',
  title: 'Outbox and inbox, the inbox horizon shorter than redelivery, the reservation key behind it',
  source: '000 · Put consumed identity and the durable effect in one transaction (the reservation constraint)',
  lesson: 'An effect key with the lifetime of the order backs up an inbox whose horizon is too short.',
  build: orderPipeline({ design: 'outbox', broker: { redelivery: '30s' }, inventoryDb: { tables: { inbox: { ttl: '20s' } } } }),
  workload: { size: 2 },
  claims: [reservationClaim],
  expect: { verdict: 'holds' },
});

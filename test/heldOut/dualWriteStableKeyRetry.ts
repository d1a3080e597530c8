// A team that still dual-writes (commit the order, then publish OrderAccepted) and believes the
// client's retry with a stable checkout key closes the gap: the service records the key under a
// unique constraint in the order's transaction, and the client retries on a timeout with the
// same key.
//
// Reasoned verdict, before running: violated, lost effect, on the reservation claim only.
// - A crash of the service at source.afterSourceCommit (order and key committed, nothing
//   published) leaves the client without a reply; it retries with the same key, and the service
//   finds the key, answers the recorded order and publishes nothing: the retry is a replay of the
//   recorded outcome, not a second attempt to publish. The order stays ACCEPTED with no
//   reservation ever made: lost effect. The stable key protects the order from being created
//   twice; it does nothing for the publish.
// - The checkout claim (one order per checkout attempt, the recorded order on replay) holds:
//   the retry gets the recorded order back.
// - No duplicate reservation: the inbox and the reservation key suppress the re-publish a lost
//   broker ack causes.
import { defineScenario } from 'faultline';
import { checkoutClaim, orderPipeline, reservationClaim } from 'faultline/models/designs/orderPipeline.ts';

export default defineScenario({
  name: 'heldout-dual-write-stable-key-retry',
  title: 'Dual write (commit first) with a stable checkout key and a retrying client',
  source: '000 · Mercury’s order service; 003 · The Retry Must Carry the Same Meaning',
  lesson: 'A stable key makes the retry a replay of the recorded outcome; it never re-publishes, so the dual write still loses facts.',
  build: orderPipeline({ design: 'dualWriteCommitFirst', checkoutKeys: 'intentBound', client: { keyed: true, retry: 'stableKey' } }),
  workload: { size: 2 },
  claims: [reservationClaim, checkoutClaim],
  expect: { verdict: 'violated', violations: ['lost effect'], claims: ['inventory reservation'] },
});

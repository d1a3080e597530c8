// Seed 003's partner feed with a database that can be restored: the partner sends each loyalty
// fact and sends every fact again two minutes later with the same event_id; the loyalty consumer
// keeps its inbox for ever in the credit's transaction; the loyalty database can be restored to
// the backup taken before the workload (an operator's restore after a bad migration).
//
// Reasoned verdict, before running: violated, lost effect.
// - A restore before the partner's second round is repaired by the partner itself: the restored
//   database has neither credits nor inbox rows, the broker's offsets are untouched, and the
//   second round brings every fact back under its event_id, which the empty inbox takes as new:
//   one credit per fact again.
// - A restore after the second round has been consumed (at partner.done, or at the consumer's
//   windows of the last redelivered record) leaves nobody to send anything again: the offsets are
//   committed past every record, the partner is done, and the credits are gone. Lost effect.
// - Never a duplicate: a restore only takes rows away, and the inbox (no TTL) suppresses the
//   second round while its rows live.
import { defineScenario } from 'faultline';
import { loyaltyCreditClaim, partnerFeed } from 'faultline/models/designs/partnerFeed.ts';

export default defineScenario({
  name: 'heldout-partner-feed-restored-loyalty-db',
  title: 'Partner feed whose loyalty database can be restored to the backup before the workload',
  source: '003 · Restore an old snapshot and replay the input; identity has a lifetime',
  lesson: "A restore of the consumer's data without its input position loses every effect nobody sends again.",
  build: partnerFeed({ redeliverAfter: '2m', loyaltyDb: { restorable: true } }),
  workload: { size: 2 },
  claims: [loyaltyCreditClaim],
  expect: { verdict: 'violated', violations: ['lost effect'] },
});

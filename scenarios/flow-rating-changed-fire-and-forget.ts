// Seed 004, flow register EV-02 rating.changed, sent the way a web tier might send it: each
// change fired once and forgotten, pipelined over one ordered connection, and upserted by
// rating id without the version check the register chose. Seed 002: "Version-based conditional
// writes ... also gives you a sane answer for out-of-order delivery, which dedupe tables alone do
// not"; seed 003: "Deliver an older version after a newer one." Nothing is ever sent twice and
// the connection keeps its order, so crashes and lost messages only lose changes (accepted: the
// claim is at most once), a delayed message holds back the ones behind it, and a duplicate
// lands right behind its original. The one fault that applies an older rating after a newer one
// is a message overtaken on the way: the verdict depends on the reorder fault alone.
// flow-rating-changed, with the version check, is the repair.
import { defineScenario } from '../src/scenario/scenario.ts';
import { flowPipeline, ratingChangedFireAndForget, ratingFeatureClaim } from '../models/designs/flowRegister.ts';

export default defineScenario({
  name: 'flow-rating-changed-fire-and-forget',
  title: 'EV-02 rating.changed fired once, pipelined, upserted without a version check',
  source: '004 · 1. Flow register (EV-02); 002 · Version-based conditional writes; 003 · Order Only What the Invariant Requires',
  lesson: 'An ordered connection and a sender that never retries make out-of-order delivery rare, not impossible: one overtaken message moves a rating backwards unless the write checks the version.',
  build: flowPipeline(ratingChangedFireAndForget),
  workload: { size: 3 },
  claims: [{ ...ratingFeatureClaim, authority: 'the feature row keyed by rating_id, written by a plain upsert', guarantee: 'atMostOnce' }],
  expect: { verdict: 'violated', violations: ['order regression'] },
});

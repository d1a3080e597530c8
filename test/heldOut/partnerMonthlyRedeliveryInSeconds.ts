// Seed 003's partner that redelivers every fact after thirty days, against a seven-day inbox, as a
// user writes it first: durations in days, the scenario's tick left at its default of one second.
//
// Reasoned verdict, before running: violated, duplicate effect, in the fault-free run already:
// the partner's second round comes 23 days after the inbox forgot the event_id, and the loyalty
// credit (a surrogate id) is written again. The tick changes nothing but the arithmetic.
// What the tool said while the liveness bound counted every tick (kept as a regression test): "stuck: no quiescence within 4000 ticks after
// healing", in every run, and the duplicate is never found. The partner waits 2,592,000 ticks in a
// state that is not idle; the World's liveness phase (4,000 ticks) ends first, and src/run/world.ts
// reports the cut as a stuck run, a violation of the quiescence clause, rather than as a bound the
// run was cut by (compare world.stepsMax, which makes the clause inconclusive). The catalogue's
// dedup-horizon-7d-vs-30d avoids it with a tick of 2.4 h.
import { defineScenario } from 'faultline';
import { loyaltyCreditClaim, partnerFeed } from 'faultline/models/designs/partnerFeed.ts';

export default defineScenario({
  name: 'heldout-partner-monthly-redelivery-in-seconds',
  title: 'Partner redelivers after 30 days, inbox keeps 7 days, one-second ticks',
  source: '003 · identity has a lifetime (30-day partner redelivery, 7-day dedup record)',
  lesson: 'A deduplication record with a horizon shorter than the longest redelivery path turns the late repeat into new work.',
  build: partnerFeed({ redeliverAfter: '30d', inboxTtl: '7d' }),
  workload: { size: 1 },
  claims: [loyaltyCreditClaim],
  expect: { verdict: 'violated', violations: ['duplicate effect'] },
});

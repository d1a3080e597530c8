// Seed 003, "If a partner can redeliver for thirty days, a seven-day deduplication record leaves
// a twenty-three-day interval in which an old fact can become new work", and seed 002, "If a
// message can be redelivered after your dedupe window closes, it will eventually be". One tick
// is a tenth of a day (2.4 h). A partner publishes a loyalty fact and redelivers it 30 days later
// with the same event_id; the consumer's inbox row expires after 7 days and the credit is an
// additive row with a surrogate id. The verdict teaches that the inbox is only
// as good as its horizon: the redelivery finds no evidence, the old fact becomes new work, and
// the member is credited twice, in the fault-free run already.
import { defineScenario } from '../src/scenario/scenario.ts';
import { loyaltyCreditClaim, partnerFeed } from '../models/designs/partnerFeed.ts';

export default defineScenario({
  name: 'dedup-horizon-7d-vs-30d',
  title: 'Partner redelivers after 30 days; the inbox remembers 7 days',
  source: '003 · The Retry Must Carry the Same Meaning (identity has a lifetime); 002 · Deduplication tables (the dedupe window)',
  lesson: 'A deduplication record with a horizon shorter than the longest redelivery path turns the late repeat into new work: the old fact becomes new work.',
  build: partnerFeed({ redeliverAfter: '30d', inboxTtl: '7d' }),
  // One tick is a tenth of a day: the partner's 30 days are 300 ticks.
  tick: '2.4h',
  workload: { size: 1 },
  claims: [loyaltyCreditClaim],
  expect: { verdict: 'violated', violations: ['duplicate effect'] },
});

// Seed 000, "A process-local cache … cannot coordinate replicas", and seed 002, "rebalancing is
// where the bugs live": two consumers, each with its own process-local cache of applied event
// ids, a reservation table with only a surrogate id. The verdict teaches that a cache is per
// process: when a partition moves to the other member, that member's cache has never seen the
// partition's records, so a rebalance mid-record reserves twice even without a crash.
import { defineScenario } from '../src/scenario/scenario.ts';
import { groupPipeline, groupReservationClaim } from '../models/designs/groupPipeline.ts';

export default defineScenario({
  name: 'group-local-cache',
  title: 'Two consumers, each deduplicating in its own process-local cache',
  source: '000 · Deduplication evidence (a process-local cache cannot coordinate replicas); 002 · Testing for the failures you cannot reproduce',
  lesson: "Dedup evidence must be shared by every process that can receive the record: another member's memory is not evidence.",
  build: groupPipeline({ consumers: 2, inbox: 'localCache', effectKey: 'none' }),
  workload: { size: 3 },
  claims: [groupReservationClaim],
  expect: { verdict: 'violated', violations: ['duplicate effect'] },
});

// Seed 003, "A replay that rebuilds an internal order projection should not resend
// confirmations", and seed 000, "Reprocessing is a new versioned production run": an operator
// rebuilds the confirmation consumer's read model by truncating it and rewinding the live
// group's offsets to 0. The verdict teaches that a replay through the live identity re-runs the
// live side effects: the sent-markers went with the read model and the provider's key expired
// long ago, so every order gets its confirmation again.
import { defineScenario } from '../src/scenario/scenario.ts';
import { confirmationSentClaim, confirmationsPipeline } from '../models/designs/confirmations.ts';

export default defineScenario({
  name: 'replay-through-live-consumer',
  title: 'Rebuilding a projection by rewinding the live consumer group',
  source: '003 · Late facts need a way back into the truth (backfills should not resend confirmations); 000 · Reprocessing is a new versioned production run',
  lesson:
    'A rebuild through the live consumer identity is a second production history: no dedup outlives the rebuild (local markers truncated, provider key expired), so every confirmation is sent again, even without a single fault.',
  build: confirmationsPipeline('liveConsumer'),
  workload: { size: 2 },
  claims: [confirmationSentClaim],
  expect: { verdict: 'violated', violations: ['duplicate effect'] },
});

// Seed 000, "A safe reprocessing run uses a new consumer identity and isolated output", and
// seed 003, "Side-effect gates … turn replay into controlled repair": the rebuild runs the same
// consumer code as its own group with its own database, and its provider call is gated off;
// the operator rewinds that group, never the live one. The verdict teaches that the rebuild then
// reproduces its output for every order while the confirmations stay one per order.
import { defineScenario } from '../src/scenario.ts';
import { confirmationSentClaim, confirmationsPipeline, rebuildOutputClaim } from '../models/designs/confirmations.ts';

export default defineScenario({
  name: 'replay-separate-namespace',
  title: 'Rebuilding in a separate consumer group and namespace, side effects gated',
  source: '000 · Reprocessing is a new versioned production run (new consumer identity, isolated output); 003 · Late facts need a way back into the truth (side-effect gates)',
  lesson:
    'A rebuild under its own identity, with its output isolated and its external calls gated, can be run and rerun: the rebuilt records cover every order and no confirmation is sent twice.',
  build: confirmationsPipeline('separateNamespace'),
  workload: { size: 2 },
  claims: [confirmationSentClaim, rebuildOutputClaim],
  expect: { verdict: 'holds' },
});

// Seed 000, "A safe reprocessing run uses a new consumer identity and isolated output", and
// seed 003, "Side-effect gates … turn replay into controlled repair": the rebuild runs the same
// consumer code as its own group with its own database, and its provider call is gated off;
// the operator rewinds that group, never the live one. The verdict teaches that the rebuild then
// reproduces its output for every order while the confirmations stay one per order.
//
// Under two faults the live path, not the rebuild, breaks the promise (`expect.pairs`). Found by
// `windows --pairs`: the provider's response to the first confirmation is delayed 40 ticks
// (`delay provider->caller:provider.response`), the consumer's status lookup times out, and the
// consumer crashes at `caller.beforeExternalCall` (occurrence 2) before calling again; after the
// restart and the redelivery, its lookup comes 65 ticks after the first operation, past the
// provider's 60-tick key retention, finds nothing, and the call sends a second confirmation. The
// engine and the model are not at fault; the design is: the provider keeps its key for less time
// than the live retry path can take (seed 000: the API must retain the result through the retry
// horizon). carrier-key-and-lookup shows the same path with a key kept for the whole horizon.
import { defineScenario } from '../src/scenario/scenario.ts';
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
  expect: {
    single: { verdict: 'holds' },
    pairs: { verdict: 'violated', violations: ['duplicate effect'] },
    why: "design: a delayed response, a timed-out lookup and a crash before the retry stretch the live retry path past the provider's 60-tick key retention, so the retry is new work (see the comment above)",
  },
});

// Seed 003, "Restore an old snapshot and replay the input", for the consumer that calls an external
// API: the payment consumer of payment-capture-intent-key, with its database (its outcomes and
// intents) and the broker's group offsets both restorable to the snapshot taken before the
// workload. One restore alone sets back one half; a pair at the same moment (`windows --pairs`)
// restores both, a consistent snapshot, and the consumer replays every capture from the start.
//
// Analysis. Every single restore holds: the offsets alone replay every capture, each found in the
// consumer's outcomes or returned by the provider under its key; the database alone forgets the
// consumer's records, but the captures are the provider's, and they stay. Both restored at one
// moment hold too: the replay calls the provider again for every capture and gets the recorded one
// back. Two faults break it (`windows --pairs`): pi-2's call is lost
// (`lose caller->provider:provider.call`, occurrence 2), its lookup finds nothing, the consumer
// (one attempt) records the capture PENDING for the reconciler and commits the offset; then the
// database alone is restored (`restore callerDb` at `caller.afterLocalCommit`, occurrence 2),
// which erases the PENDING intent, the only record that the capture was still owed, while the
// offset stays past pi-2. Nobody captures it: a lost effect. The engine and the model are not at
// fault; the design is: a restore of the consumer's state without the input position it matches
// drops the work that state still owed, as mercury-outbox-restore-database shows for a database
// effect. The restore procedure must restore both together, or the offsets must live with the state.
import { defineScenario } from '../src/scenario/scenario.ts';
import { paymentCapture, paymentCaptureClaim } from '../models/designs/paymentCapture.ts';

export default defineScenario({
  name: 'payment-capture-restored-snapshot',
  title: 'Payment capture restored from an old snapshot and replaying its input',
  source: '003 · Break the workflow on purpose (restore an old snapshot and replay the input)',
  lesson:
    'A consumer restored to an old snapshot forgets every capture it made and calls the provider again for each; the intent-bound key makes each repeat return the recorded capture, so the customer is charged once.',
  build: paymentCapture({ idempotency: 'intentBound', restores: ['callerDb', 'broker'] }),
  workload: { size: 2 },
  claims: [paymentCaptureClaim],
  expect: {
    single: { verdict: 'holds' },
    pairs: { verdict: 'violated', violations: ['lost effect'] },
    why: 'design: a lost call leaves pi-2 owed in a PENDING intent, and a restore of the consumer database alone (not its offsets) erases that intent while the offset stays past pi-2, so nobody captures it',
  },
});

// Seed 003, "Restore an old snapshot and replay the input": the design of
// carrier-records-restored-from-aged-backup-reconciled (fulfilment's database backed up every 10
// seconds and restored to the newest backup at least 20 seconds old, its offsets kept), with no
// reconciler.
//
// Analysis. A restore of fulfilment's database at a moment whose aged backup holds an unfinished
// record breaks the claim's last clause (`unresolved unknown outcome`): at
// `caller.afterExternalResponse` (occurrence 2, t = 45 s) the database goes back to its backup of
// t = 20 s, in which o-1's intent is PENDING (written at 15 s, its outcome at 23 s); the group's
// offset is already past o-1, so no redelivery comes back to it, and the intent stays PENDING for
// ever, though the carrier booked o-1 (op-1). The restores at `caller.awaitingExternalResponse`,
// `caller.committingOutcome` and `provider.afterExternalEffect` bring back the same backup. A
// restore to the backup before the workload (carrier-key-and-lookup) never does this: that backup
// holds nothing unfinished. No pickup is lost or booked twice (the carrier's key). The engine and
// the model are not at fault; the design is: a backup of any age other than "before everything"
// can hold intents whose input is gone, and only something that sweeps the records finishes them.
import { defineScenario } from '../src/scenario/scenario.ts';
import { uniquePickupClaim } from '../models/designs/carrier.ts';
import { providerPipeline, unresolvedOutcomes } from '../models/designs/providerPipeline.ts';
import { agedRestore } from './carrier-records-restored-from-aged-backup-reconciled.ts';

export default defineScenario({
  name: 'carrier-records-restored-from-aged-backup',
  title: "Carrier pickup: fulfilment's records restored to a backup 20 s old, nobody reconciling",
  source: '003 · Break the workflow on purpose (restore an old snapshot and replay the input)',
  lesson: 'A backup taken mid-flight holds intents that were pending then; restored without the input position it matches, nothing redelivers them, and without a reconciler they stay unknown.',
  build: providerPipeline(agedRestore(false)),
  workload: { size: 2 },
  claims: [
    {
      ...uniquePickupClaim({
        authority: "the carrier's idempotency key, bound to the canonical pickup intent,",
        unknownCompletion: 'a status lookup by key before any retry (and nothing for a record no delivery comes back to)',
      }),
      unresolved: unresolvedOutcomes(),
    },
  ],
  expect: { verdict: 'violated', violations: ['unresolved unknown outcome'] },
});

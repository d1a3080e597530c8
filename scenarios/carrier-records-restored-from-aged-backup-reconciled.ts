// Seed 003, "Restore an old snapshot and replay the input", and seed 000's external-effect path,
// step 6 ("reconcile pending/unknown states until terminal"): the carrier pickup of
// carrier-key-and-lookup (an intent-bound key, a lookup before each retry, the intent recorded
// first), fulfilment's database backed up every 10 seconds and restored to the newest backup at
// least 20 seconds old, while its offsets stay where they are; a reconciler sweeps the PENDING
// intents and UNKNOWN outcomes.
//
// Analysis. Every single fault holds. A restore to an aged backup can bring back a record that was
// unfinished when the backup was taken: restored at `caller.afterExternalResponse` (occurrence 2,
// t = 45 s) the database goes back to its backup of t = 20 s, in which o-1's intent is PENDING and
// its outcome not yet written; the offset is already past o-1, so no redelivery finishes it. The
// reconciler sees the PENDING intent on two sweeps in a row, asks the carrier by key, finds op-1
// and records it SUCCEEDED, so no outcome stays unknown, and nothing is booked twice (the key).
// carrier-records-restored-from-aged-backup leaves the reconciler out.
import { defineScenario } from '../src/scenario/scenario.ts';
import { PICKUP_KEY, pickupRequests, uniquePickupClaim } from '../models/designs/carrier.ts';
import { providerPipeline, unresolvedOutcomes, type ProviderPipelineOptions } from '../models/designs/providerPipeline.ts';

/** Fulfilment and the carrier, fulfilment's records restorable to an aged backup; with or without a reconciler. */
export function agedRestore(reconciled: boolean): ProviderPipelineOptions {
  return {
    records: pickupRequests,
    keyField: 'order_id',
    group: 'fulfillment',
    caller: { effectKey: [...PICKUP_KEY], sendKey: true, statusLookup: true, recordIntent: true },
    provider: { idempotency: 'intentBound', statusLookup: 'byKey' },
    restores: ['callerDb'],
    callerDb: { backups: { every: '10s', restoreAge: '20s' } },
    ...(reconciled ? { reconciler: {} } : {}),
  };
}

export default defineScenario({
  name: 'carrier-records-restored-from-aged-backup-reconciled',
  title: "Carrier pickup: fulfilment's records restored to a backup 20 s old, a reconciler sweeping",
  source: '003 · Break the workflow on purpose (restore an old snapshot); 000 · External side effects expose the edge of the transaction (reconcile pending/unknown states)',
  lesson: 'An aged backup brings back intents that were pending when it was taken, past the input position; a reconciler that asks the provider by key settles each one.',
  build: providerPipeline(agedRestore(true)),
  workload: { size: 2 },
  claims: [
    {
      ...uniquePickupClaim({
        authority: "the carrier's idempotency key, bound to the canonical pickup intent,",
        unknownCompletion: 'a status lookup by key before any retry, and a reconciler that resolves PENDING intents and UNKNOWN outcomes',
      }),
      unresolved: unresolvedOutcomes(),
    },
  ],
  expect: { verdict: 'holds' },
});

// Seed 003, "Restore an old snapshot and replay the input" and "Identity also has a lifetime … The
// deduplication window must cover retry queues, dead-letter repair, restore, partner behavior,
// and authorized replay": the carrier pickup of carrier-key-and-lookup (an intent-bound key, a
// lookup before each retry, the intent recorded first), but the carrier keeps a key for one hour,
// and fulfilment's database is restored together with its group's committed offsets, both to the
// snapshot before the workload, by one `restore` fault; the restore takes two hours (the database
// stays down that long).
//
// Analysis. Every crash and message fault holds: each retry reaches the carrier within minutes,
// well inside the key's hour; so does a restore of the broker's offsets alone, which replays
// every request into fulfilment's records. Every restore of fulfilment's database with its
// offsets breaks the claim (`duplicate effect`), for instance at `caller.idle` (occurrence 2,
// t = 26 m, once o-1 is booked at 19 m): the broker is back ten minutes later and delivers every
// request again from offset 0, and fulfilment, its records empty once its database is back at
// 2 h 26 m, calls the carrier again under each key; o-1's key is by then more than an hour old and
// forgotten, so the carrier books o-1 a second time (at 2 h 46 m). The engine and the model are
// not at fault; the design is: the restore, a consistent one, replays calls older than the
// carrier remembers keys for. A key kept longer than the longest restore holds
// (carrier-key-and-lookup keeps keys for ever).
import { defineScenario } from '../src/scenario/scenario.ts';
import { carrierPipeline, uniquePickupClaim } from '../models/designs/carrier.ts';
import { unresolvedOutcomes } from '../models/designs/providerPipeline.ts';

export default defineScenario({
  name: 'carrier-restored-with-offsets-after-key-expiry',
  title: "Carrier pickup restored with its offsets, replayed after the carrier's key expired",
  source: '003 · Break the workflow on purpose (restore an old snapshot and replay the input); identity also has a lifetime',
  lesson: 'A consistent restore replays every call it sets back; the provider recognises them only while it still remembers their keys, so key retention must cover the longest restore.',
  tick: '1m',
  build: carrierPipeline({ sendKey: true, statusLookup: true, recordIntent: true }, { idempotency: 'intentBound', statusLookup: 'byKey', keyRetention: '1h' }, ['callerDbWithOffsets'], { restartAfter: '2h' }),
  workload: { size: 2 },
  claims: [
    {
      ...uniquePickupClaim({
        authority: "the carrier's idempotency key, bound to the canonical pickup intent and kept one hour,",
        unknownCompletion: 'a status lookup by key before any retry',
      }),
      unresolved: unresolvedOutcomes(),
    },
  ],
  expect: { verdict: 'violated', violations: ['duplicate effect'] },
});

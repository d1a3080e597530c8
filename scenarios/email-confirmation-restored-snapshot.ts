// Seed 003, "Restore an old snapshot and replay the input", for the consumer that sends the
// confirmation email: the notifier of email-confirmation (one send intent per order in its own
// database, an email provider with neither key nor lookup), with its database and the broker's
// group offsets both restorable to the snapshot taken before the workload. One restore alone
// sets back one half; a pair at the same moment (`windows --pairs`) restores both, a consistent
// snapshot, and the notifier replays every order from the start.
//
// Analysis. The offsets alone replay every order: the notifier finds its recorded outcome and
// sends nothing new, except where a send is in flight (restored at `caller.beforeExternalCall`,
// `caller.awaitingExternalResponse`, `provider.serving` or `provider.afterExternalEffect`): the
// broker's restart breaks the notifier's session, the send in hand is abandoned, and on redelivery
// the notifier finds its intent PENDING and, with no lookup, sends again (the duplicate acceptance
// email-confirmation shows under crashes). The database alone
// breaks the intent claim, which holds in email-confirmation under every fault: restored at
// `caller.idle` (occurrence 2, t=26), after o-1's intent and outcome were committed and before
// its offset was, it empties the notifier's tables; the offset commit lands after it, so o-1 is
// never delivered again and its intent row is gone for good (a lost effect). A restore of the
// database at any caller window, or at provider.afterExternalEffect, does the same once an intent
// is committed. Both restored at one moment (`windows --pairs`, 13,367 runs) replay every order
// from the start with no records: the intent rows come back, and every confirmation is sent
// again, a duplicate acceptance. The engine and the model are not at fault; the design is: the
// intent's authority is a database whose restore does not take the consumer's input position
// with it (mercury-outbox-restore-database shows the same for a database effect), so the intent
// claim holds only while the database is never restored alone, and a consistent restore still
// sends every email again, since nothing outside the notifier remembers them.
import { defineScenario } from '../src/scenario/scenario.ts';
import { acceptedOrders } from '../models/designs/confirmations.ts';
import { providerPipeline } from '../models/designs/providerPipeline.ts';
import emailConfirmation from './email-confirmation.ts';

export default defineScenario({
  name: 'email-confirmation-restored-snapshot',
  title: 'Order confirmation email restored from an old snapshot and replaying its input',
  source: '003 · Break the workflow on purpose (restore an old snapshot and replay the input); 000 · Email has a similar boundary',
  lesson:
    'Restored alone, the notifier database forgets send intents the broker will not deliver again; restored with its offsets, it records them again and sends every confirmation a second time: the intent survives only a consistent restore, the email not even that.',
  build: providerPipeline({
    records: acceptedOrders,
    keyField: 'order_id',
    group: 'confirmations',
    caller: { effectKey: ['order_id'], sendKey: false, statusLookup: false, recordIntent: true },
    provider: { idempotency: 'none', statusLookup: 'none' },
    restores: ['callerDb', 'broker'],
  }),
  workload: { size: 2 },
  claims: emailConfirmation.claims,
  expect: { verdict: 'violated', violations: ['lost effect', 'duplicate effect'] },
});

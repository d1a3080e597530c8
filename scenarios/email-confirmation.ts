// Seed 000, "Email has a similar boundary": the notifier records one send intent per order in
// its own database, then hands the message to an email provider that has neither idempotency
// key nor status lookup. The verdict teaches which effect is unique and which is not: the
// intent claim holds at every window, provider acceptance is violated as soon as a response is
// lost and the notifier sends again, so "exactly once" must name the intent, not the email.
import { defineScenario } from '../src/scenario/scenario.ts';
import { rowsOf, type DatabaseDurable } from '../models/database.ts';
import { providerClaim, providerPipeline, publishedKeys } from '../models/designs/providerPipeline.ts';
import { CONFIRMATION_TABLES } from '../models/designs/confirmations.ts';
import { publishedView } from '../models/designs/tableViews.ts';

const KEY = ['order_id'];

export default defineScenario({
  name: 'email-confirmation',
  title: 'Order confirmation email: one local send intent, a provider that may accept twice',
  source: '000 · External side effects expose the edge of the transaction (email: intent creation, provider acceptance, message id, delivery)',
  lesson:
    'The local send intent is unique (the notifier database enforces it) while provider acceptance is not: an unknown response makes the notifier send again and the provider accepts twice. Claim the intent, not the email.',
  build: providerPipeline({
    records: (size) => Array.from({ length: size }, (_, i) => ({ event_id: `evt-o-${i + 1}-accepted`, order_id: `o-${i + 1}`, template: 'order-confirmation' })),
    keyField: 'order_id',
    group: 'confirmations',
    caller: { effectKey: KEY, sendKey: false, statusLookup: false, recordIntent: true },
    provider: { idempotency: 'none', statusLookup: 'none' },
  }),
  workload: { size: 2 },
  claims: [
    {
      effect: 'confirmation send intent',
      key: KEY,
      authority: "the notifier database's primary key on effect_intents",
      lifetime: 'the lifetime of the order',
      sameIntent: 'the recorded intent and its state',
      differentIntent: 'is a separate intent row (another template, another message)',
      unknownCompletion: 'nothing external: the intent is a local row',
      tables: {
        effect: { table: 'effect_intents', key: ['key'] },
        source: { table: 'order_accepted_events', key: ['order_id'] },
        views: [publishedView('order_accepted_events', { event_id: 'text', order_id: 'text', template: 'text' })],
      },
      outcomes: (v) => rowsOf(v.durable<DatabaseDurable>('callerDb'), 'effect_intents').map((r) => ({ key: String(r['key']) })),
      facts: publishedKeys(KEY),
    },
    providerClaim(KEY, {
      effect: 'provider acceptance of the confirmation email',
      authority: 'no one (the email provider offers no key)',
      lifetime: 'the lifetime of the order',
      sameIntent: 'a second accepted message, not the first',
      differentIntent: 'is accepted as another message',
      unknownCompletion: 'nothing: the notifier cannot ask the provider, so it sends again',
    }, CONFIRMATION_TABLES),
  ],
  expect: { verdict: 'violated', violations: ['duplicate effect'] },
});


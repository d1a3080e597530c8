// An order-confirmation email sender drawn with compose(): a publisher of committed orders, a
// broker, a caller that sends order_id as the idempotency key, records its intent first and asks
// the email provider by key before any retry, and an email provider that answers status lookups
// by key but does NOT honour the key on a send: every send is a new email.
//
// Reasoned verdict, before running: violated, duplicate effect.
// - The lookup covers the ambiguous timeouts a lost answer or a provider crash after the send
//   leaves: the caller asks by key, finds the email and records it without sending again.
// - It does not cover a send the provider receives twice: a duplicated
//   caller->provider:provider.call is two emails, since the provider ignores the key. Nor a
//   delayed call: the caller times out after 20 s, asks by key on its own connection (which
//   overtakes the delayed call), is told nothing exists, and sends again; then the delayed call
//   lands: two emails.
// - Nothing is lost (the caller retries and records the outcome before acknowledging) and no
//   outcome stays unknown under one fault.
import { compose, defineScenario } from 'faultline';
import { broker, type Payload } from 'faultline/models/broker.ts';
import { caller, CALLER_TABLES } from 'faultline/models/caller.ts';
import { database } from 'faultline/models/designs/databaseComponent.ts';
import { providerClaim, unresolvedOutcomes } from 'faultline/models/designs/providerPipeline.ts';
import { provider } from 'faultline/models/provider.ts';
import { publisher } from 'faultline/models/publisher.ts';

const orders = (size: number): Payload[] => Array.from({ length: size }, (_, i) => ({ event_id: `evt-o-${i + 1}`, order_id: `o-${i + 1}`, email: `buyer${i + 1}@example.com` }));

export default defineScenario({
  name: 'heldout-email-key-ignored-lookup-by-key',
  title: 'Confirmation email: key sent and looked up, but the provider does not deduplicate sends',
  source: '000 · Email has a similar boundary; Challenge an external API (accepts a stable idempotency key?)',
  lesson: 'A status lookup resolves an ambiguous timeout; only a key the provider honours stops a send that reaches it twice.',
  build: compose(
    publisher({ records: orders, keyField: 'order_id' }),
    broker(),
    caller({ group: 'confirmations', effectKey: ['order_id'], sendKey: true, statusLookup: true, recordIntent: true }),
    database({ name: 'callerDb', tables: CALLER_TABLES }),
    provider({ idempotency: 'none', statusLookup: 'byKey' }),
  ),
  workload: { size: 2 },
  claims: [
    providerClaim(['order_id'], {
      effect: 'order confirmation email',
      authority: 'nothing at the provider: it ignores the key; the caller looks up by key before retrying',
      lifetime: 'the lifetime of the order',
      unknownCompletion: 'a status lookup by key',
      unresolved: unresolvedOutcomes(),
    }),
  ],
  expect: { verdict: 'violated', violations: ['duplicate effect'] },
});

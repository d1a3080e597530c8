// The order-confirmation consumer of seeds 000 and 003 under a rebuild: it keeps its read model
// and its sent-markers (effect_outcomes, effect_intents) in one database, and sends each
// confirmation through an email provider that honours a key for a limited time (100 ticks).
// Live traffic is safe: intent, key and lookup cover every retry of the live path. What the
// scenarios compare is how an operator's rebuild, 300 ticks later, replays the log.
import { rowsOf, type DatabaseDurable } from '../database.ts';
import type { Payload } from '../broker.ts';
import { providerClaim, providerPipeline, publishedKeys, REBUILD_SUFFIX, type ProviderTableNames } from './providerPipeline.ts';
import { publishedView } from './tableViews.ts';
import type { Claim } from '../../src/checkers/claims.ts';

export const CONFIRMATION_KEY = ['order_id'];
export const PROVIDER_KEY_RETENTION = '60s';
export const REBUILD_AFTER = '150s';

export function acceptedOrders(size: number): Payload[] {
  return Array.from({ length: size }, (_, i) => ({ event_id: `evt-o-${i + 1}-accepted`, order_id: `o-${i + 1}`, template: 'order-confirmation' }));
}

export function confirmationsPipeline(through: 'liveConsumer' | 'separateNamespace') {
  return providerPipeline({
    records: acceptedOrders,
    keyField: 'order_id',
    group: 'confirmations',
    caller: { effectKey: CONFIRMATION_KEY, sendKey: true, statusLookup: true, recordIntent: true },
    provider: { idempotency: 'intentBound', statusLookup: 'byKey', keyRetention: PROVIDER_KEY_RETENTION },
    rebuild: { through, after: REBUILD_AFTER },
  });
}

/** The email provider's messages, as the export of its ledger, and the accepted orders, as their outbox of events. */
export const CONFIRMATION_TABLES: ProviderTableNames = { ledger: 'email_messages', facts: 'order_accepted_events', columns: { template: 'text' } };

export const confirmationSentClaim: Claim = providerClaim(CONFIRMATION_KEY, {
  effect: 'order confirmation sent',
  authority: `the consumer's local sent-marker and the email provider's key (kept ${PROVIDER_KEY_RETENTION})`,
  lifetime: 'the lifetime of the order, rebuilds included',
  sameIntent: 'the message already accepted',
  differentIntent: 'is refused by the provider as a conflict',
  unknownCompletion: 'a status lookup by key',
}, CONFIRMATION_TABLES);

/** The rebuild run's own output: one gated record per order in its namespace. */
export const rebuildOutputClaim: Claim = {
  effect: 'rebuilt confirmation record (side effect gated)',
  key: CONFIRMATION_KEY,
  namespace: `the rebuild namespace (group confirmations${REBUILD_SUFFIX}, database rebuildDb)`,
  authority: "the rebuild database's primary key",
  lifetime: 'the rebuild run',
  sameIntent: 'the stored record',
  // The rebuild's records are the only GATED ones: the live caller calls the provider.
  tables: {
    effect: { table: 'effect_outcomes', key: ['key'], where: "$state = 'GATED'" },
    source: { table: 'order_accepted_events', key: ['order_id'] },
    views: [publishedView('order_accepted_events', { event_id: 'text', order_id: 'text', template: 'text' })],
  },
  outcomes: (v) =>
    rowsOf(v.durable<DatabaseDurable>('rebuildDb'), 'effect_outcomes')
      .filter((r) => r['state'] === 'GATED')
      .map((r) => ({ key: String(r['key']) })),
  facts: publishedKeys(CONFIRMATION_KEY),
};

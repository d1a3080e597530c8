// A loyalty consumer on a queue whose visibility timeout is two hours (an SQS-style broker: a
// message taken and not deleted becomes visible again two hours after it was handed out), credits
// with a surrogate id, and an inbox in the credit's transaction that keeps an event_id for one
// hour. The world is left at its defaults, as a user would leave it.
//
// Reasoned verdict, before running: violated, duplicate effect; never a lost effect.
// - A lost or delayed offset commit (the delete) leaves the message taken: the broker hands it out
//   again exactly two hours after it first did. The inbox row is then an hour past its horizon, so
//   the repeat is credited again: a duplicate.
// - A lost delivery is handed out again two hours later too, and credited then: nothing is lost,
//   however long the wait.
// What the tool said while the liveness bound counted every tick (kept as a regression test): a lost effect at broker->consumer:broker.deliver
// and no duplicate. The quiet rule (src/kernel/quiet.ts, timerKeepsAwake) does not wait for a timer longer
// than the liveness phase (4,000 ticks by default, 1.11 h), so the run ends "quiet" with the
// broker's two-hour redelivery still pending, and the claims are judged on a world that was not
// finished: a bound reported as a finding.
import { compose, defineScenario, type Claim } from 'faultline';
import { broker, type Payload } from 'faultline/models/broker.ts';
import { consumer } from 'faultline/models/consumer.ts';
import { rowsOf, type DatabaseDurable } from 'faultline/models/database.ts';
import { database } from 'faultline/models/designs/databaseComponent.ts';
import { publishedFacts, publisher, type PublisherDurable } from 'faultline/models/publisher.ts';

const purchases = (size: number): Payload[] => Array.from({ length: size }, (_, i) => ({ event_id: `evt-p-${i + 1}`, purchase_id: `p-${i + 1}`, points: 10 }));

const creditClaim: Claim = {
  effect: 'loyalty credit per purchase',
  key: ['purchase_id'],
  authority: 'the inbox in the credit transaction, kept for one hour',
  lifetime: 'the lifetime of the purchase',
  outcomes: (v) => rowsOf(v.durable<DatabaseDurable>('loyaltyDb'), 'credits').map((r) => ({ key: String(r['purchase_id']) })),
  facts: (v) => publishedFacts(v.durable<PublisherDurable>('publisher')).map((p) => String(p['purchase_id'])),
};

export default defineScenario({
  name: 'heldout-visibility-timeout-outlasts-liveness',
  title: 'Two-hour visibility timeout, one-hour inbox, default world',
  source: '002 · Deduplication tables (derived from broker retention plus your retry policy); 003 · identity has a lifetime',
  lesson: 'The dedup horizon must outlast the redelivery timeout, however long that is.',
  build: compose(
    publisher({ records: purchases, keyField: 'purchase_id' }),
    broker({ redelivery: '2h' }),
    consumer({ group: 'loyalty', db: 'loyaltyDb', inbox: 'sameTx', effect: { op: 'insert', table: 'credits', columns: { purchase_id: 'purchase_id', points: 'points' } } }),
    database({ name: 'loyaltyDb', tables: { credits: { key: ['id'], autoId: true }, inbox: { key: ['consumer_name', 'event_id'], ttl: '1h' } } }),
  ),
  workload: { size: 2 },
  claims: [creditClaim],
  expect: { verdict: 'violated', violations: ['duplicate effect'] },
});

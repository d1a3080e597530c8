// A loyalty service drawn with compose(): a publisher of committed purchase facts, a broker that
// redelivers an uncommitted delivery after 30 s, a consumer that credits points with a surrogate
// id behind an inbox in the credit's transaction, and a database whose inbox forgets an event_id
// after 20 s (someone sized the dedup table by "redeliveries come back fast").
//
// Reasoned verdict, before running: violated, duplicate effect.
// - A consumer crash at consumer.afterEffectCommit is NOT the fault that does it: the broker drops
//   the crashed member's session, and the consumer resubscribes after its 10 s restart and is
//   redelivered from the committed offset at once, about 12 s after its inbox row was written,
//   inside the 20 s horizon, so the inbox suppresses the repeat.
// - Losing (or delaying by 40 s) consumer->broker:broker.commit is: the session stays alive, so
//   the broker's own timer redelivers exactly 30 s after the delivery went out. The inbox row was
//   committed a few ticks after the delivery and is about 25-29 s old by then, past its 20 s TTL,
//   and the credit table has no key that would catch the repeat: a second credit.
// - Nothing loses a credit: the publisher resends until acked and the offset moves only after
//   the commit. So the only violation expected is the duplicate, on the loyalty credit claim.
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
  authority: 'the inbox in the credit transaction, kept for 20 s',
  lifetime: 'the lifetime of the purchase',
  outcomes: (v) => rowsOf(v.durable<DatabaseDurable>('loyaltyDb'), 'credits').map((r) => ({ key: String(r['purchase_id']) })),
  facts: (v) => publishedFacts(v.durable<PublisherDurable>('publisher')).map((p) => String(p['purchase_id'])),
};

export default defineScenario({
  name: 'heldout-credit-inbox-expires-before-redelivery',
  title: 'Loyalty credits behind an inbox that forgets before the broker redelivers',
  source: '002 · Deduplication tables (drop partitions older than the redelivery window); 003 · identity has a lifetime',
  lesson: 'A dedup horizon shorter than the broker redelivery timeout lets a lost offset commit become a second credit.',
  build: compose(
    publisher({ records: purchases, keyField: 'purchase_id' }),
    broker({ redelivery: '30s' }),
    consumer({ group: 'loyalty', db: 'loyaltyDb', inbox: 'sameTx', effect: { op: 'insert', table: 'credits', columns: { purchase_id: 'purchase_id', points: 'points' } } }),
    database({ name: 'loyaltyDb', tables: { credits: { key: ['id'], autoId: true }, inbox: { key: ['consumer_name', 'event_id'], ttl: '20s' } } }),
  ),
  workload: { size: 2 },
  claims: [creditClaim],
  expect: { verdict: 'violated', violations: ['duplicate effect'] },
});

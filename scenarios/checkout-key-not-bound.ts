// Seed 000, "An idempotent operation must define response replay ... same key, different intent:
// reject as conflict", against seed 003's checkout key: the order service records the checkout
// key under a unique constraint, but binds it to the order only, not to what was asked. The
// workload's last attempt reuses the first attempt's key for another cart (cart-20). The service
// finds the key and answers with the recorded order, so the customer is told cart 20 was ordered
// and receives cart 19's order.
//
// Under two faults it also loses track of an ambiguous completion, as checkout-stable-key does
// and for the same reason (a crash at `source.idle` and a delayed `db.committed` exhaust the
// client's three attempts while the order commits): `expect.pairs` adds that violation.
import { defineScenario } from '../src/scenario/scenario.ts';
import { checkoutClaim, checkoutsReusingAKey, orderPipeline } from '../models/designs/orderPipeline.ts';

export default defineScenario({
  name: 'checkout-key-not-bound',
  title: 'Checkout key honoured but not bound to the intent',
  source: '000 · Put consumed identity and the durable effect in one transaction (response replay); 003 · The Retry Must Carry the Same Meaning',
  lesson: 'A key that is honoured without comparing the intent turns a different request into a silent replay: the reused key must be refused as a conflict, not answered with another cart’s order.',
  build: orderPipeline({ design: 'outbox', checkoutKeys: 'honoured', client: { keyed: true, retry: 'stableKey' }, commands: checkoutsReusingAKey }),
  workload: { size: 1 },
  claims: [checkoutClaim],
  expect: {
    single: { verdict: 'violated', violations: ['conflict mishandled', 'lost effect'] },
    pairs: { verdict: 'violated', violations: ['conflict mishandled', 'lost effect', 'unresolved unknown outcome'] },
    why: 'design: as in checkout-stable-key, a crash at source.idle and a delayed ordersDb->source:db.committed exhaust the client’s three attempts while the order commits',
  },
});

// Seed 003, "If every retry gets a new business key, the server has no evidence that the caller
// is asking for the same effect": the same lost CreateOrder response as checkout-stable-key, but
// the client mints a new idempotency key for every attempt (a transport request id passed off
// as a business key). The order service's unique constraint is intact and sees two different
// keys, so the retry after a lost `source->client:cmd.reply` creates order 12346 next to 12345.
//
// Under two faults it also loses track of an ambiguous completion, as checkout-stable-key does
// and for the same reason (a crash at `source.idle` and a delayed `db.committed` exhaust the
// client's three attempts while an order commits): `expect.pairs` adds that violation.
import { defineScenario } from '../src/scenario/scenario.ts';
import { checkoutClaim, checkouts, orderPipeline } from '../models/designs/orderPipeline.ts';

export default defineScenario({
  name: 'checkout-fresh-key',
  title: 'Checkout retry with a fresh key per attempt',
  source: '003 · The Retry Must Carry the Same Meaning',
  lesson: 'A key that changes on every attempt identifies the attempt, not the checkout: the server keeps its constraint and still creates a second order.',
  build: orderPipeline({ design: 'outbox', checkoutKeys: true, client: { keyed: true, retry: 'freshKey' }, commands: checkouts }),
  workload: { size: 1 },
  claims: [checkoutClaim],
  expect: {
    single: { verdict: 'violated', violations: ['duplicate effect'] },
    pairs: { verdict: 'violated', violations: ['duplicate effect', 'unresolved unknown outcome'] },
    why: 'design: as in checkout-stable-key, a crash at source.idle and a delayed ordersDb->source:db.committed exhaust the client’s three attempts while an order commits',
  },
});

// Seed 000, "Retry does not repair the ambiguity. If the database committed but the response was
// lost, retry may create another event", and seed 003, "If every retry gets a new business key,
// the server has no evidence that the caller is asking for the same effect": the order database
// crashes after it commits the order and before its reply leaves (`ordersDb.afterCommit`), as in
// checkout-stable-key-database-crash, but the client mints a new key for its retry. The service's
// unique constraint sees two keys and the retry commits a second order beside the first.
//
// Under two faults it also loses track of an ambiguous completion, as checkout-fresh-key does and
// for the same pair (a crash at `source.idle` and a delayed `db.committed`), which involves no
// server crash: `expect.pairs` adds that violation.
import { defineScenario } from '../src/scenario/scenario.ts';
import { checkoutClaim, checkouts, orderPipeline } from '../models/designs/orderPipeline.ts';

export default defineScenario({
  name: 'checkout-fresh-key-database-crash',
  title: 'Checkout retry with a fresh key per attempt, the order database crashing',
  source: '000 · Retry does not repair the ambiguity; 003 · The Retry Must Carry the Same Meaning',
  lesson: 'A server crash after commit leaves the same doubt as a lost reply, and a retry under a new key resolves it by acting twice: the database that crashed kept the first order, the retry adds the second.',
  build: orderPipeline({ design: 'outbox', checkoutKeys: true, client: { keyed: true, retry: 'freshKey' }, commands: checkouts, crashes: ['ordersDb'] }),
  workload: { size: 1 },
  claims: [checkoutClaim],
  expect: {
    single: { verdict: 'violated', violations: ['duplicate effect'] },
    pairs: { verdict: 'violated', violations: ['duplicate effect', 'unresolved unknown outcome'] },
    why: 'design: as in checkout-fresh-key, a crash at source.idle and a delayed ordersDb->source:db.committed exhaust the client’s three attempts while an order commits; no server crash is needed for it',
  },
});

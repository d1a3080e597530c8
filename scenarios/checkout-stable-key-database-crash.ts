// Seed 000, "Retry does not repair the ambiguity. If the database committed but the response was
// lost, retry may create another event", and seed 003, "The Retry Must Carry the Same Meaning":
// the order database itself crashes after it commits the order and before its reply leaves
// (`ordersDb.afterCommit`). The order service's connection drops with the commit's outcome
// unknown to it; it answers "failed", the client retries with the same checkout key, and the key
// recorded in the order's own transaction returns the order the first attempt committed. A crash
// in the middle of the transaction (`ordersDb.afterStatement`) rolls it back and the retry
// creates the order once.
//
// Under two faults the promise narrows exactly as checkout-stable-key's does: a crash at
// `source.idle` eats the first attempt (so does the database's own crash at
// `ordersDb.afterStatement`, which rolls the attempt back unanswered) and a delayed
// `ordersDb->source:db.committed` makes the service answer "failed" for a commit that landed,
// until the client's three attempts run out with the order committed. The design is at fault (a
// bounded retry budget with a service that answers "failed" when it does not know), not the
// engine or the model; checkout-stable-key-asks-until-answered is that repair.
import { defineScenario } from '../src/scenario/scenario.ts';
import { checkoutClaim, checkoutsReusingAKey, orderPipeline } from '../models/designs/orderPipeline.ts';

export default defineScenario({
  name: 'checkout-stable-key-database-crash',
  title: 'Checkout retry with a stable checkout key, the order database crashing',
  source: '000 · Retry does not repair the ambiguity; 003 · The Retry Must Carry the Same Meaning',
  lesson: 'A database crash between commit and reply is the lost reply of the seeds, made by the server: the caller cannot tell commit from failure, and only a retry that carries the same key, recorded in the committed transaction, turns the doubt into the first order.',
  build: orderPipeline({ design: 'outbox', checkoutKeys: 'intentBound', client: { keyed: true, retry: 'stableKey' }, commands: checkoutsReusingAKey, crashes: ['ordersDb'] }),
  workload: { size: 1 },
  claims: [checkoutClaim],
  expect: {
    single: { verdict: 'holds' },
    pairs: { verdict: 'violated', violations: ['unresolved unknown outcome'] },
    why: 'design: as in checkout-stable-key, a crash at source.idle (or the database’s at ordersDb.afterStatement) and a delayed ordersDb->source:db.committed exhaust the client’s three attempts while an order commits',
  },
});

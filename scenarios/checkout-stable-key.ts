// Seed 003, "The Retry Must Carry the Same Meaning": the response to CreateOrder disappears, the
// client cannot tell a failed command from a lost reply, and it retries. Here the client keeps
// its checkout key (customer-84/cart-19/attempt-1) across retries and the order service records
// the key under a unique constraint in the order's own transaction, with the order it created
// and the intent it was created for. The windows run loses `source->client:cmd.reply` (a message
// point of the reference run), so the retry really happens; the workload ends with one more
// attempt that reuses the key for another cart, which the service refuses as a conflict (seed
// 000: "same key, different intent: reject as conflict"). The verdict teaches that a stable
// business key makes the retry harmless: one order per checkout attempt, and the retry gets the
// recorded order back.
//
// Under two faults the promise narrows (`expect.pairs`). Found by `windows --pairs`: crash the
// service at `source.idle` (occurrence 1), so the client's first attempt is dropped, and delay
// `ordersDb->source:db.committed` (occurrence 1), so the second attempt's commit lands but its
// reply comes 40 ticks late: the service's own 20-tick commit timeout answers "failed", and the
// third attempt's key lookup waits behind the delayed reply on the same connection and times out
// too. The client has used its three attempts and stops, told "failed", while the order is
// committed. One order per key still holds; what breaks is the last clause of the sentence:
// the unknown completion was not resolved by the client's retries, because they ran out before
// the service could answer. The engine and the model are not at fault (the delay and the
// timeouts are as declared); the design is: a bounded retry budget with a service that answers
// "failed" when it does not know. checkout-stable-key-asks-until-answered is the repair.
import { defineScenario } from '../src/scenario/scenario.ts';
import { checkoutClaim, checkoutsReusingAKey, orderPipeline } from '../models/designs/orderPipeline.ts';

export default defineScenario({
  name: 'checkout-stable-key',
  title: 'Checkout retry with a stable checkout key',
  source: '003 · The Retry Must Carry the Same Meaning',
  lesson: 'A retry is only recognisable as one if it carries the same business key: the key recorded in the order transaction makes the repeat return the first order, and a reuse of the key for another cart is refused.',
  build: orderPipeline({ design: 'outbox', checkoutKeys: 'intentBound', client: { keyed: true, retry: 'stableKey' }, commands: checkoutsReusingAKey }),
  workload: { size: 1 },
  claims: [checkoutClaim],
  expect: {
    single: { verdict: 'holds' },
    pairs: { verdict: 'violated', violations: ['unresolved unknown outcome'] },
    why: 'design: a crash at source.idle eats the first attempt and a delayed ordersDb->source:db.committed makes the service answer "failed" for a commit that landed; the client stops after its third attempt, told "failed", with the order committed (see the comment above)',
  },
});

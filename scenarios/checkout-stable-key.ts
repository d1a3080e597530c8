// Seed 003, "The Retry Must Carry the Same Meaning": the response to CreateOrder disappears, the
// client cannot tell a failed command from a lost reply, and it retries. Here the client keeps
// its checkout key (customer-84/cart-19/attempt-1) across retries and the order service records
// the key under a unique constraint in the order's own transaction, with the order it created.
// The windows run loses `source->client:cmd.reply` (a message point of the reference run), so
// the retry really happens. The verdict teaches that a stable business key makes the retry
// harmless: one order per checkout attempt, and the retry gets the recorded order back.
import { defineScenario } from '../src/scenario.ts';
import { checkoutClaim, checkouts, orderPipeline } from '../models/designs/orderPipeline.ts';

export default defineScenario({
  name: 'checkout-stable-key',
  title: 'Checkout retry with a stable checkout key',
  source: '003 · The Retry Must Carry the Same Meaning',
  lesson: 'A retry is only recognisable as one if it carries the same business key: the key recorded in the order transaction makes the repeat return the first order.',
  build: orderPipeline({ design: 'outbox', checkoutKeys: true, client: { keyed: true, retry: 'stableKey' }, commands: checkouts }),
  workload: { size: 1 },
  claims: [checkoutClaim],
  expect: { verdict: 'holds' },
});

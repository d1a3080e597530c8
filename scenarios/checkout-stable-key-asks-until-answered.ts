// Seed 003, "The client cannot tell whether the command failed or the response did, so it
// retries", taken to its end: the repair of checkout-stable-key's two-fault finding. The client
// keeps its checkout key and keeps asking until the service gives a definitive answer (the
// recorded order, or a refusal of a reused key); a "failed" after a timeout is not one, since
// the commit it was waiting for may have landed. The service is unchanged. The verdict teaches
// that a stable key resolves an ambiguous completion only if the retries outlast the ambiguity.
import { defineScenario } from '../src/scenario/scenario.ts';
import { checkoutClaim, checkoutsReusingAKey, orderPipeline } from '../models/designs/orderPipeline.ts';

export default defineScenario({
  name: 'checkout-stable-key-asks-until-answered',
  title: 'Checkout retry with a stable key until the service answers',
  source: '003 · The Lie Hidden in a Clean Sequence Diagram; The Retry Must Carry the Same Meaning',
  lesson: 'The same key on every retry, and retries until a definitive answer: the client always learns the order the service committed, whatever two faults do to the replies.',
  build: orderPipeline({ design: 'outbox', checkoutKeys: 'intentBound', client: { keyed: true, retry: 'stableKey', untilAnswered: true }, commands: checkoutsReusingAKey }),
  workload: { size: 1 },
  claims: [checkoutClaim],
  expect: { verdict: 'holds' },
});

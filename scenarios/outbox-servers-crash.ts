// Seed 000, "Put source state and publication intent in one transaction" and "Applied repair",
// with the servers crashing too: the order database, the inventory database and the broker each
// crash and restart at their own windows (a statement run in an open transaction, a commit made
// before its reply, a record received before its append, a record appended before its ack).
// Committed rows and the log survive; open transactions abort and pending replies are gone.
import { defineScenario } from '../src/scenario/scenario.ts';
import { orderPipeline, reservationClaim } from '../models/designs/orderPipeline.ts';

export default defineScenario({
  name: 'outbox-servers-crash',
  title: 'Mercury order acceptance: outbox + relay + inbox consumer, servers crashing too',
  source: '000 · Put source state and publication intent in one transaction; Applied repair',
  lesson: 'The repair does not depend on the servers staying up: a database crash is an aborted transaction or an unanswered commit, a broker crash an unacknowledged append, and each is one more repeat the outbox, the relay and the inbox already absorb.',
  build: orderPipeline({ design: 'outbox', crashes: ['ordersDb', 'inventoryDb', 'broker'] }),
  workload: { size: 2 },
  claims: [reservationClaim],
  expect: { verdict: 'holds' },
});

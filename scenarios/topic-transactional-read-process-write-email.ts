// Seed 004, section 6, "Exactly-once: limits": "Yes, within the broker". The transactional
// topic-to-topic processor of `topic-transactional-read-process-write`, which also sends each
// payment's confirmation email through a mail gateway as it takes the record up, before its
// transaction. The email is a side effect outside the cluster, so the transaction cannot hold it.
//
// Analysis. The result on topic `out` stays exactly once, as in the scenario without the email.
// The email does not: a crash of the processor at `processor.received` (the email sent, the
// transaction not yet) restarts it at the old offset, so it takes the record up again and sends
// its email a second time, and a duplicated `mail.send` is a second email too (duplicate effects,
// the design's doing: the gateway has no key to refuse a repeat). A lost `mail.send` is never sent
// again (a lost effect: the processor does not wait for the gateway). A crash at
// `processor.afterTransactionSend` holds: the transaction is already on its way and lands, so the
// record is not taken up again. The engine and the transaction are not at fault; the boundary
// simply ends where the cluster does.
import { defineScenario } from '../src/scenario/scenario.ts';
import { paymentEmailClaim, readProcessWrite, topicResultClaim } from '../models/designs/readProcessWrite.ts';

export default defineScenario({
  name: 'topic-transactional-read-process-write-email',
  title: 'Topic to topic in one transaction, with an email the transaction cannot hold',
  source: '004 · 6. Exactly-once: limits (transactional read-process-write ends at the broker)',
  lesson:
    'A producer transaction makes the output topic exactly once and nothing else: an email sent by the same processor is repeated by every replay of its record, and lost with its request.',
  build: readProcessWrite({ commit: 'transactional', email: true }),
  workload: { size: 2 },
  claims: [topicResultClaim, paymentEmailClaim],
  expect: { verdict: 'violated', violations: ['lost effect', 'duplicate effect'] },
});
